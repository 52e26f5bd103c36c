"""The café board in a real browser (Debian's chromium through Playwright): tables as cards on a phone and a
wide screen, live without a reload, the league chart readable; screenshots for the docs."""

from __future__ import annotations

import io
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cafe.app import create_board_app
from cafe.board import BoardStore
from lan import server as web_server

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = (Path(__file__).resolve().parents[2] / "docs" / "screenshots"
         if os.environ.get("DINOTABLE_SCREENSHOTS") == "docs"
         else Path(tempfile.gettempdir()) / "dinotable-shots")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]
SEATS = {"jurassik": [("Ana", "red"), ("Bo", "blue"), ("Cy", "green")],
         "jurassic-brunch": [("Dee", "blue"), ("Eli", "orange")],
         "jurassic-parts": [("Fay", "red"), ("Gus", "yellow"), ("Hal", "purple")]}
TITLES = {"jurassik": "Jurassik", "jurassic-brunch": "Jurassic Brunch", "jurassic-parts": "Jurassic Parts"}


def state(game: str, scores: list[int], current: int | None, moves: int,
          over: bool = False) -> dict[str, Any]:
    players = [{"name": n, "colour": c} for n, c in SEATS[game]]
    totals = {p["name"]: s for p, s in zip(players, scores, strict=True)}
    best = max(scores)
    return {"game": game, "title": TITLES[game], "game_id": 3, "players": players, "over": over,
            "current": None if current is None else players[current]["name"], "scores": totals,
            "winners": [n for n, s in totals.items() if s == best] if over else [], "event_count": moves,
            "waiting": None, "camera_ok": True, "at": time.time()}


def fill(board: BoardStore) -> None:
    board.set_status("table-1", "online")
    board.set_state("table-1", state("jurassik", [14, 11, 9], 1, 31))
    board.set_status("table-2", "online")
    board.set_state("table-2", state("jurassic-brunch", [13, 7], None, 56, over=True))
    board.set_status("table-3", "offline")
    board.set_state("table-3", state("jurassic-parts", [22, 25, 17], 2, 140))
    for seq, text in enumerate(["Ana: take col 2, row 6", "Bo: take col 3, row 6", "Cy: remove start"], 1):
        board.add_event("table-1", {"game_id": 3, "started": 1.0, "seq": seq, "kind": "action",
                                    "description": text, "at": time.time()})
    for index, (game, scores) in enumerate([("jurassik", [20, 18, 16]), ("jurassik", [12, 19, 15]),
                                            ("jurassik", [17, 17, 9]), ("jurassic-brunch", [13, 7]),
                                            ("jurassic-parts", [31, 27, 24])]):
        players = [{"name": n, "colour": c} for n, c in SEATS[game]]
        totals = {p["name"]: s for p, s in zip(players, scores, strict=True)}
        board.add_play(f"table-{1 + index % 3}", {
            "game_id": index + 1, "started": 1000.0 * index, "game": game, "title": TITLES[game],
            "players": players, "scores": totals,
            "winners": [n for n, s in totals.items() if s == max(scores)],
            "reason": "", "finished": 1000.0 * index + 1500, "duration_s": 1500.0, "moves": 60})


@pytest.fixture
def board_url(tmp_path: Path) -> Iterator[tuple[str, BoardStore]]:
    board = BoardStore(tmp_path)
    fill(board)
    app = create_board_app(board, lambda: {"ok": True, "broker": "127.0.0.1:1883", "error": None})
    running = web_server.start(app, web_server.Limits(port=0), read_only=True)
    yield f"http://127.0.0.1:{running.port}/", board
    running.stop()
    board.close()


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = page.screenshot(full_page=True)
    if len(data) > 300_000:
        from PIL import Image

        image = Image.open(io.BytesIO(data)).convert("RGB").quantize(colors=128)
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", optimize=True)
        data = buffer.getvalue()
    (SHOTS / f"{name}.png").write_bytes(data)


def test_board_on_a_phone_and_a_wide_screen(board_url: tuple[str, BoardStore]) -> None:
    from playwright.sync_api import sync_playwright

    url, board = board_url
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        for width, height, suffix in ((390, 844, "phone"), (1400, 1000, "wide")):
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(url)
            cards = page.locator("a.table-card")
            assert cards.count() == 3
            boxes = [cards.nth(i).bounding_box() for i in range(3)]
            assert all(box is not None and box["x"] + box["width"] <= width + 1 for box in boxes)
            if suffix == "phone":  # one column
                assert len({round(box["x"]) for box in boxes if box}) == 1
            assert "to play" in cards.nth(0).inner_text() and "offline since" in cards.nth(2).inner_text()
            shoot(page, f"cafe-board-{suffix}")
            page.goto(url + "league")
            sizes = page.eval_on_selector_all(
                "figure.chart svg text",
                "nodes => nodes.map(n => n.getBoundingClientRect().height)")
            assert sizes and min(sizes) >= 11.5  # the chart's smallest text as drawn, in CSS px
            shoot(page, f"cafe-league-{suffix}")
        page.goto(url)
        board.set_state("table-1", state("jurassik", [15, 11, 9], 2, 32))
        # live without a reload (polled through devtools: the page's CSP forbids eval, rightly)
        deadline = time.monotonic() + 15
        while "32 moves" not in page.inner_text("#table-table-1"):
            assert time.monotonic() < deadline, "the card did not refresh"
            page.wait_for_timeout(200)
        browser.close()
    assert errors == []
