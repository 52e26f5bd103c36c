"""Who may see and change the table: CSRF token, Origin, Host, the LAN PIN and its sessions, the spectator
link, the login's next, the listener, never the debugger."""

from __future__ import annotations

import ipaddress
import re
import socket
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from companion.web import WebConfig, create_app, serving
from companion.web.security import safe_next
from lan.hosts import OwnHosts

ORIGIN = "http://localhost"
PIN = "204718"
CHANGES = [("/api/press", {"button": "next"}), ("/api/choose", {"index": 0}),
           ("/api/submit", {"action": {"kind": "correct"}})]
LOCAL = {"Host": "localhost"}


def lan_app(table: Any, tmp_path: Path | None = None, **settings: Any) -> Any:
    return create_app(table, WebConfig(host="0.0.0.0", lan=True, pin=settings.pop("pin", PIN),
                                       state_dir=tmp_path, **settings))


def log_in(browser: Any, csrf: Any, pin: str = PIN, address: str = "192.0.2.7") -> Any:
    token = csrf(browser)
    return browser.post("/login", data={"pin": pin, "csrf_token": token},
                        headers={**LOCAL, "Origin": ORIGIN}, environ_base={"REMOTE_ADDR": address})


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
    count = len(table.records.history())
    answer = post(client, "/api/press", {"button": "next"}, token)
    assert answer.status_code == 200 and answer.get_json()["ok"] is True
    assert len(table.records.history()) == count + 1
    referer_only = client.post("/api/press", json={"button": "mode"},
                               headers={"Host": "localhost", "X-CSRF-Token": token,
                                        "Referer": ORIGIN + "/panel"})
    assert referer_only.status_code == 200


def test_loopback_mode_refuses_foreign_host_names(client: Any) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name: it gets nothing."""
    assert client.get("/api/snapshot", headers={"Host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"Host": "127.0.0.1:8080"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8080"}).status_code == 200


@pytest.mark.parametrize("url", ["/api/snapshot", "/api/frame.jpg", "/api/photo/1.jpg", "/api/events", "/",
                                 "/history", "/login"])
def test_lan_mode_answers_only_this_machines_names(table: Any, tmp_path: Path, url: str) -> None:
    browser = lan_app(table, tmp_path, allowed_hosts=("table.cafe.example",)).test_client()
    for foreign in ("evil.example", "evil.example:8080", "192.0.2.99", "vm.local.evil.example", "[::2]"):
        assert browser.get(url, headers={"Host": foreign}).status_code == 400, foreign
    hostname = socket.gethostname().lower()
    for own in ("localhost", f"{hostname}.local:8080", hostname, "table.cafe.example", "127.0.0.1:8080"):
        assert browser.get(url, headers={"Host": own}).status_code != 400, own


def test_own_hosts_follow_the_machines_addresses() -> None:
    addresses = {"vm", "192.168.1.20"}
    clock = [0.0]
    hosts = OwnHosts(["Cafe.Example."], refresh_s=10, discover=lambda: set(addresses), clock=lambda: clock[0])
    assert hosts.allows("192.168.1.20") and hosts.allows("cafe.example") and hosts.allows("VM")
    addresses.add("10.0.0.5")  # DHCP gave a new address
    assert not hosts.allows("10.0.0.5")  # read again at most every 10 s
    clock[0] = 11
    assert hosts.allows("10.0.0.5") and not hosts.allows("fe80::1%eth0") and not hosts.allows("")


def test_lan_mode_needs_a_session_to_read_the_table_or_its_camera(table: Any, tmp_path: Path) -> None:
    browser = lan_app(table, tmp_path).test_client()
    page = browser.get("/history?game=1", headers=LOCAL)
    assert page.status_code == 302 and page.headers["Location"] == "/login?next=/history%3Fgame%3D1"
    for url in ("/api/snapshot", "/api/frame.jpg", "/api/photo/1.jpg", "/api/events", "/api/board.svg",
                "/api/history", "/api/state/1", "/nowhere"):
        assert browser.get(url, headers=LOCAL).status_code == 401, url
    assert browser.get("/house/style.css", headers=LOCAL).status_code == 200
    assert browser.get("/login", headers=LOCAL).status_code == 200


def test_lan_needs_a_good_pin_and_a_pin_backed_session(table: Any, tmp_path: Path, csrf: Any, post: Any,
                                                       fingerprint: Any) -> None:
    for weak in (None, "4321", "12345", "12ab", "short"):
        with pytest.raises(ValueError, match="PIN"):
            WebConfig(host="0.0.0.0", lan=True, pin=weak)
    WebConfig(host="0.0.0.0", lan=True, pin="correct horse battery")
    browser = lan_app(table, tmp_path).test_client()
    before = fingerprint(table)
    token = csrf(browser)
    assert post(browser, "/api/press", {"button": "next"}, token).status_code == 401
    assert fingerprint(table) == before
    wrong = browser.post("/login", data={"pin": "000000", "csrf_token": token},
                         headers={**LOCAL, "Origin": ORIGIN})
    assert wrong.status_code == 401
    no_token = browser.post("/login", data={"pin": PIN}, headers={**LOCAL, "Origin": ORIGIN})
    assert no_token.status_code == 403
    right = browser.post("/login", data={"pin": PIN, "csrf_token": token},
                         headers={**LOCAL, "Origin": ORIGIN})
    assert right.status_code == 302
    token = csrf(browser)  # a login starts a new session with a new token
    assert post(browser, "/api/press", {"button": "next"}, token).status_code == 200
    assert len(table.records.history()) == before[0] + 1
    assert browser.get("/api/frame.jpg", headers=LOCAL).status_code == 200


def _cookie(browser: Any) -> str:
    cookie = browser.get_cookie("dinotable")
    assert cookie is not None
    return str(cookie.value)


def test_logout_ends_the_session_for_a_captured_cookie_too(table: Any, tmp_path: Path, csrf: Any,
                                                           post: Any) -> None:
    app = lan_app(table, tmp_path)
    browser = app.test_client()
    assert log_in(browser, csrf).status_code == 302
    captured = _cookie(browser)
    token = csrf(browser)
    assert browser.post("/logout", data={"csrf_token": token},
                        headers={**LOCAL, "Origin": ORIGIN}).status_code == 302
    thief = app.test_client()
    thief.set_cookie("dinotable", captured, domain="localhost")
    assert thief.get("/api/snapshot", headers=LOCAL).status_code == 401
    assert post(thief, "/api/press", {"button": "next"}, token).status_code == 401


def test_sessions_survive_a_restart_but_not_a_pin_change(table: Any, tmp_path: Path, csrf: Any) -> None:
    browser = lan_app(table, tmp_path).test_client()
    assert log_in(browser, csrf).status_code == 302
    captured = _cookie(browser)
    restarted = lan_app(table, tmp_path).test_client()  # same state dir: same secret, same book
    restarted.set_cookie("dinotable", captured, domain="localhost")
    assert restarted.get("/api/snapshot", headers=LOCAL).status_code == 200
    new_pin = lan_app(table, tmp_path, pin="731905").test_client()
    new_pin.set_cookie("dinotable", captured, domain="localhost")
    assert new_pin.get("/api/snapshot", headers=LOCAL).status_code == 401
    assert (tmp_path / "web-sessions.json").stat().st_mode & 0o077 == 0
    assert captured not in (tmp_path / "web-sessions.json").read_text()


def test_wrong_pins_are_throttled_across_addresses_and_the_right_one_waits(table: Any, tmp_path: Path,
                                                                           csrf: Any) -> None:
    app = lan_app(table, tmp_path, login_attempts=3, login_budget=10)
    throttle = app.extensions["login_throttle"]
    clock = [1000.0]
    throttle.clock = lambda: clock[0]
    browser = app.test_client()
    codes = [log_in(browser, csrf, pin=f"{n:06d}", address=f"198.51.100.{n % 20}").status_code
             for n in range(12)]
    assert codes == [401] * 10 + [429, 429]  # ten wrong PINs from 20 addresses spend the whole budget
    refused = log_in(browser, csrf, address="203.0.113.1")
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 60  # one refill
    clock[0] += 61  # the allowance has refilled by one guess: the right PIN works again
    assert log_in(browser, csrf, address="203.0.113.1").status_code == 302
    clock[0] += 1
    stranger = app.test_client()  # never paired (the browser above now carries its device cookie)
    spent = [log_in(stranger, csrf, pin=f"{n:06d}", address=f"198.51.100.{n % 20}").status_code
             for n in range(3)]
    assert spent == [401, 429, 429]  # hopping addresses buys no guesses: one refill, one guess


def test_a_burst_of_wrong_pins_keeps_a_new_phone_out_for_one_refill_not_the_window(
        table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path)
    throttle = app.extensions["login_throttle"]
    clock = [5000.0]
    throttle.clock = lambda: clock[0]
    browser = app.test_client()
    codes = [log_in(browser, csrf, pin=f"{n:06d}", address=f"198.51.100.{n}").status_code for n in range(30)]
    assert codes == [401] * 30
    refused = log_in(browser, csrf, address="203.0.113.5")
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 0 < wait <= throttle.window_s / throttle.budget  # 20 s, not 600 s
    clock[0] += wait
    assert log_in(browser, csrf, address="203.0.113.5").status_code == 302


def test_one_address_is_blocked_for_longer_each_time(table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path, login_attempts=3)
    throttle = app.extensions["login_throttle"]
    clock = [0.0]
    throttle.clock = lambda: clock[0]
    browser = app.test_client()
    assert [log_in(browser, csrf, pin="111111").status_code for _ in range(3)] == [401, 401, 401]
    assert log_in(browser, csrf).status_code == 429  # blocked 30 s after the third
    waits = []
    for _ in range(3):
        clock[0] += throttle.wait_s("192.0.2.7") + 0.1
        assert log_in(browser, csrf, pin="111111").status_code == 401
        waits.append(throttle.wait_s("192.0.2.7"))
    assert waits[0] < waits[1] < waits[2]
    assert log_in(browser, csrf, address="192.0.2.8").status_code == 302  # another phone is not blocked


def test_the_spectator_link_only_watches(table: Any, tmp_path: Path, csrf: Any, post: Any,
                                         fingerprint: Any) -> None:
    app = lan_app(table, tmp_path)
    player = app.test_client()
    assert log_in(player, csrf).status_code == 302
    pair = player.get("/pair", headers=LOCAL).get_data(as_text=True)
    link = re.search(r'id="watch-link">http://localhost(/watch/[^<]+)<', pair)
    assert link and 'id="pair-qr"' in pair and PIN in pair
    guest = app.test_client()
    assert guest.get("/watch/not-the-token", headers=LOCAL).status_code == 404
    assert guest.get(link.group(1), headers=LOCAL).status_code == 302
    assert guest.get("/api/snapshot", headers=LOCAL).status_code == 200
    assert guest.get("/pair", headers=LOCAL).status_code == 403
    before = fingerprint(table)
    refused = post(guest, "/api/press", {"button": "next"}, csrf(guest))
    assert refused.status_code == 403 and "watch-only" in refused.get_json()["error"]
    assert fingerprint(table) == before
    other_pin = lan_app(table, tmp_path, pin="731905").test_client()
    assert other_pin.get(link.group(1), headers=LOCAL).status_code == 404  # a new PIN, a new link
    off = lan_app(table, tmp_path, spectators=False).test_client()
    assert off.get(link.group(1), headers=LOCAL).status_code == 404


@pytest.mark.parametrize(("target", "expected"), [
    ("/history?game=2", "/history?game=2"), ("/", "/"), ("//evil.example", "/"), ("/\t/evil.example", "/"),
    ("/\\evil.example", "/"), ("https://evil.example/", "/"), ("/x\r\nSet-Cookie: a=b", "/"), ("", "/"),
    ("javascript:alert(1)", "/"), ("/" + "a" * 600, "/"), (None, "/"), ("/ok\x7f", "/"),
])
def test_next_only_goes_to_a_path_on_this_site(target: str | None, expected: str) -> None:
    assert safe_next(target) == expected


@pytest.mark.parametrize("query", ["next=/%09/evil.example", "next=%0d%0aLocation:%20http://evil",
                                   "next=//evil.example/x", "next=/%5Cevil.example"])
def test_login_never_redirects_off_the_site(table: Any, tmp_path: Path, csrf: Any, query: str) -> None:
    browser = lan_app(table, tmp_path).test_client()
    token = csrf(browser)
    answer = browser.post(f"/login?{query}", data={"pin": PIN, "csrf_token": token},
                          headers={**LOCAL, "Origin": ORIGIN})
    assert answer.status_code == 302 and answer.headers["Location"] == "/"


def test_lan_off_refuses_non_loopback_addresses() -> None:
    for host in ("0.0.0.0", "192.168.1.20", "::"):
        with pytest.raises(ValueError, match="LAN access is off"):
            WebConfig(host=host)
    with pytest.raises(ValueError):
        WebConfig.from_mapping({"host": "0.0.0.0", "debug": True})


def test_lan_off_means_no_non_loopback_listener(table: Any) -> None:
    config = WebConfig(port=0)
    app = create_app(table, config)
    running = serving.start(app, config)
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
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    html = page.get_data(as_text=True)
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html


def test_https_sets_the_secure_flag_and_hsts(table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path, https=True)
    browser = app.test_client()
    page = browser.get("/login", headers=LOCAL, base_url="https://localhost")
    assert "Secure" in page.headers["Set-Cookie"]
    assert page.headers["Strict-Transport-Security"].startswith("max-age=")


def test_a_flood_of_wrong_pins_never_locks_out_a_paired_phone_or_the_table(table: Any, tmp_path: Path,
                                                                          csrf: Any) -> None:
    """30 wrong PINs from 30 addresses spend the budget of never-paired browsers only: a phone that was
    paired before gets back in with the right PIN, and after the table's own Mode button a new phone does."""
    app = lan_app(table, tmp_path)
    paired = app.test_client()
    assert log_in(paired, csrf, address="192.0.2.50").status_code == 302
    token = csrf(paired)
    paired.post("/logout", data={"csrf_token": token}, headers={**LOCAL, "Origin": ORIGIN})
    assert paired.get("/api/snapshot", headers=LOCAL).status_code == 401  # its session ended
    attacker = app.test_client()
    for n in range(30):
        attacker.delete_cookie("dinotable-device")
        log_in(attacker, csrf, pin=f"{n:06d}", address=f"198.51.100.{n}")
    new_phone = app.test_client()
    locked = log_in(new_phone, csrf, address="192.0.2.60")
    assert locked.status_code == 429 and b"press Mode" in locked.data
    assert log_in(paired, csrf, address="192.0.2.50").status_code == 302  # the paired phone: in
    table.physical_presses["mode"] = time.monotonic()  # someone at the table presses Mode
    assert log_in(new_phone, csrf, address="192.0.2.60").status_code == 302
    table.presses["mode"] += 1  # a virtual press from the page does not open the window
    guesser = app.test_client()
    codes = [log_in(guesser, csrf, pin=f"{n:06d}", address=f"203.0.113.{n}").status_code for n in range(12)]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]  # the window gives 10 guesses, no more
    del table.physical_presses["mode"]


def test_a_paired_phones_own_wrong_pins_block_only_itself(table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path, login_attempts=3)
    paired = app.test_client()
    assert log_in(paired, csrf, address="192.0.2.50").status_code == 302
    codes = [log_in(paired, csrf, pin="111111", address="192.0.2.50").status_code for _ in range(4)]
    assert codes == [401, 401, 401, 429]
    other = app.test_client()
    assert log_in(other, csrf, address="192.0.2.50").status_code == 302  # same address, another phone


def test_a_forged_device_cookie_is_no_paired_phone(table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path, login_budget=3)
    forger = app.test_client()
    forger.set_cookie("dinotable-device", "abc.0123456789abcdef0123456789abcdef", domain="localhost")
    codes = [log_in(forger, csrf, pin=f"{n:06d}", address=f"198.51.100.{n}").status_code for n in range(4)]
    assert codes == [401, 401, 401, 429]


def test_a_watch_only_link_sees_no_seed(table: Any, tmp_path: Path, csrf: Any) -> None:
    app = lan_app(table, tmp_path)
    player = app.test_client()
    assert log_in(player, csrf).status_code == 302
    assert "seed" in player.get("/api/settings", headers=LOCAL).get_json()
    link = re.search(r'id="watch-link">http://localhost(/watch/[^<]+)<',
                     player.get("/pair", headers=LOCAL).get_data(as_text=True))
    assert link
    guest = app.test_client()
    guest.get(link.group(1), headers=LOCAL)
    assert "seed" not in guest.get("/api/settings", headers=LOCAL).get_json()


def test_watch_only_links_never_keep_a_seated_player_from_live_updates(table: Any, tmp_path: Path,
                                                                       csrf: Any) -> None:
    """One device opening many watch-only links holds a device's share of live streams (it counts by its
    address), and a full house of watchers gives its oldest stream up to a seated player's phone."""
    from companion.web.api import STREAMS_PER_SESSION

    app = lan_app(table, tmp_path, max_streams=4)
    player = app.test_client()
    assert log_in(player, csrf).status_code == 302
    link = re.search(r'id="watch-link">http://localhost(/watch/[^<]+)<',
                     player.get("/pair", headers=LOCAL).get_data(as_text=True))
    assert link is not None

    def watcher(address: str) -> Any:
        guest = app.test_client()
        opened = guest.get(link.group(1), headers=LOCAL, environ_base={"REMOTE_ADDR": address})
        assert opened.status_code == 302
        return guest.get("/api/events", headers=LOCAL, buffered=False, environ_base={"REMOTE_ADDR": address})

    greedy = [watcher("192.0.2.50") for _ in range(5)]  # five links on one device
    assert all(stream.status_code == 200 for stream in greedy)
    slots = app.extensions["stream_slots"]
    assert slots.held("watching from 192.0.2.50") == STREAMS_PER_SESSION
    others = [watcher(f"192.0.2.{n}") for n in (51, 52, 53, 54)]
    assert slots.held() == 4
    seated = player.get("/api/events", headers=LOCAL, buffered=False,
                        environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert seated.status_code == 200  # a seated phone is always live
    assert slots.held() == 4 and slots.held(player_sid(player)) == 1
    late = watcher("192.0.2.60")
    assert late.status_code == 429  # watchers wait; the seated phone keeps its stream
    for stream in [*greedy, *others, seated, late]:
        stream.close()


def player_sid(browser: Any) -> str:
    with browser.session_transaction() as session:
        return str(session["sid"])


def test_a_pin_made_anew_while_the_table_runs_applies_at_once(table: Any, tmp_path: Path, csrf: Any) -> None:
    """`companion pair` (or an owner) making a new PIN in the state directory while the table runs: the
    running page takes it at once (no restart), the old one is refused and its sessions end."""
    from companion import config as settings
    from companion.pairing import PIN_FILE, resolve_pin

    web = WebConfig.from_config(settings.WebConfig(), state_dir=tmp_path)
    assert web.pin_kept and web.pin == (tmp_path / PIN_FILE).read_text().strip()
    app = create_app(table, web)
    old_phone = app.test_client()
    assert log_in(old_phone, csrf, pin=web.pin).status_code == 302
    assert old_phone.get("/pair", headers=LOCAL).status_code == 200
    (tmp_path / PIN_FILE).unlink()
    new_pin, made = resolve_pin("", tmp_path)  # as `companion pair` makes one where none is kept
    assert made and new_pin != web.pin
    assert old_phone.get("/pair", headers=LOCAL).status_code in (302, 403)  # the old PIN's session ended
    stranger = app.test_client()
    assert log_in(stranger, csrf, pin=web.pin, address="192.0.2.9").status_code != 302
    assert log_in(app.test_client(), csrf, pin=new_pin, address="192.0.2.10").status_code == 302
