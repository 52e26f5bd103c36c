"""Nothing the shared view hides reaches the page: bot-played Isla Nublar and Jurassic Parts games through
the camera, then every history entry, the snapshot's last event, a past move's ruling page and the live
stream's events are checked for any field that can name a concealed holding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.commands.demo import build
from companion.privacy import PRIVATE_ACTION_FIELDS
from companion.web import WebConfig, create_app


@pytest.mark.parametrize(("game", "steps"), [("isla-nublar", 160), ("jurassic-parts", 120)])
def test_no_page_names_a_concealed_holding(tmp_path: Path, game: str, steps: int) -> None:
    demo = build(game, seed=2, state_dir=tmp_path)
    client: Any = create_app(demo.loop, WebConfig()).test_client()
    stream: list[Any] = []
    unsubscribe = demo.loop.events(timeout=0.01)
    next(unsubscribe)  # hello: from now on every published message is queued for this reader
    try:
        for _ in range(steps):
            if not demo.driver.step():
                break
        stored = demo.loop.store.events(demo.loop.game_id)
        private = [e for e in stored if e.action and PRIVATE_ACTION_FIELDS & set(e.action)]
        assert private, "the walk met no concealed holding"
        history = client.get("/api/history").get_json()
        entries = history["events"] if isinstance(history, dict) else history
        assert len(entries) == len(stored)
        for entry in entries:
            assert not PRIVATE_ACTION_FIELDS & set(entry.get("action") or {}), entry
        for event in private[:20]:
            page = client.get(f"/dispute?seq={event.seq}").get_data(as_text=True)
            for key in PRIVATE_ACTION_FIELDS & set(event.action or {}):
                assert f'"{key}": {json.dumps(event.action[key])}' not in page
        snapshot = client.get("/api/snapshot").get_json()
        assert not PRIVATE_ACTION_FIELDS & set((snapshot.get("last_event") or {}).get("action") or {})
        while True:
            message = next(unsubscribe)
            if message.get("type") == "ping":
                break
            stream.append(message)
        events = [m["event"] for m in stream if m.get("type") == "event"]
        assert len(events) == len(stored)
        for event in events:
            assert not PRIVATE_ACTION_FIELDS & set(event.get("action") or {}), event
    finally:
        unsubscribe.close()
        demo.close()
