"""What the panel should say about a game: a pure function of the state, what is pending, the camera's
health and the panel mode (the patterns themselves are :mod:`hw.signals`')."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.config import Seat
from companion.infer import TableModel, split_shares
from companion.table.referee import Pending
from engines.core import State
from hw.signals import PanelSignals, SplitShare


def seat_of(seats: Sequence[Seat], player: str) -> int | None:
    """The seat index (its LED) of a player, None for anyone not seated."""
    return next((seat.seat for seat in seats if seat.name == player), None)


def seats_of(seats: Sequence[Seat], players: Sequence[str]) -> tuple[int, ...]:
    return tuple(s for s in (seat_of(seats, p) for p in players) if s is not None)


@dataclass(frozen=True)
class CameraSignal:
    lost: bool = False
    lost_since: float = 0.0


def panel_signals(
    state: State,
    seats: Sequence[Seat],
    model: TableModel,
    pending: Pending | None,
    *,
    mode: str,
    legal_flash_at: float | None,
    camera: CameraSignal,
    previous: PanelSignals,
    now: float,
    storage_fault_since: float | None = None,
    companion_to_move: bool = False,
) -> PanelSignals:
    """The panel's signals for ``state``: the active seat (or the leader's in ``leader`` mode), winners at
    the end, a split's shares, a pending question (waiting) or objection, the camera lost. A split still
    being shared keeps the time it started, so its blink sequence is not restarted."""
    active = seat_of(seats, state.current_player())
    over = state.is_terminal()
    winners: tuple[int, ...] = ()
    if over:
        outcome = state.outcome()
        winners = seats_of(seats, outcome.winners if outcome else ())
    elif mode == "leader":
        active = next(iter(seats_of(seats, state.scores().winners)), active)
    shares = split_shares(model, state) or []
    placed = ((seat_of(seats, player), tiles) for player, tiles in shares)
    split = tuple(SplitShare(seat, tiles) for seat, tiles in placed if seat is not None)
    objection = pending is not None and pending.kind == "objection"
    return PanelSignals(
        active_seat=active,
        legal_flash_at=legal_flash_at,
        objection=objection,
        objection_since=pending.since if pending is not None and objection else 0.0,
        # amber too while a person is to make the companion's move for it
        waiting=(pending is not None and pending.kind in ("question", "resume", "setup"))
        or (pending is None and companion_to_move),
        split=split,
        split_since=previous.split_since if previous.split == split and split else now,
        winners=winners,
        game_over=over,
        camera_lost=camera.lost,
        camera_lost_since=camera.lost_since,
        storage_fault=storage_fault_since is not None,
        storage_fault_since=storage_fault_since or 0.0,
    )
