"""Set-up measured on frames made outside the product (tests/helpers/print_camera.py): Jurassic Parts'
25 mm stickers cut from `companion tags --size 25`'s own PDF, on a wooden table 1000 x 560 mm, 900 mm up,
tilted 20 degrees, through a Bayer sensor with blur, noise and JPEG, with an ordinary lens (2.8 % at the
frame's corners) and a strong one (7.9 %), at 4608 x 2592 and binned to 2304 x 1296.

- codes told their printed size are all read at both resolutions;
- no calibration is called ok while tiles lie more than 3 mm off, and it says how far and to fit the lens;
- with the lens fitted from photos of the PDF's own lens board, every tile lies within 1.5 mm;
- the lens fit refuses copies of one photo and a set of photos that leaves a frame corner out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import pytest
from helpers import print_camera as pc

from companion.cli import main

pytestmark = pytest.mark.slow
AREA = (1000.0, 560.0)
AREA_ARGS = ["--game", "JP", "--width", "1000", "--height", "560"]
ORDINARY, STRONG = -0.05, -0.142


@dataclass
class Frames:
    folder: Path
    truth: dict[str, tuple[float, float]]
    board: Any
    board_mm: tuple[float, float]

    def path(self, name: str) -> str:
        return str(self.folder / f"{name}.jpg")


def _camera(width: int, k1: float) -> pc.Camera:
    return pc.Camera(width, width * 9 // 16, tilt_deg=20.0, height_mm=900.0, k1=k1,
                     target_mm=(AREA[0] / 2, AREA[1] / 2), binned=width == 2304)


@pytest.fixture(scope="module")
def frames(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Frames]:
    folder = tmp_path_factory.mktemp("independent")
    assert main(["tags", "JP", "--size", "25", "--out", str(folder)]) == 0
    pdf = folder / "jp-tags.pdf"
    pages = pc.page_count(pdf)  # the stickers' pages, then the markers' and the lens board's
    codes = pc.cut_codes(pc.rasterise(pdf, 600, 1, pages - 2))
    lasts = pc.rasterise(pdf, 300, pages - 1, pages)
    markers = pc.cut_markers(lasts[:1])
    board, board_mm = pc.cut_board(lasts[-1], 8.0, 300)
    table = pc.Table(AREA)
    for marker, (x, y) in {0: (0.0, 0.0), 1: (AREA[0], 0.0), 2: AREA, 3: (0.0, AREA[1])}.items():
        image, share = markers[marker]
        table.put_marker(image, share, (x, y), 40.0)
    fronts = sorted(payload for payload in codes if payload.split(":")[2].startswith("F"))
    assert len(fronts) == 58
    pc.jurassic_parts_slab(table, codes, fronts, 25.0, (AREA[0] / 2, AREA[1] / 2), seed=2)
    for name, width, k1 in (("ordinary-4608", 4608, ORDINARY), ("ordinary-2304", 2304, ORDINARY),
                            ("strong-4608", 4608, STRONG)):
        cv2.imwrite(str(folder / f"{name}.jpg"), pc.photograph(table, _camera(width, k1)))
    yield Frames(folder, table.truth, board, board_mm)


def calibrate(frames: Frames, name: str, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    out = frames.folder / f"{name}.json"
    main(["calibrate", frames.path(name.split("+")[0]), *AREA_ARGS, "--out", str(out), *extra])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def observe(frames: Frames, name: str,
            capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], list[float]]:
    image = frames.path(name.split("+")[0])
    assert main(["observe", "JP", image, "--calibration", str(frames.folder / f"{name}.json")]) == 0
    seen: dict[str, Any] = json.loads(capsys.readouterr().out)
    errors = [math.dist(reading["center_mm"], frames.truth[f"DT1:JP:{tag}"])
              for tag, reading in seen["tags"].items() if reading.get("center_mm") is not None]
    return seen, errors


@pytest.mark.parametrize("name", ["ordinary-4608", "ordinary-2304"])
def test_codes_told_their_printed_size_are_all_read_at_both_resolutions(
    frames: Frames, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    report = calibrate(frames, name, capsys, "--tag-size", "25")
    assert report["tags"]["printed_mm"] == 25.0
    seen, _ = observe(frames, name, capsys)  # the calibration carries the size to observe
    assert len(seen["tags"]) == 58


def test_small_codes_at_half_resolution_get_advice_a_person_can_follow(
    frames: Frames, capsys: pytest.CaptureFixture[str]
) -> None:
    report = calibrate(frames, "ordinary-2304", capsys, "--tag-size", "25")
    small = next(p for p in report["problems"] if "px per module" in p)
    assert "full resolution, 4608 x 2592" in small and "--size" in small
    assert "lower the camera" not in small  # the area would no longer fit the view


def test_an_ordinary_lens_unfitted_is_not_called_ok_and_says_how_far(
    frames: Frames, capsys: pytest.CaptureFixture[str]
) -> None:
    report = calibrate(frames, "ordinary-4608", capsys, "--tag-size", "25")
    seen, errors = observe(frames, "ordinary-4608", capsys)
    assert max(errors) > 3.0  # the premise: the lens puts tiles this far off
    assert not report["ok"] and not report["precision"]["ok"]
    assert seen["calibration"]["state"] == "imprecise" and not seen["calibration"]["trusted"]
    assert 0.7 * max(errors) <= report["precision"]["expected_mm"] <= 1.5 * max(errors)
    assert any("fit the lens" in p and "--lens" in p for p in report["problems"])


def test_a_strong_lens_unfitted_is_never_called_ok(frames: Frames,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    report = calibrate(frames, "strong-4608", capsys, "--tag-size", "25")
    assert not report["ok"] and report["precision"]["expected_mm"] > 6.0
    assert any("bends the picture" in p for p in report["problems"])
    assert main(["observe", "JP", frames.path("strong-4608"), "--calibration",
                 str(frames.folder / "strong-4608.json")]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert seen["calibration"]["state"] in ("imprecise", "misfit") and not seen["calibration"]["trusted"]


@pytest.fixture(scope="module")
def board_photos(frames: Frames) -> list[str]:
    paths = []
    for index, photo in enumerate(pc.board_photos(frames.board, frames.board_mm, _camera(4608, STRONG))):
        paths.append(str(frames.folder / f"board-{index:02d}.jpg"))
        cv2.imwrite(paths[-1], photo)
    return paths


def test_with_the_lens_fitted_every_tile_lies_within_1_5_mm(
    frames: Frames, board_photos: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    report = calibrate(frames, "strong-4608+lens", capsys, "--tag-size", "25", "--lens", *board_photos)
    assert report["ok"], report["problems"]
    assert report["lens"]["source"] == "fitted from 12 of 12 photos of the board"
    seen, errors = observe(frames, "strong-4608+lens", capsys)
    assert len(errors) == 58 and max(errors) <= 1.5, max(errors)
    assert seen["calibration"]["state"] == "ok" and seen["calibration"]["trusted"]


def test_the_lens_fit_refuses_copies_and_a_corner_no_photo_reaches(
    frames: Frames, board_photos: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calibrate", frames.path("strong-4608"), "--lens", *[board_photos[0]] * 4]) == 2
    refused = capsys.readouterr().err
    assert "3 of them again from the same place" in refused and "at least 4" in refused
    right_half = [board_photos[i] for i in (2, 3, 4, 5, 6, 7, 9, 11)]  # the spots in the middle and right
    assert main(["calibrate", frames.path("strong-4608"), "--lens", *right_half]) == 2
    assert "near the frame's top left and bottom left corners" in capsys.readouterr().err
