"""The companion's own seats at a real table: on its turn it decides from that seat's view only
(:func:`engines.core.search.decide`, in a thread of its own: the loop and the page never wait for it), shows
its move, and a person carries it out; the camera checks that the move made is the one it wanted.

A move the camera cannot see (ending a turn, a purchase) the companion makes itself, as a tap on the page
would. With ``speak = true`` the move to make is also said aloud (espeak-ng, the edition's language). A
different move read for its seat is an objection naming what it wanted, until the table is put back or
its move is made; Confirm lets the table stand as for any objection, and Undo works as for any move.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.config import Config, Seat
from companion.i18n import N_, Said, said_everywhere, speaking
from companion.infer import Inference, compare
from companion.kits import find_kit
from companion.records import HINT_NOTICE
from companion.shared_view import shared_action
from companion.store import StoreError
from engines.core import Action, Rule, State
from engines.core.search import Budget, Decision, NotToPlay, decide
from hw.speech import NO_SOUND, NOT_INSTALLED, SilentSpeaker, Speaker

if TYPE_CHECKING:
    from companion.table.loop import TableLoop

log = logging.getLogger(__name__)

#: at most this long a decision thinks (wall clock): a Pi core, 4-5x slower, runs fewer simulations in it
THINKING_S = 1.2
COMPANION_RULE = Rule(
    "TABLE-COMPANION",
    N_("The companion's move"),
    "companion",
    N_("A seat the companion plays makes the move it shows: a person moves its pieces for it, as shown."),
)


#: the speaker's problems as the page says them
SPEAKER_PROBLEMS = {
    NOT_INSTALLED: N_("espeak-ng is not installed: sudo apt install espeak-ng"),
    NO_SOUND: N_("espeak-ng could not say a sentence (is a speaker or headphones connected?)"),
}
WANTED_OTHER = N_("The companion (%(seat)s) wanted %(move)s, not this: put the table back and make its move")
MAKE_ITS_MOVE = N_("The companion (%(seat)s) plays %(move)s: please make this move for it")
MAKE_ITS_MOVE_AND = N_("The companion (%(seat)s) plays %(move)s: please make this move for it; %(aside)s")


@dataclass(frozen=True)
class Wanted:
    """The move the companion chose for the state whose fingerprint is ``key``, and the snapshot's
    ``companion`` showing it (made once: every snapshot and page shows it)."""

    key: Hashable
    decision: Decision
    shown: dict[str, Any]


class CompanionSeats:
    """Which seats the companion plays, what it is thinking about and what it wants (see the module)."""

    def __init__(self, seats: Sequence[Seat], seed: int | None,
                 decided: Callable[[Hashable, Decision], None], budget: Budget | None = None,
                 refused: str = "", speaker: Speaker | None = None, language: str = "en") -> None:
        """``refused``: why the companion cannot play this table's seats (they are then people's);
        ``speaker`` says its moves in ``language``."""
        wanted = {seat.name: seat.companion for seat in seats if seat.companion}
        self.speaker: Speaker = speaker or SilentSpeaker()
        self.language = language
        self.levels = {} if refused else wanted
        self.problem = refused if refused and wanted else ""
        self.seed = seed or 0
        self.budget = budget or Budget(seconds=THINKING_S)
        self._decided = decided
        self._lock = threading.Lock()
        self._thinking: Hashable | None = None
        self.wanted: Wanted | None = None
        self.failures = 0

    def faults(self) -> list[dict[str, Any]]:
        """The page's faults: seats meant for the companion are people's (its game cannot have it), or its
        speaker cannot speak."""
        found = [{"part": "companion", "text": self.problem, "permanent": True}] if self.problem else []
        problem = self.speaker.problem
        if problem and self.levels:
            text = SPEAKER_PROBLEMS.get(problem, problem)
            found.append({"part": "speaker", "text": text, "permanent": False})
        return found

    def say(self, sentence: Said) -> None:
        """Say ``sentence`` aloud in the table's language (nothing without a speaker)."""
        with speaking(self.language):
            text = sentence.words()
        self.speaker.say(text, self.language)

    def plays(self, player: str) -> bool:
        return player in self.levels

    def to_move(self, state: State) -> str | None:
        """The companion's seat to move in ``state``, if it is one."""
        if state.is_terminal() or state.is_chance_node():
            return None
        player = state.current_player()
        return player if self.plays(player) else None

    def consider(self, state: State) -> None:
        """Start thinking when it is a companion seat's turn and nothing is thought of for ``state`` yet."""
        player = self.to_move(state)
        with self._lock:
            if player is None:
                self.wanted = None
                return
            key = state.fingerprint()
            if (self.wanted is not None and self.wanted.key == key) or self._thinking == key:
                return
            self.wanted = None
            self._thinking = key
        thread = threading.Thread(target=self._think, args=(state, key, player), daemon=True,
                                  name=f"companion-{player}")
        thread.start()

    def _think(self, state: State, key: Hashable, player: str) -> None:
        try:
            decision = decide(state, player, self.levels[player], self.seed, self.budget)
        except Exception:  # a decision must never take the table down: the seat is then played by hand
            log.exception("the companion could not decide for %s", player)
            with self._lock:
                self.failures += 1
                self._thinking = None
            return
        with self._lock:
            if self._thinking != key:
                return  # the game moved on while it thought
            self._thinking = None
        self._decided(key, decision)

    def keep(self, key: Hashable, decision: Decision, shown: dict[str, Any]) -> None:
        """Keep ``decision`` as the move wanted in the state whose fingerprint is ``key``."""
        with self._lock:
            self.wanted = Wanted(key, decision, shown)

    def wanted_in(self, state: State) -> Wanted | None:
        wanted = self.wanted
        return wanted if wanted is not None and wanted.key == state.fingerprint() else None

    def wanted_now(self, state: State) -> Decision | None:
        wanted = self.wanted_in(state)
        return None if wanted is None else wanted.decision

    def mismatch(self, state: State, actions: Sequence[Action]) -> Decision | None:
        """The companion's decision when the camera read ``actions`` for its seat instead of its move."""
        decision = self.wanted_now(state)
        if decision is None or not actions or actions[0] == decision.action:
            return None
        return decision


def for_table(config: Config, real_table: bool, decided: Callable[[Hashable, Decision], None],
              speaker: Speaker | None = None) -> CompanionSeats:
    """The companion's seats of a table, unless its game's kit says it cannot play one at a real table;
    ``speaker`` says its moves in the language of the edition on the table."""
    kit = find_kit(config.game)
    refused = kit.no_companion_at_real_table if kit is not None and real_table else ""
    language = kit.edition_language(config.options) if kit is not None else "en"
    return CompanionSeats(config.seats, config.seed, decided, refused=refused, speaker=speaker,
                          language=language)


# -- the loop's side: called with the loop's lock held, or (decided) from the thinking thread ---------------
def consider(loop: TableLoop) -> None:
    """After any change: think for a companion seat to move, unless a set-up or a resume is asked about."""
    pending = loop.game.pending
    if pending is None or pending.kind in ("objection", "question"):
        loop.companion.consider(loop.game.state)


def decided(loop: TableLoop, key: Hashable, decision: Decision) -> None:
    """A decision made: shown for a person to carry out, or made at once when the camera could not see it
    anyway (checked and made under the loop's lock, so the game cannot move on in between)."""
    with loop._lock:  # the loop's own lock: the thinking thread joins the table's order of changes
        state = loop.game.state
        pending = loop.game.pending
        asked = pending is not None and pending.kind not in ("objection", "question")
        if state.fingerprint() != key or asked:
            return
        model = loop.game.model
        after = loop.game.settled(state.apply(decision.action))
        if model.looks_alike(state, after):
            answer = loop.submit(decision.action.to_dict(), source="companion")
            if not answer.get("ok"):
                log.warning("the companion's %s was refused: %s", decision.action.kind, answer.get("error"))
            return
        loop.companion.keep(key, decision, _showing(loop, state, after, decision))
        loop.show_companion()
        loop.companion.say(make_its_move(loop, decision, state))


def make_its_move(loop: TableLoop, decision: Decision, state: State) -> Said:
    """The sentence asking a person to make the companion's move, with what else the people do for it
    where its game says (a card it takes put in the box, where its cards are the engine's own)."""
    kit = find_kit(state.game.name)
    move = decision.action.to_dict()
    options = state.view(None).get("options") or {}
    if kit is None or not kit.companion_aside(move, options):
        return said_everywhere(MAKE_ITS_MOVE, words(loop, decision, state))
    worded = words(loop, decision, state)

    def with_aside() -> dict[str, str]:
        return {**worded(), "aside": str(kit.companion_aside(move, options) or "")}

    return said_everywhere(MAKE_ITS_MOVE_AND, with_aside)


def words(loop: TableLoop, decision: Decision, state: State) -> Callable[[], dict[str, str]]:
    """The seat and the move in the reader's words, as the shared view may show the move."""
    from companion.words import action_label, colour_name

    game = loop.game.engine.name
    shown = shared_action(decision.action.to_dict(), game)
    seats = loop.config.seats
    colour = next((seat.colour for seat in seats if seat.name == decision.player), decision.player)
    snap = {"game": game, "view": state.view(None)}
    return lambda: {"seat": colour_name(colour), "move": action_label(shown, snap)}


def objection(loop: TableLoop, actions: Sequence[Action]) -> Inference | None:
    """An objection when the camera read another move than the one the companion's seat wanted."""
    state = loop.game.state
    decision = loop.companion.mismatch(state, actions)
    if decision is None:
        return None
    text = said_everywhere(WANTED_OTHER, words(loop, decision, state))
    return Inference.asking("objection", text, rule=COMPANION_RULE, actor=decision.player,
                            expected=str(text), seen="; ".join(map(str, actions)))


def shown(loop: TableLoop, state: State) -> dict[str, Any] | None:
    """The snapshot's ``companion``: whose move it thinks about or wants, the move as the shared view may
    show it, and the sentence asking a person to make it."""
    player = loop.companion.to_move(state)
    if player is None:
        return None
    wanted = loop.companion.wanted_in(state)
    if wanted is None:
        return {"player": player, "level": loop.companion.levels[player], "thinking": True,
                "action": None, "said": None, "why": None}
    return wanted.shown


def _showing(loop: TableLoop, state: State, after: State, decision: Decision) -> dict[str, Any]:
    """What the page shows of a move wanted: its words in every language and where its pieces go (the
    table it wants against the table as it stands)."""
    model = loop.game.model
    moved = compare(model.expected(after), model.expected(state), model.tolerance)
    return {
        "player": decision.player,
        "level": loop.companion.levels[decision.player],
        "thinking": False,
        "differences": [difference.to_dict() for difference in moved],
        "action": shared_action(decision.action.to_dict(), state.game.name),
        "said": make_its_move(loop, decision, state).to_dict(),
        "why": decision.why,
    }


def hint(loop: TableLoop, player: str, level: int = 3) -> dict[str, Any]:
    """The companion's move for ``player`` from that player's view, for that player's phone alone: decided
    off the loop's lock (the table goes on meanwhile); the game is marked assisted."""
    with loop._lock:
        state = loop.game.state
        pending = loop.game.pending
        game_id, seq = loop.game.game_id, loop.game.seq()
    if pending is not None:
        return {"ok": False, "error": "answer what the table asks first"}
    try:
        decision = decide(state, player, level, loop.companion.seed, Budget(seconds=THINKING_S))
    except (NotToPlay, ValueError) as refusal:
        return {"ok": False, "error": str(refusal)}
    with contextlib.suppress(StoreError):  # the mark is a record of the game, not the game
        loop.game.store.add_notice(game_id, seq, HINT_NOTICE, "a player asked the companion for a hint",
                                     {"player": player})
    return {"ok": True, "player": player, "level": level, "action": decision.action.to_dict(),
            "why": decision.why}
