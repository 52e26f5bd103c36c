"""QR backends: payload, corners in code order, centre, rotation; the `companion decode` contract."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from sim.stamps import code_corners, stamp_qr
from vision import qr

PLACES = [
    ("DT1:JP:F07", (150.0, 140.0), 0.0),
    ("DT1:JK:D3-2L", (420.0, 150.0), 33.0),
    ("DT1:JB:SUPER-YUMMY-01", (160.0, 400.0), 135.0),
    ("DT1:IN:DINO-2", (430.0, 400.0), -80.0),
]


def _frame() -> np.ndarray:
    image = np.full((560, 600, 3), 235, np.uint8)
    for text, center, angle in PLACES:
        stamp_qr(image, text, center, module_px=5.0, angle=angle)
    return image


def _angle_diff(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("name", qr.backend_names())
def test_backend_reads_payload_corners_centre_and_angle(name: str) -> None:
    codes = {code.text: code for code in qr.decode(_frame(), qr.get_backend(name))}
    assert set(codes) == {text for text, _, _ in PLACES}
    for text, center, angle in PLACES:
        code = codes[text]
        assert math.dist(code.center, center) < 3.0
        assert _angle_diff(code.angle, angle) < 3.0, (name, text, code.angle)
        for got, want in zip(code.corners, code_corners(text, center, 5.0, angle)):
            assert math.dist(got, want) < 5.0, (name, text, code.corners)
        assert 4.5 < code.module_px < 5.5


def test_regions_give_full_image_positions() -> None:
    frame = _frame()
    codes = qr.decode(frame, rois=[(300, 50, 250, 220)])
    assert [code.text for code in codes] == ["DT1:JK:D3-2L"]
    assert math.dist(codes[0].center, (420.0, 150.0)) < 3.0


def test_unknown_backend_is_named() -> None:
    with pytest.raises(ValueError, match="unknown QR backend"):
        qr.get_backend("nope")


def test_decode_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), _frame())
    assert main(["decode", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {entry["text"] for entry in out} == {text for text, _, _ in PLACES}
    entry = out[0]
    assert set(entry) == {"text", "corners", "center", "angle"}
    assert len(entry["corners"]) == 4 and all(len(c) == 2 for c in entry["corners"])


def test_decode_command_blank_image_prints_empty_array(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((50, 50, 3), 255, np.uint8))
    assert main(["decode", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize("content", [None, b"not an image at all", b""])
def test_decode_command_bad_file_exits_2_with_one_line(tmp_path: Path, content: bytes | None) -> None:
    path = tmp_path / "bad.png"
    if content is not None:
        path.write_bytes(content)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "decode", str(path)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_codes_too_small_to_read_are_read_enlarged_in_full_image_pixels() -> None:
    module = 1.4  # px per module: below what zxing-cpp reads reliably in the whole frame
    sharp = np.full((560, 600, 3), 235, np.uint8)
    for text, center, angle in PLACES:
        stamp_qr(sharp, text, center, module_px=module, angle=angle)
    image = cv2.GaussianBlur(sharp, (0, 0), 0.6)
    backend = qr.get_backend("zxing")
    assert len(qr.decode(image, backend)) < len(PLACES)
    rects = [(int(x - 40), int(y - 40), 80, 80) for _, (x, y), _ in PLACES] + [(590, 550, 40, 40)]
    codes = qr.decode_enlarged(image, backend, rects, (2.0, 2.6))
    assert sorted(code.text for code in codes) == sorted(text for text, _, _ in PLACES)
    for code in codes:
        _, center, angle = next(place for place in PLACES if place[0] == code.text)
        truth = code_corners(code.text, center, module, angle)
        assert math.dist(code.center, center) < 1.5
        assert max(math.dist(a, b) for a, b in zip(code.corners, truth)) < 2.0 * module
        assert _angle_diff(code.angle, angle) < 2.0


def test_mosaic_keeps_tiles_apart_on_white() -> None:
    tiles = [np.zeros((h, w), np.uint8) for h, w in ((50, 700), (80, 600), (30, 30), (900, 1500))]
    canvas, places = qr._mosaic(tiles)
    boxes = [(x, y, x + t.shape[1], y + t.shape[0]) for t, (x, y) in zip(tiles, places)]
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert min(x0, y0) >= 24 and x1 <= canvas.shape[1] - 24 and y1 <= canvas.shape[0] - 24
        for a0, b0, a1, b1 in boxes[i + 1 :]:
            assert x1 + 24 <= a0 or a1 + 24 <= x0 or y1 + 24 <= b0 or b1 + 24 <= y0
    assert int((canvas == 0).sum()) == sum(t.size for t in tiles)
