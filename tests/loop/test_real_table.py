"""A real table shuffles and draws its own cards: the game is started with the kit's real-table options
whatever the settings say, a simulated table is dealt by the engine, and the setup page never offers the
choice."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.commands.demo import build
from companion.web import WebConfig, create_app


@pytest.mark.parametrize("real_table", [False, True])
def test_who_deals_the_cards_follows_the_table(tmp_path: Path, real_table: bool) -> None:
    demo = build("isla-nublar", seed=1, state_dir=tmp_path, real_table=real_table)
    try:
        loop = demo.loop
        assert loop.current_state().options["table_cards"] == ("table" if real_table else "engine")
        settings = dict(loop.settings())
        settings["options"] = {**settings.get("options", {}), "table_cards": "engine"}
        assert loop.new_game(settings)["ok"]
        assert loop.current_state().options["table_cards"] == ("table" if real_table else "engine")
        page = create_app(loop, WebConfig()).test_client().get("/setup").get_data(as_text=True)
        assert 'name="opt:table_cards"' not in page and 'name="opt:clients"' in page
    finally:
        demo.close()


def test_a_real_table_notes_each_draw_unseen(tmp_path: Path) -> None:
    demo = build("isla-nublar", seed=1, state_dir=tmp_path, real_table=True)
    try:
        loop = demo.loop
        while loop.current_state().is_chance_node():  # the face-up cards of the setup, tapped
            assert loop.submit(loop.current_state().chance_outcomes()[0][0].to_dict(), source="web")["ok"]
        for card in ("S-BOXES2", "S-AMBER1", "S-AMBER1", "S-BOXES2", "EGG"):
            if loop.current_state().is_chance_node() or loop.current_state().tasks:
                break
            assert loop.submit({"kind": "play", "player": "red", "card": card, "use": "none"
                                if card != "EGG" else "egg"}, source="web")["ok"]
        while loop.current_state().current_player() != "blue":
            state = loop.current_state()
            action = (state.chance_outcomes()[0][0] if state.is_chance_node() else
                      next(a for a in state.legal_actions() if a.kind in ("end-turn", "finish", "decline")
                           or a.kind in ("move-dinosaur", "return-dinosaur", "choose-scoring")))
            assert loop.submit(action.to_dict(), source="web")["ok"], action
        draws = [e for e in loop.records.history() if e["action"]["kind"] == "draw"]
        assert len(draws) == 5 and all(e["source"] == "table" for e in draws)
        assert all(e["action"].get("concealed") for e in draws)
    finally:
        demo.close()
