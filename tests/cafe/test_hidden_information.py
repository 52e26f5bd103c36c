"""Nothing the shared view hides leaves a table for the broker: bot-played Isla Nublar and Jurassic Parts
games through the camera, every stored event turned into its broker message, and the retained state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.commands.demo import build
from companion.mqtt import messages
from companion.shared_view import privacy_for


def _values(value: object) -> list[str]:
    if isinstance(value, list | tuple):
        return [v for item in value for v in _values(item)]
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    return [json.dumps(value) if not isinstance(value, str) else value]


@pytest.mark.parametrize(("game", "steps"), [("isla-nublar", 160), ("jurassic-parts", 120)])
def test_every_message_keeps_what_is_concealed(tmp_path: Path, game: str, steps: int) -> None:
    demo = build(game, seed=2, state_dir=tmp_path)
    try:
        for _ in range(steps):
            if not demo.driver.step():
                break
        store = demo.loop.game.store
        record = store.game(demo.loop.game.game_id)
        events = store.events(record.game_id)
        concealed = 0
        for event in events:
            message = messages.event_message("t1", record, event)
            text = json.dumps(message)
            policy = privacy_for(game)  # the page's rule: a card laid face up is shown once played
            hidden = set() if policy.done_shareable(event.action or {}) else policy.hidden(event.action or {})
            private = {k: v for k, v in (event.action or {}).items() if k in hidden}
            if private or event.kind == "correct":
                concealed += 1
                assert message["action"] is None
                for value in _values(private):
                    assert f'"{value}"' not in text, (event, text)
                    assert f" {value}" not in message["description"], (event, text)
            else:
                assert message["action"] == event.action
        assert concealed > 0  # the walk did meet concealed holdings
        state = json.dumps(messages.state_message("t1", demo.loop.summary()))
        assert "hand" not in state and '"view"' not in state and '"legal"' not in state
    finally:
        demo.close()
