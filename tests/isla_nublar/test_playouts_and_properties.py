"""Random-playout conformance to the end (2-4 players, every variant) and conservation properties."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import CHANCE, TERMINAL, Action, IllegalAction, get_game, random_playout, sample_chance
from engines.isla_nublar import GAME
from engines.isla_nublar.bots import bot_policy
from engines.isla_nublar.codec import check_conservation

PLAYERS = ("red", "blue", "green", "yellow")
VARIANTS: list[dict[str, Any]] = [
    {"clients": False, "individual_ratings": False},
    {"clients": True, "individual_ratings": False},
    {"clients": False, "individual_ratings": True},
    {"clients": True, "individual_ratings": True},
    {"clients": True, "unplayed_cards": "keep", "river_own_field": True},  # the house rules
    {"individual_ratings": True, "necessary_change": "any", "individual_buried_camps": True},
    {"table_cards": "table"},  # drawn at a real table: hands unseen until played
    {"table_cards": "table", "clients": True, "individual_ratings": True, "unplayed_cards": "keep"},
]


def pieces(state: Any) -> tuple[int, int, int]:
    """Camps, boxes and cards anywhere in the game (must never change)."""
    data = state.to_dict()
    camps = sum(len(f.get("camps", [])) for f in data["fields"].values())
    camps += sum(s["personal"]["camps"] + s["general"]["camps"] + 1 for s in data["supply"].values())
    boxes = sum(sum(f.get("boxes", {}).values()) for f in data["fields"].values())
    boxes += sum(s["personal"]["boxes"] + s["general"]["boxes"] for s in data["supply"].values())
    for client, track in data["clients"]["tracks"].items():
        boxes += sum(1 for p in state.players if data["clients"]["influence"][p].get(client, 0) < len(track))
    # "worlds" say where the draw zone's cards may lie: they are counted in the draw zone already
    cards = sum(
        sum(z.values()) for zones in data["cards"].values() for k, z in zones.items()
        if k not in ("worlds", "bounds")
    )
    cards += sum(sum(p["rest"].values()) + (p["top"] is not None) for p in data["piles"].values())
    cards += (
        sum(data["dinosaur_deck"].values()) + sum(data["scoring_deck"].values()) + sum(data["box"].values())
    )
    cards += sum(1 for c in data["scoring_row"] if c is not None)
    return camps, boxes, cards


PLAYOUTS = [(p, v) for p in (2, 3, 4) for v in range(4)] + [(3, 4), (2, 6), (4, 6), (3, 7)]


@pytest.mark.parametrize(("players", "variant"), PLAYOUTS)
def test_bot_playouts_reach_the_end_and_round_trip(players: int, variant: int) -> None:
    names = PLAYERS[:players]
    expected = (9 * players, 6 * players, 42 + 20 + 18 + 10 * players)
    seen_kinds: set[str] = set()

    def on_step(before: Any, action: Any, after: Any) -> None:
        seen_kinds.add(action.kind)
        data = after.to_dict()
        back = GAME.state_from_dict(json.loads(json.dumps(data)))
        assert back.to_dict() == data
        assert GAME.action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        assert pieces(after) == expected
        if not after.is_terminal() and not after.is_chance_node():
            viewer = after.current_player()
            view = after.view(viewer)
            for other in names:
                assert set(view["cards"][other]["draw"]) == {"count"}
                if other != viewer:
                    assert set(view["cards"][other]["hand"]) == {"count"}

    seed = 100 * players + variant
    final: Any = random_playout(
        GAME, names, random.Random(seed), VARIANTS[variant], bot_policy, 50_000, on_step
    )
    assert final.is_terminal() and final.current_player() == TERMINAL
    assert final.ending and final.active == len(names) - 1  # the round was finished
    outcome = final.outcome()
    assert outcome is not None and set(outcome.scores) == set(names)
    best = max(outcome.scores.values())
    assert set(outcome.winners) == {p for p, v in outcome.scores.items() if v == best}
    for name in names:
        assert sum(outcome.breakdown[name].values()) == outcome.scores[name]
    assert {"play", "end-turn", "draw", "build-camp", "move-dinosaur"} <= seen_kinds


def test_uniform_random_playouts_also_end() -> None:
    game = get_game("nublar")
    for seed in range(3):
        final = random_playout(game, PLAYERS[: 2 + seed], random.Random(seed), max_steps=50_000)
        assert final.is_terminal()


def test_every_listed_action_is_legal_and_bogus_ones_leave_the_state_alone() -> None:
    rng = random.Random(7)
    state: Any = GAME.new_initial_state(PLAYERS[:3], rng=rng, options=VARIANTS[3])
    foreign = GAME.new_initial_state(PLAYERS[:3], rng=random.Random(8), options=VARIANTS[3])
    for _ in range(600):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        for action in legal:
            state.apply(action)  # raises if the generator and the rules disagree
        for action in legal[:3]:
            explanation = state.explain(action)
            assert explanation.legal and json.dumps(explanation.to_dict())
        before = state.to_dict()
        for action in foreign.legal_actions()[:20]:
            if action not in legal:
                with pytest.raises(IllegalAction):
                    state.apply(action)
        assert state.to_dict() == before
        state = state.apply(bot_policy(state, legal, rng))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    variant=st.integers(0, len(VARIANTS) - 1),
    choices=st.lists(st.integers(0, 10**6), min_size=10, max_size=150),
)
def test_pieces_are_never_created_or_lost(seed: int, players: int, variant: int, choices: list[int]) -> None:
    rng = random.Random(seed)
    state: Any = GAME.new_initial_state(PLAYERS[:players], rng=rng, options=VARIANTS[variant])
    expected = pieces(state)
    for choice in choices:
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state = state.apply(outcomes[choice % len(outcomes)][0])
        else:
            legal = state.legal_actions()
            state = state.apply(legal[choice % len(legal)])
        check_conservation(state)
        assert pieces(state) == expected
        assert sorted(state.dinos) == ["DINO-1", "DINO-2", "DINO-3", "DINO-4"]
        assert all(len(stack) <= 3 for stack in state.camps.values())


def test_seeded_setup_is_reproducible(kit: SimpleNamespace) -> None:
    a = kit.fresh(("red", "blue", "green"), seed=5, clients=True)
    b = kit.fresh(("red", "blue", "green"), seed=5, clients=True)
    assert a == b and a.to_dict() != kit.fresh(("red", "blue", "green"), seed=6, clients=True).to_dict()


def _hidden_cards(state: Any, viewer: str | None) -> set[str]:
    """Cards the viewer must not see by name: others' hands and hideouts, every draw pile and deck."""
    hidden: set[str] = set()
    for p in state.players:
        zones = state.zones[p]
        hidden |= set(zones["draw"])
        if p != viewer:
            hidden |= set(zones["hand"]) | set(zones["hidden"])
    for pile in state.piles.values():
        hidden |= set(pile["rest"])
    return hidden | set(state.dino_deck) | set(state.scoring_deck)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    variant=st.integers(0, len(VARIANTS) - 1),
    steps=st.integers(20, 220),
)
def test_apply_never_changes_its_input_and_views_keep_secrets(
    seed: int, players: int, variant: int, steps: int
) -> None:
    rng = random.Random(seed)
    state: Any = GAME.new_initial_state(PLAYERS[:players], rng=rng, options=VARIANTS[variant])
    for _ in range(steps):
        if state.is_terminal():
            break
        before = json.dumps(state.to_dict(), sort_keys=True)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(weight for _, weight in outcomes) - 1.0) < 1e-9
            assert all(weight > 0 for _, weight in outcomes)
            candidates = [action for action, _ in outcomes]
        else:
            candidates = state.legal_actions()
        for action in candidates[:: max(1, len(candidates) // 4)]:
            after = state.apply(action)
            assert json.dumps(state.to_dict(), sort_keys=True) == before, action
            after.to_dict()  # the new state is whole
        for viewer in (None, rng.choice(state.players)):
            shown = state.view(viewer)
            # (figure ids such as DINO-1 are also dinosaur card ids: the figures' places are public)
            # at a real table the page lists what the deciding hand may hold: the engine knows no more than
            # the table showed (every card in it was laid, turned up or tapped there), checked apart
            skip = ("cards", "piles", "tasks", "dinosaurs", "table_hand")
            _check_table_hand(state, shown)
            text = json.dumps({k: v for k, v in shown.items() if k not in skip})
            text += json.dumps({p: z["hand"] for p, z in shown["cards"].items() if p != viewer})
            text += json.dumps([z["draw"] for z in shown["cards"].values()])
            text += json.dumps([pile["rest"] for pile in shown["piles"].values()])
            text += json.dumps([t.get("chosen", {}) for t in shown["tasks"] if t.get("player") != viewer])
            cards_named = {card for card in state.cards.cards if f'"{card}"' in text}
            row = {c for c in state.row if c is not None}
            assert not (cards_named - row) & _hidden_cards(state, viewer), (viewer, cards_named)
        state = state.apply(rng.choice(candidates))


def _check_table_hand(state: Any, shown: dict[str, Any]) -> None:
    from engines.isla_nublar.unseen import UNSEEN, at_table, could_hold

    hand = shown.get("table_hand")
    if shown["viewer"] is not None or not at_table(state) or state.is_chance_node():
        assert hand is None
        return
    p = hand["player"]
    named = {m["card"] for m in hand["moves"]} - {UNSEEN}
    assert named <= could_hold(state, p) and set(hand["known"]) == set(state.zones[p]["hand"])


def _candidate_actions(state: Any) -> set[Action]:
    """Every action of the current player's kinds over every card, field, figure, slot and pile."""
    from engines.isla_nublar import actions as act
    from engines.isla_nublar.board import DIRECTIONS

    p = state.current_player()
    fields = list(state.board.fields)
    uses = ["none", "amber", "boxes", "defence", "hideout", "diversion", "inventory", "wear", "replenish"]
    uses += ["change", "improve", "move_camp", "egg", "dinosaur", "amber-as-boxes", "influence", "scoring"]
    found: set[Action] = {
        act.EndTurn(p),
        act.Finish(p),
        act.Decline(p),
        act.StockUp(p, "box"),
        act.StockUp(p, "camp"),
    }
    for card in state.zones[p]["hand"]:
        found |= {act.PlayCard(p, card, use) for use in uses}
        found |= {act.Select(p, card), act.Defend(p, card)}
    for price in (2, 3, 4, 5, 6):
        found.add(act.Buy(p, price))
    for slot in range(5):
        found |= {act.BuyScoring(p, slot), act.ChooseScoring(p, slot)}
    for field in fields:
        found.add(act.PlaceBox(p, field))
        found |= {act.BuildCamp(p, field, back) for back in range(4)}
    for origin in [f for f, held in state.boxes.items() if held.get(p)]:
        found |= {act.MoveBox(p, origin, target) for target in fields}
    for dino in state.dinos:
        for volcano in state.board.volcanoes:
            found |= {act.Divert(p, dino, volcano), act.ReturnDinosaur(p, volcano)}
        for direction in DIRECTIONS:
            found |= {act.MoveDinosaur(p, dino, steps, direction) for steps in range(1, 6)}
        # a swap names its two figures in either order; the list gives each pair once, sorted
        found |= {act.SwapDinosaurs(p, dino, other) for other in state.dinos if dino <= other}
    for field, stack in state.camps.items():
        for level in range(len(stack)):
            found.add(act.RemoveCamp(p, field, level))
            found |= {act.MoveCamp(p, field, level, target) for target in fields}
    for zone in ("played", "discard"):
        for card in state.zones[p][zone]:
            found.add(act.Retrieve(p, card, zone))
            found |= {act.Improve(p, card, pile) for pile in (0, 2, 3, 4, 5, 6)}
    return found


@pytest.mark.parametrize("seed", [3, 8])
def test_the_legal_list_is_exactly_what_apply_accepts(seed: int) -> None:
    # the generator and the rules agree both ways: nothing legal is missing from the list
    rng = random.Random(seed)
    options = {"clients": True, "individual_ratings": seed % 2 == 0, "necessary_change": "any"}
    state: Any = GAME.new_initial_state(PLAYERS[: 2 + seed % 3], rng=rng, options=options)
    for step in range(500):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        if step % 9 == 0:
            accepted = set()
            for action in _candidate_actions(state) | set(legal):
                try:
                    state.apply(action)
                except IllegalAction:
                    continue
                accepted.add(action)
            assert accepted == set(legal) and len(legal) == len(set(legal)), state.tasks[:1]
        state = state.apply(bot_policy(state, legal, rng))
