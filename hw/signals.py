"""Signal patterns of the panel as pure functions of time.

The loop sets a :class:`PanelSignals` (what the table should say now); :func:`render` turns it into the
levels of every output at time ``t`` (a :class:`PanelFrame`). Keeping the patterns pure makes them testable
without threads or sleeps, and lets the web page's virtual panel show exactly what the LEDs show.

Priorities, highest first: camera lost, storage fault (a move could not be saved: the game waits),
objection (illegal or unexpected change), waiting for a decision, split shares, game over, legal-move
flash, turn. Whatever is not overridden keeps showing (the active seat stays lit under a legal flash).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

RGBLevels = tuple[float, float, float]

#: the panel's buttons, as the loop, the page and the pins name them
BUTTONS = ("confirm", "undo", "next", "mode")

OFF: RGBLevels = (0.0, 0.0, 0.0)
GREEN: RGBLevels = (0.0, 1.0, 0.0)
RED: RGBLevels = (1.0, 0.0, 0.0)
AMBER: RGBLevels = (1.0, 0.45, 0.0)
BLUE: RGBLevels = (0.0, 0.0, 1.0)
WHITE: RGBLevels = (1.0, 1.0, 1.0)
MAGENTA: RGBLevels = (1.0, 0.0, 1.0)

#: how long the green "legal move" flash lasts, seconds
LEGAL_FLASH_S = 0.6
#: objection: red blink period and the beep within each blink
OBJECTION_PERIOD_S = 0.5
#: split: one seat blink (on + off), the pause between contributors, and the pause before repeating
SPLIT_BLINK_S = 0.4
SPLIT_GAP_S = 0.8
SPLIT_REPEAT_GAP_S = 1.6
#: game over: winners' LEDs pulse with this period
PULSE_PERIOD_S = 2.0
#: camera lost: status LED double-flashes magenta once per period (its own pattern, not shared by any other)
CAMERA_LOST_PERIOD_S = 1.5
#: storage fault: the status LED shows white for a quarter of each period, a short beep every ten
STORAGE_PERIOD_S = 2.0
STORAGE_BEEP_EVERY_S = 10.0


@dataclass(frozen=True)
class SplitShare:
    """One contributor of a split: the seat index and how many tiles that player takes."""

    seat: int
    tiles: int


@dataclass(frozen=True)
class PanelSignals:
    """What the table should say now. ``since`` is when the current objection/split/flash started
    (patterns are timed from it so that every blink sequence starts at its beginning)."""

    active_seat: int | None = None
    legal_flash_at: float | None = None
    objection: bool = False
    objection_since: float = 0.0
    waiting: bool = False
    split: tuple[SplitShare, ...] = ()
    split_since: float = 0.0
    winners: tuple[int, ...] = ()
    game_over: bool = False
    camera_lost: bool = False
    camera_lost_since: float = 0.0
    storage_fault: bool = False
    storage_fault_since: float = 0.0

    def name(self, t: float | None = None) -> str:
        """The pattern shown (the web's virtual panel prints it)."""
        if self.camera_lost:
            return "camera-lost"
        if self.storage_fault:
            return "storage"
        if self.objection:
            return "objection"
        if self.waiting:
            return "waiting"
        if self.split:
            return "split"
        if self.game_over:
            return "game-over"
        if self.legal_flash_at is not None and (t is None or t - self.legal_flash_at < LEGAL_FLASH_S):
            return "legal"
        if self.active_seat is not None:
            return "turn"
        return "idle"

    def with_(self, **changes: object) -> PanelSignals:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class PanelFrame:
    """Levels of every output at one moment: seat LEDs 0..1, the status RGB LED, the buzzer on/off."""

    seats: tuple[float, ...]
    status: RGBLevels
    buzzer: bool
    pattern: str = "idle"
    seat_patterns: tuple[str, ...] = field(default=())


def split_schedule(shares: tuple[SplitShare, ...]) -> tuple[list[tuple[float, float, int]], float]:
    """The blink sequence of a split: [(start, end, seat)] of each blink's lit half, and the cycle length.

    Contributors in rank order; each seat blinks once per tile it takes; a pause between contributors and
    a longer one before the sequence repeats.
    """
    blinks: list[tuple[float, float, int]] = []
    t = 0.0
    for index, share in enumerate(shares):
        for _ in range(max(share.tiles, 0)):
            blinks.append((t, t + SPLIT_BLINK_S / 2, share.seat))
            t += SPLIT_BLINK_S
        if index < len(shares) - 1:
            t += SPLIT_GAP_S
    return blinks, t + SPLIT_REPEAT_GAP_S


def render(signals: PanelSignals, t: float, seat_count: int) -> PanelFrame:
    """The output levels at time ``t`` (seconds, same clock as the ``*_since`` fields)."""
    seats = [0.0] * seat_count
    seat_patterns = ["off"] * seat_count
    status: RGBLevels = OFF
    buzzer = False

    def light(seat: int | None, level: float, pattern: str) -> None:
        if seat is not None and 0 <= seat < seat_count:
            seats[seat] = level
            seat_patterns[seat] = pattern

    # base layer: whose turn it is
    if signals.active_seat is not None and not signals.game_over:
        light(signals.active_seat, 1.0, "steady")

    pattern = signals.name(t)
    if pattern == "camera-lost":
        seats = [0.0] * seat_count
        seat_patterns = ["off"] * seat_count
        phase = (t - signals.camera_lost_since) % CAMERA_LOST_PERIOD_S
        # two short flashes, then dark
        if phase < 0.12 or 0.3 <= phase < 0.42:
            status = MAGENTA
    elif pattern == "storage":
        since = t - signals.storage_fault_since
        status = WHITE if since % STORAGE_PERIOD_S < STORAGE_PERIOD_S / 4 else OFF
        buzzer = since % STORAGE_BEEP_EVERY_S < 0.15
    elif pattern == "objection":
        phase = (t - signals.objection_since) % OBJECTION_PERIOD_S
        lit = phase < OBJECTION_PERIOD_S / 2
        status = RED if lit else OFF
        buzzer = phase < OBJECTION_PERIOD_S / 5
    elif pattern == "waiting":
        status = AMBER
    elif pattern == "split":
        status = BLUE
        seats = [0.0] * seat_count
        seat_patterns = ["off"] * seat_count
        for share in signals.split:
            light(share.seat, 0.0, f"blinks x{share.tiles}")
        blinks, cycle = split_schedule(signals.split)
        phase = (t - signals.split_since) % cycle if cycle > 0 else 0.0
        for start, end, seat in blinks:
            if start <= phase < end and 0 <= seat < seat_count:
                seats[seat] = 1.0
    elif pattern == "game-over":
        level = 0.5 - 0.5 * math.cos(2 * math.pi * (t % PULSE_PERIOD_S) / PULSE_PERIOD_S)
        for seat in signals.winners:
            light(seat, level, "pulse")
    elif pattern == "legal":
        status = GREEN

    return PanelFrame(tuple(seats), status, buzzer, pattern, tuple(seat_patterns))
