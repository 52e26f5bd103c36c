"""The Setup page's self-test speaks in sentences with what to do: no field names, no JSON, no 'None'."""

from __future__ import annotations

import re
from pathlib import Path

from companion.commands.demo import build
from companion.web import WebConfig, create_app


def test_the_self_test_and_its_measurements_are_sentences(tmp_path: Path) -> None:
    demo = build("jurassik", seed=1, state_dir=tmp_path)
    try:
        for _ in range(4):
            demo.loop.process_read(demo.camera.read())
        page = create_app(demo.loop, WebConfig()).test_client().get("/setup").get_data(as_text=True)
        start = page.index('id="calibration"')
        section = page[start:page.index("</section>", start)]
        assert "Self-test passed: the camera is ready." in section
        assert "Marker 0: seen" in section and "px per mm across the table" in section
        assert "The calibration holds: 4 corner markers seen" in section
        words = re.sub(r"<[^>]+>", " ", section)
        for dump in ("None", "{", "[", "_px", "drift px", "By Region", "true", "false"):
            assert dump not in words, dump
    finally:
        demo.close()
