"""Pages in the words players use: player counts as the box says, no empty choices, yes/no for options,
numbered score parts in number order."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from companion.web import WebConfig, create_app


def test_setup_says_player_counts_and_hides_free_options(make_table: Any) -> None:
    page = create_app(make_table(game="jurassic-brunch", players=("blue", "orange")),
                      WebConfig()).test_client().get("/setup").get_data(as_text=True)
    assert "Jurassic Brunch (2 players)" in page and "Jurassik (2–5 players)" in page
    assert 'name="opt:boards"' not in page and 'name="opt:eggs"' not in page
    assert "boards, eggs: dealt at random" in page
    assert ">True<" not in page and ">False<" not in page and ">yes<" in page


def test_numbered_score_parts_in_number_order(make_table: Any) -> None:
    table = make_table(game="jurassik")
    while not table.state.is_terminal():
        table.play(40)
    page = create_app(table, WebConfig()).test_client().get("/scores").get_data(as_text=True)
    parts = re.findall(r'<i class="key seg\d+"></i>dinosaur (\d+)</td>', page)  # as players say D3
    first = [int(number) for number in parts[: len(set(parts))]]
    assert len(first) >= 3, parts
    assert first == sorted(first), first
    assert not re.search(r"</i>D\d+</td>", page)


def test_the_jurassik_diagram_counts_from_one_rings_the_takes_and_shows_the_holdings(make_table: Any) -> None:
    table = make_table(game="jurassik", players=("red", "blue"))
    table.play(10)
    client = create_app(table, WebConfig()).test_client()
    snapshot = client.get("/api/snapshot").get_json()
    board = client.get("/api/board.svg").get_data(as_text=True)
    takes = [a for a in snapshot["legal"] if "row" in a]
    assert takes and board.count('class="legal"') == len(takes)
    rows = len(snapshot["view"]["grid"])
    assert f'fill="#7a6a50">{rows}</text>' in board and 'fill="#7a6a50">0</text>' not in board
    for name in ("red", "blue"):
        assert f'font-weight="bold">{name}</tspan>' in board
    page = client.get("/").get_data(as_text=True)
    first = takes[0]
    assert f"row {first['row'] + 1}, column {first['col'] + 1}" in page


def test_brunch_cells_in_the_diagrams_numbers(make_table: Any) -> None:
    table = make_table(game="jurassic-brunch", players=("blue", "orange"))
    table.play(3)
    client = create_app(table, WebConfig()).test_client()
    page = client.get("/").get_data(as_text=True)
    board = client.get("/api/board.svg").get_data(as_text=True)
    assert re.search(r"row \d, column \d", page) and not re.search(r"\(\d+, \d+\)", page)
    assert 'fill="#4d6b2f">1</text>' in board and 'fill="#4d6b2f">6</text>' in board


def test_a_questions_options_are_pictures_of_the_table_after_them(make_table: Any) -> None:
    table = make_table(game="jurassik")
    table.play(4)
    table.ask_question()
    client = create_app(table, WebConfig()).test_client()
    page = client.get("/dispute").get_data(as_text=True)
    options = table.pending["options"]
    assert page.count('class="option-picture"') == len(options) >= 2
    pictures = [client.get(f"/api/board.svg?option={i}").get_data(as_text=True) for i in range(len(options))]
    assert all(p.startswith("<svg") for p in pictures) and len(set(pictures)) == len(pictures)
    assert not any("<text" in p for p in pictures)  # thumbnails: their words are the option beside them
    assert client.get("/api/board.svg?option=9").status_code == 404
    assert "option 0" not in page  # the options say what they do, not their number


def read_until_pending(demo: Any, frames: int = 30) -> None:
    """Let the demo's camera read the table until something is pending (or the frames run out)."""
    for _ in range(frames):
        demo.loop.process_read(demo.camera.read())
        if demo.loop.game.pending is not None:
            return


def _visible(page: str) -> str:
    """What a player reads: the page's text less the referee's raw details and the SVG titles' ids."""
    page = re.sub(r"<details[^>]*class=\"referee\".*?</details>", "", page, flags=re.S)
    page = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.parametrize("path", ["/", "/history", "/scores"])
def test_isla_nublar_pages_name_fields_cards_and_dinosaurs_as_players_do(make_table: Any, path: str) -> None:
    table = make_table(game="isla-nublar")
    table.play(60)
    text = _visible(create_app(table, WebConfig()).test_client().get(path).get_data(as_text=True))
    assert not re.search(r"\bC\d+R\d+\b", text), re.search(r".{40}\bC\d+R\d+\b.{40}", text)
    assert not re.search(r"\bDINO-\d\b", text), re.search(r".{40}\bDINO-\d\b.{40}", text)
    assert not re.search(r"\bW-[A-Z]+", text), re.search(r".{40}\bW-[A-Z]+.{40}", text)
    if path != "/scores":
        assert re.search(r"column \d+, field \d+", text) or "Velociraptor" in text or "amber" in text


def test_jurassic_parts_moves_name_slab_tiles_by_row_and_fossil(make_table: Any) -> None:
    table = make_table(game="jurassic-parts")
    table.play(8)
    text = _visible(create_app(table, WebConfig()).test_client().get("/").get_data(as_text=True))
    assert re.search(r"between row \d+, tile \d+( \([^)]*\))? and row \d+, tile \d+", text)
    assert not re.search(r"\(-?\d+, -?\d+\)", text), re.search(r".{40}\(-?\d+, -?\d+\).{40}", text)


def test_an_objection_says_what_differs_in_the_games_words(tmp_path: Any) -> None:
    from companion.commands.demo import build

    demo = build("jurassic-parts", seed=1, state_dir=tmp_path)
    try:
        for _ in range(8):
            demo.driver.step()
        loop = demo.loop
        scene = loop.game.model.scene(loop.current_state())
        assert scene.pegs, "the walk placed no chisel"
        scene.pegs.pop(0)  # a hand knocks a chisel off the slab
        demo.camera.show(scene)
        read_until_pending(demo)
        assert loop.game.pending is not None and loop.game.pending.kind == "objection"
        # a German game: the page speaks its edition's language unless the reader's browser asks for another
        page = create_app(loop, WebConfig()).test_client().get(
            "/dispute", headers={"Accept-Language": "en"}).get_data(as_text=True)
        listed = re.search(r'<ul class="differences" id="differences">(.*?)</ul>', page, re.S)
        assert listed is not None
        text = listed.group(1)
        pattern = r"chisel is gone from between row \d+, tile \d+ \(.+?\) and row \d+, tile \d+"
        assert re.search(pattern, text), text
        assert " mm" not in text and "peg" not in text
        expected = re.search(r"<h4>Expected</h4>(.*?)</div>", page, re.S)
        assert expected is not None and "chisel between row" in expected.group(1)
        # a chisel knocked off is nobody's move: Undo, which would take back the last move, is not offered
        assert 'id="dispute-undo"' not in page
    finally:
        demo.close()


def test_undo_is_offered_where_it_takes_back_the_move_in_question(tmp_path: Any) -> None:
    """A move tapped on the page that the table does not show: the dispute offers Undo of that move,
    named as the history says it."""
    from companion.commands.demo import build

    demo = build("jurassik", seed=2, state_dir=tmp_path)
    try:
        loop = demo.loop
        for _ in range(3):
            demo.driver.step()
        state = loop.current_state()
        move = next(a for a in state.legal_actions() if a.kind == "take")
        assert loop.submit(move.to_dict(), source="web")["ok"]  # tapped, not made on the table
        read_until_pending(demo)
        pending = loop.game.pending
        assert pending is not None and pending.inference.rule is not None
        assert pending.inference.rule.rule_id == "TABLE-TAP"
        # a German game: the page speaks its edition's language unless the reader's browser asks for another
        page = create_app(loop, WebConfig()).test_client().get(
            "/dispute", headers={"Accept-Language": "en"}).get_data(as_text=True)
        button = re.search(r'id="dispute-undo">(.*?)</button>', page, re.S)
        assert button is not None
        assert button.group(1) == (f"Undo move #{loop.game.seq()}: {state.current_player()} took the tile "
                                   f"at row {move.row + 1}, column {move.col + 1}")
    finally:
        demo.close()


def test_a_card_laid_face_up_asks_which_way_it_is_played_in_words(tmp_path: Any) -> None:
    """An Isla Nublar card of several uses laid face up: the question names the card once and each way
    it can be played; its options change nothing on the board, so they carry no pictures."""
    from companion.commands.demo import build
    from engines.isla_nublar.actions import PlayCard

    demo = build("isla-nublar", seed=1, state_dir=tmp_path, real_table=True)
    try:
        loop = demo.loop
        while loop.current_state().is_chance_node():  # what lies face up at setup, tapped
            loop.submit(loop.current_state().chance_outcomes()[0][0].to_dict(), source="web")
        state = loop.current_state()
        played = state.apply(PlayCard(player="red", card="S-BOXES2", use="none"))
        demo.camera.show(loop.game.model.scene(played))
        read_until_pending(demo)
        assert loop.game.pending is not None and loop.game.pending.kind == "question"
        # a German game: the page speaks its edition's language unless the reader's browser asks for another
        page = create_app(loop, WebConfig()).test_client().get(
            "/dispute", headers={"Accept-Language": "en"}).get_data(as_text=True)
        text = re.search(r'id="shared-words">(.*?)</p>', page, re.S)
        assert text is not None and text.group(1) == "play starting card: 2 boxes: which of these?"
        buttons = re.findall(r'id="choose-\d+"><span>(.*?)</span>', page)
        assert sorted(buttons) == ["use boxes", "without its action"]
        assert 'class="option-picture"' not in page
    finally:
        demo.close()


def test_a_refused_tap_says_why_in_the_games_words(make_table: Any, csrf: Any, post: Any) -> None:
    table = make_table(game="isla-nublar", players=("red", "blue"))
    while table.state.is_chance_node():
        table.bot_step()
    client = create_app(table, WebConfig()).test_client()
    answer = post(client, "/api/submit", {"action": {"kind": "play", "player": "red", "card": "A3-HIDEOUT",
                                                     "use": "hideout"}}, csrf(client))
    assert answer.status_code == 409
    error = answer.get_json()["error"]
    assert "action card (3): 1 amber + hideout is not in red's hand" in error and "A3-HIDEOUT" not in error


def test_a_reveal_the_page_cannot_list_says_who_turns_up_what(make_table: Any) -> None:
    """Jurassic Parts' face-down fossils of a part taken are turned up at the table: the page names whose
    hands and which tiles, and lists no empty moves."""
    table = make_table(game="jurassic-parts")
    while not table.state.is_chance_node():
        table.bot_step()
    for code, words in (("en", "nothing needs tapping"), ("es", "no hace falta tocar nada")):
        page = create_app(table, WebConfig()).test_client().get(
            "/", headers={"Accept-Language": code}).get_data(as_text=True)
        hint = re.search(r'id="chance-hint">([^<]+)<', page)
        assert hint is not None and words in html.unescape(hint.group(1)), code
        assert "Legal moves <small>0" not in page


def test_the_status_line_says_who_does_what_next(make_table: Any) -> None:
    from companion.words import next_step

    players = [{"name": "red", "colour": "red", "person": "Ana"}, {"name": "blue", "colour": "blue"}]
    base = {"game": "jurassik", "players": players, "view": {}}
    setup = {"kind": "setup", "checklist": {"steps": ["a", "b", "c"]}}
    assert next_step({**base, "pending": setup}) == (
        "Everyone: set the table up as the list says (3 steps to go); the game starts by itself.")
    objection = {**base, "pending": {"kind": "objection", "actor": "red"}}
    assert next_step(objection).startswith("Ana (red): put the table back as the diagram shows")
    turn = {**base, "current": "blue", "legal": [{"kind": "take", "cell": [0, 1]}, {"kind": "end_turn"}]}
    assert next_step(turn) == "blue to play: take or end turn."
    reveal = {**base, "chance": True, "view": {"phase": "reveal", "reveal_cell": [1, 4], "to_play": "blue"}}
    assert next_step(reveal) == ("Now blue: turn up the action tile taken from row 2, column 5, on the "
                                 "reveal spot.")
    assert next_step({**base, "over": True}).startswith("The game is over")
    # on the page, live, in the players' words: the player to act and what they may do
    table = make_table(game="jurassic-parts")
    table.play(3)
    page = create_app(table, WebConfig()).test_client().get("/").get_data(as_text=True)
    line = re.search(r'<p class="next-step" id="next-step" data-live[^>]*>([^<]+)</p>', page)
    assert line is not None and re.fullmatch(r"\w+ to play: [a-z ,]+\.", line.group(1)), line


def test_brunch_tells_the_token_turned_up_and_offers_it_as_a_tap(tmp_path: Any) -> None:
    """An eaten grass token is turned face up for everyone: the history names it and, where the camera
    cannot read it, the page offers each kind still in the bag as a tap."""
    from companion.commands.demo import build
    from companion.words import event_sentence

    demo = build("jurassic-brunch", seed=2, state_dir=tmp_path, synchronous=True)
    try:
        offered = None
        for _ in range(80):
            if demo.loop.current_state().is_chance_node():
                snap = demo.loop.snapshot()
                page = create_app(demo.loop, WebConfig()).test_client().get("/").get_data(as_text=True)
                if "Turned face up" in page:
                    offered = page
            assert demo.driver.step()
            history = demo.loop.records.history()
            told = [e for e in history if (e["action"] or {}).get("kind") == "reveal"]
            if told and offered:
                break
        snap = demo.loop.snapshot()
        sentence = event_sentence(told[0], snap)
        assert sentence.startswith("Turned up the grass token eaten: ") and "concealed" not in sentence
        assert offered is not None and "reveal" in offered.lower()
    finally:
        demo.close()
