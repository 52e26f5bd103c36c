"""People at the page in a real browser: the people benchmark's fallible players (``sim.people``) with
their two phones as tabs of Debian's chromium, tapping the page's own buttons (a move's button, the
panel's Undo and Confirm, "Start with the table as it is", the dispute page's options) while the camera
reads what they lay. A control missing, hidden or wired wrong ends the game short of its true score."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from engines.core import available_games, get_game

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")]


def _bench() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_people
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return bench_people


#: the product's games (a test game registered by other tests has no table of its own to play at)
GAMES = [name for name in available_games() if type(get_game(name)).__module__.startswith("engines.")]


@pytest.mark.timeout(2400)
@pytest.mark.parametrize("game", GAMES)
def test_people_play_a_whole_game_by_taps_on_the_page(browser: Any, game: str) -> None:
    bench = _bench()
    phones = bench.BrowserPhones(browser)
    report = bench.play(game, 1, phones=phones)
    assert not report.unrecovered, report.unrecovered
    assert report.ended_true, report
    assert report.objections_false == 0, report.false_texts
    assert not report.missed_slips, report.missed_slips
    assert report.taps > 0 and sum(report.slips.values()) > 0 and report.objections_right > 0
    assert len(phones.opened) == 2 and all(not phone.errors for phone in phones.opened), \
        [phone.errors for phone in phones.opened]


def test_a_phone_taps_the_page_s_own_buttons_and_finds_no_button_for_what_the_page_does_not_offer(
    browser: Any, make_table: Any
) -> None:
    """The browser phone posts only through a button the page shows: a legal move is tapped and made; a
    move the page offers no button for is not posted behind its back."""
    from companion.web import WebConfig, create_app, serving
    from sim.phones import BrowserPhone

    table = make_table(game="jurassik", players=("red", "blue"))
    server = serving.start(create_app(table, WebConfig(host="127.0.0.1", port=0)),
                           WebConfig(host="127.0.0.1", port=0))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = BrowserPhone(context.new_page(), server.url, patience_s=2.0)
        before = len(table.records.history())
        offered = phone.look()["legal"][0]
        assert phone.tap_move(offered)["ok"] is True
        assert len(table.records.history()) == before + 1
        answer = phone.tap_move({"kind": "take", "player": "red", "row": 99, "col": 99})
        assert answer["ok"] is False and "no control on the page" in answer["error"]
        assert len(table.records.history()) == before + 1
        assert phone.errors == []
    finally:
        context.close()
        server.stop()
