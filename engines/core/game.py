"""Game (static rules data) and State (one playthrough): the API shared by the four engines."""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from engines.core.actions import Action, ActionCodec, Correct
from engines.core.errors import IllegalAction, InputError, StateFormatError
from engines.core.rules import Rule, RuleBook

#: ``current_player()`` while a hidden identity must be revealed (by the camera, a person, or a seeded rng).
CHANCE = "<chance>"
#: ``current_player()`` once the game is over.
TERMINAL = "<terminal>"

STATE_FORMAT_VERSION = 1


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game (or a provisional one from ``scores``).

    ``breakdown`` maps each player to named score parts that add up to the player's total; ``winners`` holds
    every player who shares the win after the game's tie-break chain; ``reason`` says why the game ended.
    """

    scores: Mapping[str, int]
    breakdown: Mapping[str, Mapping[str, int]]
    winners: tuple[str, ...]
    reason: str = ""
    tiebreak: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": {
                name: {"total": self.scores[name], "breakdown": dict(self.breakdown.get(name, {}))}
                for name in self.scores
            },
            "winners": list(self.winners),
            "reason": self.reason,
            "tiebreak": dict(self.tiebreak),
        }


@dataclass(frozen=True)
class Explanation:
    """Why an action is (or is not) legal here, citing the rules that decide it."""

    legal: bool
    summary: str
    rules: tuple[Rule, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "summary": self.summary,
            "rules": [rule.to_dict() for rule in self.rules],
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class GameInfo:
    """Who a game is, declared once in its :class:`Game`: its one ``name`` (``"jurassic-parts"``), the short
    ``code`` printed in its tags (``DT1:JP:F07``), its ``title``, the other spellings people use
    (``aliases``) and the rulebook ``editions`` it is played in (empty: one). Its kit and tags read it."""

    name: str
    code: str
    title: str
    aliases: tuple[str, ...] = ()
    editions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruling:
    """A ruling of one game's own beyond score and legal (``companion NAME FILE``): a JSON document in,
    a JSON report out; InputError when the document cannot be ruled on."""

    name: str
    help: str
    description: str
    rule: Callable[[Any], dict[str, Any]]


@dataclass(frozen=True)
class Option:
    """A setup option or house rule: name, default, allowed values and what it means."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    help: str
    house_rule: bool = False


@runtime_checkable
class LaidByPlayers(Protocol):
    """A game whose set-up the players deal and lay themselves: the table as laid is the game. A
    :class:`Game` that can read such a set-up is one of these (a capability, asked with ``isinstance``)."""

    def state_as_laid(self, players: Sequence[str], laid: Mapping[str, Any],
                      options: Mapping[str, Any] | None = None, strict: bool = True) -> State:
        """The state at the start of play with the components where ``laid`` (the game's own set-up
        document) has them. ``strict``: :class:`IllegalAction` naming the set-up rule when the rulebook
        does not allow that set-up; otherwise any position the rules can play from is taken (a group's own
        variant). :class:`StateFormatError` when ``laid`` cannot be read at all."""


def _is_text(name: str) -> bool:
    """Printable Unicode that can be written back as UTF-8 (a lone surrogate from a \\u escape cannot)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return name.isprintable()


class Game(abc.ABC):
    """Static rules data of one game and a factory for its states."""

    #: who the game is (a subclass declares only this; ``name``, ``code``, ``title`` and ``aliases`` are its)
    info: ClassVar[GameInfo]
    name: ClassVar[str]
    code: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: the players are their colours (``"blue"``, ``"orange"``): the people at the seats keep their own
    #: names beside them
    players_are_colours: ClassVar[bool] = False

    rulebook: RuleBook
    codec: ActionCodec
    options: tuple[Option, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if isinstance(info, GameInfo):
            cls.name, cls.code, cls.title, cls.aliases = info.name, info.code, info.title, info.aliases

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and validate setup options and house rules."""
        if given is not None and not isinstance(given, Mapping):
            raise StateFormatError(f"options must be an object of option name -> value, not {given!r:.40}")
        given = dict(given or {})
        resolved: dict[str, Any] = {}
        for option in self.options:
            value = given.pop(option.name, option.default)
            if option.choices and value not in option.choices:
                raise StateFormatError(
                    f"option {option.name!r} must be one of {list(option.choices)}, not {value!r}"
                )
            resolved[option.name] = value
        if given:
            raise StateFormatError(f"unknown options for {self.name}: {', '.join(sorted(given))}")
        return resolved

    def check_players(self, players: Sequence[str]) -> tuple[str, ...]:
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise StateFormatError("players must be a list of names")
        names = tuple(players)
        if not all(isinstance(n, str) and n and _is_text(n) for n in names):
            raise StateFormatError("player names must be non-empty printable text")
        if not self.min_players <= len(names) <= self.max_players:
            raise StateFormatError(
                f"{self.title} takes {self.min_players}-{self.max_players} players, not {len(names)}"
            )
        if len(set(names)) != len(names):
            raise StateFormatError("player names must be distinct")
        return names

    @abc.abstractmethod
    def new_initial_state(
        self,
        players: Sequence[str],
        rng: random.Random | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> State:
        """The state at the start of play. ``rng`` shuffles anything random at setup (seeded for bots)."""

    @abc.abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Validate and rebuild a state from ``State.to_dict()``; raises :class:`StateFormatError`."""

    def score_report(self, data: Any) -> dict[str, Any]:
        """`companion score GAME FILE`: score players described by ``data``; raises InputError when bad."""
        raise InputError(f"{self.name} has no score ruling yet")

    def legal_report(self, data: Any) -> dict[str, Any]:
        """`companion legal GAME FILE`: the legal actions in the position ``data``; InputError when bad."""
        raise InputError(f"{self.name} has no legal-actions ruling yet")

    def bot_policy(self) -> Callable[[State, list[Action], random.Random], Action] | None:
        """The game's own seeded playing policy (``engines.core.playout.Policy``): how its bots and the
        companion's first level play. None: uniformly random legal moves."""
        return None

    def rulings(self) -> tuple[Ruling, ...]:
        """The rulings of this game's own, each a command of its own (none by default)."""
        return ()

    def report_state(self, data: Any) -> State:
        """The position a ruling is asked about: an engine state in its JSON format (a game that also
        reads drawn positions says so); InputError when it cannot be read."""
        try:
            return self.state_from_dict(data)
        except StateFormatError as error:
            raise InputError(f"invalid {self.name} state: {' '.join(str(error).split())}") from None
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(f"invalid {self.name} state: {error}") from None

    def explain_report(self, data: Any) -> dict[str, Any]:
        """`companion explain GAME FILE`: is ``data["action"]`` legal in ``data["state"]``, and which rules
        decide it (the same for every game); InputError naming the key that is wrong."""
        if not isinstance(data, Mapping):
            raise InputError('$: expected {"state": ..., "action": ...}')
        for key in ("state", "action"):
            if key not in data:
                raise InputError(f'$.{key}: missing (expected {{"state": ..., "action": ...}})')
        unknown = sorted(set(data) - {"state", "action"})
        if unknown:
            raise InputError(f"$.{unknown[0]}: unknown key (expected state and action)")
        state = self.report_state(data["state"])
        try:
            action = self.action_from_dict(data["action"])
        except StateFormatError as error:
            raise InputError(f"$.action: {' '.join(str(error).split())}") from None
        try:
            explanation = state.explain(action)
        except StateFormatError as error:  # a correction carrying a broken state
            raise InputError(f"$.action.state: {' '.join(str(error).split())}") from None
        player = state.current_player()
        return {
            "game": self.name,
            "to_play": None if player.startswith("<") else player,
            "action": action.to_dict(),
            **explanation.to_dict(),
            "rules_cited": [rule.cite() for rule in explanation.rules],
        }

    def action_from_dict(self, data: Any) -> Action:
        return self.codec.from_dict(data)

    def rule(self, rule_id: str) -> Rule:
        return self.rulebook[rule_id]

    def illegal(self, rule_id: str, detail: str, **params: object) -> IllegalAction:
        """The refusal of rule ``rule_id``: ``detail`` filled by ``params`` (see :class:`IllegalAction`)."""
        return IllegalAction(self.rulebook[rule_id], detail, params)

    def check_format(self, data: Mapping[str, Any]) -> None:
        """Common header checks for ``state_from_dict``."""
        if not isinstance(data, Mapping):
            raise StateFormatError("a state must be a JSON object")
        if data.get("game") != self.name:
            raise StateFormatError(f"$.game: this is not a {self.name} state (game={data.get('game')!r})")
        if data.get("format") != STATE_FORMAT_VERSION:
            raise StateFormatError(f"$.format: unsupported state format {data.get('format')!r}")


class State(abc.ABC):
    """One playthrough. Callers never mutate a state; ``apply`` returns a new one."""

    game: Game

    # -- whose move -------------------------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def players(self) -> tuple[str, ...]:
        """Players in clockwise seat order."""

    @abc.abstractmethod
    def current_player(self) -> str:
        """The player to act, :data:`CHANCE` while a reveal is pending, :data:`TERMINAL` when over."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # -- actions ----------------------------------------------------------------------------------------
    @abc.abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action now (for a chance node: every possible reveal)."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Possible reveals with their probabilities (only at a chance node)."""
        return []

    @abc.abstractmethod
    def clone(self) -> State:
        """A deep, independent copy (engines make it fast; playouts depend on it)."""

    @abc.abstractmethod
    def _apply_in_place(self, action: Action) -> None:
        """Apply a legal-or-not action to this fresh clone; raise IllegalAction to refuse it."""

    def apply(self, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalAction`; ``self`` is never changed."""
        if isinstance(action, Correct):
            return self.game.state_from_dict(action.state)
        if self.is_terminal():
            raise IllegalAction(self.game_over_rule(), "the game is over")
        new_state = self.clone()
        new_state._apply_in_place(action)
        return new_state

    def resample_from_view(self, player: str, rng: random.Random) -> State:
        """A state ``player`` cannot tell from this one: everything hidden from it (others' hands, others'
        concealed tiles) dealt again at random from what it could be, as OpenSpiel's
        ``resample_from_infostate``. The deal depends on what ``player`` may know and ``rng`` only, so a
        decision made on it cannot peek. The default: nothing is hidden from any player."""
        if player not in self.players:
            raise ValueError(f"{player!r} is not a player of this game")
        return self.clone()

    def game_over_rule(self) -> Rule:
        """The rule that ends the game (cited when an action comes after the end)."""
        return next(iter(self.game.rulebook.values()))

    def is_legal(self, action: Action) -> bool:
        try:
            self.apply(action)
        except IllegalAction:
            return False
        return True

    def explain(self, action: Action) -> Explanation:
        """Whether ``action`` is legal, and the rules that decide it."""
        try:
            self.apply(action)
        except IllegalAction as refusal:
            return Explanation(False, refusal.detail, (refusal.rule,), {"said": refusal.said()})
        return Explanation(True, f"{action.kind} is legal", tuple(self.rules_for(action)))

    def rules_for(self, action: Action) -> list[Rule]:
        """The rules that govern a legal action (engines refine this)."""
        return []

    # -- scores -----------------------------------------------------------------------------------------
    @abc.abstractmethod
    def scores(self) -> Outcome:
        """Scores at any moment, with the breakdown; ``winners`` are the current leaders."""

    def shared_scores(self) -> Outcome:
        """The scores as everyone at the table may see them while the game runs (what a player keeps
        concealed left out until the end); the scores themselves in a game with nothing concealed."""
        return self.scores()

    def outcome(self) -> Outcome | None:
        """None while the game runs; the final scores and winners once it is over."""
        return self.scores() if self.is_terminal() else None

    # -- views and serialization ------------------------------------------------------------------------
    @abc.abstractmethod
    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may see (``None``: the shared table view, hiding everything private)."""

    @abc.abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Full JSON-compatible state, with ``game`` and ``format`` keys."""

    def header(self) -> dict[str, Any]:
        return {"game": self.game.name, "format": STATE_FORMAT_VERSION}

    def fingerprint(self) -> Hashable:
        """A hashable identity for caches: equal fingerprints mean equal :meth:`to_dict` (engines with
        large states return a tuple of their fields, far cheaper than building the dict)."""
        return repr(self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} to_play={self.current_player()}>"
