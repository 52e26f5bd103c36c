"""Printable tag sheets: PDF at true size in millimetres (print at 100 %, no "fit to page").

Each sticker is the QR code with its white quiet zone, cut marks at its corners; its caption is printed
under it outside the cut (the sticker covers no more of the component than it must), whole, wrapped to
the sticker's cell, in type a person reads at arm's length, with, for a Jurassic Parts tile, a small
hexagon showing that tile's rocky edges the way up the code goes on. Fronts come first, then the opaque
backs in their fronts' order (each to be stuck on the other side of its front; the ids reveal nothing),
then a page of calibration markers (ArUco DICT_4X4_50, ids 0-3, clockwise from top-left at the corners of
the table area) and the lens board, upright on its portrait page. Everything lies within 10 mm margins,
nothing over a heading; :func:`write_sheets` can record where each thing went (``placed``). The manifest
JSON goes alongside: it lists the backs sorted by id, so it cannot pair a back with its front.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from companion.i18n import DEFAULT, gettext, language
from vision import tags
from vision.scene import CALIBRATION_MARKER_IDS, DEFAULT_MARKER_SIZE_MM
from vision.tags import qr_matrix

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, mm
MARGIN = 10.0
QUIET_MODULES = 2
CAPTION_PT = 6.5  # about 1.6 mm capitals: read at arm's length
CAPTION_LINE_MM = 2.8
CAPTION_MM = CAPTION_LINE_MM + 0.8  # one caption line and its gap below the cut marks
CAPTION_MIN_W = 28.0  # a small sticker's caption still gets this much width, wrapped
GUTTER_MM = 1.5
CUT_GAP_MM, CUT_MARK_MM = 0.8, 2.0
CUT_REACH = CUT_GAP_MM + CUT_MARK_MM  # how far the marks reach beyond the sticker
HEX_MM = 5.0


@dataclass(frozen=True)
class Placed:
    """Where one thing went: its ``kind`` (heading, bar, sticker, caption, hexagon, marker, board), the
    page (from 1), its box in mm (cut marks included for a sticker or a marker) and its text."""

    kind: str
    page: int
    x: float
    y: float
    w: float
    h: float
    text: str = ""


class Sheet:
    """The PDF being written and what was placed on it."""

    def __init__(self, title: str) -> None:
        self.pdf = FPDF(orientation="P", unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_title(title)
        self.pdf.set_creator("Dino Table Companion")
        self.placed: list[Placed] = []

    def place(self, kind: str, x: float, y: float, w: float, h: float, text: str = "") -> None:
        self.placed.append(Placed(kind, self.pdf.page_no(), x, y, w, h, text))

    def wrap(self, text: str, width: float, size: float = CAPTION_PT) -> list[str]:
        """``text`` in lines no wider than ``width`` mm (words kept whole unless one alone is wider)."""
        self.pdf.set_font("Helvetica", size=size)
        lines: list[str] = []
        for word in text.split():
            while self.pdf.get_string_width(word) > width:  # a word wider than the cell: broken
                cut = max(1, len(word) - 1)
                while cut > 1 and self.pdf.get_string_width(word[:cut]) > width:
                    cut -= 1
                if lines and self.pdf.get_string_width(f"{lines[-1]} {word[:cut]}") <= width:
                    lines[-1] += f" {word[:cut]}"
                else:
                    lines.append(word[:cut])
                word = word[cut:]
            if lines and self.pdf.get_string_width(f"{lines[-1]} {word}") <= width:
                lines[-1] += f" {word}"
            elif word:
                lines.append(word)
        return lines or [""]

    def heading(self, text: str) -> float:
        """The page's heading, the printing note and the 50 mm check bar on a line of its own; returns
        where the page's content may start."""
        pdf = self.pdf
        pdf.set_text_color(0, 0, 0)
        width = PAGE_W - 2 * MARGIN
        lines = self.wrap(text, width, 8)
        pdf.set_font("Helvetica", size=8)
        y = MARGIN
        for line in lines:
            pdf.text(MARGIN, y + 2.9, line)
            y += 3.6
        self.place("heading", MARGIN, MARGIN, width, y - MARGIN, text)
        note = gettext("Print at 100 % (actual size): the bar below must measure 50 mm.")
        pdf.set_font("Helvetica", size=6)
        pdf.text(MARGIN, y + 2.3, note)
        self.place("heading", MARGIN, y, pdf.get_string_width(note), 2.8, note)
        y += 3.6
        pdf.set_fill_color(0, 0, 0)
        pdf.rect(MARGIN, y, 50.0, 1.0, style="F")
        self.place("bar", MARGIN, y, 50.0, 1.0)
        return y + 1.0 + 2.0


def _cut_marks(pdf: FPDF, x: float, y: float, w: float, h: float) -> None:
    pdf.set_draw_color(120, 120, 120)
    pdf.set_line_width(0.1)
    for cx, cy, sx, sy in ((x, y, -1, -1), (x + w, y, 1, -1), (x + w, y + h, 1, 1), (x, y + h, -1, 1)):
        pdf.line(cx + sx * CUT_GAP_MM, cy, cx + sx * CUT_REACH, cy)
        pdf.line(cx, cy + sy * CUT_GAP_MM, cx, cy + sy * CUT_REACH)


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
    """The sticker (code and quiet zone: what is cut out) and the least height its caption adds below the
    cut (one line; a longer caption wraps into more)."""
    side = code_side_mm(game, entry)
    modules = qr_matrix(tags.payload(game, entry.component_id)).shape[0]
    quiet = side * QUIET_MODULES / modules
    return side + 2 * quiet, CUT_REACH + CAPTION_MM + (HEX_MM + 1.0 if entry.rocks else 0.0)


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


def caption(entry: tags.ManifestEntry, game: str = "") -> str:
    """What a person matches the sticker to the component by: its id and the component's own name (in the
    language spoken, the game's kit's words for it; in English, the manifest's)."""
    if entry.face == "back":
        return gettext("%(id)s (back)") % {"id": entry.component_id}
    if not entry.component:
        return entry.component_id
    return f"{entry.component_id}: {_component_name(entry, game)}"


def _component_name(entry: tags.ManifestEntry, game: str) -> str:
    from companion.kits import find_kit

    kit = find_kit(game) if game and language() != DEFAULT else None
    words = kit.component_words(entry.component_id) if kit is not None else None
    if not words:
        return entry.component
    return words.removesuffix(f" ({entry.component_id})")


def _place_stickers(pdf_or_sheet: FPDF | Sheet, game: str, entries: Iterable[tags.ManifestEntry],
                    heading: str) -> int:
    """Lay stickers out in rows, starting new pages as needed; returns how many were placed."""
    sheet = pdf_or_sheet if isinstance(pdf_or_sheet, Sheet) else _wrapping(pdf_or_sheet)
    pdf = sheet.pdf
    placed = 0
    x = y = row_h = top = 0.0
    started = False
    for entry in entries:
        side, _ = _sticker_size(game, entry)
        cell_w = max(side + 2 * CUT_REACH, CAPTION_MIN_W)
        lines = sheet.wrap(caption(entry, game), cell_w)
        below = CUT_REACH + 0.8 + len(lines) * CAPTION_LINE_MM + (HEX_MM + 1.0 if entry.rocks else 0.0)
        cell_h = CUT_REACH + side + below
        if started and x + cell_w > PAGE_W - MARGIN:
            x, y, row_h = MARGIN, y + row_h + GUTTER_MM, 0.0
        if not started or y + cell_h > PAGE_H - MARGIN:
            pdf.add_page()
            top = sheet.heading(heading)
            x, y, row_h, started = MARGIN, top, 0.0, True
        sx, sy = x + (cell_w - side) / 2, y + CUT_REACH  # the sticker's own corner
        code = code_side_mm(game, entry)
        quiet = (side - code) / 2
        _draw_qr(pdf, tags.payload(game, entry.component_id), sx + quiet, sy + quiet, code)
        _cut_marks(pdf, sx, sy, side, side)  # the sticker is the code and its quiet zone only
        sheet.place("sticker", sx - CUT_REACH, sy - CUT_REACH, side + 2 * CUT_REACH, side + 2 * CUT_REACH,
                    entry.component_id)
        pdf.set_font("Helvetica", size=CAPTION_PT)
        pdf.set_text_color(40, 40, 40)
        text_y = sy + side + CUT_REACH + 0.8
        for index, line in enumerate(lines):
            pdf.text(x, text_y + (index + 1) * CAPTION_LINE_MM - 0.7, line)
        sheet.place("caption", x, text_y, cell_w, len(lines) * CAPTION_LINE_MM, "\n".join(lines))
        if entry.rocks:
            hex_y = text_y + len(lines) * CAPTION_LINE_MM + 0.5
            _rocky_hexagon(pdf, x, hex_y, entry.rocks)
            sheet.place("hexagon", x, hex_y, HEX_MM, HEX_MM)
        x += cell_w + GUTTER_MM
        row_h = max(row_h, cell_h)
        placed += 1
    return placed


def _wrapping(pdf: FPDF) -> Sheet:
    """A sheet around a PDF the caller made (tests record what is drawn on their own FPDF)."""
    sheet = Sheet.__new__(Sheet)
    sheet.pdf, sheet.placed = pdf, []
    return sheet


def _marker_cells(marker_id: int) -> list[list[bool]]:
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    bitmap = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return [[bool(v < 128) for v in row] for row in bitmap]


def add_calibration_page(sheet: Sheet, size_mm: float = DEFAULT_MARKER_SIZE_MM) -> None:
    """ArUco DICT_4X4_50 markers 0..3, each with a white margin and cut marks; stick them at the corners
    of the table area clockwise from top-left (0 NW, 1 NE, 2 SE, 3 SW)."""
    pdf = sheet.pdf
    pdf.add_page()
    top = sheet.heading(gettext("Calibration markers (ArUco DICT_4X4_50): 0 NW, 1 NE, 2 SE, 3 SW corner of "
                                "the table area"))
    cell = size_mm / 6
    margin = size_mm * 0.15
    outer = size_mm + 2 * margin
    for index, marker_id in enumerate(CALIBRATION_MARKER_IDS):
        col, row = index % 2, index // 2
        x = MARGIN + 10 + col * (outer + 30)
        y = top + CUT_REACH + 5 + row * (outer + 30)
        pdf.set_fill_color(0, 0, 0)
        for r, line in enumerate(_marker_cells(marker_id)):
            for c, dark in enumerate(line):
                if dark:
                    pdf.rect(x + margin + c * cell, y + margin + r * cell, cell, cell, style="F")
        _cut_marks(pdf, x, y, outer, outer)
        sheet.place("marker", x - CUT_REACH, y - CUT_REACH, outer + 2 * CUT_REACH, outer + 2 * CUT_REACH,
                    str(marker_id))
        text = gettext("marker %(id)s (%(size)s mm)") % {"id": marker_id, "size": f"{size_mm:g}"}
        pdf.set_font("Helvetica", size=7)
        pdf.text(x, y + outer + CUT_REACH + 3.5, text)
        sheet.place("caption", x, y + outer + CUT_REACH + 0.8, pdf.get_string_width(text), 3.0, text)


def add_lens_board_page(sheet: Sheet) -> None:
    """The ChArUco board lens correction is fitted from (:mod:`vision.lens`), at true size, upright on the
    portrait page, within its margins: print at 100 %, glue the whole page flat on card (no cutting),
    photograph it from the camera's place (``calibrate --lens``)."""
    import io

    import cv2
    import numpy as np

    from vision.lens import BOARD_MARGIN_MM, BOARD_MARKER_MM, BOARD_SQUARE_MM, BOARD_SQUARES, board_image

    pdf = sheet.pdf
    pdf.add_page()
    columns, rows = BOARD_SQUARES
    heading = gettext("Lens board (ChArUco %(columns)s x %(rows)s squares of %(square)s mm, ArUco "
                      "DICT_5X5_100 markers of %(marker)s mm): glue the whole page flat on card")
    top = sheet.heading(heading % {"columns": columns, "rows": rows, "square": f"{BOARD_SQUARE_MM:g}",
                                   "marker": f"{BOARD_MARKER_MM:g}"})
    image = np.ascontiguousarray(np.rot90(board_image(dpi=300)))  # upright on a portrait page
    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("could not draw the lens board")
    width_mm = rows * BOARD_SQUARE_MM + 2 * BOARD_MARGIN_MM
    height_mm = columns * BOARD_SQUARE_MM + 2 * BOARD_MARGIN_MM
    x = (PAGE_W - width_mm) / 2
    if top + height_mm > PAGE_H - MARGIN:
        raise ValueError("the lens board does not fit its page")
    pdf.image(io.BytesIO(png.tobytes()), x=x, y=top, w=width_mm)
    sheet.place("board", x, top, width_mm, height_mm)


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
    said = {"game": name, "seed": manifest.seed}
    pages = [(gettext("%(game)s: fronts (set seed %(seed)s)") % said, fronts)]
    if other_sides:
        pages.append((gettext("%(game)s: second sides (each on the back of its front)") % said, other_sides))
    if backs:
        backs_heading = gettext("%(game)s: opaque backs in their fronts' order (each on its front's other "
                                "side)")
        pages.append((backs_heading % said, backs))
    return pages


def write_sheets(printed: tags.PrintedSet, out_dir: str | Path, size_mm: float | None = None,
                 placed: list[Placed] | None = None) -> list[Path]:
    """Write ``<code>-tags.pdf`` (fronts, backs, calibration markers, the lens board) and
    ``<code>-manifest.json`` of a game's printed set (its kit's ``printed_set(seed)``); ``placed``
    receives where each thing went."""
    if size_mm is not None:  # smaller stickers: the manifest says the size printed
        printed = printed.resized(size_mm)
    code = printed.manifest.game
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sheet = Sheet(gettext("Dino Table Companion tags: %(game)s") % {"game": printed.manifest.name or code})
    for heading, entries in sticker_pages(printed):
        _place_stickers(sheet, code, entries, heading)
    add_calibration_page(sheet)
    add_lens_board_page(sheet)
    pdf_path = out / f"{code.lower()}-tags.pdf"
    sheet.pdf.output(str(pdf_path))
    manifest_path = out / f"{code.lower()}-manifest.json"
    manifest_path.write_text(json.dumps(printed.manifest.to_dict(), indent=1) + "\n", encoding="utf-8")
    if placed is not None:
        placed.extend(sheet.placed)
    return [pdf_path, manifest_path]
