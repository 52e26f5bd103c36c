"""What the web page (and anything else outside the loop) may ask of a running table.

The loop (:mod:`companion.table.loop`) implements :class:`TableSession`; the Flask app only talks to this
protocol, so tests can run the web app over a real session fed by the synthetic camera, and nothing in the
web layer reaches into the loop's internals. Every method is thread-safe: the web server calls them from
request threads while the loop runs in its own thread.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol, runtime_checkable


class TableHands(Protocol):
    """Hands that move a synthetic table's pieces (``companion serve`` with the synthetic camera): a move
    tapped on the page is made on the table, for the camera to read."""

    def make(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Make the legal move ``data`` (an action's JSON) on the table; ``{"ok": False, "error"}`` else."""
        ...


class StoredGames(Protocol):
    """The table's stored games as the page reads them: the shared view only."""

    def history(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """Committed events of a game (default: the current one): [{seq, kind, action, player, at,
        scores, has_photo, rule}], oldest first."""
        ...

    def state_at(self, seq: int, game_id: int | None = None) -> dict[str, Any]:
        """The shared view (``state.view(None)``) and scores right after event ``seq``: stepping back."""
        ...

    def event_photo(self, seq: int, game_id: int | None = None) -> bytes | None:
        """The JPEG stored with event ``seq``."""
        ...

    def games(self) -> list[dict[str, Any]]:
        """Stored games: [{game_id, game, started, players, over, winners}]."""
        ...

    def salvages(self) -> list[dict[str, Any]]:
        """Each time the store was found damaged and copied out: [{at, said}]."""
        ...

    def play_record(self, game_id: int | None = None) -> dict[str, Any]:
        """A game as a logged play: {game_id, game, title, players [{name, colour}], start_player,
        started, finished, duration_s, moves, over, scores (``Outcome.to_dict()``)}; LookupError for an
        unknown game."""
        ...


@runtime_checkable
class TableSession(Protocol):
    """A live game at the table: camera, engine, store and panel wired together."""

    def snapshot(self) -> dict[str, Any]:
        """The shared view now, JSON-ready. Keys (more are allowed):

        ``game`` (registry name), ``title``, ``game_id`` (store id), ``players`` ([{name, colour, seat}]),
        ``current`` (player to act or null), ``over`` (bool), ``scores`` (``Outcome.to_dict()``),
        ``view`` (``state.view(None)``: nothing private), ``last_event`` (the last committed event or null),
        ``pending`` (null, or {kind: "question"|"objection", text, options: [{index, label, action}],
        rule: Rule.to_dict(), expected, seen}), ``split`` (null, or the split ruling shown on the table),
        ``panel`` (the LED and buzzer states, see ``hw.panel``), ``camera`` ({ok, age_s, frames, fps}),
        ``detections`` (the last observation drawn on the table image), ``event_count``.
        """
        ...

    def frame_jpeg(self, annotated: bool = True) -> bytes | None:
        """The latest camera frame as JPEG, with detections, lattice, legal moves and split drawn over it."""
        ...

    def submit(self, action: dict[str, Any], source: str = "web") -> dict[str, Any]:
        """Apply an action that the camera cannot see (amber purchase, split part choice, a correction).

        Returns {"ok": true, "event": {...}} or {"ok": false, "error": text, "rule": Rule.to_dict()|null}.
        """
        ...

    def hint(self, player: str) -> dict[str, Any]:
        """The companion's move for ``player``, decided from that player's view only, for that player's
        phone alone (never in the snapshot, the events or the history): {ok, player, level, action, why}
        or {ok: false, error}. The game is marked assisted."""
        ...

    def press(self, button: str) -> dict[str, Any]:
        """Press a panel button by name (``confirm``, ``undo``, ``next``, ``mode``), as the table's would."""
        ...

    def choose(self, option_index: int) -> dict[str, Any]:
        """Answer the pending question with one of its options."""
        ...

    def option_view(self, option_index: int) -> dict[str, Any]:
        """The shared view if the pending question's option were taken: {view, action (its last move, in
        the shared view)}; LookupError when there is no such option."""
        ...

    def events(self, timeout: float = 15.0) -> Iterator[dict[str, Any]]:
        """Live updates for server-sent events: yields {"type": ..., ...} dicts; yields {"type": "ping"}
        at least every ``timeout`` seconds so that idle connections stay alive."""
        ...

    @property
    def records(self) -> StoredGames:
        """The stored games, this one and the finished ones, as the page reads them."""
        ...

    def settings(self) -> dict[str, Any]:
        """Current configuration: game, edition/options, players and seats with colours, house rules."""
        ...

    def new_game(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Start a new game with these settings (validated; the running game is kept in the store)."""
        ...

    def calibration(self) -> dict[str, Any]:
        """The calibration self-test report: markers seen, tag module size in px, lighting, bumped?"""
        ...

    def button_pressed_within(self, button: str, seconds: float) -> bool:
        """Whether the table's own (physical) ``button`` was pressed in the last ``seconds``; a press on
        the page's virtual panel does not count. Someone at the table pairs a new phone this way."""
        ...
