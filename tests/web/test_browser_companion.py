"""Two-player games against the companion at the page (Debian's chromium through Playwright): the
companion plays one seat; the page shows its move in words and rings its places; people make it on the
table, where the camera reads it. The other player's own phone takes its seat and asks for a hint on its
turn, which that phone alone shows. Pictures at 390x844 and 1400x1000 (into ``$SCREENSHOTS_DIR``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers.browser_players import Players, half_laid_demo
from helpers.waiting import until

from companion.kits import kits

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]
#: the level the companion plays each game at in this test (level 3 thinks for a second a move)
LEVEL = {"jurassik": 3, "jurassic-brunch": 2}
#: games played whole here; the longer ones until the companion has made this many moves (their whole
#: games at the page are test_browser_games', whole games against each level benchmarks/bench_bots.py's)
WHOLE = ("jurassik", "jurassic-brunch")
COMPANION_MOVES = 4


@pytest.mark.parametrize("game", sorted(kits()))
def test_a_game_against_the_companion_at_the_page(browser: Any, tmp_path: Path, game: str) -> None:
    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    person, companion = kits()[game].demo_colours[:2]
    demo = half_laid_demo(game, tmp_path / "state", seed=2, colours=f"{person},{companion}",
                          companion={companion: LEVEL.get(game, 1)})
    errors: list[str] = []
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(demo.url)
        players = Players(demo, page, shots)
        demo.driver.submit = players.tap
        demo.driver.answer = players.answer
        players.set_up()
        own = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # the person's phone
        own.on("pageerror", lambda error: errors.append(str(error)))
        own.goto(demo.url)
        own.select_option("#my-seat-select", person)
        until("the seat taken", lambda: own.query_selector("#my-seat-select option[selected]") is not None
              or own.eval_on_selector("#my-seat-select", "s => s.value") == person)
        shown = hinted = False
        while demo.driver.step():
            if game not in WHOLE and shown and hinted and demo.driver.companion_moves >= COMPANION_MOVES:
                break
            state = demo.loop.current_state()
            if not shown and demo.loop.companion.to_move(state) is not None:
                until("the companion's decision", lambda now=state: demo.loop.companion.wanted_now(now)
                      is not None or demo.loop.current_state() != now)
            if not shown and demo.loop.companion.wanted_now(state) is not None:
                page.goto(demo.url)
                page.wait_for_selector("#companion-move", timeout=30_000)
                banner = page.inner_text("#companion-move")
                assert "The companion" in banner and "please make this move for it" in banner, banner
                players.shoot("companion")
                shown = True
            if not hinted and state.current_player() == person and not state.is_chance_node() \
                    and demo.loop.game.pending is None:
                own.goto(demo.url)
                own.click("#ask-hint")
                own.wait_for_selector("#hint-answer:not([hidden])", timeout=30_000)
                assert own.inner_text("#hint-answer").strip()
                page.goto(demo.url)  # the shared phone shows no hint
                assert page.is_hidden("#hint-answer") and not page.inner_text("#hint-answer").strip()
                hinted = True
        assert shown and hinted
        assert demo.loop.current_state().is_terminal() or game not in WHOLE
        assert demo.driver.companion_moves > 0
        history = demo.loop.records.history()
        sources = {event["source"] for event in history}
        assert "camera" in sources and "bot" not in sources, sources
        assert demo.loop.records.play_record()["assisted"]
        assert not players.small_text, players.small_text
        assert not errors, errors
    finally:
        demo.close()
