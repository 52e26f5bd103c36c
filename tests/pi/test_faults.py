"""Faults a Pi meets, each injected: the camera library that does not load (a numpy that shadows the
system's), a panel whose pins fall back to mock, lgpio in a read-only working directory. Each is named in
words on the page, kept out of the watchdog's way when a restart cannot mend it, and logged."""

from __future__ import annotations

import html
import os
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from companion.config import config_from_dict
from companion.table.loop import TableLoop
from hw import panel as panel_module
from hw import pins
from vision.camera_library import (
    CameraLibraryError,
    NumpyPlacement,
    explain_import_failure,
    load_picamera2,
    numpy_placement,
)
from vision.sources import SourceError, WatchedSource

ABI_ERROR = ("numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, "
             "got 88 from PyObject")


def fake_numpy(site: Path, version: str, metadata: str = "dist-info") -> Path:
    (site / "numpy").mkdir(parents=True)
    (site / "numpy" / "__init__.py").write_text("", encoding="utf-8")
    if metadata == "dist-info":
        info = site / f"numpy-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: numpy\nVersion: {version}\n")
    else:  # Debian's apt packages carry egg-info
        info = site / f"numpy-{version}.egg-info"
        info.mkdir()
        (info / "PKG-INFO").write_text(f"Metadata-Version: 1.2\nName: numpy\nVersion: {version}\n")
    return site


def test_a_venv_numpy_in_front_of_the_systems_is_found_without_importing_either(tmp_path: Path) -> None:
    venv = fake_numpy(tmp_path / "venv/lib/python3.11/site-packages", "2.4.6")
    system = fake_numpy(tmp_path / "usr/lib/python3/dist-packages", "1.24.2", metadata="egg-info")
    placement = numpy_placement([str(venv), str(system)], system=[str(system)])
    assert placement.loaded_version == "2.4.6" and placement.system_version == "1.24.2"
    assert placement.shadowed
    shadowing = f"numpy 2.4.6 in {venv / 'numpy'} shadows the system's numpy 1.24.2"
    assert placement.describe().startswith(shadowing)
    alone = numpy_placement([str(system)], system=[str(system)])
    assert not alone.shadowed and alone.loaded_version == "1.24.2"
    from companion.doctor.machine import numpy_check

    check = numpy_check([str(venv), str(system)], [str(system)])  # pi-install.sh will not mend such a venv
    assert check.level == "fail" and check.fix.startswith("remove the venv")


def test_every_way_picamera2_fails_to_load_is_one_sentence_with_its_fix() -> None:
    shadowed = NumpyPlacement("2.4.6", "/venv/numpy", "1.24.2", "/usr/lib/python3/dist-packages/numpy")
    text = explain_import_failure(ValueError(ABI_ERROR), shadowed)
    assert "numpy 2.4.6 in /venv/numpy shadows the system's numpy 1.24.2" in text and ABI_ERROR in text
    missing = ModuleNotFoundError("No module named 'picamera2'", name="picamera2")
    assert "python3-picamera2" in explain_import_failure(missing)
    plain = NumpyPlacement("1.24.2", "/usr/numpy", "1.24.2", "/usr/numpy")
    other = explain_import_failure(OSError("libcamera.so.0.3: cannot open shared object file"), plain)
    assert other.startswith("picamera2 failed to load (OSError: libcamera.so.0.3")


@pytest.fixture
def broken_picamera2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A picamera2 that fails on import the way Pi OS's does under a venv's numpy 2."""
    package = tmp_path / "picamera2"
    package.mkdir()
    (package / "__init__.py").write_text(f"raise ValueError({ABI_ERROR!r})\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)


@pytest.mark.usefixtures("broken_picamera2")
def test_a_camera_library_that_raises_a_value_error_is_a_permanent_source_fault() -> None:
    with pytest.raises(CameraLibraryError) as raised:
        load_picamera2()
    assert raised.value.permanent and "scripts/pi-install.sh" in str(raised.value)
    assert ABI_ERROR in raised.value.cause


class _FailingOpen:
    name = "failing"

    def __init__(self, error: Exception) -> None:
        self.error = error

    def open(self) -> None:
        raise self.error

    def read(self) -> None:
        return None

    def close(self) -> None:
        pass


def _loop(tmp_path: Path, error: Exception) -> TableLoop:
    from companion.commands.web import LoopFrames
    from hw.panel import Panel

    config = config_from_dict({"game": "jurassik", "seed": 1, "store": {"state_dir": str(tmp_path / "s")}})
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    panel = Panel(config.pins, [s.colour for s in config.seats],
                  pin_factory=MockFactory(pin_class=MockPWMPin), start=False)
    loop = TableLoop(config, panel=panel)
    loop.source = LoopFrames(WatchedSource(lambda: _FailingOpen(error), max_age=0.1), idle_s=0.0)
    return loop


def test_a_camera_whose_library_cannot_load_is_a_fault_on_the_page_and_keeps_the_service_up(
    tmp_path: Path,
) -> None:
    from companion.web import create_app

    loop = _loop(tmp_path, CameraLibraryError("numpy 2.4.6 in /venv shadows the system's numpy 1.24.2"))
    try:
        loop.process_read(loop.source.read())
        snapshot = loop.snapshot()
        assert snapshot["faults"] == [{"part": "camera", "permanent": True, "text": (
            "numpy 2.4.6 in /venv shadows the system's numpy 1.24.2: run scripts/pi-install.sh (it keeps the "
            "system's numpy)")}]
        assert snapshot["camera"]["fault_permanent"] and not snapshot["camera"]["ok"]
        assert loop.healthy()  # a restart would not mend it: the page stays up to say so
        assert loop.panel.snapshot()["pattern"] == "camera-lost"
        client = create_app(loop, {"lan": False}).test_client()
        page = client.get("/", headers={"Host": "localhost"}).get_data(as_text=True)
        assert "The camera does not open." in page and "shadows the system&#39;s numpy 1.24.2" in page
    finally:
        loop.close()


def test_an_unplugged_camera_is_retried_in_place_while_the_page_says_so(tmp_path: Path) -> None:
    loop = _loop(tmp_path, SourceError("cannot open video source 0"))
    try:
        loop.process_read(loop.source.read())
        assert loop.snapshot()["faults"][0]["text"] == "cannot open video source 0"
        assert loop.healthy()  # no restart loop: the page stays up and says why there is no picture
    finally:
        loop.close()


@pytest.fixture
def pi_without_pins(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Raspberry Pi 5 whose lgpio cannot open the chip: every default pin factory fails."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def no_factory() -> Any:
        warnings.warn(PinFactoryFallback("Falling back from lgpio: can not open gpiochip"), stacklevel=1)
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    monkeypatch.setattr(panel_module, "raspberry_pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")


@pytest.mark.usefixtures("pi_without_pins")
def test_a_pi_whose_pins_fall_back_to_mock_says_so_on_the_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from companion.web import create_app

    panel = panel_module.open_panel(start=False)
    try:
        assert panel.report.factory == "mock" and not panel.report.real
        assert "the panel is not connected" in panel.report.fault
        assert "Raspberry Pi 5" in panel.report.fault and "can not open gpiochip" in panel.report.fault
        assert any(record.levelname == "ERROR" and "not connected" in record.message
                   for record in caplog.records)
        config = config_from_dict({"game": "jurassik", "store": {"state_dir": str(tmp_path / "s")}})
        loop = TableLoop(config, panel=panel)
        page = create_app(loop, {"lan": False}).test_client().get("/", headers={"Host": "localhost"})
        text = page.get_data(as_text=True)
        assert "The panel is not connected." in text
        assert html.escape(pins.pins_fix("can not open gpiochip")) in text  # the fix this machine needs
        assert loop.snapshot()["panel"]["pins"]["fault"] == panel.report.fault
    finally:
        panel.close()


def test_mock_pins_asked_for_are_no_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(panel_module, "raspberry_pi_model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    panel = panel_module.open_panel(start=False)
    try:
        assert panel.report.asked_for and not panel.report.fault
        assert "GPIOZERO_PIN_FACTORY=mock" in panel.report.note
    finally:
        panel.close()


def test_lgpio_is_given_a_writable_work_directory_when_the_working_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir()
    monkeypatch.chdir(tmp_path)
    read_only = str(tmp_path)
    monkeypatch.setattr(pins, "writable", lambda d: str(d) != read_only and os.path.isdir(d))
    environ: dict[str, str] = {"RUNTIME_DIRECTORY": str(runtime)}
    assert pins.prepare_lgpio(environ) == str(runtime) and environ["LG_WD"] == str(runtime)
    named = {"LG_WD": "/somewhere"}
    assert pins.prepare_lgpio(named) == "/somewhere"  # what the unit sets is kept
    bare: dict[str, str] = {}
    assert pins.prepare_lgpio(bare) == bare["LG_WD"]  # a temporary directory at worst


def test_a_board_model_is_read_from_the_device_tree(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert pins.raspberry_pi_model(str(model)) == "Raspberry Pi 5 Model B Rev 1.0"
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert pins.raspberry_pi_model(str(model)) == ""
    assert pins.raspberry_pi_model(str(tmp_path / "none")) == ""

