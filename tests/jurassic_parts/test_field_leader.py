"""The Field Leader: purchase prices, the four purchases, selling, and the amber supply of 20."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engines.core import IllegalAction
from engines.jurassic_parts import (
    BuyIgnoreRocks,
    BuyLeaderTile,
    BuySharpen,
    BuySlabTile,
    EndTurn,
    PlaceChisel,
    Sell,
)
from engines.jurassic_parts.components import KIND_OF


def _rich(jp: SimpleNamespace, amber: int = 10, options: dict[str, Any] | None = None, **seat: Any) -> Any:
    """red to play on a row PLANT, face-down, BONES, TREX-1, PTERO (and two plants below the first two),
    with rocks everywhere, and amber."""
    tiles = [(0, 0, "PLANT"), (1, 0, None), (2, 0, "BONES"), (3, 0, "TREX-1"), (4, 0, "PTERO"),
             (0, 1, "PLANT"), (1, 1, "PLANT")]
    rocks = {cell: [True] * 6 for cell in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (1, 1)]}
    state = jp.build(["red", "blue"], tiles, rocks=rocks, options=options)

    def change(data: dict[str, Any]) -> None:
        data["seats"]["red"]["amber"] = amber
        data["field_leader"]["amber"] = 20 - amber - sum(s["amber"] for n, s in data["seats"].items()
                                                          if n != "red")
        data["seats"]["red"].update(seat)

    return jp.edit(state, change)


def test_purchase_prices_rise_within_a_turn_and_reset(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=10)
    state = state.apply(BuySharpen("red"))
    assert (state.amber[0], state.sharp[0], state.dull[0]) == (9, 5, 7)
    state = state.apply(BuySharpen("red"))
    assert state.amber[0] == 7
    state = state.apply(BuySharpen("red"))
    assert state.amber[0] == 4
    state = state.apply(BuySharpen("red"))
    assert state.amber[0] == 1 and state.supply == 19  # 1 + 2 + 3 + 3 paid back into the supply
    with pytest.raises(IllegalAction) as refusal:
        state.apply(BuySharpen("red"))
    assert refusal.value.rule.rule_id == "JP-PURCHASE-COST"
    state = jp.play(state, EndTurn("red"), EndTurn("blue"))
    assert state.purchases == 0
    assert state.apply(BuySharpen("red")).amber[0] == 0


def test_ignore_rocks_for_the_next_two_chisels(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=1)
    assert state.layout.cost[state.layout.gap_between((0, 0), (0, 1))] == 3
    state = state.apply(BuyIgnoreRocks("red"))
    state = state.apply(PlaceChisel("red", (0, 0), (0, 1)))
    assert (state.sharp[0], state.dull[0]) == (2, 9)
    state = state.apply(PlaceChisel("red", (0, 1), (1, 0)))
    assert (state.sharp[0], state.dull[0], state.ignore_rocks) == (1, 9, 0)
    with pytest.raises(IllegalAction) as refusal:
        state.apply(PlaceChisel("red", (1, 1), (2, 0)))  # the third pays for its rocks again
    assert refusal.value.rule.rule_id == "JP-ROCKS"


def test_buying_a_slab_tile(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=10, options={"slab_purchase": "face-up"})
    legal = {a.cell for a in state.legal_actions() if isinstance(a, BuySlabTile)}
    assert legal == {(0, 0), (0, 1), (1, 1), (4, 0)}
    assert {a.cell for a in _rich(jp).legal_actions() if isinstance(a, BuySlabTile)} == legal | {(1, 0)}
    for cell, reason in (((2, 0), "Pile of Bones"), ((1, 0), "face-up tiles"), ((3, 0), "split"),
                         ((9, 9), "no slab tile")):
        with pytest.raises(IllegalAction) as refusal:
            state.apply(BuySlabTile("red", cell))
        assert refusal.value.rule.rule_id == "JP-BUY-SLAB-TILE" and reason in refusal.value.detail
    bought = state.apply(BuySlabTile("red", (4, 0)))
    # a bought Pterodactyl earns nothing
    assert bought.loose[0][KIND_OF["PTERO"]] == 1 and bought.amber[0] == 9
    assert bought.slab_count == 6 and not bought.on_slab[4]


def test_buying_a_tile_returns_chisels_on_its_gaps_dull(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=10, sharp=6, dull=6)
    state = jp.play(state, BuyIgnoreRocks("red"), PlaceChisel("red", (0, 0), (0, 1)))
    assert state.on_board[0] == 1
    state = state.apply(BuySlabTile("red", (0, 0)))
    assert state.on_board[0] == 0 and state.dull[0] == 7 and state.amber[0] == 7


def test_buying_from_the_field_leader_and_completing(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=5, loose={"RAPTOR-1": 1})

    def leader(data: dict[str, Any]) -> None:
        data["field_leader"]["tiles"] = {"RAPTOR-2": 1, "PTERO": 1}

    state = jp.edit(state, leader)
    names = {a.fossil for a in state.legal_actions() if isinstance(a, BuyLeaderTile)}
    assert names == {"RAPTOR-2", "PTERO"}
    state = state.apply(BuyLeaderTile("red", "RAPTOR-2"))
    # paid 1, earned 1 for completing the Velociraptor
    assert state.amber[0] == 5 and state.complete[0][3] == 1
    assert state.to_dict()["seats"]["red"]["complete"] == {"RAPTOR": 1}
    state = state.apply(BuyLeaderTile("red", "PTERO"))
    assert state.amber[0] == 3 and state.loose[0][KIND_OF["PTERO"]] == 1
    with pytest.raises(IllegalAction) as refusal:
        state.apply(BuyLeaderTile("red", "PTERO"))
    assert refusal.value.rule.rule_id == "JP-BUY-LEADER-TILE"


def test_selling_once_per_turn_never_a_plant_or_a_complete_dinosaur(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=0, loose={"TREX-1": 1, "PLANT": 1, "PTERO": 1, "BRACHIO-2": 2})

    def complete_raptor(data: dict[str, Any]) -> None:
        data["seats"]["red"]["complete"] = {"RAPTOR": 1}
        data["seats"]["red"]["in_complete"] = {"RAPTOR-1": 1, "RAPTOR-2": 1}

    state = jp.edit(state, complete_raptor)
    sells = {a.fossil for a in state.legal_actions() if isinstance(a, Sell)}
    assert sells == {"TREX-1", "BRACHIO-2"}
    for fossil in ("PLANT", "PTERO", "RAPTOR-1", "TRICERA-1"):
        with pytest.raises(IllegalAction) as refusal:
            state.apply(Sell("red", fossil))
        assert refusal.value.rule.rule_id == "JP-SELL"
    sold = state.apply(Sell("red", "BRACHIO-2"))
    assert sold.amber[0] == 1 and sold.leader[KIND_OF["BRACHIO-2"]] == 1 and sold.supply == 20 - 1
    with pytest.raises(IllegalAction) as refusal:
        sold.apply(Sell("red", "TREX-1"))
    assert "1 tile" in refusal.value.detail


def test_the_amber_supply_runs_out(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=0, loose={"TREX-1": 1, "RAPTOR-1": 1})

    def empty(data: dict[str, Any]) -> None:
        data["seats"]["blue"]["amber"] = data["field_leader"]["amber"] + data["seats"]["blue"]["amber"]
        data["field_leader"]["amber"] = 0
        data["field_leader"]["tiles"] = {"RAPTOR-2": 1}

    state = jp.edit(state, empty)
    assert not any(isinstance(a, Sell) for a in state.legal_actions())
    with pytest.raises(IllegalAction) as refusal:
        state.apply(Sell("red", "TREX-1"))
    assert refusal.value.rule.rule_id == "JP-AMBER"


def test_ignore_rocks_bought_twice_covers_four_chisels(jp: SimpleNamespace) -> None:
    state = _rich(jp, amber=3, sharp=6, dull=6)
    state = jp.play(state, BuyIgnoreRocks("red"), BuyIgnoreRocks("red"))
    assert state.ignore_rocks == 4 and state.amber[0] == 0
    state = jp.play(state, PlaceChisel("red", (0, 0), (0, 1)), PlaceChisel("red", (0, 1), (1, 0)),
                    PlaceChisel("red", (1, 1), (2, 0)))
    assert (state.sharp[0], state.ignore_rocks) == (3, 1)
    state = state.apply(EndTurn("red"))
    assert state.ignore_rocks == 0  # what is not used this turn is lost


def test_buying_a_face_down_tile_turns_it_up_first(jp: SimpleNamespace) -> None:
    from engines.core import CHANCE
    from engines.jurassic_parts import Reveal

    state = _rich(jp, amber=2)
    chosen = state.apply(BuySlabTile("red", (1, 0)))
    assert chosen.current_player() == CHANCE and chosen.amber[0] == 2  # nothing paid yet
    assert chosen.to_dict()["split"]["then"] == "buy"
    again = jp.game.state_from_dict(chosen.to_dict())
    assert again.to_dict() == chosen.to_dict()
    bought = chosen.apply(Reveal((1, 0), "TRICERA-2"))
    assert bought.current_player() == "red" and bought.amber[0] == 1 and bought.purchases == 1
    assert not bought.on_slab[1] and bought.loose[0][KIND_OF["TRICERA-2"]] == 1
    bones = again.apply(Reveal((1, 0), "BONES"))
    # a Pile of Bones cannot be bought: it stays on the slab, face up, and nothing is paid
    assert bones.on_slab[1] and bones.fossil[1] == KIND_OF["BONES"]
    assert bones.amber[0] == 2 and bones.purchases == 0 and bones.current_player() == "red"
    poor = _rich(jp, amber=0)
    with pytest.raises(IllegalAction) as refusal:
        poor.apply(BuySlabTile("red", (1, 0)))
    assert refusal.value.rule.rule_id == "JP-PURCHASE-COST"
