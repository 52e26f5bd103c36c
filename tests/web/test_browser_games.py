"""Whole games at the page (Debian's chromium through Playwright): players make their moves on the table,
where the camera reads them, and every decision the camera cannot see is a tap on the phone-sized page: a
purchase, a pass, a card laid from the hand (the hand picker), a question's option, the correction of a
knocked piece. Each game ends by its rules; screenshots at 390x844 and 1400x1000 are taken at the start,
mid-game, at a question or a split, and at game over (into ``$SCREENSHOTS_DIR`` when it is set)."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.waiting import until

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]

#: taps the control whose posted action is ``target`` (opening the folds around it, as a player would);
#: finding and tapping in one go, since live updates may swap the list between two calls; false if none
TAP_MOVE = """(target) => {
  const canon = (value) => JSON.stringify(value, Object.keys(value).sort());
  const want = canon(target);
  const buttons = [...document.querySelectorAll("button.move")];
  for (let i = 0; i < buttons.length; i++) {
    const action = JSON.parse(buttons[i].dataset.body).action;
    if (canon(action) === want) {
      for (let d = buttons[i].closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
      buttons[i].scrollIntoView({block: "center"});
      buttons[i].click();
      return true;
    }
  }
  return false;
}"""
#: games, seeds, the moves after which the mid-game pictures are taken, and whether the cards are shuffled
#: and drawn at the table (Isla Nublar: every draw unseen, every face-up card tapped as it is turned up)
GAMES = [("jurassik", 4, 20, False), ("jurassic-brunch", 3, 16, False), ("jurassic-parts", 1, 60, False),
         ("isla-nublar", 1, 120, True)]


class Players:
    """People at the table with one phone: the bots choose (seeded), the page is tapped."""

    def __init__(self, demo: Any, page: Any, shots: Path) -> None:
        self.demo, self.page, self.shots = demo, page, shots
        self.loop = demo.loop
        self.tapped = 0
        self.answered = 0
        self.entered_by_table = 0  # draws the engine deals (a simulated table): no shared page names them

    def tap(self, action: Any) -> dict[str, Any]:
        data = action.to_dict()
        state = self.loop.current_state()
        if state.is_chance_node() and data["kind"] == "draw":  # dealt by the engine: no page may name it
            self.entered_by_table += 1
            return dict(self.loop.submit(data, source="table"))
        count = len(self.loop.history())
        if self.page.url.rstrip("/") != self.demo.url.rstrip("/"):
            self.page.goto(self.demo.url)
        if state.is_chance_node():  # a card turned face up for everyone, tapped as it lies
            self.page.wait_for_selector("button.move", timeout=30_000)
            self.shoot("turned-up")
        deadline = time.monotonic() + 30
        while not self.page.evaluate(TAP_MOVE, data):  # the page swaps its live parts as moves arrive
            assert time.monotonic() < deadline, f"no control on the page for {data}"
            self.page.wait_for_timeout(50)
        until(f"the tapped {data['kind']}", lambda: len(self.loop.history()) > count)
        event = self.loop.history()[count]  # cards drawn unseen may follow it, noted by the table
        assert event["source"] == "web", event
        self.tapped += 1
        return {"ok": True}

    def answer(self, index: int) -> None:
        self.page.goto(self.demo.url + "dispute")
        self.page.wait_for_selector(f"#choose-{index}", timeout=30_000)
        self.shoot("question")
        self.page.click(f"#choose-{index}")
        until("the question answered", lambda: self.loop.pending is None)
        self.answered += 1
        self.page.goto(self.demo.url)

    def shoot(self, moment: str) -> None:
        if (self.shots / f"{self.demo.loop.game.name}-{moment}-phone.png").exists():
            return
        name = self.demo.loop.game.name
        for width, height, suffix in ((390, 844, "phone"), (1400, 1000, "wide")):
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.wait_for_timeout(150)
            self.page.screenshot(path=str(self.shots / f"{name}-{moment}-{suffix}.png"), full_page=True)
        self.page.set_viewport_size({"width": 390, "height": 844})

    def knock_and_correct(self) -> None:
        """A hand knocks a piece off its place: the objection offers the nearest moves; the players put
        the piece back and accept the table as it is (Confirm), then carry on."""
        state = self.loop.current_state()
        scene = self.loop.model.scene(state)
        rng = random.Random(7)
        index = rng.randrange(len(scene.tags))
        tag = scene.tags.pop(index)
        self.demo.camera.show(scene)
        until("the objection",
              lambda: self.loop.pending is not None and self.loop.pending.kind == "objection")
        self.page.goto(self.demo.url + "dispute")
        self.page.wait_for_selector("#dispute", timeout=30_000)
        self.shoot("objection")
        scene.tags.insert(index, tag)
        self.demo.camera.show(scene)  # the piece is put back: the table matches the game again
        until("the objection cleared", lambda: self.loop.pending is None)
        self.page.goto(self.demo.url)


@pytest.mark.parametrize(("game", "seed", "mid", "real_table"), GAMES)
def test_a_whole_game_played_at_the_page(
    browser: Any, tmp_path: Path, game: str, seed: int, mid: int, real_table: bool
) -> None:
    from companion.commands.demo import build, serve

    shots = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    demo = build(game, seed=seed, state_dir=tmp_path / "state", fps=20.0, synchronous=False,
                 real_table=real_table)
    serve(demo, port=0)
    errors: list[str] = []
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(demo.url)
        players = Players(demo, page, shots)
        demo.driver.submit = players.tap
        demo.driver.answer = players.answer
        players.shoot("start")
        steps = 0
        while demo.driver.step():
            steps += 1
            if steps == mid // 2:
                players.knock_and_correct()
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
        history = demo.loop.history()
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
