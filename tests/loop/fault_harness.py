"""Kill the running loop with SIGKILL at random moments, again and again, and check that nothing is lost.

Each round forks one child that opens the store (resuming the game exactly), puts the resumed table in
front of a camera and lets the bots play on through the loop. The parent kills it with SIGKILL after a
random delay (from start-up, or from its "ready" report, sized so that the kills spread over the game),
then checks:

- every event whose signal the child had shown (reported through a pipe right after the panel signal) is
  in the store: nothing signalled is ever lost;
- the stored game replays to exactly the state of the uninterrupted run after the same number of events;

and finally that the game ends equal to the uninterrupted run. Some children also crash "inside the QR
decoder" (SIGSEGV raised from the pipeline) instead of being killed from outside.
"""

from __future__ import annotations

import os
import random
import select
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bots import BotDriver
from companion.config import Config
from companion.infer import TableModel
from companion.store import Store
from companion.table.loop import TableLoop
from companion.table.pipeline import Pipeline
from engines.core import State
from sim.ideal import IdealPipeline, SceneSource


@dataclass
class FaultReport:
    kills: int = 0
    decoder_crashes: int = 0
    children: int = 0
    acked: int = 0
    checks: int = 0
    finished: bool = False
    final: State | None = None
    events_at_kill: list[int] = field(default_factory=list)


class CrashingDecoder:
    """A pipeline whose decoder segfaults on a random frame (like a native QR library would)."""

    def __init__(self, inner: Pipeline, rate: float, rng: random.Random) -> None:
        self.inner = inner
        self.rate = rate
        self.rng = rng

    def __getattr__(self, name: str) -> Any:  # the rest of the pipeline's protocol: the inner one's
        return getattr(self.inner, name)

    def process(self, frame: Any, index: int, timestamp: float, lores: Any = None) -> Any:
        if self.rng.random() < self.rate:
            os.kill(os.getpid(), signal.SIGSEGV)
        return self.inner.process(frame, index, timestamp)


def _ack(fd: int, seq: int) -> None:
    """The "signal shown" report to the parent (sent after the panel shows the commit's signal)."""
    os.write(fd, f"{seq}\n".encode())


def _child(
    state_dir: Path,
    config: Config,
    model_factory: Callable[[Config], TableModel],
    is_back: Callable[[str], bool],
    seed: int,
    ack: int,
    crash_rate: float,
    hold_after: int | None = None,
) -> None:
    """``hold_after``: commit at most this many moves, then wait to be killed (kills are still owed, so
    this child must not finish the game however fast the machine is just now)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hw.panel import Panel

    status = 0
    committed: list[int] = []
    try:
        signal.signal(signal.SIGSEGV, signal.SIG_DFL)
        factory = MockFactory(pin_class=MockPWMPin)
        panel = Panel(config.pins, [s.colour for s in config.seats], pin_factory=factory, start=False)
        pipeline: Pipeline = IdealPipeline(config.game, is_back)
        if crash_rate:
            pipeline = CrashingDecoder(pipeline, crash_rate, random.Random(os.getpid()))
        loop = TableLoop(
            config,
            store=Store(state_dir),
            panel=panel,
            pipeline=pipeline,
            model_factory=model_factory,
            on_commit=lambda event: (_ack(ack, event.seq), committed.append(event.seq)),
        )
        os.write(ack, b"R\n")  # resumed and ready: the parent times its kill from here
        source = SceneSource(loop.game.model.scene(loop.game.state))
        driver = BotDriver(loop, source.show, seed=seed, pump=lambda: loop.process_frame(*source.read()))
        while hold_after is None or len(committed) < hold_after:
            if not driver.step():
                break
        else:
            time.sleep(3600)  # the parent kills this child at its deadline
    except BaseException:
        traceback.print_exc()
        status = 3
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def run_fault_injection(
    state_dir: Path,
    config: Config,
    model_factory: Callable[[Config], TableModel],
    is_back: Callable[[str], bool],
    reference: list[State],
    seed: int,
    min_kills: int = 200,
    crash_every: int = 10,
    rng_seed: int = 0,
    max_children: int = 5000,
    startup_share: float = 0.2,
) -> FaultReport:
    """Play the game to its end under repeated SIGKILLs; ``reference[k]`` is the state after k events of
    the uninterrupted run (undo-free bot play: one event per action).

    A share of the kills (``startup_share``) falls at a random moment of start-up (opening the store,
    replaying); the others at a random moment after the child reported it was ready, within a window sized
    from the measured time per move so that the kills spread evenly over the game."""
    rng = random.Random(rng_seed)
    report = FaultReport()
    total = len(reference) - 1
    move_time = 0.05  # seconds per committed move, measured as we go
    fastest = move_time
    stored = 0
    for _ in range(max_children):
        read_end, write_end = os.pipe()
        crash_rate = 0.0
        early = stored < 0.7 * total
        if (
            crash_every
            and early
            and report.kills < min_kills
            and report.children % crash_every == crash_every - 1
        ):
            crash_rate = 0.3
        killing = report.kills < min_kills and not crash_rate  # a crashing child dies by itself
        # near the end with kills still owed (a loaded machine plays faster than measured): kill at
        # start-up only, which moves the game no further, so the game cannot end short of its kills
        during_startup = killing and (rng.random() < startup_share or total - stored <= 3)
        # and a child killed later stops short of the last moves, however fast it plays meanwhile
        hold_after = max(1, total - 3 - stored) if killing and not during_startup else None
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(read_end)
            _child(state_dir, config, model_factory, is_back, seed, write_end, crash_rate, hold_after)
        os.close(write_end)
        started = time.monotonic()
        report.children += 1
        remaining_kills = max(1, min_kills - report.kills)
        # moves wanted per kill (the last moves are kept for the run that finishes the game)
        per_kill = max(0.0, (total - stored - 3) * 0.9) / remaining_kills
        pace = min(move_time, 2.0 * fastest)  # a slow spell of the machine must not widen the window much
        window = 2.0 * pace * min(per_kill, 3.0)
        if total - stored > 3:
            window = max(window, 0.6 * pace)
        deadline = started + (rng.uniform(0, 0.05) if during_startup else 600.0)
        ready_at: float | None = None
        ack_times: list[float] = []
        buffer = b""
        exited: int | None = None
        while exited is None:
            timeout = max(0.0, deadline - time.monotonic())
            readable, _, _ = select.select([read_end], [], [], min(timeout, 0.05))
            if readable:
                chunk = os.read(read_end, 65536)
                buffer += chunk
                now = time.monotonic()
                for line in chunk.split():
                    if line == b"R" and ready_at is None:
                        ready_at = now
                        if during_startup:  # a start-up kill falls before the child is ready, or at once
                            deadline = min(deadline, now)
                        elif killing:
                            deadline = now + rng.uniform(0, window)
                    elif line != b"R":
                        ack_times.append(now)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                exited = status
            elif killing and time.monotonic() >= deadline:
                os.kill(pid, signal.SIGKILL)
                _, exited = os.waitpid(pid, 0)
        while True:
            chunk = os.read(read_end, 65536)
            if not chunk:
                break
            buffer += chunk
        os.close(read_end)
        acked = [int(line) for line in buffer.split() if line != b"R"]
        report.acked += len(acked)
        measured = None
        if len(ack_times) >= 2:
            measured = (ack_times[-1] - ack_times[0]) / (len(ack_times) - 1)
        elif ready_at is not None and ack_times:
            measured = ack_times[0] - ready_at
        if measured is not None:
            move_time = 0.7 * move_time + 0.3 * measured
            fastest = min(fastest, measured)

        if os.WIFSIGNALED(exited):
            if os.WTERMSIG(exited) == signal.SIGKILL:
                report.kills += 1
            elif os.WTERMSIG(exited) == signal.SIGSEGV:
                report.decoder_crashes += 1
            else:
                raise AssertionError(f"child died of signal {os.WTERMSIG(exited)}")
        elif os.WEXITSTATUS(exited) != 0:
            raise AssertionError(f"child failed with status {os.WEXITSTATUS(exited)}")

        # nothing signalled is lost; the stored game is exactly the uninterrupted run's prefix
        store = Store(state_dir)
        try:
            game_id = store.latest_game_id()
            if game_id is None:  # killed before the game was even recorded
                assert not acked
                count, final = 0, reference[0]
            else:
                seqs = {event.seq for event in store.events(game_id)}
                missing = set(acked) - seqs
                assert not missing, f"signalled events lost after a kill: {sorted(missing)}"
                result = store.replay(game_id)
                count, final = len(result.line), result.state
                assert final.to_dict() == reference[count].to_dict(), f"state after {count} events differs"
            report.checks += 1
            report.events_at_kill.append(count)
            stored = count
        finally:
            store.close()
        if not os.WIFSIGNALED(exited):
            report.finished = True
            report.final = final
            return report
    raise AssertionError(f"the game did not finish within {max_children} children")
