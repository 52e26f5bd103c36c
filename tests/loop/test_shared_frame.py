"""The live frame is encoded once for every browser that asks (a burst of requests shares one encoding, so
memory stays flat; benchmarks/bench_bursts.py measures the whole table), and again only for a new frame or
a new reading of it."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from companion.memory import thrifty_allocator
from companion.table import frames


def test_a_burst_of_requests_shares_one_encoding(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[bool] = []
    real = frames.frame_jpeg

    def counting(frame: Any, observation: Any, annotated: bool = True) -> bytes | None:
        encoded.append(annotated)
        return real(frame, observation, annotated)

    monkeypatch.setattr(frames, "frame_jpeg", counting)
    shared = frames.SharedJpeg()
    frame = np.full((1296, 2304, 3), 90, np.uint8)
    answers: list[bytes | None] = []
    start = threading.Barrier(16)

    def ask(annotated: bool) -> None:
        start.wait()
        answers.append(shared.get(frame, None, annotated))

    threads = [threading.Thread(target=ask, args=(i % 2 == 0,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(encoded) == [False, True]  # one encoding each way, whoever asked first
    assert len({a for a in answers if a}) <= 2 and all(a and a[:2] == b"\xff\xd8" for a in answers)
    newer = frame.copy()
    assert shared.get(newer, None) is not None and len(encoded) == 3  # a new frame: encoded again


def test_the_allocator_is_told_to_give_memory_back_where_it_is_glibc(monkeypatch: pytest.MonkeyPatch) -> None:
    import platform

    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert thrifty_allocator() is (platform.libc_ver()[0] == "glibc")
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")  # the service's unit chose: left as it is
    assert thrifty_allocator() is False
