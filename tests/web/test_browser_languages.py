"""The Spanish edition played on a phone set to Spanish (Debian's chromium through Playwright, 390 px wide):
a whole Jurassik game made on the table and tapped on the page, every page read in Spanish, then the
language picker switched to German; no page scrolls sideways or clips a button in either language.
Screenshots of the table, scores, dispute and set-up pages in each language go to ``$SCREENSHOTS_DIR``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers.browser_players import Players, half_laid_demo

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]

#: what sticks out sideways on a phone: the page's own width, and every button or link cut off by it
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const whole = document.documentElement.scrollWidth;
  if (whole > width + 1) out.push("page " + whole);
  for (const element of document.querySelectorAll("button, a.button, .pill, select, summary, h1, h2")) {
    const box = element.getBoundingClientRect();
    if (!box.width || getComputedStyle(element).visibility === "hidden") continue;
    const clipped = element.tagName === "BUTTON" && element.scrollWidth > element.clientWidth + 1;
    if (box.right > width + 1 || clipped)
      out.push(element.tagName + ": " + element.textContent.trim().slice(0, 40));
  }
  return out;
}"""
PAGES = ("", "scores", "history", "dispute", "setup", "panel")


class SpanishPlayers(Players):
    """The players of the browser games, their pictures named by their language."""

    language = "es"

    def shoot(self, moment: str) -> None:
        if moment == "objection":  # the companion's objection, in the reader's language
            said = self.page.inner_text("#dispute-text")
            assert said.startswith(("La mesa cambió", "Jugada no válida", "Cambió demasiado")), said
        super().shoot(f"{moment}-{self.language}")


def _pages_read(page: Any, base: str, code: str, shots: Path) -> dict[str, list[str]]:
    """Every page in ``code``: its <html lang>, and what sticks out at 390 px; a picture of each."""
    overflow: dict[str, list[str]] = {}
    for path in PAGES:
        page.goto(base + path)
        assert page.get_attribute("html", "lang") == code, path
        if path == "setup":  # the page's script ran: only the chosen game's options are shown
            shown = page.evaluate("document.querySelectorAll('fieldset.game-options:not([hidden])').length")
            assert shown == 1, (code, shown)
        found = page.evaluate(OVERFLOW)
        if found:
            overflow[path or "table"] = found
        page.screenshot(path=str(shots / f"language-{code}-{path or 'table'}-phone.png"), full_page=True)
    return overflow


@pytest.mark.timeout(900)
def test_a_spanish_game_on_a_phone_then_the_pages_in_german(browser: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    demo = half_laid_demo("jurassik", tmp_path / "state", seed=4, options={"edition": "es"})
    errors: list[str] = []
    try:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(demo.url)
        players = SpanishPlayers(demo, page, shots)
        demo.driver.submit = players.tap
        demo.driver.answer = players.answer
        players.set_up()
        assert page.get_attribute("html", "lang") == "es"
        assert "Jugadas válidas" in page.inner_text("main")
        players.shoot("start")
        steps = 0
        while demo.driver.step():
            steps += 1
            if steps == 10:
                players.knock_and_correct()
            assert steps < 3000, "the game did not end"
        assert demo.loop.current_state().is_terminal()
        page.goto(demo.url)
        page.wait_for_selector("text=Partida terminada", timeout=30_000)
        players.shoot("game-over")
        page.goto(demo.url + "scores")
        assert "Registrar esta partida en BG Stats" in page.inner_text("main")
        history = page.goto(demo.url + "history")
        assert history is not None and "cogió la carta de fila" in page.inner_text("main")
        assert not players.small_text, players.small_text
        overflow = {"es": _pages_read(page, demo.url, "es", shots)}
        # this phone's own choice: German, whatever the browser asks, remembered for the device
        page.select_option("#language", "de")
        page.wait_for_selector('html[lang="de"]', timeout=30_000)
        assert "Wertung" in page.inner_text("header")
        assert errors == []
        overflow["de"] = _pages_read(page, demo.url, "de", shots)
        assert overflow == {"es": {}, "de": {}}
        assert "camera" in {e["source"] for e in demo.loop.records.history()}
    finally:
        demo.close()
    assert errors == []
