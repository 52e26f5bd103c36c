"""Hostile input to every endpoint: a clean 4xx (or an ordinary page), never a 500, never a changed table."""

from __future__ import annotations

import json
from typing import Any

import pytest

HOST = {"Host": "localhost"}
HOSTILE_QUERIES = ["seq=abc", "seq=-1", "seq=99999999999999999999", "game=1e9", "game=%00", "raw=2",
                   "seq=1&seq=2", "game=" + "9" * 5000, "n=<script>alert(1)</script>", "game=999999",
                   "seq=1&game=99999", "seq=999999", "size=huge", "next=//evil.example"]
TWIN = {"name": "a", "colour": "red"}
PINK = {"name": "<b>", "colour": "pink"}
HOSTILE_BODIES: list[tuple[str, bytes]] = [
    ("application/json", b""),
    ("application/json", b"{"),
    ("application/json", b"[1, 2, 3]"),
    ("application/json", b"null"),
    ("application/json", b'"text"'),
    ("application/json", b"\xff\xfe\x00garbage"),
    ("application/json", b'{"button": NaN}'),
    ("application/json", b'{"index": Infinity}'),
    ("application/json", b"[" * 50_000 + b"]" * 50_000),
    ("application/json", b'{"a":' * 40 + b"1" + b"}" * 40),
    ("application/json", json.dumps({"button": "x" * 100_000}).encode()),
    ("application/json", b'{"index": ' + b"9" * 5000 + b"}"),
    ("application/json", json.dumps({"index": -1}).encode()),
    ("application/json", json.dumps({"index": True}).encode()),
    ("application/json", json.dumps({"index": "0"}).encode()),
    ("application/json", json.dumps({"button": "self-destruct"}).encode()),
    ("application/json", json.dumps({"button": ["confirm"]}).encode()),
    ("application/json", json.dumps({"action": "confirm"}).encode()),
    ("application/json", json.dumps({"action": {"kind": "teleport", "to": [1, 2]}}).encode()),
    ("application/json", json.dumps({"action": {"kind": "correct", "state": {"game": "chess"}}}).encode()),
    ("application/json", json.dumps({"action": {"kind": "correct", "state": []}}).encode()),
    ("application/json", json.dumps({"settings": {"game": "chess", "seats": []}}).encode()),
    ("application/json", json.dumps({"settings": {"game": "jurassik", "seats": [TWIN, TWIN]}}).encode()),
    ("application/json", json.dumps({"settings": {"game": "jurassik", "seats": [PINK]}}).encode()),
    ("application/json", json.dumps({"settings": {"game": "jurassik", "seats": "red,blue"}}).encode()),
    ("application/json", json.dumps({"settings": {"game": "jurassik", "options": {"edition": "klingon"},
                                                  "seats": [{"name": "a", "colour": "red"},
                                                            {"name": "b", "colour": "blue"}]}}).encode()),
    ("application/json", json.dumps({"unexpected": 1}).encode()),
    ("text/plain", b'{"button": "next"}'),
    ("application/x-www-form-urlencoded", b"button=next"),
    ("multipart/form-data; boundary=x", b"--x\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--x--"),
    ("application/json", b" " * 300_000),
]


def endpoints(app: Any) -> list[tuple[str, set[str]]]:
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.rule.replace("<int:seq>", "1").replace("<token>", "not-a-token")
        found.append((url, set(rule.methods or ()) - {"HEAD", "OPTIONS"}))
    return found


def test_every_endpoint_is_covered(app: Any) -> None:
    urls = {url for url, _ in endpoints(app)}
    assert {"/api/press", "/api/choose", "/api/submit", "/api/new-game", "/api/events", "/login"} <= urls
    assert len(urls) >= 20


def test_hostile_queries_and_paths_never_break_a_page(app: Any, client: Any, table: Any,
                                                      fingerprint: Any) -> None:
    before = fingerprint(table)
    for url, methods in endpoints(app):
        if "GET" not in methods or url == "/api/events":
            continue
        for query in HOSTILE_QUERIES:
            answer = client.get(f"{url}?{query}", headers=HOST)
            assert answer.status_code < 500, (url, query, answer.status_code)
            assert b"Traceback" not in answer.data
    for path in ["/api/state/99999999999999999999999", "/api/photo/-1.jpg", "/api/state/abc",
                 "/history/../../etc/passwd", "/static/../app.py", "/api/photo/100000.jpg",
                 "/api/state/100000", "/%00", "/api/" + "a" * 10_000]:
        answer = client.get(path, headers=HOST)
        assert 400 <= answer.status_code < 500, (path, answer.status_code)
    assert fingerprint(table) == before


@pytest.mark.parametrize(("content_type", "body"), HOSTILE_BODIES,
                         ids=[f"body{i}" for i in range(len(HOSTILE_BODIES))])
def test_hostile_bodies_to_every_change_get_a_clean_4xx(app: Any, client: Any, table: Any, csrf: Any,
                                                        origin: str, fingerprint: Any, content_type: str,
                                                        body: bytes) -> None:
    token = csrf(client)
    before = fingerprint(table)
    for url, methods in endpoints(app):
        if "POST" not in methods or url in ("/logout", "/login"):
            continue
        answer = client.post(url, data=body, headers={**HOST, "Origin": origin, "X-CSRF-Token": token,
                                                       "Content-Type": content_type})
        assert 400 <= answer.status_code < 500, (url, body[:60], answer.status_code, answer.data[:200])
        if url.startswith("/api/"):
            assert answer.get_json()["ok"] is False
    assert fingerprint(table) == before


def test_wrong_methods_are_refused(app: Any, client: Any, csrf: Any, origin: str) -> None:
    token = csrf(client)
    headers = {**HOST, "Origin": origin, "X-CSRF-Token": token}
    for url, methods in endpoints(app):
        for method in ("PUT", "DELETE", "PATCH"):
            assert client.open(url, method=method, headers=headers).status_code == 405
        if "POST" not in methods:
            assert client.post(url, json={}, headers=headers).status_code == 405


def test_hostile_login_forms(table: Any, csrf: Any, origin: str) -> None:
    from companion.web import WebConfig, create_app

    app = create_app(table, WebConfig(lan=True, pin="204718", login_attempts=100))
    browser = app.test_client()
    token = csrf(browser)
    headers = {**HOST, "Origin": origin}
    for form in [{"csrf_token": token}, {"csrf_token": token, "pin": "1" * 5000},
                 {"csrf_token": token, "pin": "' OR 1=1 --"}, {"csrf_token": token, "pin": "４３２１"}]:
        answer = browser.post("/login", data=form, headers=headers)
        assert answer.status_code in (401, 413), (form, answer.status_code)
    redirect = browser.post("/login?next=//evil.example/x", data={"csrf_token": token, "pin": "204718"},
                            headers=headers)
    assert redirect.status_code == 302 and "evil" not in redirect.headers["Location"]


def test_too_many_live_streams_get_429(table: Any) -> None:
    """Every stream taken, one a phone: a newcomer waits (429) until one closes."""
    from companion.web import WebConfig, create_app

    app = create_app(table, WebConfig(max_streams=2))

    def open_stream(phone: int, buffered: bool = False) -> Any:
        return app.test_client().get("/api/events", headers=HOST, buffered=buffered,
                                     environ_base={"REMOTE_ADDR": f"10.0.0.{phone}"})

    streams = [open_stream(1), open_stream(2)]
    assert all(s.status_code == 200 for s in streams)
    assert open_stream(3, buffered=True).status_code == 429
    streams[0].close()
    third = open_stream(3)
    assert third.status_code == 200
    for stream in [*streams[1:], third]:
        stream.close()


def test_hostile_input_against_the_real_loop(tmp_path: Any, origin: str, csrf: Any) -> None:
    """The same hostile requests against the real loop (the demo's table after a few moves)."""
    from companion.commands.demo import build
    from companion.web import WebConfig, create_app

    demo = build("jurassic-parts", seed=2, state_dir=tmp_path, synchronous=True)
    try:
        for _ in range(4):
            demo.driver.step()
        loop = demo.loop
        app = create_app(loop, WebConfig())
        client = app.test_client()
        token = csrf(client)

        def fingerprint() -> tuple[int, dict[str, Any]]:
            return len(loop.records.history()), loop.current_state().to_dict()

        before = fingerprint()
        for url, methods in endpoints(app):
            if "GET" in methods and url != "/api/events":
                for query in HOSTILE_QUERIES:
                    answer = client.get(f"{url}?{query}", headers=HOST)
                    assert answer.status_code < 500, (url, query, answer.status_code)
            if "POST" in methods and url.startswith("/api/"):
                for content_type, body in HOSTILE_BODIES:
                    headers = {**HOST, "Origin": origin, "X-CSRF-Token": token, "Content-Type": content_type}
                    answer = client.post(url, data=body, headers=headers)
                    assert 400 <= answer.status_code < 500, (url, body[:60], answer.status_code)
        assert fingerprint() == before
        assert client.get("/api/state/99999", headers=HOST).status_code == 404
        assert client.get("/api/state/1?game=999999", headers=HOST).status_code == 404
        assert client.get("/api/board.svg?seq=1&game=99999", headers=HOST).status_code == 404
        assert client.get("/api/history?game=99999", headers=HOST).status_code == 404
        assert client.get("/api/photo/1.jpg?game=99999", headers=HOST).status_code == 404
        assert client.get("/history?seq=99999", headers=HOST).status_code == 404
    finally:
        demo.close()


def test_one_browser_cannot_hold_every_live_stream(table: Any) -> None:
    """A browser's newest tab (the one looked at: back from the dispute page before the old tab's stream
    noticed it was gone) takes the place of its oldest; a full house gives the greediest holder's oldest
    up for a newcomer, never a phone's only stream."""
    from companion.web import WebConfig, create_app
    from companion.web.api import STREAMS_PER_SESSION

    app = create_app(table, WebConfig(max_streams=STREAMS_PER_SESSION + 1))
    greedy = app.test_client()
    streams = [greedy.get("/api/events", headers=HOST, buffered=False) for _ in range(STREAMS_PER_SESSION)]
    assert all(s.status_code == 200 for s in streams)
    newest = greedy.get("/api/events", headers=HOST, buffered=False)
    assert newest.status_code == 200  # the newest tab is live
    oldest = b"".join(streams[0].response)  # the oldest ends, saying why
    assert b'"replaced"' in oldest
    slots = app.extensions["stream_slots"]
    assert slots.held() == STREAMS_PER_SESSION
    other = app.test_client().get("/api/events", headers=HOST, buffered=False,
                                  environ_base={"REMOTE_ADDR": "127.0.0.2"})
    assert other.status_code == 200 and slots.held() == STREAMS_PER_SESSION + 1  # the house is full
    third = app.test_client().get("/api/events", headers=HOST, buffered=False,
                                  environ_base={"REMOTE_ADDR": "127.0.0.3"})
    assert third.status_code == 200  # from the greedy browser's share, never the other phone's stream
    assert slots.replaced == 2 and slots.held("127.0.0.2") == 1 and slots.held("127.0.0.3") == 1
    for stream in [*streams, newest, other, third]:
        stream.close()
