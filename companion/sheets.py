"""Printable tag sheets: PDF at true size in millimetres (print at 100 %, no "fit to page").

Each sticker is the QR code with its white quiet zone, cut marks at its corners; its caption is printed
under it outside the cut (the sticker covers no more of the component than it must), with, for a
Jurassic Parts tile, a small hexagon showing that tile's rocky edges the way up the code goes on. Fronts
come first, then the opaque backs in their fronts' order (each to be stuck on the other side of its
front; the ids reveal nothing), then a page of calibration markers (ArUco DICT_4X4_50, ids 0-3, clockwise
from top-left at the corners of the table area) and the lens board. The manifest JSON goes alongside: it
lists the backs sorted by id, so it cannot pair a back with its front.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from fpdf import FPDF

from vision import tags
from vision.scene import CALIBRATION_MARKER_IDS, DEFAULT_MARKER_SIZE_MM
from vision.tags import qr_matrix

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, mm
MARGIN = 10.0
QUIET_MODULES = 2
CAPTION_MM = 3.5
GUTTER_MM = 4.0
CUT_MARK_MM = 2.0
HEX_MM = 5.0


def _new_pdf(title: str) -> FPDF:
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    pdf.set_creator("Dino Table Companion")
    return pdf


def _cut_marks(pdf: FPDF, x: float, y: float, w: float, h: float) -> None:
    p = pdf
    p.set_draw_color(120, 120, 120)
    p.set_line_width(0.1)
    gap, length = 0.8, CUT_MARK_MM
    for cx, cy, sx, sy in ((x, y, -1, -1), (x + w, y, 1, -1), (x + w, y + h, 1, 1), (x, y + h, -1, 1)):
        p.line(cx + sx * gap, cy, cx + sx * (gap + length), cy)
        p.line(cx, cy + sy * gap, cx, cy + sy * (gap + length))


def _draw_qr(pdf: FPDF, text: str, x: float, y: float, side_mm: float) -> None:
    """Dark modules as filled squares; (x, y) is the code's top-left corner (quiet zone outside)."""
    matrix = qr_matrix(text)
    n = matrix.shape[0]
    module = side_mm / n
    pdf.set_fill_color(0, 0, 0)
    for row in range(n):
        col = 0
        while col < n:
            if matrix[row, col]:
                start = col
                while col < n and matrix[row, col]:
                    col += 1
                # runs of dark modules as one rectangle (smaller files, no hairline seams)
                pdf.rect(x + start * module, y + row * module, (col - start) * module, module, style="F")
            else:
                col += 1


def code_side_mm(game: str, entry: tags.ManifestEntry) -> float:
    """Printed side of the code itself: every code of a set has the same module size."""
    modules = qr_matrix(tags.payload(game, entry.component_id)).shape[0]
    return float(entry.tag_mm * modules / 21.0)


def _sticker_size(game: str, entry: tags.ManifestEntry) -> tuple[float, float]:
    """The sticker (code and quiet zone: what is cut out) and the height its caption adds below the cut."""
    side = code_side_mm(game, entry)
    modules = qr_matrix(tags.payload(game, entry.component_id)).shape[0]
    quiet = side * QUIET_MODULES / modules
    return side + 2 * quiet, CAPTION_MM + (HEX_MM + 1.0 if entry.rocks else 0.0)


def _rocky_hexagon(pdf: FPDF, x: float, y: float, rocks: tuple[bool, ...]) -> None:
    """A pointy-top hexagon (edges counter-clockwise from east, as the manifest lists them) whose rocky
    edges are drawn thick: stick the code upright with the tile turned so its rocks lie the same way."""
    import math

    radius = HEX_MM / 2
    cx, cy = x + radius, y + radius
    angles = [math.radians(60 * k - 30) for k in range(7)]  # edge k runs from corner k to corner k + 1
    corners = [(cx + radius * math.cos(a), cy - radius * math.sin(a)) for a in angles]
    pdf.set_draw_color(60, 60, 60)
    for k in range(6):
        pdf.set_line_width(0.6 if rocks[k] else 0.1)
        (x1, y1), (x2, y2) = corners[k], corners[k + 1]
        pdf.line(x1, y1, x2, y2)
    pdf.set_line_width(0.1)
    pdf.line(cx, cy + radius * 0.5, cx, cy - radius * 0.5)  # "up": the code's top edge points this way
    pdf.line(cx, cy - radius * 0.5, cx - 0.6, cy - radius * 0.2)
    pdf.line(cx, cy - radius * 0.5, cx + 0.6, cy - radius * 0.2)


def _caption(entry: tags.ManifestEntry) -> str:
    if entry.face == "back":
        return f"{entry.component_id} (back)"
    return entry.component_id if not entry.component else f"{entry.component_id} {entry.component}"[:28]


def _place_stickers(pdf: FPDF, game: str, entries: Iterable[tags.ManifestEntry], heading: str) -> int:
    """Lay stickers out in rows, starting new pages as needed; returns how many were placed."""
    placed = 0
    x = y = row_h = 0.0
    started = False
    for entry in entries:
        w, below = _sticker_size(game, entry)
        h = w + below
        if not started:
            pdf.add_page()
            _heading(pdf, heading)
            x, y, row_h, started = MARGIN, MARGIN + 8.0, 0.0, True
        if x + w > PAGE_W - MARGIN:
            x, y, row_h = MARGIN, y + row_h + GUTTER_MM, 0.0
        if y + h > PAGE_H - MARGIN:
            pdf.add_page()
            _heading(pdf, heading)
            x, y, row_h = MARGIN, MARGIN + 8.0, 0.0
        side = code_side_mm(game, entry)
        quiet = (w - side) / 2
        _draw_qr(pdf, tags.payload(game, entry.component_id), x + quiet, y + quiet, side)
        _cut_marks(pdf, x, y, w, w)  # the sticker is the code and its quiet zone only
        pdf.set_font("Helvetica", size=5)
        pdf.set_text_color(60, 60, 60)
        pdf.text(x + 0.5, y + w + CAPTION_MM - 0.8, _caption(entry))
        if entry.rocks:
            _rocky_hexagon(pdf, x + 0.5, y + w + CAPTION_MM, entry.rocks)
        x += w + GUTTER_MM
        row_h = max(row_h, h)
        placed += 1
    return placed


def _heading(pdf: FPDF, text: str) -> None:
    pdf.set_font("Helvetica", size=8)
    pdf.set_text_color(0, 0, 0)
    pdf.text(MARGIN, MARGIN + 3.0, text)
    pdf.set_font("Helvetica", size=6)
    pdf.text(MARGIN, MARGIN + 6.0, "Print at 100 % (actual size). The 50 mm bar must measure 50 mm.")
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(PAGE_W - MARGIN - 50.0, MARGIN + 1.0, 50.0, 1.0, style="F")


def _marker_cells(marker_id: int) -> list[list[bool]]:
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    bitmap = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return [[bool(v < 128) for v in row] for row in bitmap]


def add_calibration_page(pdf: FPDF, size_mm: float = DEFAULT_MARKER_SIZE_MM) -> None:
    """ArUco DICT_4X4_50 markers 0..3, each with a white margin and cut marks; stick them at the corners
    of the table area clockwise from top-left (0 NW, 1 NE, 2 SE, 3 SW)."""
    pdf.add_page()
    _heading(pdf, "Calibration markers (ArUco DICT_4X4_50): 0 NW, 1 NE, 2 SE, 3 SW corner of the table area")
    cell = size_mm / 6
    margin = size_mm * 0.15
    for index, marker_id in enumerate(CALIBRATION_MARKER_IDS):
        col, row = index % 2, index // 2
        x = MARGIN + 10 + col * (size_mm + 2 * margin + 30)
        y = MARGIN + 20 + row * (size_mm + 2 * margin + 30)
        pdf.set_fill_color(0, 0, 0)
        for r, line in enumerate(_marker_cells(marker_id)):
            for c, dark in enumerate(line):
                if dark:
                    pdf.rect(x + margin + c * cell, y + margin + r * cell, cell, cell, style="F")
        _cut_marks(pdf, x, y, size_mm + 2 * margin, size_mm + 2 * margin)
        pdf.set_font("Helvetica", size=7)
        pdf.text(x, y + size_mm + 2 * margin + 5, f"marker {marker_id} ({size_mm:g} mm)")


def add_lens_board_page(pdf: FPDF) -> None:
    """The ChArUco board lens correction is fitted from (:mod:`vision.lens`), at true size, upright on the
    page: print at 100 %, keep it flat, photograph it from the camera's place (``calibrate --lens``)."""
    import io

    import cv2
    import numpy as np

    from vision.lens import BOARD_MARGIN_MM, BOARD_MARKER_MM, BOARD_SQUARE_MM, BOARD_SQUARES, board_image

    pdf.add_page()
    columns, rows = BOARD_SQUARES
    _heading(pdf, f"Lens board (ChArUco {columns} x {rows} squares of {BOARD_SQUARE_MM:g} mm, ArUco "
                  f"DICT_5X5_100 markers of {BOARD_MARKER_MM:g} mm): print at 100 %, glue flat")
    image = np.ascontiguousarray(np.rot90(board_image(dpi=300)))  # upright on a portrait page
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not draw the lens board")
    width_mm = rows * BOARD_SQUARE_MM + 2 * BOARD_MARGIN_MM
    pdf.image(io.BytesIO(png.tobytes()), x=MARGIN + 10, y=MARGIN + 20, w=width_mm)
    height_mm = columns * BOARD_SQUARE_MM + 2 * BOARD_MARGIN_MM
    _cut_marks(pdf, MARGIN + 10, MARGIN + 20, width_mm, height_mm)


def sticker_pages(printed: tags.PrintedSet) -> list[tuple[str, list[tags.ManifestEntry]]]:
    """The sticker groups of a printed set, each under its heading: fronts, second sides, opaque backs.

    The backs are laid out in their fronts' order (the printed set's pairing, which the loaded manifest
    does not carry), so whoever sticks them puts a component's front and back together. Jurassic Parts'
    fronts and backs are stickers of one size, so a back sits at the same place on its page as its front
    (and its tile shows the rocks listed with that back).
    """
    manifest = printed.manifest
    name = manifest.name or manifest.game
    entries = manifest.entries.values()
    fronts = [e for e in entries if e.face == "front"]
    other_sides = [e for e in entries if e.face == "back" and e.component]
    back_of = printed.back_of
    backs = [manifest.entries[back_of[e.component_id]] for e in fronts if e.component_id in back_of]
    pages = [(f"{name}: fronts (set seed {manifest.seed})", fronts)]
    if other_sides:
        pages.append((f"{name}: second sides (each on the back of its front)", other_sides))
    if backs:
        pages.append((f"{name}: opaque backs in their fronts' order (each on its front's other side)", backs))
    return pages


def write_sheets(printed: tags.PrintedSet, out_dir: str | Path, size_mm: float | None = None) -> list[Path]:
    """Write ``<code>-tags.pdf`` (fronts, backs, calibration markers, the lens board) and
    ``<code>-manifest.json`` of a
    game's printed set (its kit's ``printed_set(seed)``)."""
    if size_mm is not None:  # smaller stickers: the manifest says the size printed
        printed = printed.resized(size_mm)
    code = printed.manifest.game
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pdf = _new_pdf(f"Dino Table Companion tags: {printed.manifest.name or code}")
    for heading, entries in sticker_pages(printed):
        _place_stickers(pdf, code, entries, heading)
    add_calibration_page(pdf)
    add_lens_board_page(pdf)
    pdf_path = out / f"{code.lower()}-tags.pdf"
    pdf.output(str(pdf_path))
    manifest_path = out / f"{code.lower()}-manifest.json"
    manifest_path.write_text(json.dumps(printed.manifest.to_dict(), indent=1) + "\n", encoding="utf-8")
    return [pdf_path, manifest_path]
