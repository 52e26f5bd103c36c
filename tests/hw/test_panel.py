"""The panel on gpiozero's MockFactory: pin states for every signal pattern, debounced buttons."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from hw.panel import BUTTONS, DEFAULT_PINS, Panel, PanelPins
from hw.signals import (
    AMBER,
    BLUE,
    GREEN,
    LEGAL_FLASH_S,
    MAGENTA,
    OBJECTION_PERIOD_S,
    PULSE_PERIOD_S,
    RED,
    SPLIT_BLINK_S,
    WHITE,
    PanelSignals,
    SplitShare,
    render,
    split_schedule,
)

COLOURS = ("red", "blue", "green", "yellow")


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def panel(factory: MockFactory, clock: FakeClock) -> Iterator[Panel]:
    panel = Panel(
        DEFAULT_PINS, COLOURS, on_button=lambda name: None, pin_factory=factory, clock=clock, start=False
    )
    yield panel
    panel.close()


def pressed(panel: Panel) -> list[str]:
    return [name for _, name, _ in panel.log.presses]


def seat_pin(factory: MockFactory, index: int) -> Any:
    return factory.pin(DEFAULT_PINS.seats[index])


def status_pins(factory: MockFactory) -> tuple[Any, ...]:
    return tuple(
        factory.pin(p) for p in (DEFAULT_PINS.status_red, DEFAULT_PINS.status_green, DEFAULT_PINS.status_blue)
    )


def rgb(factory: MockFactory) -> tuple[float, ...]:
    return tuple(round(pin.state, 3) for pin in status_pins(factory))


def test_turn_lights_only_the_active_seat_steadily(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    panel.show(PanelSignals(active_seat=2))
    for dt in (0.0, 0.3, 1.7, 5.0):
        panel.tick(clock.now + dt)
        assert [seat_pin(factory, i).state for i in range(4)] == [0, 0, 1, 0]
        assert rgb(factory) == (0, 0, 0)
        assert not factory.pin(DEFAULT_PINS.buzzer).state


def test_legal_move_flashes_green_once_then_back_to_turn(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    panel.show(PanelSignals(active_seat=1, legal_flash_at=clock.now))
    assert rgb(factory) == GREEN
    assert seat_pin(factory, 1).state == 1  # the turn stays visible under the flash
    panel.tick(clock.now + LEGAL_FLASH_S + 0.01)
    assert rgb(factory) == (0, 0, 0)
    assert seat_pin(factory, 1).state == 1


def test_objection_blinks_red_and_beeps_until_cleared(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    signals = PanelSignals(active_seat=0, objection=True, objection_since=clock.now)
    panel.show(signals)
    buzzer = factory.pin(DEFAULT_PINS.buzzer)
    seen_red, seen_off, beeps = 0, 0, 0
    for step in range(40):  # 2 s sampled every 50 ms
        panel.tick(clock.now + step * 0.05)
        if rgb(factory) == RED:
            seen_red += 1
        elif rgb(factory) == (0, 0, 0):
            seen_off += 1
        beeps += bool(buzzer.state)
    assert seen_red and seen_off and beeps
    assert beeps < seen_red  # the beep is a short part of each red blink
    # a whole period contains exactly one off->on change of the buzzer
    panel.show(signals.with_(objection=False))
    assert rgb(factory) == (0, 0, 0) and not buzzer.state
    buzzer_states = [bool(s.state) for s in buzzer.states]
    assert True in buzzer_states and buzzer_states[-1] is False
    assert OBJECTION_PERIOD_S > 0


def test_waiting_is_steady_amber(panel: Panel, factory: MockFactory, clock: FakeClock) -> None:
    panel.show(PanelSignals(active_seat=0, waiting=True))
    for dt in (0, 0.25, 0.5, 3):
        panel.tick(clock.now + dt)
        assert rgb(factory) == AMBER


def test_split_blue_then_each_contributor_blinks_once_per_tile_in_rank_order(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    shares = (SplitShare(seat=2, tiles=3), SplitShare(seat=0, tiles=1))
    panel.show(PanelSignals(active_seat=0, split=shares, split_since=clock.now))
    blinks, cycle = split_schedule(shares)
    order: list[int] = []
    last = [0, 0, 0, 0]
    step = 0.02
    for k in range(int(2 * cycle / step)):
        panel.tick(clock.now + k * step)
        assert rgb(factory) == BLUE
        levels = [seat_pin(factory, i).state for i in range(4)]
        assert sum(levels) <= 1  # one seat at a time
        for i in range(4):
            if levels[i] and not last[i]:
                order.append(i)
        last = levels
    assert order == [2, 2, 2, 0, 2, 2, 2, 0]  # repeats until the split is taken
    assert len(blinks) == 4 and blinks[0][1] - blinks[0][0] == pytest.approx(SPLIT_BLINK_S / 2)


def test_game_over_pulses_the_winners_only(panel: Panel, factory: MockFactory, clock: FakeClock) -> None:
    panel.show(PanelSignals(active_seat=1, game_over=True, winners=(0, 3)))
    levels = []
    for k in range(20):
        panel.tick(k * PULSE_PERIOD_S / 20)
        levels.append(seat_pin(factory, 0).state)
        assert seat_pin(factory, 3).state == pytest.approx(seat_pin(factory, 0).state)
        assert seat_pin(factory, 1).state == 0 and seat_pin(factory, 2).state == 0
    assert min(levels) < 0.05 and max(levels) > 0.95
    assert len({round(v, 2) for v in levels}) > 5  # a pulse, not a blink


def test_camera_lost_has_its_own_pattern_and_overrides_everything(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    panel.show(PanelSignals(active_seat=1, objection=True, camera_lost=True, camera_lost_since=clock.now))
    colours = set()
    for k in range(30):
        panel.tick(clock.now + k * 0.05)
        colours.add(rgb(factory))
        assert all(seat_pin(factory, i).state == 0 for i in range(4))
        assert not factory.pin(DEFAULT_PINS.buzzer).state
    assert colours == {MAGENTA, (0, 0, 0)}


def test_every_pattern_name_is_distinct() -> None:
    t = 0.0
    names = {
        PanelSignals().name(t),
        PanelSignals(active_seat=0).name(t),
        PanelSignals(legal_flash_at=0.0).name(t),
        PanelSignals(objection=True).name(t),
        PanelSignals(waiting=True).name(t),
        PanelSignals(split=(SplitShare(0, 1),)).name(t),
        PanelSignals(game_over=True).name(t),
        PanelSignals(camera_lost=True).name(t),
        PanelSignals(storage_fault=True).name(t),
    }
    assert len(names) == 9


def test_a_storage_fault_blinks_white_with_a_rare_beep_above_an_objection() -> None:
    signals = PanelSignals(active_seat=1, objection=True, storage_fault=True, storage_fault_since=100.0)
    frames = [render(signals, 100.0 + k * 0.1, 4) for k in range(200)]  # twenty seconds
    assert {f.pattern for f in frames} == {"storage"}
    assert {f.status for f in frames} == {WHITE, (0.0, 0.0, 0.0)}
    beeps = [k for k, f in enumerate(frames) if f.buzzer]
    assert beeps and beeps[0] == 0 and all(b % 100 < 2 for b in beeps)  # once every ten seconds
    assert all(f.seats[1] == 1.0 for f in frames)  # whose turn it is stays lit
    lost = render(signals.with_(camera_lost=True), 100.0, 4)
    assert lost.pattern == "camera-lost"


def test_button_press_counts_once_when_held_and_when_chattering(
    panel: Panel, factory: MockFactory, clock: FakeClock
) -> None:
    pin = factory.pin(DEFAULT_PINS.confirm)
    pin.drive_low()  # pressed (pull-up, button to ground)
    clock.now += 2.0  # held for 2 s
    pin.drive_high()
    assert pressed(panel) == ["confirm"]
    clock.now += 1.0
    for _ in range(5):  # contact bounce within a few ms
        pin.drive_low()
        clock.now += 0.002
        pin.drive_high()
        clock.now += 0.002
    pin.drive_low()
    clock.now += 0.5
    pin.drive_high()
    assert pressed(panel) == ["confirm", "confirm"]
    assert panel.press_count("confirm") == 2


def test_each_button_reports_its_name(panel: Panel, factory: MockFactory, clock: FakeClock) -> None:
    for name in BUTTONS:
        clock.now += 1
        factory.pin(DEFAULT_PINS.button_pin(name)).drive_low()
        clock.now += 0.1
        factory.pin(DEFAULT_PINS.button_pin(name)).drive_high()
    assert pressed(panel) == list(BUTTONS)


def test_virtual_press_takes_the_same_path(panel: Panel) -> None:
    panel.press("undo")
    assert pressed(panel) == ["undo"]
    with pytest.raises(ValueError):
        panel.press("self-destruct")


def test_snapshot_mirrors_the_leds(panel: Panel, clock: FakeClock) -> None:
    panel.show(PanelSignals(active_seat=3, waiting=True))
    snap = panel.snapshot()
    assert snap["pattern"] == "waiting"
    assert [s["on"] for s in snap["seats"]] == [False, False, False, True]
    assert [s["colour"] for s in snap["seats"]] == list(COLOURS)
    assert snap["status"]["rgb"] == list(AMBER)
    assert snap["buzzer"] is False


def test_plain_mock_pins_fall_back_to_on_off(clock: FakeClock) -> None:
    factory = MockFactory(pin_class=MockPin)
    try:
        with Panel(DEFAULT_PINS, COLOURS, pin_factory=factory, clock=clock, start=False) as panel:
            assert panel.pwm is False
            panel.show(PanelSignals(active_seat=0, waiting=True))
            assert factory.pin(DEFAULT_PINS.seats[0]).state is True
            assert (factory.pin(17).state, factory.pin(27).state, factory.pin(22).state) == (
                True,
                False,
                False,
            )
    finally:
        factory.reset()


def test_ticker_thread_blinks_on_its_own(factory: MockFactory) -> None:
    with Panel(DEFAULT_PINS, COLOURS, pin_factory=factory, tick_hz=100) as panel:
        panel.show(PanelSignals(objection=True, objection_since=time.monotonic()))
        time.sleep(0.6)
        states = [s.state for s in factory.pin(DEFAULT_PINS.status_red).states]
        assert 1 in states and 0 in states[1:]


def test_pins_from_config_are_validated() -> None:
    pins = PanelPins.from_mapping({"seats": [4, 5], "buzzer": 12})
    assert pins.seats == (4, 5) and pins.buzzer == 12
    with pytest.raises(ValueError, match="used twice"):
        PanelPins.from_mapping({"buzzer": 23})
    with pytest.raises(ValueError, match=r"2\.\.27"):
        PanelPins.from_mapping({"mode": 40})
    with pytest.raises(ValueError, match="unknown pin"):
        PanelPins.from_mapping({"laser": 3})
    with pytest.raises(ValueError, match="at most 6"):
        PanelPins.from_mapping({"seats": [2, 3, 4, 7, 8, 9, 10]})


def test_render_is_pure_and_bounded() -> None:
    signals = PanelSignals(active_seat=1, game_over=True, winners=(1,))
    for k in range(50):
        frame = render(signals, k * 0.137, 6)
        assert all(0.0 <= v <= 1.0 for v in frame.seats)
        assert len(frame.seats) == 6
    assert render(signals, 1.0, 6) == render(signals, 1.0, 6)
    assert not math.isnan(render(signals, 1e9, 6).seats[1])


def test_without_a_pin_factory_the_panel_falls_back_to_mock_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    from hw.panel import open_panel

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    panel = open_panel(DEFAULT_PINS, COLOURS, start=False)
    try:
        assert isinstance(panel.buzzer.pin_factory, MockFactory)
        panel.show(PanelSignals(active_seat=1))
        assert panel.snapshot()["seats"][1]["on"] is True
    finally:
        panel.close()
