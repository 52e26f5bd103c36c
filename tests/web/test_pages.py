"""The pages over a live session: what they show, live updates, disputes, stepping back, privacy."""

from __future__ import annotations

import json
import random
import re
import threading
import time
from typing import Any

import pytest

from companion.kits.jurassic_parts.words import FRONTS
from companion.web import WebConfig, create_app
from engines.core import available_games, get_game, sample_chance

HOST = {"Host": "localhost"}
PAGES = ["/", "/scores", "/history", "/dispute", "/setup", "/panel"]


def text(client: Any, url: str) -> str:
    answer = client.get(url, headers=HOST)
    assert answer.status_code == 200, (url, answer.status_code)
    body: str = answer.get_data(as_text=True)
    return body


def test_every_page_renders_the_live_game(client: Any, table: Any) -> None:
    snap = table.snapshot()
    for url in PAGES:
        html = text(client, url)
        assert snap["title"] in html
        assert "<script src=\"/static/app.js\"></script>" in html
    table_html = text(client, "/")
    last = snap["last_event"]
    assert f"#{last['seq']}" in table_html and 'id="frame"' in table_html
    scores = text(client, "/scores")
    for name, entry in snap["scores"]["players"].items():
        assert name in scores and f'<span class="total">{entry["total"]}</span>' in scores


def test_pictures_are_served_and_follow_the_game(client: Any, table: Any) -> None:
    frame = client.get("/api/frame.jpg", headers=HOST)
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg" and frame.data[:2] == b"\xff\xd8"
    chart = client.get("/api/scores.svg", headers=HOST).get_data(as_text=True)
    assert chart.startswith("<svg") and chart.count("<polyline") == len(table.snapshot()["players"])
    board = client.get("/api/board.svg", headers=HOST)
    assert board.mimetype == "image/svg+xml" and board.get_data(as_text=True).startswith("<svg")
    snap = table.snapshot()
    if snap["game"] == "jurassic-parts" and any(a["kind"] == "place-chisel" for a in snap["legal"]):
        assert 'class="legal"' in board.get_data(as_text=True)  # legal chisel gaps ringed on the slab
    before = client.get("/api/board.svg", headers=HOST).data
    table.play(3)
    assert client.get("/api/board.svg", headers=HOST).data != before
    photo = client.get(f"/api/photo/{table.records.history()[0]['seq']}.jpg", headers=HOST)
    assert photo.status_code == 200 and photo.data[:2] == b"\xff\xd8"


def test_history_steps_back_through_the_game(client: Any, table: Any) -> None:
    events = table.records.history()
    latest = events[-1]["seq"]
    html = text(client, f"/history?seq={latest}")
    assert f'id="step-seq">#{latest}<' in html
    back = f"/history?seq={events[-2]['seq']}"
    assert f'href="{back}"' in html and 'id="step-back"' in html
    earlier = text(client, back)
    assert f'id="step-seq">#{events[-2]["seq"]}<' in earlier
    shown = client.get(f"/api/state/{events[-2]['seq']}", headers=HOST).get_json()
    assert shown["view"] == table.records.state_at(events[-2]["seq"])["view"]
    assert shown["view"] != table.snapshot()["view"]
    first = text(client, f"/history?seq={events[0]['seq']}")
    assert 'class="button disabled">◀ step back' in first
    assert client.get("/history?seq=99999", headers=HOST).status_code == 404


def test_a_question_is_decided_from_the_dispute_page(client: Any, table: Any, csrf: Any, post: Any) -> None:
    table.ask_question()
    html = text(client, "/dispute")
    assert "Which of these moves was made?" in html and 'id="choose-1"' in html
    assert 'id="pending-banner"' in text(client, "/")
    token = csrf(client)
    count = len(table.records.history())
    chosen = table.pending["options"][1]["action"]
    answer = post(client, "/api/choose", {"index": 1}, token)
    assert answer.status_code == 200 and answer.get_json()["ok"] is True
    assert table.records.history()[-1]["action"] == chosen and len(table.records.history()) == count + 1
    assert table.pending is None
    again = post(client, "/api/choose", {"index": 0}, token)
    assert again.status_code == 409 and again.get_json()["ok"] is False
    assert len(table.records.history()) == count + 1


def test_an_objection_shows_the_rule_and_is_confirmed(client: Any, table: Any, csrf: Any, post: Any) -> None:
    from engines.core import IllegalAction

    state = table.state
    while state.is_chance_node():
        table.bot_step()
        state = table.state
    legal = state.legal_actions()[0].to_dict()
    wrong_player = next(p for p in state.players if p != state.current_player())
    illegal = state.game.action_from_dict({**legal, "player": wrong_player})
    with pytest.raises(IllegalAction) as refusal:
        state.apply(illegal)
    table.raise_objection(illegal, refusal.value)
    html = text(client, "/dispute")
    rule = refusal.value.rule
    assert "Objection" in html and rule.title in html
    from markupsafe import escape

    assert str(escape(rule.passage)) in html
    if rule.note:
        assert str(escape(rule.note)) in html
    # the page says what Confirm does to an objection: the picture is ignored, the game does not change
    assert 'id="confirm-objection-note"' in html and "Confirm does not change the game" in html
    answer = post(client, "/api/press", {"button": "confirm"}, csrf(client))
    assert answer.status_code == 200
    assert table.pending is None and "No dispute open" in text(client, "/dispute")


def test_a_refused_correction_says_why(client: Any, table: Any, csrf: Any, post: Any) -> None:
    before = len(table.records.history())
    wrong = {"action": {"kind": "correct", "state": {"game": "nope"}}}
    answer = post(client, "/api/submit", wrong, csrf(client))
    assert answer.status_code == 409 and answer.get_json()["ok"] is False
    fixed = table.state.to_dict()
    answer = post(client, "/api/submit", {"action": {"kind": "correct", "state": fixed, "reason": "test"}},
                  csrf(client))
    assert answer.status_code == 200 and len(table.records.history()) == before + 1


def test_new_game_from_the_setup_page(client: Any, table: Any, csrf: Any, post: Any) -> None:
    html = text(client, "/setup")
    assert ('id="new-game"' in html and "house rule" in html) or "edition" in html
    game = table.snapshot()["game"]
    settings = {"game": game, "seats": [{"name": "Ana", "colour": "purple", "seat": 0},
                                        {"name": "Bo", "colour": "orange", "seat": 1}]}
    answer = post(client, "/api/new-game", {"settings": settings}, csrf(client))
    assert answer.status_code == 200, answer.get_json()
    assert [p["name"] for p in table.snapshot()["players"]] == ["Ana", "Bo"]
    assert len(table.records.games()) == 2 and table.records.history() == []


def test_panel_mirrors_the_leds_and_presses_buttons(client: Any, table: Any, csrf: Any, post: Any) -> None:
    html = text(client, "/panel")
    current = table.snapshot()["current"]
    colour = next(p["colour"] for p in table.snapshot()["players"] if p["name"] == current)
    assert 'data-on="1"' in html and colour in html
    for button in ("confirm", "undo", "next", "mode"):
        assert f'id="press-{button}"' in html
    count = len(table.records.history())
    assert post(client, "/api/press", {"button": "undo"}, csrf(client)).status_code == 200
    assert len(table.records.history()) == count - 1


def test_server_sent_events_carry_table_events(app: Any, table: Any) -> None:
    client = app.test_client()
    stream = client.get("/api/events", headers=HOST, buffered=False)
    assert stream.mimetype == "text/event-stream"
    chunks = iter(stream.response)
    assert next(chunks).startswith(b"retry:")
    threading.Timer(0.2, lambda: table.play(1)).start()
    deadline = time.monotonic() + 5
    payload = None
    while time.monotonic() < deadline:
        chunk = next(chunks).decode()
        if chunk.startswith("data: "):
            payload = json.loads(chunk[6:])
            break
    stream.close()
    assert payload is not None and payload["type"] == "event"


def _game_with_a_hidden_holding() -> tuple[Any, str]:
    """A Jurassic Parts game where a player holds a concealed fossil the shared view never names."""
    game = get_game("jurassic-parts")
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state(["red", "blue", "green"], rng=rng)
        for _ in range(2000):
            if state.is_terminal():
                break
            state = state.apply(sample_chance(state, rng) if state.is_chance_node()
                                else rng.choice(state.legal_actions()))
            shared = json.dumps(state.view(None))
            for seat in state.to_dict()["seats"].values():
                for fossil in seat["loose"]:
                    if fossil not in shared and not state.is_chance_node():
                        return state, fossil
    raise AssertionError("no concealed holding found")


def test_private_information_never_reaches_the_shared_pages(make_table: Any) -> None:
    state, secret = _game_with_a_hidden_holding()
    session = make_table(game="jurassic-parts")
    session._game["states"][-1] = state
    assert secret in json.dumps(state.to_dict())
    client = create_app(session, WebConfig()).test_client()
    for url in [*PAGES, "/api/snapshot", "/api/board.svg", "/api/settings"]:
        body = client.get(url, headers=HOST).get_data(as_text=True)
        # the hand picker offers the whole catalogue (every front), whatever the hand holds
        picker = re.search(r'<details class="hand-picker".*?<!-- /hand-picker -->', body, re.S)
        if picker is not None:
            sells = re.findall(r'"fossil": "([^"]+)", "kind": "sell"', picker.group(0))
            assert sorted(sells) == sorted(FRONTS)
            body = body.replace(picker.group(0), "")
        assert secret not in body, (url, secret)


def test_large_camera_frames_are_scaled_for_screens() -> None:
    import cv2
    import numpy as np

    from companion.web.api import SCREEN_WIDTH, screen_sized

    image = np.full((1296, 2304, 3), 90, np.uint8)
    cv2.putText(image, "tag", (200, 700), cv2.FONT_HERSHEY_SIMPLEX, 12, (255, 255, 255), 25)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    big = bytes(encoded)
    small = screen_sized(big)
    decoded = cv2.imdecode(np.frombuffer(small, np.uint8), cv2.IMREAD_COLOR)
    assert decoded is not None
    assert decoded.shape[1] <= SCREEN_WIDTH and decoded.shape[1] >= SCREEN_WIDTH // 2
    assert abs(decoded.shape[0] / decoded.shape[1] - 1296 / 2304) < 0.01
    assert screen_sized(big) == small  # cached for the next browser
    little = cv2.imencode(".jpg", image[:480, :640])[1].tobytes()
    assert screen_sized(little) == little  # small frames pass as they are
    assert screen_sized(b"not a jpeg") == b"not a jpeg"


def test_photo_sizes(client: Any, table: Any) -> None:
    seq = table.records.history()[0]["seq"]
    for size in ("thumb", "screen", "full"):
        answer = client.get(f"/api/photo/{seq}.jpg?size={size}", headers=HOST)
        assert answer.status_code == 200 and answer.data[:2] == b"\xff\xd8"
    assert client.get(f"/api/photo/{seq}.jpg?size=huge", headers=HOST).status_code == 400
    import cv2
    import numpy as np

    from companion.web.api import THUMB_WIDTH, scaled_jpeg

    big = cv2.imencode(".jpg", np.full((1296, 2304, 3), 120, np.uint8))[1].tobytes()
    thumb = cv2.imdecode(np.frombuffer(scaled_jpeg(big, THUMB_WIDTH), np.uint8), cv2.IMREAD_COLOR)
    assert thumb is not None and thumb.shape[1] == THUMB_WIDTH


@pytest.mark.parametrize("game", available_games())
def test_every_game_gets_a_diagram_from_its_shared_view(game: str) -> None:
    from companion.kits import kits
    from companion.web.svg import board_svg

    engine = get_game(game)
    kit = kits().get(game)
    colours = list(kit.demo_colours) if kit else ["red", "blue", "green"]
    colours = colours[: engine.max_players]
    rng = random.Random(4)
    state = engine.new_initial_state(colours, rng=rng)
    for _ in range(25):
        if state.is_terminal():
            break
        state = state.apply(sample_chance(state, rng) if state.is_chance_node()
                            else rng.choice(state.legal_actions()))
    snapshot = {"game": game, "title": engine.title, "view": state.view(None), "current": None,
                "players": [{"name": c, "colour": c} for c in colours]}
    svg = board_svg(snapshot)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    if game in kits():
        assert 'viewBox="0 0 480 200"' not in svg  # the game's own drawing, not the summary card


def test_the_final_reason_is_said_in_the_game_s_words(make_table: Any) -> None:
    table = make_table(game="jurassik")
    table.play(400)
    assert table.state.is_terminal()
    client = create_app(table, WebConfig()).test_client()
    for path in ("/", "/scores"):
        page = client.get(path).get_data(as_text=True)
        assert "was the last accessible dinosaur tile" in page
        assert not re.search(r"\bD\d+-\d\b", page), path  # "dinosaur 1, piece 3", not "D1-3"
