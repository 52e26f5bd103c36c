"""People at a table: seated players who know the rules and slip as people do.

They set the table up (sometimes forgetting a piece, laying one a place off or turned round), then play
their game by the rules through the only two things a player touches: the pieces under the camera
(:class:`PiecesUnderCamera`) and the page (:class:`PageSide`: what it shows, and taps). They never ask the
companion's engine anything: the game they play is their own (``truth``, an engine state of the game they
really played), and the page is judged against it. Slips come at set rates (:class:`SlipRates`): a piece
knocked, a piece lifted and put back, a move made by the wrong player, a card or tile that the move takes
off the table forgotten there a while, a hand left over the table after a move, a wrong tap then Undo,
Undo in the middle of a move, a reload, a second phone tapping Confirm. When the page speaks they do what
a person would: put the pieces back as the game stands, answer the question with the move they made, take
back a move they did not make with Undo, take their hand away.

:class:`PeopleReport` is what a game came to: whether it ended with the true score, taps, objections that
were right (a slip was there to object to) and false (none was), and how long each slip took to recover.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engines.core import Action, State
from vision.scene import Occluder, Scene, Tag

#: a person's time for one tap on the page, in seconds (recoveries are reckoned in frames and taps)
TAP_S = 3.0
#: camera frames a second (the frame clock of a recovery)
FPS = 15.0
#: frames people wait for the page to say why their move is not read (a hand over the table)
NOTICE_PATIENCE = int(10 * FPS)


class PageSide(Protocol):
    """The page as a player uses it: what it shows (its snapshot) and taps."""

    def look(self) -> dict[str, Any]: ...

    def press(self, button: str) -> dict[str, Any]: ...

    def tap_move(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def choose(self, index: int) -> dict[str, Any]: ...

    def reload(self) -> dict[str, Any]: ...


class PiecesUnderCamera(Protocol):
    """The pieces under the camera: how a game state looks laid out, and frames passing."""

    def show(self, scene: Scene) -> None: ...

    def wait(self, frames: int = 1) -> None: ...

    def scene(self, state: State) -> Scene: ...

    def set_up_stages(self, state: State) -> list[Scene]:
        """The set-up of ``state`` in the order a group lays it (the last: all of it)."""

    def move_scene(self, before: State, action: Action, after: State) -> Scene: ...

    def looks_alike(self, first: State, second: State) -> bool: ...

    def turn_up(self, state: State, rng: random.Random) -> Action: ...

    def follows(self, state: State) -> State: ...

    def out_of_turn(self, before: State, action: Action, after: State,
                    rng: random.Random) -> tuple[Scene, str] | None:
        """The table after ``action`` made by a player whose turn it is not, and that player (None: the
        game cannot show who made it)."""

    def same_picture(self, scene: Scene, state: State) -> bool:
        """Whether ``scene`` reads as ``state`` lies (a slip the game does not care about)."""

    def lays_own_set_up(self) -> bool:
        """Whether the set-up the players lay is the game (a tile laid elsewhere or turned is then their
        own layout, not a slip; a piece forgotten still is one)."""


@dataclass(frozen=True)
class SlipRates:
    """How often each slip happens (per move; ``forgotten`` and ``as_it_is`` once per set-up)."""

    forgotten: float = 0.5
    as_it_is: float = 0.5  # of a set-up with a piece forgotten: "Start with the table as it is"
    place_off: float = 0.3  # a piece laid at set-up one place off
    turned: float = 0.3  # a piece (or its sticker) laid at set-up turned round
    out_of_turn: float = 0.03
    left_on_table: float = 0.04  # of a move that takes pieces off the table: one forgotten there a while
    hand_left: float = 0.03
    knocked: float = 0.06
    lifted: float = 0.06
    wrong_tap: float = 0.04
    undo_mid_move: float = 0.04
    reload: float = 0.05
    second_phone: float = 0.03

    def none(self) -> SlipRates:
        return replace(self, forgotten=0.0, as_it_is=0.0, place_off=0.0, turned=0.0, out_of_turn=0.0,
                       left_on_table=0.0, hand_left=0.0, knocked=0.0, lifted=0.0, wrong_tap=0.0,
                       undo_mid_move=0.0, reload=0.0, second_phone=0.0)


@dataclass
class PeopleReport:
    """What one game with people came to."""

    game: str
    seed: int
    ended_true: bool = False
    taps: int = 0
    objections_right: int = 0
    objections_false: int = 0
    #: the slips that went unobjected to, by name
    missed_slips: Counter[str] = field(default_factory=Counter)
    slips: Counter[str] = field(default_factory=Counter)
    recoveries: list[float] = field(default_factory=list)
    unrecovered: list[str] = field(default_factory=list)
    moves: int = 0
    false_texts: list[str] = field(default_factory=list)

    @property
    def missed(self) -> int:
        """Slips the page let through without objecting."""
        return sum(self.missed_slips.values())


class NotRecovered(RuntimeError):
    """Following the page did not bring the table and the game back together."""


class People:
    """The seated players of one game (see the module docstring)."""

    def __init__(self, truth: State, table: PiecesUnderCamera, page: PageSide, second_page: PageSide,
                 choose: Callable[[State, random.Random], Action], seed: int,
                 rates: SlipRates | None = None, patience: int = 40, dwell: int = 15) -> None:
        """``patience``: frames the people wait for the page to agree; ``dwell``: frames a slip lies on
        the table before anyone sees to it."""
        self.truth = truth
        self.table = table
        self.page = page
        self.second_page = second_page
        self.choose = choose
        self.rng = random.Random(seed)
        self.rates = rates or SlipRates()
        self.patience = patience
        self.dwell = dwell
        self.report = PeopleReport(truth.game.name, seed)
        self._shown: State | None = None

    # -- looking and tapping -------------------------------------------------------------------------
    def look(self) -> dict[str, Any]:
        return self.page.look()

    def tap(self, what: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        self.report.taps += 1
        return what()

    def _frames_until(self, done: Callable[[dict[str, Any]], bool]) -> tuple[int, dict[str, Any]]:
        """Frames pass until the page shows ``done`` (or the people's patience ends)."""
        snap = self.look()
        for frames in range(1, self.patience + 1):
            self.table.wait()
            snap = self.look()
            if done(snap):
                return frames, snap
        return self.patience, snap

    def _agrees(self, snap: dict[str, Any]) -> bool:
        """The page shows the game played, with nothing pending (compared as the page's JSON carries it)."""
        return _shows(snap, self.truth)

    # -- the game --------------------------------------------------------------------------------------
    def play(self, max_moves: int = 5_000) -> PeopleReport:
        self.set_up()
        for _ in range(max_moves):
            if self.truth.is_terminal():
                break
            self.one_move()
        snap = self.look()
        self.report.ended_true = bool(snap["over"]) and self._agrees(snap) and self.truth.is_terminal()
        return self.report

    def set_up(self) -> None:
        """Lay the table out as the set-up says, perhaps forgetting a piece (the checklist must say so) or
        else perhaps laying one a place off or turned round (the checklist must say so where the game
        cares, and the people then lay it right)."""
        snap = self.look()
        if snap["pending"] is None or snap["pending"]["kind"] != "setup":
            return
        *first, laid = self.table.set_up_stages(self.truth)
        for stage in first:  # what is laid first (and covered later): the camera sees it as it lies
            self.table.show(stage)
            self.table.wait(self.dwell)
        forgets = bool(laid.tags) and self.rng.random() < self.rates.forgotten
        layout_slips = () if self.table.lays_own_set_up() else (
            ("place_off", self.rates.place_off, self._one_place_off),
            ("turned", self.rates.turned, self._turned))
        for slip, rate, laid_wrong in layout_slips:
            wrong = laid_wrong(laid) if not forgets and self.rng.random() < rate else None
            if wrong is not None:
                self._set_up_slip(slip, wrong, laid)
                break  # laid right again, the set-up is done
        if forgets:
            self.report.slips["forgotten"] += 1
            forgotten = self.rng.randrange(len(laid.tags))
            short = replace(laid, tags=[*laid.tags[:forgotten], *laid.tags[forgotten + 1:]])
            self.table.show(short)
            _, snap = self._frames_until(lambda s: s["pending"] is None)
            cares = not self.table.same_picture(short, self.truth)  # a piece the game reads, not a marker
            if snap["pending"] is None and cares:
                self._missed("forgotten")  # the checklist let a missing piece through
            elif snap["pending"] is not None:
                self.report.objections_right += 1
            # a table whose set-up is the game starts as it is without the piece, so it cannot turn up later
            own = self.table.lays_own_set_up()
            if snap["pending"] is not None and not own and self.rng.random() < self.rates.as_it_is:
                self.report.slips["started_as_it_is"] += 1  # the piece turns up with the first move
                if self.tap(lambda: self.page.press("confirm")).get("ok"):
                    return  # else the page says why the table is no game yet: they lay it right
        self.table.show(laid)
        _, snap = self._frames_until(lambda s: s["pending"] is None)
        if snap["pending"] is not None:
            raise NotRecovered(f"the set-up did not end: {snap['pending']['text']}")

    def _set_up_slip(self, slip: str, wrong: Scene, laid: Scene) -> None:
        """Lay ``wrong``; where the game cares, wait for the checklist to say so; then lay it right."""
        self.report.slips[slip] += 1
        self.table.show(wrong)
        self.table.wait(self.dwell)  # the camera reads the table as laid
        frames, snap = self.dwell, self.look()
        cares = not self.table.same_picture(wrong, self.truth)
        if cares and not _set_up_steps(snap):
            self._missed(slip)  # the checklist let it through
        elif cares:
            self.report.objections_right += 1
        self.table.show(laid)
        waited, _ = self._frames_until(lambda s: not _set_up_steps(s))
        self.report.recoveries.append((frames + waited) / FPS)

    def _one_place_off(self, laid: Scene) -> Scene | None:
        """A piece laid one place off: moved by the distance to its nearest neighbour, where none lies."""
        if len(laid.tags) < 2:
            return None
        index = self.rng.randrange(len(laid.tags))
        tag = laid.tags[index]
        others = [t.center for i, t in enumerate(laid.tags) if i != index]
        step = min(math.dist(tag.center, c) for c in others)
        for dx, dy in self.rng.sample([(step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step)], 4):
            place = (tag.center[0] + dx, tag.center[1] + dy)
            inside = 0 < place[0] < laid.width and 0 < place[1] < laid.height
            if inside and min(math.dist(place, c) for c in others) > 0.6 * step:
                return _with_tag(laid, index, replace(tag, center=place))
        return None

    def _turned(self, laid: Scene) -> Scene | None:
        """A piece laid turned half round (or a card whose sticker went on upside down)."""
        if not laid.tags:
            return None
        index = self.rng.randrange(len(laid.tags))
        tag = laid.tags[index]
        return _with_tag(laid, index, replace(tag, angle=(tag.angle + 180.0) % 360.0))

    def one_move(self) -> None:
        self._maybe_slip_between_moves()
        before = self.truth
        action = self.table.turn_up(before, self.rng) if before.is_chance_node() else self.choose(
            before, self.rng)
        after = self.table.follows(before.apply(action))
        self.report.moves += 1
        if self.table.looks_alike(before, after):
            self._tap_the_move(action, after)
            return
        if self.rng.random() < self.rates.out_of_turn:
            self._out_of_turn(before, action, after)
        self._make_the_move(before, action, after)

    def _tap_the_move(self, action: Action, after: State) -> None:
        answer = self.tap(lambda: self.page.tap_move(action.to_dict()))
        if not answer.get("ok"):
            raise NotRecovered(f"the page refused {action.to_dict()}: {answer.get('error')}")
        self.truth = after
        self._settle(slip=None)

    def _make_the_move(self, before: State, action: Action, after: State) -> None:
        if self.rng.random() < self.rates.lifted:
            self.report.slips["lifted"] += 1  # picked up, held a moment, put back: nothing happened
            self.table.show(self.table.move_scene(before, action, after))
            self.table.wait(1)
            self.table.show(self.table.scene(before))
            self._settle(slip="lifted")
        moved = self.table.move_scene(before, action, after)
        if self.rng.random() < self.rates.left_on_table:
            self._left_on_table(before, action, after, moved)
        self.truth = after
        if self.rng.random() < self.rates.hand_left:
            self._hand_left(moved, action)
        else:
            self.table.show(moved)
            self._settle(slip=None, made=action)
        if self.rng.random() < self.rates.undo_mid_move and not after.is_terminal():
            self.report.slips["undo_mid_move"] += 1
            taps = self.report.taps
            self.tap(lambda: self.page.press("undo"))
            self.truth = before  # the page asks for the piece back: put it back, then move again
            frames = self._recover("undo_mid_move", count=False)
            self.table.show(self.table.move_scene(before, action, after))
            self.truth = after
            frames += self._settle(slip=None, made=action)
            self.report.recoveries.append(frames / FPS + (self.report.taps - taps) * TAP_S)

    # -- slips ---------------------------------------------------------------------------------------
    def _maybe_slip_between_moves(self) -> None:
        rates = self.rates
        if self.rng.random() < rates.knocked:
            self._knock()
        if self.rng.random() < rates.wrong_tap:
            self._wrong_tap()
        if self.rng.random() < rates.reload:
            self.report.slips["reload"] += 1
            if not self._agrees(self.page.reload()):
                self.report.unrecovered.append("a reload showed another game")
        if self.rng.random() < rates.second_phone:
            self.report.slips["second_phone"] += 1
            seen = self.look()["event_count"]
            self.tap(lambda: self.second_page.press("confirm"))  # nothing to confirm: nothing may change
            if self.look()["event_count"] != seen:
                self.report.unrecovered.append("a second phone's Confirm changed the game")

    def _out_of_turn(self, before: State, action: Action, after: State) -> None:
        """The move made by a player whose turn it is not: the page must object; the pieces go back."""
        made = self.table.out_of_turn(before, action, after, self.rng)
        if made is None:
            return
        wrong, by = made
        self.report.slips["out_of_turn"] += 1
        self.table.show(wrong)
        self._settle(slip="out_of_turn", blame=by)

    def _left_on_table(self, before: State, action: Action, after: State, moved: Scene) -> None:
        """The move made but one piece it takes off the table (a played card picked up, a tile taken)
        forgotten where it lay. The page may wait, or object; a move it reads instead must be one the
        table really shows (else it is a missed slip), and is taken back with Undo. Then the piece goes."""
        kept = {tag.payload for tag in moved.tags}
        leaving = [tag for tag in self.table.scene(before).tags if tag.payload not in kept]
        if not leaving:
            return
        self.report.slips["left_on_table"] += 1
        partial = replace(moved, tags=[*moved.tags, self.rng.choice(leaving)])
        self.table.show(partial)
        self.table.wait(self.dwell)
        frames, snap = self._frames_until(lambda s: s["pending"] is not None or not _shows(s, before))
        frames += self.dwell
        if snap["pending"] is not None:
            self.report.objections_right += 1
        elif not _shows(snap, before) and not _shows(snap, after):
            if not self._reads_as_a_move(partial, before):
                self._missed("left_on_table")  # the page read a move the table does not show
            self.tap(lambda: self.page.press("undo"))
        self.table.show(moved)
        self.truth = after
        if snap["pending"] is not None:  # the objection stands until the camera has read the table again
            stale = snap["pending"]
            waited, _ = self._frames_until(lambda s: s["pending"] != stale)
            frames += waited
        frames += self._settle(slip=None, made=action)
        self.report.recoveries.append(frames / FPS)

    def _reads_as_a_move(self, scene: Scene, before: State) -> bool:
        """Whether ``scene`` is the picture of some legal move from ``before`` (the page may read it so)."""
        return any(self.table.same_picture(scene, self.table.follows(before.apply(a)))
                   for a in before.legal_actions())

    def _hand_left(self, moved: Scene, action: Action) -> None:
        """A move made and a hand left resting over the table: nothing can be read under it, and the page
        must say why its move is not read; the hand goes, and the move is read."""
        self.report.slips["hand_left"] += 1
        w, h = moved.width, moved.height
        hand = Occluder(((w * 0.4, h), (w * 0.6, h), (w * 0.6, h * 0.45), (w * 0.4, h * 0.45)))
        self.table.show(replace(moved, occluders=[*moved.occluders, hand]))
        frames, snap = 0, self.look()
        while not snap["camera"].get("covered") and frames < NOTICE_PATIENCE:
            self.table.wait()
            frames, snap = frames + 1, self.look()
        if not snap["camera"].get("covered"):
            self.report.unrecovered.append("a hand over the table: the page never said why nothing was read")
        self.table.show(moved)
        frames += self._settle(slip=None, made=action)
        self.report.recoveries.append(frames / FPS)

    def _knock(self) -> None:
        """A piece knocked some way off its place; the players put it back whatever the page says."""
        laid = self.table.scene(self.truth)
        if not laid.tags:
            return
        self.report.slips["knocked"] += 1
        index = self.rng.randrange(len(laid.tags))
        tag = laid.tags[index]
        dx, dy = self.rng.choice((-1, 1)) * self.rng.uniform(30, 70), self.rng.choice((-1, 1)) * 20.0
        moved = replace(tag, center=(tag.center[0] + dx, tag.center[1] + dy))
        self.table.show(_with_tag(laid, index, moved))
        self._settle(slip="knocked")

    def _wrong_tap(self) -> None:
        """A move tapped by mistake, seen on the page and taken back with Undo."""
        state = self.truth
        if state.is_chance_node() or state.is_terminal():
            return
        wrong = self.rng.choice(state.legal_actions())
        taps = self.report.taps
        answer = self.tap(lambda: self.page.tap_move(wrong.to_dict()))
        if not answer.get("ok"):
            return  # refused (a rule, a hidden card): nothing happened
        self.report.slips["wrong_tap"] += 1
        self.table.wait(self.dwell)
        if self.look()["pending"] is not None:  # the table does not show what was tapped
            self.report.objections_right += 1
        self.tap(lambda: self.page.press("undo"))
        frames = self._recover("wrong_tap", count=False)
        self.report.recoveries.append(frames / FPS + (self.report.taps - taps) * TAP_S)

    # -- following the page ----------------------------------------------------------------------------
    def _settle(self, slip: str | None, made: Action | None = None, blame: str | None = None) -> int:
        """Frames pass; what the page says is answered until it agrees with the game played (the frames
        it took). An objection with no slip to object to is a false one, and so is one blaming a player
        who did not move (``blame``: who did)."""
        dwell = self.dwell if slip is not None else 0  # a slip lies there a moment before it is seen to
        self.table.wait(dwell)
        frames, snap = self._frames_until(lambda s: self._agrees(s) or s["pending"] is not None)
        frames += dwell
        pending = snap["pending"]
        if pending is not None and pending["kind"] == "question" and made is not None:
            self._answer(pending, made)
            more, snap = self._frames_until(lambda s: self._agrees(s) or s["pending"] is not None)
            frames += more
            pending = snap["pending"]
        text = "" if pending is None else str(pending["text"])
        wrongly_blamed = blame is not None and " moved out of turn" in text and not text.startswith(
            f"{blame} moved out of turn")
        if pending is not None and (slip is None or wrongly_blamed):
            self.report.objections_false += 1
            self.report.false_texts.append(str(pending["text"]))
        elif pending is not None:
            self.report.objections_right += 1
        elif slip is not None and not self._agrees(snap):
            self._missed(slip)  # the page read a move nobody made instead of objecting
        if slip is None and pending is None and self._agrees(snap):
            self._shown = self.truth
            return frames
        return frames + self._recover(slip or "a false objection", count=slip is not None)

    def _missed(self, slip: str) -> None:
        self.report.missed_slips[slip] += 1

    def _answer(self, pending: dict[str, Any], made: Action) -> None:
        wanted = made.to_dict()
        for option in pending["options"]:
            action = option.get("action")
            if action == wanted or action == [wanted]:
                self.tap(functools.partial(self.page.choose, int(option["index"])))
                return
        self.report.false_texts.append(f"no option is the move made: {pending['text']}")

    def _recover(self, slip: str, count: bool = True) -> int:
        """Put the table back as the game stands and take back with Undo a move the page read that nobody
        made, until page and game agree: the frames it took (``count``: a recovery of its own)."""
        frames = 0
        for _ in range(4):
            snap = self.look()
            if snap["pending"] is None and not self._agrees(snap):
                self.tap(lambda: self.page.press("undo"))  # the page read a move nobody made
            self.table.show(self.table.scene(self.truth))
            self._shown = self.truth
            waited, snap = self._frames_until(self._agrees)
            frames += waited
            if self._agrees(snap):
                if count:
                    self.report.recoveries.append(frames / FPS)
                return frames
        self.report.unrecovered.append(f"{slip}: {snap['pending']}")
        raise NotRecovered(f"after {slip} the page and the game did not agree again: {snap['pending']}")


def _shows(snap: dict[str, Any], state: State) -> bool:
    """The page shows ``state``, with nothing pending (compared as the page's JSON carries it)."""
    played = json.loads(json.dumps({"scores": state.shared_scores().to_dict(), "view": state.view(None)}))
    return snap["pending"] is None and snap["scores"] == played["scores"] and snap["view"] == played["view"]


def _with_tag(scene: Scene, index: int, tag: Tag) -> Scene:
    return replace(scene, tags=[*scene.tags[:index], tag, *scene.tags[index + 1:]])


def _set_up_steps(snap: dict[str, Any]) -> list[Any]:
    """What the set-up checklist on the page still asks for (nothing when it is not shown)."""
    pending = snap["pending"] or {}
    if pending.get("kind") != "setup":
        return []
    return list((pending.get("checklist") or {}).get("differences") or [])
