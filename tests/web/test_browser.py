"""The demo in a real browser: Debian's chromium driven by Playwright (no downloaded browser).

One walk through a bot-played Jurassic Parts game read by the real loop: the camera picture updates, the
page follows the game live, a split is shown with its shares, an objection is confirmed from the dispute
page, and the history steps back. Screenshots of the main pages go to a temporary folder, or to
docs/screenshots/ when DINOTABLE_SCREENSHOTS=docs is set (so that a test run leaves the checkout clean).
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = (
    Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    if os.environ.get("DINOTABLE_SCREENSHOTS") == "docs"
    else Path(tempfile.gettempdir()) / "dinotable-screenshots"
)
MAX_SHOT_BYTES = 300_000
SEED = 45  # a seed whose bots break a three-tile part off the slab early
MAX_BOT_ACTIONS = 400
SCORES_AFTER = 48  # committed moves before the scores screenshot
PAGE_ERRORS: list[str] = []

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="Debian's chromium (/usr/bin/chromium) is not installed"),
]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from companion.commands.demo import build, serve

    running = build("jurassic-parts", seed=SEED, state_dir=tmp_path_factory.mktemp("demo"), fps=20.0,
                    synchronous=False)
    serve(running, port=0)
    yield running
    running.close()


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        tab = context.new_page()
        tab.on("pageerror", lambda error: PAGE_ERRORS.append(str(error)))
        yield tab
        context.close()
        browser.close()


def shoot(page: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot under SHOTS, squeezed to a palette PNG when it is too large."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    data = page.screenshot(full_page=full_page)
    if len(data) > MAX_SHOT_BYTES:
        from PIL import Image

        image = Image.open(io.BytesIO(data)).convert("RGB")
        for colours in (256, 128, 64):
            buffer = io.BytesIO()
            image.quantize(colors=colours, dither=Image.Dither.NONE).save(buffer, "PNG", optimize=True)
            data = buffer.getvalue()
            if len(data) <= MAX_SHOT_BYTES:
                break
    path.write_bytes(data)
    assert len(data) <= MAX_SHOT_BYTES, (name, len(data))
    return path


def wait_for(page: Any, expression: str, arg: Any = None, timeout: float = 15.0) -> None:
    """Poll a script expression until it is true. (Playwright's wait_for_function compiles its predicate
    with eval, which the page's Content-Security-Policy rightly forbids; evaluate runs through devtools.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(expression, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"timed out waiting for {expression}")


def split_on_table(demo: Any) -> bool:
    split = demo.loop.snapshot()["view"].get("split") or {}
    return bool(split.get("ranking"))


def play_until(demo: Any, done: Any, limit: int) -> None:
    for _ in range(limit):
        if done():
            return
        if not demo.driver.step():
            break
    assert done(), "the bots did not get there"


def test_the_demo_in_a_real_browser(demo: Any, page: Any) -> None:
    url = demo.url
    # 1. the camera picture is served and keeps updating
    page.goto(url)
    wait_for(page, "Number(document.getElementById('frame').dataset.count || 0) >= 2", timeout=20)
    assert page.evaluate("document.getElementById('frame').naturalWidth") > 100

    # 2. the page follows the game live (server-sent events), without a reload
    before = page.inner_text("#last-move")
    play_until(demo, lambda: len(demo.loop.records.history()) >= 3, 20)
    wait_for(page, "(old) => document.getElementById('last-move').innerText !== old", before)
    assert "#" in page.inner_text("#last-move")

    # 3. a split: the awarded part, the cut line and each contributor's share
    play_until(demo, lambda: split_on_table(demo), MAX_BOT_ACTIONS)
    shares = demo.loop.snapshot()["view"]["split"]["ranking"]
    wait_for(page, "document.getElementById('split-card').innerText.includes('takes')")
    card = page.inner_text("#split-card")
    for share in shares:
        assert share["player"] in card
    board = page.request.get(url + "api/board.svg").text()
    assert 'data-awarded="1"' in board and "Split:" in board
    page.wait_for_timeout(700)
    shoot(page, "table-split", full_page=True)

    # 4. a dispute: a chisel of a player whose turn it is not -> objection -> confirmed from the page
    out_of_turn = None
    for _ in range(60):  # a position where the player to act could put a chisel down
        if not demo.loop.current_state().is_chance_node() and not split_on_table(demo):
            out_of_turn = chisel_out_of_turn(demo)
            if out_of_turn is not None:
                break
        assert demo.driver.step()
    assert out_of_turn is not None, "no chisel placement to misplay"
    true_scene = demo.loop.game.model.scene(demo.loop.current_state())
    count = len(demo.loop.records.history())
    demo.camera.show(out_of_turn)
    page.goto(url + "dispute")
    page.wait_for_selector("#dispute-confirm", timeout=20_000)
    assert "Objection" in page.inner_text("#dispute")
    assert demo.loop.game.pending is not None and demo.loop.game.pending.kind == "objection"
    page.wait_for_timeout(700)
    shoot(page, "dispute", full_page=True)
    page.click("#dispute-confirm")
    wait_for(page, "document.getElementById('dispute').innerText.includes('No dispute open')")
    assert demo.loop.game.pending is None  # nothing was applied
    assert len(demo.loop.records.history()) == count
    demo.camera.show(true_scene)  # the player takes the stray chisel back
    play_until(demo, lambda: len(demo.loop.records.history()) >= count + 2, 10)

    # 5. the history steps back through the game, with the photo of each move
    page.goto(url + "history")
    page.click("#step-start")
    latest = int(page.inner_text("#step-seq").lstrip("#"))
    page.click("#step-back")
    page.wait_for_selector("#step-seq")
    earlier = int(page.inner_text("#step-seq").lstrip("#"))
    assert earlier < latest
    wait_for(page, "Array.from(document.querySelectorAll('#history-step img')).every("
             "i => i.complete && i.naturalWidth > 0)")
    shoot(page, "history")

    # 6. the other pages, a little further into the game so that the score chart tells something
    play_until(demo, lambda: len(demo.loop.records.history()) >= SCORES_AFTER, 3 * SCORES_AFTER)
    page.goto(url + "scores")
    wait_for(page, "document.querySelector('img.chart').complete")
    assert re.search(r"\d", page.inner_text("#score-cards"))
    shoot(page, "scores", full_page=True)
    page.goto(url + "setup")
    shoot(page, "setup", full_page=True)
    page.goto(url + "panel")
    shoot(page, "panel")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone at the table
    page.goto(url)
    wait_for(page, "Number(document.getElementById('frame').dataset.count || 0) >= 1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
    shoot(page, "table-phone", full_page=True)

    # 7. a chisel placed by tapping its gap on the phone's diagram: the move made is the one tapped
    play_until(demo, lambda: chisel_turn(demo), 40)
    page.goto(url)
    page.wait_for_selector("circle.spot")
    spot = page.locator("circle.spot").nth(3)
    action = json.loads(spot.get_attribute("data-body"))["action"]
    count = len(demo.loop.records.history())
    spot.click()
    wait_for(page, "document.getElementById('last-move').innerText.includes('chisel')")
    assert len(demo.loop.records.history()) == count + 1
    assert demo.loop.records.history()[-1]["action"] == action
    demo.camera.show(demo.loop.game.model.scene(demo.loop.current_state()))  # laid as tapped
    assert PAGE_ERRORS == []


def chisel_turn(demo: Any) -> bool:
    """A chisel may be placed now, with nothing pending: the diagram's gaps are taps."""
    loop = demo.loop
    legal = loop.snapshot().get("legal") or []
    return loop.game.pending is None and any(a.get("kind") == "place-chisel" for a in legal)


def chisel_out_of_turn(demo: Any) -> Any:
    """The table scene after a legal chisel placement, with the chisel painted in another player's colour."""
    state = demo.loop.current_state()
    model = demo.loop.game.model
    placements = [a for a in state.legal_actions() if a.kind == "place-chisel"]
    if not placements:
        return None
    before = model.scene(state)
    after = model.scene(state.apply(placements[0]))
    known = {(round(p.center[0], 1), round(p.center[1], 1)) for p in before.pegs}
    added = [p for p in after.pegs if (round(p.center[0], 1), round(p.center[1], 1)) not in known]
    if not added:
        return None
    seats = demo.loop.snapshot()["players"]
    other = next(s for s in seats if s["name"] != state.current_player())
    from companion.config import SEAT_COLOURS

    peg = added[0]
    repainted = type(peg)(peg.center, other["colour"], SEAT_COLOURS[other["colour"]], peg.radius, peg.height,
                          peg.label)
    after.pegs[after.pegs.index(peg)] = repainted
    return after




def test_lan_mode_in_the_browser_needs_the_pin(demo: Any, page: Any, tmp_path: Any) -> None:
    """LAN mode (served on loopback here): the page asks for the PIN, a wrong one is refused, the right one
    opens the page; the pairing link's QR logs a second phone in with no typing."""
    from companion.web import WebConfig, create_app, serving

    config = WebConfig(host="127.0.0.1", port=0, lan=True, pin="246802", state_dir=tmp_path)
    running = serving.start(create_app(demo.loop, config), config)
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(running.url + "panel")
        page.wait_for_url("**/login?next=**", timeout=10_000)
        before = demo.loop.snapshot()["panel"]["presses"]["mode"]
        page.fill("input[name=pin]", "111111")
        page.click("button.primary")
        assert "Wrong PIN" in page.inner_text("main")
        page.fill("input[name=pin]", "246802")
        page.click("button.primary")
        page.wait_for_url("**/panel", timeout=10_000)
        assert "log out" in page.inner_text("header")
        page.click("#press-mode")
        wait_for(page, "document.getElementById('toast').innerText === 'done'")
        assert demo.loop.snapshot()["panel"]["presses"]["mode"] == before + 1
        page.goto(running.url + "pair")
        link = page.get_attribute("#pair-qr", "src")
        assert link and link.startswith("data:image/svg+xml")
        second = page.context.browser.new_context()
        try:
            phone = second.new_page()
            phone.goto(running.url.rstrip("/") + "/login#pin=246802")  # what the QR code holds
            phone.wait_for_url(running.url, timeout=10_000)
            assert "log out" in phone.inner_text("header")
            assert "pin=" not in phone.url
        finally:
            second.close()
    finally:
        running.stop()
    assert PAGE_ERRORS == []
