"""People at the table with one phone in a real browser (the browser tests' games): the bots choose
(seeded), the page is tapped, and pictures of it are taken at 390 and 1400 px."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from helpers.waiting import until
from sim.phones import TAP_CONTROL

#: every piece of visible text drawn under 12 px (CSS pixels of the page as shown: an SVG's text scaled by
#: its drawing's size on the page), as "size: words"
SMALL_TEXT = """async () => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const element = walker.currentNode.parentElement;
    if (!text || !element || element.closest("script, style, noscript")) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (!box.width || !box.height || style.visibility === "hidden") continue;
    let size = parseFloat(style.fontSize);
    if (element instanceof SVGElement && element.getScreenCTM()) {
      const ctm = element.getScreenCTM();
      size *= Math.hypot(ctm.a, ctm.b);
    }
    if (size < 11.95) small.push(size.toFixed(1) + " px: " + text.slice(0, 40));
  }
  // drawings shown as pictures (the diagram, the score chart): their text scaled as the picture is shown
  for (const image of document.querySelectorAll("img")) {
    if (!image.src.includes(".svg") || !image.getBoundingClientRect().width) continue;
    const svg = new DOMParser().parseFromString(await (await fetch(image.src)).text(), "image/svg+xml");
    const root = svg.documentElement;
    const box = (root.getAttribute("viewBox") || "").split(/[ ,]+/).map(Number);
    if (box.length !== 4 || !box[2]) continue;
    const scale = image.getBoundingClientRect().width / box[2];
    for (const node of root.querySelectorAll("text")) {
      let holder = node;
      while (holder && holder.getAttribute && !holder.getAttribute("font-size")) holder = holder.parentNode;
      const given = holder && holder.getAttribute ? holder.getAttribute("font-size") : "16";
      const size = parseFloat(given) * scale;
      const words = node.textContent.trim();
      if (words && size < 11.95) small.push(size.toFixed(1) + " px in a picture: " + words.slice(0, 40));
    }
  }
  return small;
}"""
def half_laid_demo(game: str, state_dir: Path, **build: Any) -> Any:
    """A demo table served for the browser, its table half laid (every other piece) when the page is
    first opened, so that the set-up checklist has something to ask for."""
    from companion.commands.demo import build as build_demo
    from companion.commands.demo import serve

    demo = build_demo(game, state_dir=state_dir, fps=20.0, synchronous=False, **build)
    half = demo.loop.game.model.scene(demo.loop.current_state())
    half.tags = half.tags[1::2]
    demo.camera.show(half)
    serve(demo, port=0)
    return demo


class Players:
    """People at the table with one phone: the bots choose (seeded), the page is tapped."""

    def __init__(self, demo: Any, page: Any, shots: Path) -> None:
        self.demo, self.page, self.shots = demo, page, shots
        self.loop = demo.loop
        self.tapped = 0
        self.answered = 0
        self.entered_by_table = 0  # draws the engine deals (a simulated table): no shared page names them
        self.small_text: dict[str, list[str]] = {}  # per picture, the text drawn under 12 px on a phone

    def tap(self, action: Any) -> dict[str, Any]:
        data = action.to_dict()
        state = self.loop.current_state()
        if state.is_chance_node() and data["kind"] == "draw":  # dealt by the engine: no page may name it
            self.entered_by_table += 1
            return dict(self.loop.submit(data, source="table"))
        count = len(self.loop.records.history())
        if self.page.url.rstrip("/") != self.demo.url.rstrip("/"):
            self.page.goto(self.demo.url)
        if state.is_chance_node():  # a card turned face up for everyone, tapped as it lies
            self.page.wait_for_selector("button.move", timeout=30_000)
            self.shoot("turned-up")
        deadline = time.monotonic() + 30
        # the page swaps its live parts as moves arrive
        while not self.page.evaluate(TAP_CONTROL, ["button.move", data]):
            assert time.monotonic() < deadline, f"no control on the page for {data}"
            self.page.wait_for_timeout(50)
        until(f"the tapped {data['kind']}", lambda: len(self.loop.records.history()) > count)
        event = self.loop.records.history()[count]  # cards drawn unseen may follow it, noted by the table
        assert event["source"] == "web", event
        self.tapped += 1
        return {"ok": True}

    def answer(self, index: int) -> None:
        self.page.goto(self.demo.url + "dispute")
        self.page.wait_for_selector(f"#choose-{index}", timeout=30_000)
        self.shoot("question")
        self.page.click(f"#choose-{index}")
        until("the question answered", lambda: self.loop.game.pending is None)
        self.answered += 1
        self.page.goto(self.demo.url)

    def shoot(self, moment: str) -> None:
        if (self.shots / f"{self.demo.loop.game.engine.name}-{moment}-phone.png").exists():
            return
        name = self.demo.loop.game.engine.name
        for width, height, suffix in ((390, 844, "phone"), (1400, 1000, "wide")):
            self.page.set_viewport_size({"width": width, "height": height})
            self.page.wait_for_timeout(150)
            small = self.page.evaluate(SMALL_TEXT) if suffix == "phone" else []
            if small:
                self.small_text[moment] = small
            self.page.screenshot(path=str(self.shots / f"{name}-{moment}-{suffix}.png"), full_page=True)
        self.page.set_viewport_size({"width": 390, "height": 844})

    def knock_and_correct(self) -> None:
        """A hand knocks a piece off its place: the objection offers the nearest moves; the players put
        the piece back and accept the table as it is (Confirm), then carry on."""
        state = self.loop.current_state()
        scene = self.loop.game.model.scene(state)
        rng = random.Random(7)
        index = rng.randrange(len(scene.tags))
        tag = scene.tags.pop(index)
        self.demo.camera.show(scene)
        until("the objection",
              lambda: self.loop.game.pending is not None and self.loop.game.pending.kind == "objection")
        self.page.goto(self.demo.url + "dispute")
        self.page.wait_for_selector("#dispute", timeout=30_000)
        self.shoot("objection")
        scene.tags.insert(index, tag)
        self.demo.camera.show(scene)  # the piece is put back: the table matches the game again
        until("the objection cleared", lambda: self.loop.game.pending is None)
        self.page.goto(self.demo.url)
        self.shoot("recovery")

    def hand_over_the_table(self) -> None:
        """A hand left resting over the table: the page says that nothing is read while it is there, and
        takes the notice away with the hand."""
        from vision.scene import Occluder

        scene = self.loop.game.model.scene(self.loop.current_state())
        w, h = scene.width, scene.height
        hand = Occluder(((w * 0.4, h), (w * 0.6, h), (w * 0.6, h * 0.45), (w * 0.4, h * 0.45)))
        self.demo.camera.show(replace(scene, occluders=[*scene.occluders, hand]))
        until("the covered notice", lambda: bool(self.loop.snapshot()["camera"].get("covered")))
        self.page.goto(self.demo.url)
        self.page.wait_for_selector("#notice-covered", timeout=30_000)
        assert "nothing is read until it is moved away" in self.page.inner_text("#notice-covered")
        self.shoot("covered")
        self.demo.camera.show(scene)
        until("the notice gone", lambda: not self.loop.snapshot()["camera"].get("covered"))
        self.page.goto(self.demo.url)
        assert self.page.query_selector("#notice-covered") is None

    def set_up(self) -> None:
        """The table half laid (shown before the page was served): the page lists what is still to put
        out (the set-up checklist); then the rest is laid and the game starts."""
        whole = self.loop.game.model.scene(self.loop.current_state())
        self.page.goto(self.demo.url)
        self.page.wait_for_selector("#setup-steps li", timeout=30_000)
        from companion.setup_check import reads_setups

        if reads_setups(self.loop.game.engine.name):  # the group's own set-up: the list says what it lacks
            assert self.page.inner_text("#setup-steps").strip()
        else:  # the companion's deal: the picture rings the places the list names
            until("the places ringed", lambda: 'class="marked"' in self.page.evaluate(
                "async () => (await fetch(document.getElementById('board').src)).text()"))
        self.shoot("set-up")
        self.demo.camera.show(whole)
        until("the table laid", lambda: self.loop.game.pending is None)
        self.page.goto(self.demo.url)
