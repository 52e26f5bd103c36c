"""The companion at a real Isla Nublar table: its cards are its own, dealt and shuffled unseen by the
engine (nobody handles its deck), while the people's are shuffled and drawn at the table. Its plays are
shown on the page, what it holds on no page, and the people carry out on the table what its cards do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from table import build_table

from companion import words
from companion.kits import kits
from companion.web import WebConfig, create_app

GAME = "isla-nublar"


def test_the_companion_plays_its_own_cards_at_a_real_table_and_shows_them_to_nobody(tmp_path: Path) -> None:
    people, companion = list(kits()[GAME].demo_colours[:2])
    table = build_table(GAME, [people, companion], tmp_path, seed=3, real_table=True,
                        companion={companion: 1})
    client: Any = create_app(table.loop, WebConfig()).test_client()
    try:
        loop = table.loop
        assert loop.companion.levels == {companion: 1}
        assert not [f for f in loop.snapshot()["faults"] if f["part"] == "companion"]
        state = loop.current_state()
        assert state.options["dealt_seats"] == (companion,) and state.options["table_cards"] == "table"
        saw_its_turn = False
        bought: list[str] = []
        while (table.driver.companion_moves < 10 or not bought) and table.driver.companion_moves < 60 \
                and table.driver.step():
            state = loop.current_state()
            snapshot = client.get("/api/snapshot").get_json()
            wanted = snapshot.get("companion") or {}
            if (wanted.get("action") or {}).get("kind") == "buy":  # a card off a pile: put in the box
                bought.append(words.said_words(wanted.get("said"), "", snapshot))
            cards = snapshot["view"]["cards"]
            assert set(cards[companion]["hand"]) == {"count"}  # what it holds: a number, on every page
            hand = snapshot["view"].get("table_hand")  # the snapshot's own turn: the loop moves on meanwhile
            assert hand is None or hand.get("player") != companion
            if state.current_player() == companion:
                saw_its_turn = True
                assert all(a.get("player") != companion or a.get("kind") not in ("play", "select")
                           for a in snapshot.get("legal") or [])  # its hand is never listed as moves
        assert saw_its_turn and table.driver.companion_moves >= 10
        assert bought and all(text.endswith("its cards are its own: put the card it takes in the box")
                              for text in bought), bought
        assert loop.companion.failures == 0 and loop.game.pending is None
        stored = loop.game.store.events(loop.game.game_id)
        draws = [e.action for e in stored if e.action and e.action.get("kind") == "draw"]
        # the engine dealt the companion named cards; the people's draws are "a card" nobody names
        assert {d["card"] for d in draws if d["player"] == people} == {"?"}
        dealt = {d["card"] for d in draws if d["player"] == companion}
        assert dealt and "?" not in dealt
        history = json.dumps(client.get("/api/history").get_json())
        assert '"concealed": true' in history
        for entry in client.get("/api/history").get_json():
            action = entry.get("action") or {}
            if action.get("kind") == "draw":
                assert "card" not in action  # no page says what the companion drew
        played = [e for e in stored if e.source == "companion" and (e.action or {}).get("kind") == "play"]
        assert played, "the companion never played a card"
    finally:
        table.close()
