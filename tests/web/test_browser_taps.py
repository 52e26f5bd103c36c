"""Deciding by taps in a real browser (Debian's chromium through Playwright): a legal move tapped on the
Table page is committed as from the page; an objection offers the nearest legal move, one tap applies it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.waiting import until

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Any]:
    from companion.commands.demo import build, serve

    running = build("jurassik", seed=4, state_dir=tmp_path, fps=20.0, synchronous=False)
    serve(running, port=0)
    yield running
    running.close()


def phone(playwright: Any, errors: list[str]) -> tuple[Any, Any]:
    """Debian's chromium, headless, and a 390 x 844 page whose script errors land in ``errors``."""
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                         args=["--headless", "--no-sandbox", "--disable-gpu"])
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return browser, page


def test_a_tapped_move_and_a_tapped_objection_option(demo: Any) -> None:
    from playwright.sync_api import sync_playwright

    loop = demo.loop
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser, page = phone(playwright, errors)
        page.goto(demo.url)
        buttons = page.locator("#legal-picker button.move")
        assert buttons.count() == len(loop.snapshot()["legal"]) > 0
        first = loop.snapshot()["legal"][0]
        buttons.first.focus()
        page.keyboard.press("Enter")  # keyboard works as a tap
        until("the tapped move", lambda: len(loop.records.history()) == 1)
        event = loop.records.history()[0]
        assert event["source"] == "web" and event["action"] == first
        # the player does it on the table too
        demo.camera.show(loop.game.model.scene(loop.current_state()))

        # an objection: the player to act made a legal move, and a hand knocked a tile off meanwhile
        state = loop.current_state()
        move = next(a for a in state.legal_actions() if a.to_dict()["kind"] == "take")
        scene = loop.game.model.scene(state.apply(move))
        before = loop.game.model.scene(state)
        moved_payloads = {t.payload for t in before.tags} - {t.payload for t in scene.tags}
        stray = next(t for t in scene.tags if t.payload not in moved_payloads and "D" in t.payload)
        scene.tags.remove(stray)
        demo.camera.show(scene)
        until("the objection", lambda: getattr(loop.game.pending, "kind", None) == "objection")
        page.goto(demo.url + "dispute")
        page.wait_for_selector("#choose-0", timeout=20_000)
        assert "closest to what the camera sees" in page.inner_text("#dispute")
        page.click("#choose-0")
        until("the chosen move", lambda: len(loop.records.history()) == 2)
        last = loop.records.history()[-1]
        assert last["action"] == move.to_dict() and last["source"] == "choice"
        browser.close()
    assert errors == []


def test_a_new_game_shows_the_set_up_checklist(demo: Any) -> None:
    from playwright.sync_api import sync_playwright

    loop = demo.loop
    for _ in range(6):
        demo.driver.step()
    first_game = loop.game.game_id
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(demo.url + "setup")
        page.click("#start-game")  # the old game's pieces still lie on the table
        page.wait_for_url(demo.url, timeout=20_000)  # on to the table, where the checklist is
        assert loop.game.game_id != first_game
        until("the checklist", lambda: getattr(loop.game.pending, "checklist", None) is not None)
        page.wait_for_selector("#setup-steps li", timeout=20_000)
        text = page.inner_text("#setup-checklist")
        assert "Set up the table" in text and "pieces in place" in text
        assert page.locator("#setup-steps li").count() >= 1
        assert "Objection" not in page.inner_text("main")
        demo.driver.step()  # the bots lay the table out as the setup says
        until("the game to start", lambda: loop.game.pending is None)
        deadline = time.monotonic() + 15  # gone from the page without a reload
        while page.locator("#setup-checklist").count():
            assert time.monotonic() < deadline, "the checklist stayed on the page"
            page.wait_for_timeout(200)
        browser.close()


def test_isla_nublar_at_a_real_table_by_taps(tmp_path: Path) -> None:
    """Isla Nublar as at a real table, on a phone: the figures stood and each card turned face up at setup
    is a tap; a card from the hand is two taps in the hand picker (the card, then how it is played), which
    offers only the cards the hand may hold."""
    from playwright.sync_api import sync_playwright

    from companion.commands.demo import build, serve

    demo = build("isla-nublar", seed=1, state_dir=tmp_path, fps=20.0, synchronous=False, real_table=True)
    serve(demo, port=0)
    loop = demo.loop
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser, page = phone(playwright, errors)
            page.goto(demo.url)
            reveals = 0
            # the figures on the volcanoes, the buy piles' tops, then the scoring row
            while loop.current_state().is_chance_node():
                count = len(loop.records.history())
                page.goto(demo.url)  # the page as it is now (a tap on a list being swapped is refused)
                page.wait_for_selector("text=Turned face up", timeout=20_000)
                page.locator("#legal-picker button.move").first.click()
                until("the tapped card", lambda before=count: len(loop.records.history()) > before)
                reveals += 1
            assert reveals == 11 and {e["source"] for e in loop.records.history()} == {"web"}
            page.goto(demo.url)
            # the picker offers only what the hand may hold: the starting cards, never a buy pile's card
            offered = page.eval_on_selector_all("#hand-card-list details", "ds => ds.map(d => d.id)")
            assert "hand-card-S-BOXES2" in offered and "hand-card-A3-HIDEOUT" not in offered, offered
            count = len(loop.records.history())
            play = {"kind": "play", "player": "red", "card": "S-BOXES2", "use": "boxes"}
            page.click("#hand-card-S-BOXES2 > summary")  # the card, then how it is played: two taps
            page.click("#hand-card-S-BOXES2 button.move >> text=play it for 2 boxes")
            until("the card played", lambda: len(loop.records.history()) > count)
            event = loop.records.history()[count]
            assert event["source"] == "web" and event["action"] == play
            browser.close()
    finally:
        demo.close()
    assert errors == []
