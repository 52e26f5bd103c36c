"""A table that read codes exits quietly: no decoder object outlives the interpreter (nanobind reports
any such object as "leaked" on stderr when the demo or a command stops)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import os
os.environ["GPIOZERO_PIN_FACTORY"] = "mock"
from companion.commands.demo import build
demo = build("jurassik", seed=4)  # the table left running to the end, as when the demo is stopped
for _ in range(5):
    demo.loop.process_read(demo.camera.read())
print(len(demo.loop.records.history()))
"""


def test_a_table_left_running_to_the_end_exits_quietly() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().isdigit()
    assert "leaked" not in run.stderr and "nanobind" not in run.stderr, run.stderr
