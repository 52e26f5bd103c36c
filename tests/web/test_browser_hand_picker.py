"""A whole Isla Nublar game at a real table on a 390 px phone, every card from a hand entered through the
hand picker (Debian's chromium through Playwright): the picker lists only what the hand may hold, and a
card is played in at most two taps (the card, then how it is played); the camera then sees it laid.
Screenshots of the set-up, the picker and a turn's end go to ``$SCREENSHOTS_DIR`` when it is set."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.waiting import until

from sim.phones import TAP_CONTROL

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]

#: the moves that name a card from the hand: entered through the picker
HAND_KINDS = frozenset({"play", "select", "defend"})
#: the index of the button (among ``sel``'s) whose posted action is ``target``, or -1
BUTTON_INDEX = """([sel, target]) => {
  const canon = (value) => JSON.stringify(value, Object.keys(value).sort());
  const buttons = [...document.querySelectorAll(sel + " button.move")];
  return buttons.findIndex((b) => canon(JSON.parse(b.dataset.body).action) === canon(target));
}"""


class Phone:
    """One phone at a real table: cards from the hand through the picker, the rest tapped as listed."""

    def __init__(self, demo: Any, page: Any, shots: Path) -> None:
        self.demo, self.page, self.shots, self.loop = demo, page, shots, demo.loop
        self.entries: list[int] = []  # taps per card entered from a hand
        self.searched = False

    def home(self) -> None:
        if self.page.url.rstrip("/") != self.demo.url.rstrip("/"):
            self.page.goto(self.demo.url)

    def shoot(self, moment: str) -> None:
        path = self.shots / f"isla-nublar-{moment}-phone.png"
        if not path.exists():
            self.page.wait_for_timeout(150)
            self.page.screenshot(path=str(path), full_page=True)

    def enter_card(self, action: dict[str, Any]) -> None:
        """The player opens the card in the picker and taps how it is played; then lays it on the table."""
        self.home()
        count = len(self.loop.records.history())
        card = action["card"]
        fold = f"#hand-card-{'unseen' if card == '?' else card}"
        self.page.wait_for_selector(fold, state="attached", timeout=30_000)
        if not self.searched and self.page.query_selector("#hand-search"):
            self.search_once(fold)
        self.shoot("picker")
        taps = 0
        if not self.page.eval_on_selector(fold, "d => d.open"):
            self.page.click(f"{fold} > summary")
            taps += 1
        deadline = time.monotonic() + 30
        while (index := self.page.evaluate(BUTTON_INDEX, [fold, action])) < 0:
            assert time.monotonic() < deadline, f"the picker offers no button for {action}"
            self.page.wait_for_timeout(50)
        self.page.locator(f"{fold} button.move").nth(index).click()
        taps += 1
        until(f"the picked {action['kind']}", lambda: len(self.loop.records.history()) > count)
        event = self.loop.records.history()[count]
        assert event["source"] == "web" and event["action"]["kind"] == action["kind"], event
        self.entries.append(taps)
        self.demo.camera.show(self.loop.game.model.scene(self.loop.current_state()))  # the card, laid
        frames = self.loop.snapshot()["camera"]["frames"]
        until("the camera's look at the card laid",
              lambda: self.loop.snapshot()["camera"]["frames"] > frames + 8)
        # the tap is objected to until the table shows it (the referee judges the old picture at once);
        # the card laid must clear it, however long a loaded machine takes to read the still table
        try:
            until(f"the card laid to answer the objection to the tapped {action}",
                  lambda: self.loop.game.pending is None)
        except AssertionError as error:
            raise AssertionError(f"{error}; pending: {self.loop.snapshot()['pending']}") from None

    def search_once(self, fold: str) -> None:
        """The search box keeps the card sought and hides the others."""
        name = self.page.eval_on_selector(fold, "d => d.closest('li').dataset.name")
        self.page.fill("#hand-search", name)
        cards = "#hand-card-list li[data-filter-item]"
        shown = self.page.eval_on_selector_all(cards, "items => items.filter(i => !i.hidden).length")
        total = self.page.eval_on_selector_all(cards, "items => items.length")
        assert 1 <= shown < total or total == 1, (name, shown, total)
        assert self.page.is_visible(fold)
        self.page.fill("#hand-search", "")
        self.searched = True

    def tap(self, action: Any) -> dict[str, Any]:
        """A move the camera cannot see (a purchase, an end of turn, a card turned face up)."""
        data = action.to_dict()
        self.home()
        count = len(self.loop.records.history())
        if data["kind"] == "end-turn":
            self.shoot("turn-end")
        deadline = time.monotonic() + 30
        while not self.page.evaluate(TAP_CONTROL, ["#legal-moves button.move, #dispute button.move", data]):
            assert time.monotonic() < deadline, f"no control on the page for {data}"
            self.page.wait_for_timeout(50)
        until(f"the tapped {data['kind']}", lambda: len(self.loop.records.history()) > count)
        return {"ok": True}


def test_a_real_table_enters_every_hand_card_through_the_picker(browser: Any, tmp_path: Path) -> None:
    from companion.commands.demo import build, serve

    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    demo = build("isla-nublar", seed=2, state_dir=tmp_path / "state", fps=20.0, synchronous=False,
                 real_table=True)
    # the board laid, the figures still in the box: the set-up's first chance is where they go
    bare = demo.loop.game.model.scene(demo.loop.current_state())
    bare.tags = [tag for tag in bare.tags if ":DINO-" not in tag.payload]
    demo.camera.show(bare)
    serve(demo, port=0)
    errors: list[str] = []
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(demo.url)
        page.wait_for_selector("text=stand the four dinosaur figures on the red volcanoes", timeout=30_000)
        assert "Place Dinosaurs" in page.inner_text("#legal-picker")
        page.screenshot(path=str(shots / "isla-nublar-set-up-phone.png"), full_page=True)
        phone = Phone(demo, page, shots)
        driver, loop = demo.driver, demo.loop
        driver.submit = phone.tap
        steps = 0
        while not loop.current_state().is_terminal():
            state = loop.current_state()
            action = driver.choose(state)
            if action.kind == "end-turn" and loop.game.pending is None:
                phone.home()
                phone.shoot("turn-end")
            if not state.is_chance_node() and loop.game.pending is None and action.kind in HAND_KINDS:
                phone.enter_card(action.to_dict())
            else:
                driver.choose = lambda _state, chosen=action: chosen  # type: ignore[method-assign]
                try:
                    driver.step()
                finally:
                    del driver.choose
            steps += 1
            assert steps < 3000, "the game did not end"
        page.goto(demo.url)
        page.wait_for_selector("text=Game over", timeout=30_000)
        assert phone.entries and max(phone.entries) <= 2, phone.entries
        assert phone.searched
        history = loop.records.history()
        plays = [e for e in history if e["action"]["kind"] == "play"]
        assert plays and all(e["source"] == "web" for e in plays), [
            (e["seq"], e["source"]) for e in plays if e["source"] != "web"]
        print(json.dumps({"moves": len(history), "cards from hands": len(phone.entries),
                          "two taps": phone.entries.count(2), "one tap": phone.entries.count(1)}))
    finally:
        demo.close()
    assert errors == []
