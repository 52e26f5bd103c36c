"""Every route, any input: hypothesis draws the route, its path values, query, method, headers, body and
session; the answer is never a 500 (nor a traceback), and a request that is not a valid change from an
unlocked session never changes the table. Loopback and LAN mode, over the test session and the real loop.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.web import WebConfig, create_app

PIN = "204718"
ORIGIN = "http://localhost"
HOSTS = ["localhost", "127.0.0.1:8080", "evil.example", "[::1]", "", "localhost:99999", "a" * 300]
QUERY_KEYS = ["seq", "game", "raw", "full", "size", "next", "n", "index", "x"]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
NUMBERISH = st.one_of(st.integers(-10**12, 10**30).map(str), TEXT,
                      st.sampled_from(["1", "0", "thumb", "1e3"]))


def _routes(app: Any) -> list[tuple[str, list[str]]]:
    return [(rule.rule, sorted(set(rule.methods or ()) - {"OPTIONS"})) for rule in app.url_map.iter_rules()]


def _path(rule: str, values: list[str]) -> str:
    import re
    from urllib.parse import quote

    parts = iter(values)
    return re.sub(r"<[^>]+>", lambda _: quote(next(parts, "1"), safe=""), rule)


@st.composite
def requests(draw: Any, routes: list[tuple[str, list[str]]]) -> dict[str, Any]:
    rule, methods = draw(st.sampled_from(routes))
    method = draw(st.one_of(st.sampled_from(methods), st.sampled_from(["GET", "POST", "PUT", "DELETE"])))
    path = _path(rule, draw(st.lists(NUMBERISH, min_size=2, max_size=2)))
    query = draw(st.dictionaries(st.sampled_from(QUERY_KEYS), NUMBERISH, max_size=3))
    body_kind = draw(st.sampled_from(["none", "json", "raw", "form"]))
    json_value = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | TEXT,
                              lambda inner: st.lists(inner, max_size=4)
                              | st.dictionaries(st.sampled_from(["button", "index", "action", "settings",
                                                                 "kind", "game", "seats", "pin"]) | TEXT,
                                                inner, max_size=4), max_leaves=12)
    body: dict[str, Any] = {}
    if body_kind == "json":
        body = {"data": json.dumps(draw(json_value)), "content_type": "application/json"}
    elif body_kind == "raw":
        body = {"data": draw(st.binary(max_size=200)),
                "content_type": draw(st.sampled_from(["application/json", "text/plain", "x/y"]))}
    elif body_kind == "form":
        body = {"data": draw(st.dictionaries(st.sampled_from(["pin", "csrf_token", "x"]), TEXT, max_size=3))}
    headers = {"Host": draw(st.sampled_from(HOSTS))}
    if draw(st.booleans()):
        headers["Origin"] = draw(st.sampled_from([ORIGIN, "http://evil.example", "null"]))
    return {"method": method, "path": path, "query": query, "body": body, "headers": headers,
            "token": draw(st.sampled_from(["right", "wrong", "none"])), "unlocked": draw(st.booleans())}


class Table:
    """An app, a client that may be unlocked, and what must not change."""

    def __init__(self, app: Any, session: Any, csrf: Any) -> None:
        self.app = app
        self.session = session
        self.csrf = csrf

    def fingerprint(self) -> str:
        history = self.session.records.history()
        return json.dumps([len(history), self.session.snapshot().get("view")], sort_keys=True, default=str)

    def send(self, request: dict[str, Any]) -> tuple[Any, bool]:
        client = self.app.test_client()
        token = self.csrf(client)
        if request["unlocked"] and self.app.extensions["web_config"].lan:
            client.post("/login", data={"pin": PIN, "csrf_token": token},
                        headers={"Host": "localhost", "Origin": ORIGIN})
            token = self.csrf(client)
        headers = dict(request["headers"])
        if request["token"] != "none":
            headers["X-CSRF-Token"] = token if request["token"] == "right" else "x" * 43
        valid_change = (request["token"] == "right" and headers.get("Origin") == ORIGIN
                        and headers["Host"] in ("localhost", "127.0.0.1:8080", "[::1]"))
        answer = client.open(request["path"], method=request["method"], query_string=request["query"],
                             headers=headers, **request["body"])
        return answer, valid_change


def check(table: Table, request: dict[str, Any], seen: set[int]) -> None:
    before = table.fingerprint()
    answer, valid_change = table.send(request)
    seen.add(answer.status_code)
    assert answer.status_code < 500, (request, answer.status_code, answer.data[:300])
    assert b"Traceback" not in answer.data
    if request["method"] in ("GET", "HEAD") or not valid_change or answer.status_code >= 400:
        assert table.fingerprint() == before, request


SETTINGS = settings(max_examples=300, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(params=["loopback", "lan"])
def test_table(request: Any, table: Any, csrf: Any, tmp_path: Path) -> Table:
    config = WebConfig() if request.param == "loopback" else WebConfig(
        host="0.0.0.0", lan=True, pin=PIN, state_dir=tmp_path, login_attempts=10**6, login_budget=10**6)
    return Table(create_app(table, config), table, csrf)


def test_every_route_answers_any_input_without_a_500(test_table: Table) -> None:
    routes = [r for r in _routes(test_table.app) if r[0] != "/api/events"]
    seen: set[int] = set()

    @SETTINGS
    @given(requests(routes))
    def run(request: dict[str, Any]) -> None:
        check(test_table, request, seen)

    run()
    assert {200, 400, 404} <= seen and len(seen) >= 5, seen  # the draws reached every kind of answer


@pytest.fixture
def real_loop(tmp_path: Path) -> Iterator[Any]:
    from companion.commands.demo import build

    demo = build("jurassic-parts", seed=3, state_dir=tmp_path, synchronous=True)
    for _ in range(3):
        demo.driver.step()
    yield demo.loop
    demo.close()


def test_every_route_of_the_real_loop_answers_any_input_without_a_500(real_loop: Any, csrf: Any,
                                                                        tmp_path: Path) -> None:
    config = WebConfig(host="0.0.0.0", lan=True, pin=PIN, state_dir=tmp_path / "web",
                       login_attempts=10**6, login_budget=10**6)
    table = Table(create_app(real_loop, config), real_loop, csrf)
    routes = [r for r in _routes(table.app) if r[0] != "/api/events"]
    seen: set[int] = set()

    @settings(SETTINGS, max_examples=80)
    @given(requests(routes))
    def run(request: dict[str, Any]) -> None:
        check(table, request, seen)

    run()
    assert len(seen) >= 4, seen
