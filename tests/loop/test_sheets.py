"""`companion tags`: PDF sheets at true size with every tag of a game, the markers, and the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fpdf import FPDF

from companion import sheets
from companion.cli import main
from companion.kits import kit_for, kits


def test_sheets_hold_every_tag_at_its_printed_size(tmp_path: Path) -> None:
    pdf_path, manifest_path = sheets.write_sheets(kit_for("JB").printed_set(), tmp_path)
    data = pdf_path.read_bytes()
    assert data.startswith(b"%PDF")
    assert b"/MediaBox [0 0 595.28 841.89]" in data  # A4 in points: 1 mm = 72/25.4 pt, no scaling
    manifest = json.loads(manifest_path.read_text())
    assert manifest["game"] == "JB"
    assert len(manifest["tags"]) == len(kit_for("JB").manifest().entries) == 4 + 11 + 28 + 28
    assert manifest == json.loads(json.dumps(kit_for("JB").manifest().to_dict()))  # backs sorted by id


def test_placement_fits_the_page_and_never_overlaps(tmp_path: Path) -> None:
    placed: list[tuple[float, float, float, float]] = []

    class Recorder(FPDF):
        def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
            placed.append((x1, y1, x2, y2))
            super().line(x1, y1, x2, y2)

    pdf = Recorder(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    entries = list(kit_for("JP").manifest().entries.values())
    assert sheets._place_stickers(pdf, "JP", entries, "test") == 116
    assert placed
    assert all(0 <= x <= sheets.PAGE_W for x1, _, x2, _ in placed for x in (x1, x2))
    assert all(0 <= y <= sheets.PAGE_H for _, y1, _, y2 in placed for y in (y1, y2))
    assert pdf.pages_count >= 2


def test_tags_command_writes_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", "all", "--out", str(tmp_path)]) == 0
    written = json.loads(capsys.readouterr().out)["written"]
    assert len(written) == 2 * len(kits())  # a sheet and a manifest per game with a kit (the toy's too)
    assert {Path(p).name for p in written} >= {"jp-tags.pdf", "in-manifest.json"}


def test_tags_command_unknown_game_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", "chess", "--out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1


def test_codes_are_drawn_at_true_size_with_one_module_size_per_set() -> None:
    heights: list[float] = []

    class Recorder(FPDF):
        def rect(self, x: float, y: float, w: float, h: float, *args: object, **kwargs: object) -> None:
            heights.append(round(h, 6))

    pdf = Recorder(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    entries = [e for e in kit_for("JB").manifest().entries.values() if e.kind == "token"][:20]
    sheets._place_stickers(pdf, "JB", entries, "test")
    module = round(kit_for("JB").reading.tag_mm["token"] / 21.0, 6)
    assert module in heights
    # version-1 and version-2 codes (SUPER-YUMMY-01) share the module size: only that height and the
    # page's scale bar occur
    assert set(heights) <= {module, 1.0}
    assert any(e.component_id.startswith("SUPER-YUMMY") for e in entries)


@pytest.mark.parametrize("game", ["JP", "JK", "JB"])
def test_backs_are_printed_in_their_fronts_order_while_the_manifest_sorts_them(game: str) -> None:
    printed = kit_for(game).printed_set(3)
    pages = sheets.sticker_pages(printed)
    heading, backs = pages[-1]
    assert "opaque backs" in heading
    fronts = [e.component_id for e in pages[0][1] if e.component_id in printed.back_of]
    assert [e.component_id for e in backs] == [printed.back_of[front] for front in fronts]
    listed = [
        e.component_id
        for e in printed.manifest.entries.values()
        if e.component_id in set(printed.back_of.values())
    ]
    assert listed == sorted(listed) != [e.component_id for e in backs]
    if game == "JP":  # one sticker size: the n-th back lies where the n-th front lies on its page
        sizes = {sheets._sticker_size(game, e) for e in [*pages[0][1], *backs]}
        assert len(sizes) == 1 and len(backs) == len(pages[0][1]) == 58


def test_smaller_stickers_with_the_caption_outside_the_cut(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tags", "JP", "--size", "25", "--out", str(tmp_path)]) == 0
    manifest = json.loads((tmp_path / "jp-manifest.json").read_text())
    assert {entry["tag_mm"] for entry in manifest["tags"]} == {25.0}
    printed = kit_for("JP").printed_set().resized(25.0)
    entry = next(e for e in printed.manifest.entries.values() if e.face == "front")
    side, below = sheets._sticker_size("JP", entry)
    assert abs(side - 25.0 * (21 + 2 * sheets.QUIET_MODULES) / 21) < 1e-6  # code and quiet zone only
    assert below > sheets.CAPTION_MM  # the caption and the rocky-edge hexagon lie outside the cut
    assert main(["tags", "JP", "--size", "3", "--out", str(tmp_path)]) == 2
    assert "8 to 100 mm" in capsys.readouterr().err


def test_a_jurassic_parts_sticker_shows_its_rocky_edges() -> None:
    widths: list[float] = []

    class Recorder(FPDF):
        def set_line_width(self, width: float) -> None:
            widths.append(width)
            super().set_line_width(width)

    pdf = Recorder(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    entry = next(e for e in kit_for("JP").manifest().entries.values() if e.rocks and any(e.rocks))
    sheets._place_stickers(pdf, "JP", [entry], "test")
    assert widths.count(0.6) == sum(entry.rocks)  # one thick side per rocky edge


def test_isla_nublar_sheets_carry_a_sticker_for_every_card(tmp_path: Path) -> None:
    _, manifest_path = sheets.write_sheets(kit_for("IN").printed_set(), tmp_path)
    listed = json.loads(manifest_path.read_text())["tags"]
    cards = [t for t in listed if t.get("kind") == "card"]
    assert len(cards) == 120 and {t["face"] for t in cards} == {"front"}
    assert any(t.get("component") == "dinosaur egg" for t in cards)
    assert len(listed) == 4 + 4 + 120  # the board's corners, the figures, the cards


@pytest.mark.parametrize(("language", "game", "expected", "english"), [
    ("de", "isla-nublar", "BOARD-NW: der Eckaufkleber Nordwest", "island board NW corner"),
    ("es", "jurassik", "D1-1: dinosaurio 1, pieza 1", "dinosaur 1 piece 1 skeleton"),
    ("es", "jurassic-parts", "F01: Brachiosaurus 1", "BRACHIO-1"),
])
def test_captions_name_the_components_in_the_sheet_s_language(language: str, game: str, expected: str,
                                                              english: str, tmp_path: Path) -> None:
    from companion.i18n import speaking

    placed: list[sheets.Placed] = []
    with speaking(language):
        sheets.write_sheets(kit_for(game).printed_set(), tmp_path, None, placed)
    shown = [t.text.replace("\n", " ") for t in placed if t.kind == "caption"]
    assert expected in shown and not any(english in text for text in shown)
    low, right = sheets.MARGIN - 1e-6, sheets.PAGE_W - sheets.MARGIN + 1e-6
    assert all(low <= t.x and t.x + t.w <= right for t in placed)  # longer words still wrap inside
    placed_en: list[sheets.Placed] = []
    sheets.write_sheets(kit_for(game).printed_set(), tmp_path, None, placed_en)
    assert any(english in t.text.replace("\n", " ") for t in placed_en if t.kind == "caption")
