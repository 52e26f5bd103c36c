"""Whole games at the page (Debian's chromium through Playwright): players make their moves on the table,
where the camera reads them, and every decision the camera cannot see is a tap on the phone-sized page: a
purchase, a pass, a card laid from the hand (the hand picker), a question's option, the correction of a
knocked piece. Each game ends by its rules; screenshots at 390x844 and 1400x1000 are taken at the
set-up, the start, mid-game, at a question or a split, at an objection and its recovery, and at game over
(into ``$SCREENSHOTS_DIR`` when it is set)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.browser_players import Players, half_laid_demo

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]

#: games, seeds, the moves after which the mid-game pictures are taken, and whether the cards are shuffled
#: and drawn at the table (Isla Nublar: every draw unseen, every face-up card tapped as it is turned up)
GAMES = [("jurassik", 4, 20, False), ("jurassic-brunch", 3, 16, False), ("jurassic-parts", 1, 60, False),
         ("isla-nublar", 1, 120, True)]


@pytest.mark.parametrize(("game", "seed", "mid", "real_table"), GAMES)
def test_a_whole_game_played_at_the_page(
    browser: Any, tmp_path: Path, game: str, seed: int, mid: int, real_table: bool
) -> None:
    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    demo = half_laid_demo(game, tmp_path / "state", seed=seed, real_table=real_table)
    errors: list[str] = []
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(demo.url)
        players = Players(demo, page, shots)
        demo.driver.submit = players.tap
        demo.driver.answer = players.answer
        players.set_up()
        players.shoot("start")
        steps = 0
        while demo.driver.step():
            steps += 1
            if steps == mid // 2:
                players.knock_and_correct()
                players.hand_over_the_table()
            if steps == mid:
                page.goto(demo.url)
                players.shoot("mid-game")
            snapshot = demo.loop.snapshot()
            if snapshot.get("split") and not (shots / f"{game}-split-phone.png").exists():
                page.goto(demo.url)
                players.shoot("split")
            assert steps < 3000, "the game did not end"
        state = demo.loop.current_state()
        assert state.is_terminal()
        page.goto(demo.url)
        page.wait_for_selector("text=Game over", timeout=30_000)
        players.shoot("game-over")
        page.goto(demo.url + "scores")
        assert "Log this play in BG Stats" in page.inner_text("main")
        players.shoot("scores")
        assert not players.small_text, players.small_text  # every word readable on a phone
        history = demo.loop.records.history()
        sources = {event["source"] for event in history}
        assert players.tapped > 0 and "web" in sources and "camera" in sources, sources
        assert "bot" not in sources  # every move was made on the table or tapped on the page
        if real_table:  # nobody entered a draw: each was noted unseen; each card turned face up on its
            # place (a buy pile's top, the scoring row) was read there by the camera or tapped
            assert players.entered_by_table == 0
            reveals = [e for e in history if e["action"]["kind"] == "reveal-pile"]
            assert reveals and {e["source"] for e in reveals} <= {"camera", "web"}
            # every card laid face up was read by the camera (asked about when it has several uses)
            assert {e["source"] for e in history if e["action"]["kind"] == "play"} <= {"camera", "choice"}
        print(json.dumps({"game": game, "moves": len(history), "tapped": players.tapped,
                          "answered": players.answered, "by the table": players.entered_by_table}))
    finally:
        demo.close()
    assert errors == []
