"""Who may change the table: CSRF token, Origin, Host, the LAN PIN, the listener, never the debugger."""

from __future__ import annotations

import ipaddress
from typing import Any

import psutil
import pytest

from companion.web import WebConfig, create_app
from companion.web import server as web_server

ORIGIN = "http://localhost"
CHANGES = [("/api/press", {"button": "next"}), ("/api/choose", {"index": 0}),
           ("/api/submit", {"action": {"kind": "correct"}})]


@pytest.mark.parametrize(("url", "body"), CHANGES)
def test_changes_without_token_or_origin_are_refused(client: Any, table: Any, url: str, body: dict[str, Any],
                                                     csrf: Any, post: Any, fingerprint: Any) -> None:
    before = fingerprint(table)
    token = csrf(client)
    assert post(client, url, body, token=None).status_code == 403
    assert post(client, url, body, token="x" * 43).status_code == 403
    assert post(client, url, body, token=token, origin="http://evil.example").status_code == 403
    assert post(client, url, body, token=token, origin=None).status_code == 403
    cross_site = client.post(url, json=body, headers={"Host": "localhost", "Origin": ORIGIN,
                                                      "X-CSRF-Token": token, "Sec-Fetch-Site": "cross-site"})
    assert cross_site.status_code == 403
    assert fingerprint(table) == before


def test_a_fresh_browser_without_a_session_is_refused(app: Any, table: Any, csrf: Any, post: Any,
                                                       fingerprint: Any) -> None:
    before = fingerprint(table)
    token = csrf(app.test_client())  # another browser's token is no use in this one
    stranger = app.test_client()
    assert post(stranger, "/api/press", {"button": "next"}, token).status_code == 403
    assert fingerprint(table) == before


def test_a_change_with_session_token_and_origin_goes_through(client: Any, table: Any, csrf: Any,
                                                             post: Any) -> None:
    token = csrf(client)
    count = len(table.history())
    answer = post(client, "/api/press", {"button": "next"}, token)
    assert answer.status_code == 200 and answer.get_json()["ok"] is True
    assert len(table.history()) == count + 1
    referer_only = client.post("/api/press", json={"button": "mode"},
                               headers={"Host": "localhost", "X-CSRF-Token": token,
                                        "Referer": ORIGIN + "/panel"})
    assert referer_only.status_code == 200


def test_loopback_mode_refuses_foreign_host_names(client: Any) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: it gets nothing."""
    assert client.get("/api/snapshot", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"Host": "127.0.0.1:8080"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8080"}).status_code == 200


def test_lan_needs_a_pin_and_a_pin_backed_session(table: Any, csrf: Any, post: Any, fingerprint: Any) -> None:
    with pytest.raises(ValueError, match="PIN"):
        WebConfig(host="0.0.0.0", lan=True)
    with pytest.raises(ValueError, match="PIN"):
        WebConfig(host="0.0.0.0", lan=True, pin="12ab")
    app = create_app(table, WebConfig(host="0.0.0.0", lan=True, pin="4321", login_attempts=3))
    browser = app.test_client()
    before = fingerprint(table)
    token = csrf(browser)
    refused = post(browser, "/api/press", {"button": "next"}, token)
    assert refused.status_code == 401
    assert fingerprint(table) == before
    # watching needs no PIN: the shared view holds nothing private
    assert browser.get("/scores", headers={"Host": "localhost"}).status_code == 200
    wrong = browser.post("/login", data={"pin": "0000", "csrf_token": token},
                         headers={"Host": "localhost", "Origin": ORIGIN})
    assert wrong.status_code == 401
    no_token = browser.post("/login", data={"pin": "4321"}, headers={"Host": "localhost", "Origin": ORIGIN})
    assert no_token.status_code == 403
    right = browser.post("/login", data={"pin": "4321", "csrf_token": token},
                         headers={"Host": "localhost", "Origin": ORIGIN})
    assert right.status_code == 302
    token = csrf(browser)  # a login starts a new session with a new token
    assert post(browser, "/api/press", {"button": "next"}, token).status_code == 200
    assert len(table.history()) == before[0] + 1
    logout = browser.post("/logout", data={"csrf_token": token},
                          headers={"Host": "localhost", "Origin": ORIGIN})
    assert logout.status_code == 302
    assert post(browser, "/api/press", {"button": "next"}, csrf(browser)).status_code == 401


def test_wrong_pins_are_rate_limited(table: Any, csrf: Any) -> None:
    app = create_app(table, WebConfig(lan=True, pin="4321", login_attempts=3))
    browser = app.test_client()
    token = csrf(browser)
    headers = {"Host": "localhost", "Origin": ORIGIN}
    codes = [
        browser.post("/login", data={"pin": f"{n:04d}", "csrf_token": token}, headers=headers).status_code
        for n in range(4)
    ]
    assert codes == [401, 401, 401, 429]
    # even the right PIN waits now: guessing cannot go on
    right = browser.post("/login", data={"pin": "4321", "csrf_token": token}, headers=headers)
    assert right.status_code == 429


def test_lan_off_refuses_non_loopback_addresses() -> None:
    for host in ("0.0.0.0", "192.168.1.20", "::"):
        with pytest.raises(ValueError, match="LAN access is off"):
            WebConfig(host=host)
    with pytest.raises(ValueError):
        WebConfig.from_mapping({"host": "0.0.0.0", "debug": True})


def test_lan_off_means_no_non_loopback_listener(table: Any) -> None:
    config = WebConfig(port=0)
    app = create_app(table, config)
    running = web_server.start(app, config)
    try:
        connections = psutil.Process().net_connections(kind="inet")
        listening = [c for c in connections if c.status == psutil.CONN_LISTEN]
        ours = [c for c in listening if c.laddr.port == running.port]
        assert ours, "the server is not listening"
        for connection in listening:
            assert ipaddress.ip_address(connection.laddr.ip).is_loopback, connection
        assert running.url == f"http://localhost:{running.port}/"
    finally:
        running.stop()


def test_the_debugger_is_never_on(table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLASK_DEBUG", "1")
    app = create_app(table, WebConfig())
    assert app.debug is False
    crash = app.test_client().get("/api/history?game=424242", headers={"Host": "localhost"})
    assert crash.status_code == 404
    assert b"Traceback" not in crash.data and b"Werkzeug Debugger" not in crash.data


def test_security_headers_forbid_foreign_scripts_and_framing(client: Any) -> None:
    page = client.get("/", headers={"Host": "localhost"})
    policy = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert page.headers["X-Frame-Options"] == "DENY"
    cookie = page.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    html = page.get_data(as_text=True)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
