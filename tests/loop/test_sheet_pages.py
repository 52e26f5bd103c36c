"""Every printed page of every game's sheets, at every sticker size from 8 to 100 mm: everything within the
10 mm margins, nothing over a heading or another sticker, every caption whole inside its cell, and, on the
page rasterised by poppler, ink only where something was placed."""

from __future__ import annotations

import itertools
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import sheets
from companion.kits import kit_for, kits

pytestmark = pytest.mark.slow
SIZES = [8.0, 25.0, 40.0, 100.0]
DPI = 50
PX_PER_MM = DPI / 25.4


def rasterised(pdf: Path) -> list[np.ndarray]:
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", str(pdf), f"{folder}/p"], check=True,
                       capture_output=True, timeout=600)
        return [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in sorted(Path(folder).glob("p-*.png"))]


def overlap(a: sheets.Placed, b: sheets.Placed) -> bool:
    return (a.x < b.x + b.w - 0.05 and b.x < a.x + a.w - 0.05 and a.y < b.y + b.h - 0.05
            and b.y < a.y + a.h - 0.05)


@pytest.mark.parametrize(("game", "size"), list(itertools.product(sorted(kits()), SIZES)))
def test_every_page_keeps_its_margins_and_nothing_overlaps(game: str, size: float, tmp_path: Path) -> None:
    placed: list[sheets.Placed] = []
    pdf_path, _ = sheets.write_sheets(kit_for(game).printed_set(), tmp_path, size, placed)
    low = sheets.MARGIN - 1e-6
    right, bottom = sheets.PAGE_W - low, sheets.PAGE_H - low
    for thing in placed:
        assert low <= thing.x and thing.x + thing.w <= right, thing
        assert low <= thing.y and thing.y + thing.h <= bottom, thing
    for page, things in itertools.groupby(sorted(placed, key=lambda t: t.page), key=lambda t: t.page):
        boxes = list(things)
        clashes = [(a, b) for a, b in itertools.combinations(boxes, 2) if overlap(a, b)]
        assert clashes == [], f"page {page}: {clashes[:2]}"
    measure = sheets.Sheet("measure")
    measure.pdf.add_page()
    measure.pdf.set_font("Helvetica", size=sheets.CAPTION_PT)
    for thing in placed:
        if thing.kind == "caption":
            widest = max(measure.pdf.get_string_width(line) for line in thing.text.split("\n"))
            assert widest <= thing.w + 0.01, (thing.text, widest, thing.w)
    entries = kit_for(game).printed_set().manifest.entries.values()
    shown = " ".join(t.text.replace("\n", " ") for t in placed if t.kind == "caption")
    for entry in entries:
        assert sheets.caption(entry) in shown  # whole: nothing cut off
    for index, page in enumerate(rasterised(pdf_path), start=1):
        ink = page < 160
        allowed = np.zeros_like(ink)
        for thing in (t for t in placed if t.page == index):
            x0, y0 = int((thing.x - 0.6) * PX_PER_MM), int((thing.y - 0.6) * PX_PER_MM)
            x1 = int((thing.x + thing.w + 0.6) * PX_PER_MM) + 1
            y1 = int((thing.y + thing.h + 0.6) * PX_PER_MM) + 1
            allowed[max(0, y0):y1, max(0, x0):x1] = True
        stray = ink & ~allowed
        assert int(stray.sum()) == 0, f"page {index}: ink where nothing was placed: {np.argwhere(stray)[:3]}"
        band = round(sheets.MARGIN * PX_PER_MM) - 1
        edges = np.concatenate([ink[:band].ravel(), ink[-band:].ravel(), ink[:, :band].ravel(),
                                ink[:, -band:].ravel()])
        assert not edges.any(), f"page {index}: ink in the margin"


def test_the_lens_board_and_the_markers_have_their_own_pages_within_the_margins(tmp_path: Path) -> None:
    placed: list[sheets.Placed] = []
    sheets.write_sheets(kit_for("JP").printed_set(), tmp_path, None, placed)
    board = next(t for t in placed if t.kind == "board")
    assert board.h > 250 and board.y + board.h <= sheets.PAGE_H - sheets.MARGIN
    headings = [t for t in placed if t.kind in ("heading", "bar") and t.page == board.page]
    assert all(h.y + h.h <= board.y for h in headings)  # the bar is on its own line, over nothing
    assert len([t for t in placed if t.kind == "marker"]) == 4
