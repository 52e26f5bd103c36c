"""The companion's decisions: what a seat would play, from what that seat may see only.

Three levels, each stronger than the one below:

1. the game's own bots (:meth:`Game.bot_policy`, else uniformly random legal moves);
2. greedy: every legal move looked at one move ahead, the one that raises the seat's lead most taken (the
   bots' choice among equals);
3. search: information-set Monte Carlo tree search (single observer, as OpenSpiel's ISMCTS), each
   simulation on a state whose hidden parts are dealt again from what the seat may know
   (:meth:`State.resample_from_view`), continued by the bots to a bounded depth and judged by the scores.
   A game with nothing hidden is searched the same way: its redeal changes nothing.

Every level starts from the seat's own view: the real state is used only for the list of legal moves,
which a player always knows. So a decision never depends on another player's hand, a concealed fossil or
the order of a pile, and for a given ``seed`` it is the same every time.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from engines.core.actions import Action
from engines.core.game import State
from engines.core.playout import Policy, sample_chance, uniform_policy

LEVELS = (1, 2, 3)
#: simulated players look one move ahead at the bots' choice and at most this many other moves
GREEDY_PLAYOUT_MOVES = 12
#: at most this many of a seat's moves are searched (the bots' and the greedy choices)
ROOT_MOVES = 8
#: how many standard errors more of its simulations a move must win to be played over the greedy one
CLEARLY_BETTER = 2.0
#: how widely the search tries moves it has not yet found good (the UCB1 constant for rewards in [0, 1])
EXPLORATION = 0.7


@dataclass(frozen=True)
class Budget:
    """How much a decision may think: simulations of the search and how far each one looks (in actions),
    optionally cut short by wall-clock seconds (the live seat; then a decision is no longer repeatable)."""

    simulations: int = 200
    depth: int = 40
    seconds: float | None = None
    #: determinizations each move of the greedy level is tried on
    samples: int = 3


@dataclass(frozen=True)
class Decision:
    """The move a seat would make and why, in English (the page says it in the reader's language)."""

    player: str
    level: int
    action: Action
    why: str
    considered: int
    simulations: int = 0
    #: level 2: the seat's lead after the move; level 3: the share of simulations it won (0-1)
    value: float | None = None

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "level": self.level, "action": self.action.to_dict(),
                "why": self.why, "considered": self.considered, "simulations": self.simulations,
                "value": None if self.value is None else round(self.value, 4)}


class NotToPlay(ValueError):
    """The seat asked about has no decision to make now."""


def decide(state: State, player: str, level: int = 3, seed: int = 0, budget: Budget = Budget(),
           policy: Policy | None = None) -> Decision:
    """What ``player`` would play in ``state`` at ``level`` (see the module's text)."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}, not {level}")
    if player not in state.players:
        raise ValueError(f"{player!r} is not a player of this game")
    if state.is_terminal():
        raise NotToPlay("the game is over")
    to_play = state.current_player()
    if to_play != player:
        raise NotToPlay(f"{player} is not to play: "
                        + ("a piece is being turned up" if state.is_chance_node() else f"{to_play} is"))
    legal = sorted(state.legal_actions(), key=action_key)
    rng = random.Random(f"{seed}|{_view_digest(state, player)}")
    chosen = policy or state.game.bot_policy() or uniform_policy
    if len(legal) == 1:
        return Decision(player, level, legal[0], "it is the only legal move", 1)
    if level == 1:
        seen = state.resample_from_view(player, rng)
        return Decision(player, 1, chosen(seen, legal, rng), "the game's bots would play it", len(legal))
    if level == 2:
        return _greedy(state, player, legal, rng, budget, chosen)
    return _search(state, player, legal, rng, budget, chosen)


def action_key(action: Action) -> str:
    """One canonical order of actions (a state rebuilt from JSON may list them in another)."""
    return json.dumps(action.to_dict(), sort_keys=True)


def _view_digest(state: State, player: str) -> str:
    text = json.dumps(state.view(player), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- level 2 ----------------------------------------------------------------------------------------------
def lead(state: State, player: str) -> float:
    """The seat's score minus the best other score (a game over counts a win double)."""
    scores = state.scores().scores
    others = [score for name, score in scores.items() if name != player]
    margin = float(scores[player] - max(others, default=0))
    if state.is_terminal():
        margin += 1000.0 if margin > 0 else (-1000.0 if margin < 0 else 0.0)
    return margin


def _greedy(state: State, player: str, legal: list[Action], rng: random.Random, budget: Budget,
            chosen: Policy) -> Decision:
    worlds = [state.resample_from_view(player, rng) for _ in range(max(1, budget.samples))]
    values = {action_key(a): sum(lead(_settled(w.apply(a), rng), player) for w in worlds) / len(worlds)
              for a in legal}
    best = max(values.values())
    ties = [a for a in legal if values[action_key(a)] >= best - 1e-9]
    action = ties[0] if len(ties) == 1 else _among(chosen(worlds[0], legal, rng), ties, rng)
    now = lead(worlds[0], player)
    if best > now + 1e-9:
        why = f"it raises {player}'s lead most at once (from {now:g} to {best:g})"
    elif len(ties) == len(legal):
        why = "no move changes the scores at once: the game's bots would play it"
    else:
        why = f"it keeps {player}'s lead where it is (no move raises it)"
    return Decision(player, 2, action, why, len(legal), value=best)


def _settled(state: State, rng: random.Random) -> State:
    """Chance that follows a move drawn as it may fall (a tile turned up, a card drawn)."""
    for _ in range(64):
        if not state.is_chance_node():
            break
        state = state.apply(sample_chance(state, rng))
    return state


# -- level 3 ----------------------------------------------------------------------------------------------
@dataclass
class _Node:
    """A move in the tree of one seat's information sets: who made it and how it did for them."""

    mover: str
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    available: int = 0
    children: dict[Action, _Node] = field(default_factory=dict)

    def score(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def spread(self) -> float:
        """The variance of its mean result (how far luck alone may move it)."""
        if self.visits < 2:
            return 1.0
        mean = self.score()
        return max(0.0, self.squares / self.visits - mean * mean) / self.visits


def _search(state: State, player: str, legal: list[Action], rng: random.Random, budget: Budget,
            chosen: Policy) -> Decision:
    root = _Node(mover=player)
    greedy = _greedy(state, player, legal, rng, budget, chosen).action
    candidates = _candidates(state, player, legal, rng, chosen, greedy)
    started = time.monotonic()
    done = 0
    for done in range(1, budget.simulations + 1):
        _simulate(root, state.resample_from_view(player, rng), rng, budget.depth, chosen, candidates)
        if budget.seconds is not None and done % 8 == 0 and time.monotonic() - started > budget.seconds:
            break
    visited = [(node, action) for action, node in root.children.items()]
    node, action = max(visited, key=lambda item: (item[0].visits, item[0].score(), action_key(item[1])))
    plain = root.children.get(greedy)
    # the search overrules the greedy move only when its simulations found better beyond what luck alone
    # would give them: with few of them a game of chance judges close moves by its dice
    if plain is not None and action != greedy and \
            node.score() - plain.score() < CLEARLY_BETTER * math.sqrt(node.spread() + plain.spread()):
        node, action = plain, greedy
    why = (f"it did best for {player} in {done} simulated continuations with what {player} cannot see "
           f"dealt anew each time (won {node.score():.0%} of the {node.visits} that began with it)")
    return Decision(player, 3, action, why, len(legal), done, node.score())


def _candidates(state: State, player: str, legal: list[Action], rng: random.Random, chosen: Policy,
                greedy: Action) -> list[Action]:
    """The moves worth searching: the greedy one and those the bots would play on a few redeals (a game
    with many moves cannot have each of them simulated enough on a Pi's budget)."""
    if len(legal) <= ROOT_MOVES:
        return legal
    found = {greedy}
    for _ in range(ROOT_MOVES * 2):
        found.add(chosen(state.resample_from_view(player, rng), legal, rng))
        if len(found) >= ROOT_MOVES:
            break
    return [action for action in legal if action in found]


def _simulate(root: _Node, world: State, rng: random.Random, depth: int, chosen: Policy,
              candidates: list[Action]) -> None:
    path = [root]
    node = root
    steps = 0
    while not world.is_terminal() and steps < depth:
        if world.is_chance_node():
            world = world.apply(sample_chance(world, rng))
            steps += 1
            continue
        mover = world.current_player()
        legal = candidates if node is root else world.legal_actions()
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
        untried = [action for action in legal if action not in node.children]
        if untried:
            action = _among(_playout_move(world, legal, rng, chosen), untried, rng)
            node.children[action] = node = _Node(mover=mover, available=1)
            path.append(node)
            world = world.apply(action)
            steps += 1
            break
        node, action = max(((node.children[a], a) for a in legal), key=lambda item: _ucb(item[0]))
        path.append(node)
        world = world.apply(action)
        steps += 1
    rewards = _rewards(_rollout(world, rng, depth - steps, chosen))
    for visited in path[1:]:
        reward = rewards.get(visited.mover, 0.0)
        visited.visits += 1
        visited.total += reward
        visited.squares += reward * reward


def _ucb(node: _Node) -> float:
    if not node.visits:
        return math.inf
    return node.score() + EXPLORATION * math.sqrt(math.log(max(node.available, 1)) / node.visits)


def _rollout(world: State, rng: random.Random, steps: int, chosen: Policy) -> State:
    for _ in range(max(0, steps)):
        if world.is_terminal():
            break
        if world.is_chance_node():
            world = world.apply(sample_chance(world, rng))
        else:
            world = world.apply(_playout_move(world, world.legal_actions(), rng, chosen))
    return world


def _among(preferred: Action, allowed: list[Action], rng: random.Random) -> Action:
    """The policy's move if it is one of ``allowed`` (a policy is always shown every legal move: some
    end the turn only when nothing else is listed), else one of them at random."""
    return preferred if preferred in allowed else allowed[rng.randrange(len(allowed))]


def _playout_move(world: State, legal: list[Action], rng: random.Random, chosen: Policy) -> Action:
    """How simulated players play: mostly the move that raises their lead most at once among the bots'
    choice and a few others (random play throws away what a search learns); now and then the bots'."""
    bots = chosen(world, legal, rng)
    if rng.random() < 0.25:
        return bots
    others = legal if len(legal) <= GREEDY_PLAYOUT_MOVES else rng.sample(legal, GREEDY_PLAYOUT_MOVES)
    looked = [bots, *(action for action in others if action != bots)]
    mover = world.current_player()
    leads = [lead(world.apply(action), mover) for action in looked]
    best = max(leads)
    return next(action for action, value in zip(looked, leads) if value >= best - 1e-9)


def _rewards(world: State) -> Mapping[str, float]:
    """Each player's result in [0, 1]: a game over counts who won (a share of a tie), the margin a little;
    a game still running counts the margin, judged against how big the scores have grown."""
    outcome = world.scores()
    scores = outcome.scores
    spread = 2.0 + sum(abs(s) for s in scores.values()) / max(1, len(scores)) / 4
    rewards: dict[str, float] = {}
    for name, score in scores.items():
        best_other = max((s for n, s in scores.items() if n != name), default=0)
        by_margin = 0.5 + 0.5 * math.tanh((score - best_other) / spread)
        if world.is_terminal():
            won = 1.0 / len(outcome.winners) if name in outcome.winners else 0.0
            rewards[name] = 0.8 * won + 0.2 * by_margin
        else:
            rewards[name] = by_margin
    return rewards
