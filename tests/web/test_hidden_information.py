"""Nothing the shared view hides reaches the page: bot-played Isla Nublar and Jurassic Parts games through
the camera, then every history entry, the snapshot's last event, a past move's ruling page and the live
stream's events are checked for any field that can name a concealed holding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.commands.demo import build
from companion.shared_view import privacy_for
from companion.web import WebConfig, create_app

WALKS = [("isla-nublar", 160, False), ("isla-nublar", 160, True), ("jurassic-parts", 120, False)]


@pytest.mark.parametrize(("game", "steps", "real_table"), WALKS)
def test_no_page_names_a_concealed_holding(tmp_path: Path, game: str, steps: int, real_table: bool) -> None:
    demo = build(game, seed=2, state_dir=tmp_path, real_table=real_table)
    client: Any = create_app(demo.loop, WebConfig()).test_client()
    stream: list[Any] = []
    unsubscribe = demo.loop.events(timeout=0.01)
    next(unsubscribe)  # hello: from now on every published message is queued for this reader
    try:
        for _ in range(steps):
            if not demo.driver.step():
                break
        policy = privacy_for(game)
        stored = demo.loop.game.store.events(demo.loop.game.game_id)
        private = [e for e in stored if e.action and not policy.done_shareable(e.action)]
        assert private, "the walk met no concealed holding"
        history = client.get("/api/history").get_json()
        entries = history["events"] if isinstance(history, dict) else history
        assert len(entries) == len(stored)
        by_seq = {e.seq: e for e in stored}
        for entry in entries:
            action = entry.get("action") or {}
            if by_seq[entry["seq"]] in private:
                assert not policy.hidden(by_seq[entry["seq"]].action or {}) & set(action), entry
                assert action.get("concealed"), entry
            else:  # made in the open (a card laid face up): shown as made
                assert action == (by_seq[entry["seq"]].action or {}) or by_seq[entry["seq"]].kind == "correct"
        for event in private[:20]:
            page = client.get(f"/dispute?seq={event.seq}").get_data(as_text=True)
            for key in policy.hidden(event.action or {}):
                assert f'"{key}": {json.dumps(event.action[key])}' not in page
        snapshot = client.get("/api/snapshot").get_json()
        if real_table:  # the engine's reckoning of what the hands may hold is nobody's view
            cards = json.dumps((snapshot.get("view") or {}).get("cards"))
            assert '"pool"' not in cards and '"unseen"' not in cards
        last = (snapshot.get("last_event") or {}).get("action") or {}
        assert policy.done_shareable(last) and not (last.get("concealed") and policy.hidden(last))
        for action in snapshot.get("legal") or []:
            assert policy.option_shareable(action), action  # the hand is never listed
        while True:
            message = next(unsubscribe)
            if message.get("type") == "ping":
                break
            stream.append(message)
        events = [m["event"] for m in stream if m.get("type") == "event"]
        assert len(events) == len(stored)
        for event in events:
            action = event.get("action") or {}
            assert policy.done_shareable(action), event
            assert not (action.get("concealed") and policy.hidden(action)), event
    finally:
        unsubscribe.close()
        demo.close()
