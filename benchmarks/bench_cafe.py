"""The café at scale: 20 tables, one move per second each, on a real Mosquitto, and the café board.

Each simulated table is the real thing minus the camera: its own store (SQLite, synchronous=FULL), moves
of a random Jurassik playout committed once a second, and its :class:`companion.mqtt.link.TableLink`
(paho-mqtt) publishing them. The board runs as ``python -m cafe`` (``dinotable-cafe``) in its own
process. Printed:

- the board's lag, from a move's commit at its table to its arrival in the board's database (p50, p95, max),
  and whether every move arrived exactly once and in order;
- the table-side cost per publish: the link thread's CPU per message, and what the commit path pays (the
  ``notify`` call), each beside the commit itself (the store's fsync'd append) measured in the same run.

Usage: ``python benchmarks/bench_cafe.py [--tables 20] [--seconds 30]`` (needs Debian's mosquitto).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "cafe"))

from broker import Broker, free_port

from companion.mqtt.link import TableLink
from companion.store import Store
from engines.core import State, get_game, sample_chance
from wire.broker import MqttConfig

PLAYERS = [{"name": "Ana", "colour": "red", "seat": 0}, {"name": "Bo", "colour": "blue", "seat": 1}]


class SimulatedTable:
    def __init__(self, name: str, directory: Path, url: str, seed: int) -> None:
        self.name = name
        self.store = Store(directory)
        self.game = get_game("jurassik")
        self.rng = random.Random(seed)
        self.state: State = self.game.new_initial_state(["Ana", "Bo"], rng=self.rng)
        self.game_id = self.store.new_game(self.game, self.state, PLAYERS, {}, seed)
        self.link = TableLink(MqttConfig(url=url, table=name, keepalive=10), self.store, self.summary)
        self.commit_s: list[float] = []
        self.notify_s: list[float] = []
        self.moves = 0

    def summary(self) -> dict[str, object]:
        return {"game": self.game.name, "title": self.game.title, "game_id": self.game_id, "players": PLAYERS,
                "current": None, "over": self.state.is_terminal(),
                "scores": self.state.shared_scores().to_dict(), "event_count": self.moves, "pending": None,
                "camera": {"ok": True}}

    def move(self) -> None:
        if self.state.is_terminal():
            self.state = self.game.new_initial_state(["Ana", "Bo"], rng=self.rng)
            self.game_id = self.store.new_game(self.game, self.state, PLAYERS, {}, 0)
        action = (sample_chance(self.state, self.rng) if self.state.is_chance_node()
                  else self.rng.choice(self.state.legal_actions()))
        player = self.state.current_player()
        self.state = self.state.apply(action)
        started = time.perf_counter()
        self.store.append(self.game_id, "action", action.to_dict(), player=player, source="bench",
                          scores=self.state.shared_scores().to_dict(), state_after=self.state)
        committed = time.perf_counter()
        self.link.notify()
        self.notify_s.append(time.perf_counter() - committed)
        self.commit_s.append(committed - started)
        self.moves += 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def run(tables: int, seconds: float) -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-cafe-"))
    (work / "broker").mkdir()
    broker = Broker(work / "broker")
    broker.start()
    port = free_port()
    board = subprocess.Popen([sys.executable, "-m", "cafe", "--mqtt", broker.url, "--port",
                              str(port), "--bind", "127.0.0.1", "--state-dir", str(work / "board")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1).read()
            break
        except OSError:
            time.sleep(0.1)
    sims = [SimulatedTable(f"t{i + 1:02d}", work / f"t{i + 1:02d}", broker.url, i) for i in range(tables)]
    for sim in sims:
        sim.link.start()
    stop = threading.Event()

    def play(sim: SimulatedTable, offset: float) -> None:
        next_at = time.monotonic() + offset
        while not stop.is_set():
            stop.wait(max(0.0, next_at - time.monotonic()))
            if stop.is_set():
                break
            sim.move()
            next_at += 1.0

    threads = [threading.Thread(target=play, args=(sim, i / tables), daemon=True)
               for i, sim in enumerate(sims)]
    print(f"{tables} tables, one move per second each, for {seconds:.0f} s ...", flush=True)
    for thread in threads:
        thread.start()
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        time.sleep(5)
        moves = sum(s.moves for s in sims)
        print(f"  {time.monotonic() - started:4.0f} s: {moves} moves committed", flush=True)
    stop.set()
    for thread in threads:
        thread.join()
    for sim in sims:
        sim.link.drained(30)
    time.sleep(1.0)
    report(sims, work / "board" / "cafe.db")
    for sim in sims:
        sim.link.stop(drain_s=0)
        sim.store.close()
    board.terminate()
    board.wait(timeout=20)
    broker.stop()


def report(sims: list[SimulatedTable], board_db: Path) -> None:
    with sqlite3.connect(board_db) as db:
        rows = db.execute("SELECT table_name, game_id, seq, received - at FROM events "
                          "ORDER BY table_name, game_id, seq").fetchall()
    committed = sum(s.moves for s in sims)
    games: dict[tuple[str, int], list[int]] = {}
    for table, game_id, seq, _ in rows:
        games.setdefault((table, game_id), []).append(seq)
    exact = len(rows) == committed and all(seqs == list(range(1, len(seqs) + 1)) for seqs in games.values())
    lags = [r[3] * 1000 for r in rows]
    print(f"board: {len(rows)} of {committed} moves arrived; each once and in order: "
          f"{'yes' if exact else 'NO'}")
    print(f"board lag (commit at the table -> in the board's database): p50 {pct(lags, 0.5):.1f} ms, "
          f"p95 {pct(lags, 0.95):.1f} ms, max {max(lags, default=0):.1f} ms")
    commit = [v * 1000 for s in sims for v in s.commit_s]
    notify = [v * 1000 for s in sims for v in s.notify_s]
    published = sum(s.link.published for s in sims)
    link_cpu = sum(s.link.cpu_s for s in sims) * 1000 / max(1, published)
    commit_p50 = statistics.median(commit)
    print(f"table side per move: commit (fsync'd append) p50 {commit_p50:.2f} ms; the commit path's notify "
          f"p50 {statistics.median(notify) * 1000:.1f} µs ({statistics.median(notify) / commit_p50:.4f}x the "
          f"commit); the link thread's CPU per publish {link_cpu:.2f} ms ({link_cpu / commit_p50:.2f}x the "
          f"commit, off the loop's thread)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    run(args.tables, args.seconds)


if __name__ == "__main__":
    main()
