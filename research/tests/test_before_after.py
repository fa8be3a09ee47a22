"""`research/before_after.py`: games played at two commits, paired by deal, and the table of the split."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = str(ROOT / "research" / "before_after.py")
sys.path.insert(0, str(ROOT / "research"))

import before_after  # noqa: E402


def test_the_sign_test_is_exact_and_two_sided() -> None:
    """5 against 0 is 2/32; an even split is 1; no discordant games is 1."""
    assert before_after.sign_test(5, 0) == 2 / 32
    assert before_after.sign_test(0, 5) == 2 / 32
    assert before_after.sign_test(3, 3) == 1.0
    assert before_after.sign_test(0, 0) == 1.0
    assert abs(before_after.sign_test(10, 2) - 0.0386) < 1e-4


def test_a_run_is_resumed_and_paired_game_by_game(tmp_path: Path) -> None:
    """A run stopped after one game and started again plays only the games it lacks; two runs at one commit
    are the same deals decided the same way (no game better or worse)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    todo = list(before_after.tasks([c for c in before_after.comparisons() if c.name == "medium-mix-new_york"], 4))
    first.write_text(json.dumps(before_after.play_one(todo[0])) + "\n")
    for path in (first, second):
        done = subprocess.run([sys.executable, SCRIPT, "play", "--only", "medium-mix-new_york", "--games", "4",
                               "--out", str(path)], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in first.read_text().splitlines()]
    assert [(r["seed"], r["seat"], r["opponent"]) for r in rows] == [(t[4], t[5], t[2]) for t in todo]
    table = subprocess.run([sys.executable, SCRIPT, "report", str(first), str(second)], env=env,
                           capture_output=True, text=True, timeout=120)
    assert table.returncode == 0, table.stderr
    line = next(row for row in table.stdout.splitlines() if row.startswith("| medium-mix-new_york "))
    cells = [c.strip() for c in line.split("|")[1:-1]]
    assert cells[1] == "4" and cells[2] == cells[3] and cells[8] == "4"  # the same wins, the same games
    assert cells[4] == "0" and cells[5] == "0" and cells[7] == "1.00" and cells[9] == "-"
