"""The table panel: one LED per seat, a status RGB LED, a buzzer and four buttons, on gpiozero.

Every device asks gpiozero's pin factory for its pins, chosen by gpiozero's own rules
(``GPIOZERO_PIN_FACTORY``: lgpio on a Pi 5, ``mock`` anywhere else), or the factory passed in (tests pass a
``MockFactory``). Pin numbers are BCM numbers from the config file; :data:`DEFAULT_PINS` documents the
defaults and docs/wiring.md draws them.

The panel shows a :class:`hw.signals.PanelSignals` (set by the loop): a ticker thread renders the pattern
at 50 Hz, and :meth:`Panel.show` renders at once so that a signal appears the moment it is set. Buttons are
debounced in software (gpiozero's mock pins do not debounce, and contacts bounce on every factory): a press
counts once, however long it is held and however much the contact chatters.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hw.pins import (
    MOCK,
    PinReport,
    factory_name,
    fallback_report,
    mock_requested,
    prepare_lgpio,
    raspberry_pi_model,
)
from hw.signals import BUTTONS, PanelFrame, PanelSignals, render

MAX_SEATS = 6


@dataclass(frozen=True)
class PanelPins:
    """BCM pin numbers of the panel. ``seats`` in seat order (clockwise from seat 0)."""

    seats: tuple[int, ...] = (5, 6, 13, 19, 26, 20)
    status_red: int = 17
    status_green: int = 27
    status_blue: int = 22
    buzzer: int = 18
    confirm: int = 23
    undo: int = 24
    next: int = 25
    mode: int = 16

    def button_pin(self, name: str) -> int:
        pin: int = getattr(self, name)
        return pin

    def all_pins(self) -> dict[str, int]:
        pins = {f"seat{index}": pin for index, pin in enumerate(self.seats)}
        pins.update(
            status_red=self.status_red,
            status_green=self.status_green,
            status_blue=self.status_blue,
            buzzer=self.buzzer,
        )
        pins.update({name: self.button_pin(name) for name in BUTTONS})
        return pins

    def validate(self) -> None:
        """Raise ValueError on a pin used twice, out of range, or too many seats."""
        if len(self.seats) > MAX_SEATS:
            raise ValueError(f"at most {MAX_SEATS} seat LEDs, not {len(self.seats)}")
        seen: dict[int, str] = {}
        for name, pin in self.all_pins().items():
            if not isinstance(pin, int) or isinstance(pin, bool) or not 2 <= pin <= 27:
                raise ValueError(f"pin {name} must be a BCM GPIO number 2..27, not {pin!r}")
            if pin in seen:
                raise ValueError(f"pin {pin} is used twice: {seen[pin]} and {name}")
            seen[pin] = name

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> PanelPins:
        """Pins from the config file's ``[pins]`` table; missing entries keep their defaults."""
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise ValueError(
                f"unknown pin names: {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}"
            )
        values = dict(data)
        if "seats" in values:
            values["seats"] = tuple(values["seats"])
        pins = cls(**values)
        pins.validate()
        return pins


DEFAULT_PINS = PanelPins()


@dataclass
class _ButtonState:
    pressed_at: float = -1e9
    down: bool = False
    count: int = 0


@dataclass
class PanelLog:
    """What the panel did, for the web page and the tests: the last frame and every press."""

    presses: list[tuple[float, str, str]] = field(default_factory=list)  # (time, button, source)


class Panel:
    """The physical (or mock) panel. Thread-safe."""

    def __init__(
        self,
        pins: PanelPins = DEFAULT_PINS,
        seat_colours: Sequence[str] = (),
        on_button: Callable[[str], None] | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        debounce_s: float = 0.05,
        tick_hz: float = 50.0,
        start: bool = True,
    ) -> None:
        from gpiozero import LED, PWMLED, RGBLED, Button, Buzzer  # lazily: only the panel needs gpiozero
        from gpiozero.exc import PinPWMUnsupported

        pins.validate()
        self.pins = pins
        # every seat pin gets its LED; seats without a player stay dark
        self.seat_count = len(pins.seats)
        self.seat_colours = list(seat_colours)[: self.seat_count]
        if not self.seat_colours:
            self.seat_colours = [f"seat{i}" for i in range(self.seat_count)]
        self._clock = clock
        self._debounce_s = debounce_s
        self._on_button = on_button
        self._lock = threading.RLock()
        self._signals = PanelSignals()
        self._frame = render(self._signals, clock(), self.seat_count)
        self._buttons_state = {name: _ButtonState() for name in BUTTONS}
        self.log = PanelLog()
        self._devices: list[Any] = []
        self.pwm = True

        def make_led(pin: int) -> Any:
            try:
                return PWMLED(pin, pin_factory=pin_factory)
            except PinPWMUnsupported:
                self.pwm = False
                return LED(pin, pin_factory=pin_factory)

        try:
            self.seat_leds = [make_led(pin) for pin in pins.seats]
            self._devices += self.seat_leds
            try:
                self.status_led = RGBLED(
                    pins.status_red, pins.status_green, pins.status_blue, pwm=True, pin_factory=pin_factory
                )
            except PinPWMUnsupported:
                self.pwm = False
                self.status_led = RGBLED(
                    pins.status_red, pins.status_green, pins.status_blue, pwm=False, pin_factory=pin_factory
                )
            self._devices.append(self.status_led)
            self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
            self._devices.append(self.buzzer)
            self.buttons: dict[str, Any] = {}
            for name in BUTTONS:
                button = Button(pins.button_pin(name), pull_up=True, pin_factory=pin_factory)
                button.when_pressed = self._edge_handler(name, True)
                button.when_released = self._edge_handler(name, False)
                self.buttons[name] = button
                self._devices.append(button)
        except Exception:
            self.close()
            raise
        if pin_factory is None:
            from gpiozero import Device

            pin_factory = Device.pin_factory
        name = factory_name(pin_factory)
        #: what drives the pins (open_panel says more when it had to fall back)
        self.report = PinReport(name, real=name != MOCK)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._period = 1.0 / tick_hz
        self.show(self._signals)
        if start:
            self._thread = threading.Thread(target=self._run, name="panel-ticker", daemon=True)
            self._thread.start()

    # -- outputs ----------------------------------------------------------------------------------------
    def now(self) -> float:
        """The panel's clock: signal times (``*_since``, ``legal_flash_at``) are on this clock."""
        return self._clock()

    @property
    def signals(self) -> PanelSignals:
        with self._lock:
            return self._signals

    def show(self, signals: PanelSignals) -> PanelFrame:
        """Set what the table says and drive the outputs now."""
        with self._lock:
            self._signals = signals
            return self.tick()

    def tick(self, t: float | None = None) -> PanelFrame:
        """Render the current signals at time ``t`` (default: now) onto the devices."""
        with self._lock:
            now = self._clock() if t is None else t
            frame = render(self._signals, now, self.seat_count)
            self._apply(frame)
            self._frame = frame
            return frame

    def _apply(self, frame: PanelFrame) -> None:
        for led, level in zip(self.seat_leds, frame.seats):
            if self.pwm:
                if led.value != level:
                    led.value = level
            else:
                want = level >= 0.5
                if bool(led.value) != want:
                    led.value = want
        status = frame.status if self.pwm else tuple(1.0 if c >= 0.5 else 0.0 for c in frame.status)
        if tuple(self.status_led.value) != tuple(status):
            self.status_led.value = status
        if bool(self.buzzer.value) != frame.buzzer:
            self.buzzer.value = frame.buzzer

    def _run(self) -> None:
        while not self._stop.wait(self._period):
            try:
                self.tick()
            except Exception:  # a closed device during shutdown; the loop keeps its own state
                if self._stop.is_set():
                    return

    # -- buttons ----------------------------------------------------------------------------------------
    def _edge_handler(self, name: str, down: bool) -> Callable[[], None]:
        def handler() -> None:
            self._edge(name, down)

        return handler

    def _edge(self, name: str, down: bool) -> None:
        fire = False
        with self._lock:
            state = self._buttons_state[name]
            now = self._clock()
            if down:
                # a press counts when the button was up and the last press is older than the debounce time;
                # chatter (down/up/down within debounce_s) is the same press
                if not state.down and now - state.pressed_at >= self._debounce_s:
                    fire = True
                    state.count += 1
                    state.pressed_at = now
                    self.log.presses.append((now, name, "button"))
                state.down = True
            else:
                if now - state.pressed_at >= self._debounce_s:
                    state.down = False
                else:
                    # release within the bounce window: treat as chatter, the button stays "down" until a
                    # clean release; a later press after the window still counts
                    state.down = False
                    state.pressed_at = now
        if fire and self._on_button is not None:
            self._on_button(name)

    def press(self, name: str, source: str = "virtual") -> None:
        """A virtual press (the web page's panel): the same path as a debounced physical press."""
        if name not in BUTTONS:
            raise ValueError(f"unknown button {name!r}; buttons: {', '.join(BUTTONS)}")
        with self._lock:
            state = self._buttons_state[name]
            state.count += 1
            self.log.presses.append((self._clock(), name, source))
        if self._on_button is not None:
            self._on_button(name)

    def pressed_within(self, name: str, seconds: float) -> bool:
        """Whether the physical button ``name`` was pressed in the last ``seconds`` (not a virtual press)."""
        now = self._clock()
        with self._lock:
            return any(button == name and source == "button" and now - at <= seconds
                       for at, button, source in reversed(self.log.presses[-50:]))

    def press_count(self, name: str) -> int:
        with self._lock:
            return self._buttons_state[name].count

    def set_seat_colours(self, colours: Sequence[str]) -> None:
        """A new game with other players: the seats that have a player, in seat order."""
        with self._lock:
            self.seat_colours = list(colours)[: self.seat_count]

    def set_on_button(self, callback: Callable[[str], None] | None) -> None:
        self._on_button = callback

    # -- state for the web page -------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The LED and buzzer states now, JSON-ready (the web page's virtual panel mirrors this)."""
        with self._lock:
            frame = self._frame
            signals = self._signals
            return {
                "pattern": frame.pattern,
                "seats": [
                    {
                        "seat": index,
                        "colour": self.seat_colours[index],
                        "level": round(frame.seats[index], 3),
                        "on": frame.seats[index] >= 0.5,
                        "pattern": frame.seat_patterns[index] if index < len(frame.seat_patterns) else "off",
                    }
                    for index in range(len(self.seat_colours))
                ],
                "status": {"rgb": [round(c, 3) for c in frame.status], "pattern": frame.pattern},
                "buzzer": frame.buzzer,
                "active_seat": signals.active_seat,
                "split": [{"seat": s.seat, "tiles": s.tiles} for s in signals.split],
                "winners": list(signals.winners),
                "buttons": list(BUTTONS),
                "presses": {name: state.count for name, state in self._buttons_state.items()},
                "pins": self.report.to_dict(),
            }

    def close(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
        thread = getattr(self, "_thread", None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)
        for device in reversed(getattr(self, "_devices", [])):
            # closing is best effort: a half-built panel must still release its pins
            with contextlib.suppress(Exception):
                device.close()
        self._devices = []

    def __enter__(self) -> Panel:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def open_panel(pins: PanelPins = DEFAULT_PINS, seat_colours: Sequence[str] = (), **options: Any) -> Panel:
    """The panel on gpiozero's pin factory (``GPIOZERO_PIN_FACTORY``, else gpiozero's order from lgpio on).

    When no factory loads, the panel still runs on mock pins so that the page's virtual panel works, but
    never silently: on a Raspberry Pi that is a fault (``panel.report.fault``) the page and ``companion
    doctor`` show, and it is logged as an error; elsewhere a note. Mock pins asked for are no fault."""
    import logging
    import warnings

    from gpiozero.exc import PinFactoryFallback
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    log = logging.getLogger(__name__)
    model = raspberry_pi_model()
    if mock_requested():
        panel = Panel(pins, seat_colours, pin_factory=MockFactory(pin_class=MockPWMPin), **options)
        on_pi = f" on this {model}: its GPIO panel is not driven" if model else ""
        panel.report = PinReport(MOCK, real=False, asked_for=True,
                                 note=f"mock pins, as GPIOZERO_PIN_FACTORY=mock asks{on_pi}")
        if model:
            log.warning("%s", panel.report.note)
        return panel
    prepare_lgpio()
    here = os.getcwd()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            panel = Panel(pins, seat_colours, **options)
            failure: BaseException | None = None
        except Exception as error:  # gpiozero raises what the factory raised when one is named
            failure = error
        finally:
            if os.getcwd() != here:
                os.chdir(here)  # importing lgpio changes into LG_WD
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)]
    if failure is None:
        if fallbacks:
            panel.report = PinReport(panel.report.factory, real=True, note="; ".join(fallbacks)[:400])
            log.warning("GPIO pins on %s: %s", panel.report.factory, panel.report.note)
        return panel
    report = fallback_report(failure, model, fallbacks)
    if report.fault:
        log.error("%s", report.fault)
    else:
        log.warning("%s", report.note)
    panel = Panel(pins, seat_colours, pin_factory=MockFactory(pin_class=MockPWMPin), **options)
    panel.report = report
    return panel
