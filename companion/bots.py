"""Bots at a (synthetic) table: the demo's and the end-to-end tests' players.

Bots choose with the engine's own playout policies (:mod:`engines.core.playout`), seeded from the state
itself, so a bot resumed after a crash (the fault harness) makes the same move as an uninterrupted one. The
:class:`BotDriver` shows each move on the table and waits for the loop to read it back through its camera.
"""

from __future__ import annotations

import itertools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.infer import TableModel, describe_action, state_key, state_seed
from companion.records import event_dict
from companion.table.referee import UNDO_RULE
from companion.words import event_label
from engines.core import Action, Policy, State, sample_chance, steps_from, uniform_policy
from vision.scene import Scene

if TYPE_CHECKING:
    from companion.table.loop import TableLoop


class BotStuck(RuntimeError):
    """The loop did not read the bot's physical move back from the camera."""


@dataclass(frozen=True)
class SeededBots:
    """The bots' policy and chance as the engine's playout takes them, but seeded from each state itself
    (``state_seed(state, seed)``) rather than from one running generator. At a chance node the "physical
    table" decides: the game's model knows which tile lies behind a back."""

    seed: int
    policy: Policy | None = None
    model: TableModel | None = None

    def choose(self, state: State, actions: list[Action], _rng: random.Random | None = None) -> Action:
        own = self.model.bot_policy() if self.model is not None else None
        chosen = self.policy or own or uniform_policy
        # in a canonical order: a state rebuilt from the store may list its legal actions in another order
        ordered = sorted(actions, key=lambda a: json.dumps(a.to_dict(), sort_keys=True))
        return chosen(state, ordered, random.Random(state_seed(state, self.seed)))

    def chance(self, state: State, _rng: random.Random | None = None) -> Action:
        rng = random.Random(state_seed(state, self.seed))
        return self.model.chance_outcome(state, rng) if self.model is not None else sample_chance(state, rng)

    def action(self, state: State) -> Action:
        return self.chance(state) if state.is_chance_node() else self.choose(state, state.legal_actions())


def bot_action(
    state: State, seed: int, policy: Policy | None = None, model: TableModel | None = None
) -> Action:
    """The bots' move in ``state``: a function of the state and the seed only (so a bot resumed after a
    crash, or the engine played directly for comparison, makes the same move)."""
    return SeededBots(seed, policy, model).action(state)


def bot_game(
    state: State,
    seed: int,
    policy: Policy | None = None,
    model: TableModel | None = None,
    max_steps: int = 20_000,
) -> list[State]:
    """The same bots playing the engine directly from ``state``: every state of the game."""
    bots = SeededBots(seed, policy, model)
    steps = itertools.islice(steps_from(state, random.Random(0), bots.choose, bots.chance), max_steps)
    states = [state, *(after for _, _, after in steps)]
    if not states[-1].is_terminal():
        raise RuntimeError(f"the game did not end within {max_steps} actions")
    return states


class BotDriver:
    """Plays a game at a (synthetic) table: bots choose actions, the table shows them, the loop reads them.

    For each action the bot chooses, the table scene of the state after it is put in front of the camera
    (``show``); the loop must read it back through its pipeline: the driver never hands a physical move to
    the loop. Actions that change nothing the camera can see (purchases, a split part chosen, passes) are
    submitted as the web page would. Chance (a face-down tile turned up) is decided by the "physical"
    table: the driver draws it, shows the revealed front, and the loop reads the reveal.

    Choices are seeded from the state itself, so a driver restarted after a crash (the fault harness)
    makes the same moves as an uninterrupted one.

    ``pump()`` delivers one frame to the loop (synchronous mode); without it the loop's own thread reads
    the camera and the driver waits. While the store cannot save (a full disk) the bots wait with the
    table: the loop keeps the move and saves it once it can.
    """

    def __init__(
        self,
        loop: TableLoop,
        show: Callable[[Scene], None],
        seed: int = 1,
        policy: Policy | None = None,
        pump: Callable[[], object] | None = None,
        max_frames: int = 120,
        frame_wait: float = 0.02,
        submit: Callable[[Action], dict[str, Any]] | None = None,
        answer: Callable[[int], object] | None = None,
    ) -> None:
        """``submit`` enters a move the camera cannot see and ``answer`` picks a question's option (by
        default straight into the loop; a test of the page taps them instead)."""
        self.loop = loop
        self.submit = submit or (lambda action: loop.submit(action.to_dict(), source="bot"))
        self.answer = answer or loop.choose
        self.show = show
        self.seed = seed
        self.policy = policy
        self.pump = pump
        self.max_frames = max_frames
        self.frame_wait = frame_wait
        self.physical = 0
        self.submitted = 0
        self.questions = 0
        self.frames = 0
        self.companion_moves = 0
        #: how long the people wait for the companion to decide (it thinks in a thread of its own)
        self.companion_wait_s = 60.0

    def choose(self, state: State) -> Action:
        return SeededBots(self.seed, self.policy, self.loop.game.model).action(state)

    def show_state(self, state: State) -> None:
        self.show(self.loop.game.model.scene(state))

    def _wait_for_storage(self) -> bool:
        """One frame's wait while a move waits to be saved (True), else False."""
        if self.loop.game.unsaved is None:
            return False
        if self.pump is not None:
            self.pump()
        time.sleep(self.frame_wait)
        return True

    def _set_up(self) -> bool:
        """A new game's table being set up: the bots lay it out as the setup says (True), else False."""
        pending = self.loop.game.pending
        if pending is None or pending.kind != "setup":
            return False
        self.show_state(self.loop.current_state())
        for _ in range(self.max_frames):
            if self.pump is not None:
                self.pump()
            else:
                time.sleep(self.frame_wait)
            self.frames += 1
            pending = self.loop.game.pending
            if pending is None or pending.kind != "setup":
                return True
        raise BotStuck("the loop did not see the table set up for the new game")

    def taking_back(self) -> bool:
        """Whether the table is asked to follow an undo (the bots are the table: they put it back)."""
        pending = self.loop.game.pending
        rule = None if pending is None else pending.inference.rule
        return pending is not None and pending.kind == "objection" and rule == UNDO_RULE

    def _put_back(self) -> bool:
        """A move taken back on the page: the bots put the table back as the game now stands (True)."""
        if not self.taking_back():
            return False
        self.show_state(self.loop.current_state())
        for _ in range(self.max_frames):
            if self.pump is not None:
                self.pump()
            else:
                time.sleep(self.frame_wait)
            self.frames += 1
            if not self.taking_back():
                return True
        raise BotStuck("the loop did not see the table put back after an undo")

    def _moved_by_someone_else(self) -> bool:
        """Whether the game changed under the bots by a person's hand (an undo, a tap on the page)."""
        event = self.loop.game.last_event
        return event is not None and (event.kind == "undo" or event.source not in ("camera", "bot", "choice"))

    def _companion_move(self, state: State) -> Action | None:
        """A seat the companion plays: the bots are the people who make its move for it, once it shows it
        (None: it made a move the camera cannot see itself)."""
        deadline = time.monotonic() + self.companion_wait_s
        while time.monotonic() < deadline:
            if state_key(self.loop.current_state()) != state_key(state):
                return None
            decision = self.loop.companion.wanted_now(state)
            if decision is not None:
                self.companion_moves += 1
                return decision.action
            time.sleep(self.frame_wait)
        raise BotStuck(f"the companion did not decide within {self.companion_wait_s:.0f} s")

    def step(self) -> bool:
        """One bot action; False once the game is over."""
        if self._wait_for_storage():
            return True
        self._set_up()  # a new game's table is laid out first; then its first move
        self._put_back()  # an undo on the page: the table follows it first
        state = self.loop.current_state()
        if state.is_terminal():
            return False
        if self.loop.companion.to_move(state) is not None:
            wanted = self._companion_move(state)
            if wanted is None:
                return True  # it made a move the camera cannot see itself: the game moved on
            action = wanted
        else:
            action = self.choose(state)
        after = self.loop.game.settled(state.apply(action))  # a card drawn unseen follows by itself
        model = self.loop.game.model
        if model.looks_alike(state, after):
            result = self.submit(action)
            if result.get("storage"):
                return True  # kept to be saved, or refused until the store writes again: wait and see
            if not result.get("ok"):
                raise BotStuck(f"the loop refused the bot's {describe_action(action)}: {result.get('error')}")
            self.submitted += 1
            return True
        self.physical += 1
        self.show(model.display_scene(state, action, after))
        target = state_key(after)
        waited = 0
        while waited < self.max_frames:
            if self.pump is not None:
                self.pump()
            else:
                time.sleep(self.frame_wait)
            self.frames += 1
            if self.loop.game.unsaved is None:
                waited += 1  # frames spent waiting for the disk do not count as the loop being stuck
            current = self.loop.current_state()
            if state_key(current) == target:
                return True
            if state_key(current) != state_key(state):
                if self._moved_by_someone_else():
                    return True  # a person took a move back (or tapped one): the next step follows the table
                raise BotStuck(
                    f"the loop read {self._last_event_words()} instead of {describe_action(action)}"
                )
            pending = self.loop.game.pending
            if pending is not None and pending.kind == "question":
                self.questions += 1
                index = self.loop.game.option_reaching(state, pending.options, target)
                if index is not None:
                    self.answer(index)
        pending = self.loop.game.pending
        raise BotStuck(
            f"the loop did not read {describe_action(action)} within {self.max_frames} frames "
            f"(pending: {None if pending is None else pending.inference.text})"
        )

    def _last_event_words(self) -> str:
        event = self.loop.game.last_event
        return "nothing" if event is None else event_label(event_dict(event, self.loop.game.engine.name))

    def run(self, max_steps: int = 20_000) -> State:
        for _ in range(max_steps):
            if not self.step():
                final: State = self.loop.current_state()
                return final
        raise BotStuck(f"the game did not end within {max_steps} bot actions")
