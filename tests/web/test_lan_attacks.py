"""`companion serve` in LAN mode inside a network namespace of its own, attacked as a LAN neighbour or a
visited web page would: foreign Host names, reads without a session, a captured cookie after logout, open
redirects, unknown ids, 200 half-sent requests, and 100 PIN guesses from 20 addresses."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def _namespaces_work() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "-n", "ip", "link", "add", "probe0", "type", "veth", "peer", "name",
                            "probe1"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.fixture(scope="module")
def results() -> dict[str, object]:
    if not _namespaces_work():
        pytest.skip("needs root, unshare and ip (iproute2) to make a network namespace")
    run = subprocess.run(["unshare", "-n", sys.executable, str(HERE / "lan_attack.py")], capture_output=True,
                         text=True, timeout=600, cwd=HERE.parents[1])
    assert run.returncode == 0, run.stderr[-3000:]
    found: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return found


def test_a_weak_pin_is_refused_at_start(results: dict[str, object]) -> None:
    code, last = results["weak_pin"]  # type: ignore[misc]
    assert code == 2 and "PIN" in last[0]


def test_the_generated_pin_has_six_digits_and_reaches_the_journal(results: dict[str, object]) -> None:
    assert results["generated_pin_digits"] == 6 and results["journal_shows_pin"] is True


def test_foreign_host_names_get_nothing(results: dict[str, object]) -> None:
    assert set(results["foreign_host"].values()) == {400}  # type: ignore[union-attr]


def test_reads_and_the_camera_need_the_pin(results: dict[str, object]) -> None:
    answers = results["no_session"]
    assert answers == {"/api/snapshot": 401, "/api/frame.jpg": 401, "/api/photo/1.jpg": 401,
                       "/api/events": 401, "/": 302}
    assert results["login"] == 302 and results["with_session"] == 200


def test_unknown_ids_are_404_not_500(results: dict[str, object]) -> None:
    assert set(results["bad_ids"].values()) == {404}  # type: ignore[union-attr]


def test_logout_ends_a_captured_cookie(results: dict[str, object]) -> None:
    assert results["logout"] == 302 and results["captured_cookie_after_logout"] == 401


def test_next_never_leaves_the_site(results: dict[str, object]) -> None:
    for status, location in results["next"].values():  # type: ignore[union-attr]
        assert status == 302 and location == "/", location


@pytest.mark.parametrize("label", ["one_address", "ten_addresses"])
def test_half_sent_requests_hold_no_threads(results: dict[str, object], label: str) -> None:
    assert results[f"served_beside_200_slow_requests_from_{label}"] == 200
    before, after = results[f"threads_with_200_slow_requests_from_{label}"]  # type: ignore[misc]
    assert after <= before + 2


def test_guessing_from_many_addresses_is_throttled(results: dict[str, object]) -> None:
    guesses: list[int] = results["guesses"]  # type: ignore[assignment]
    assert guesses.count(401) <= 30 and guesses.count(429) >= 70 and set(guesses) <= {401, 429}
    assert results["right_pin_while_blocked"] == 429
