"""`research/paired_baseline.py`: a tournament's records folder replayed with a baseline in one bot's seat."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from ttr.sim.tournament import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def test_the_records_of_a_resumable_tournament_are_paired_with_the_baseline(tmp_path: Path) -> None:
    """The folder also holds the tournament's settings and results (not records): they are left alone. With
    the bot itself as the baseline every game comes out identical."""
    config = TournamentConfig("new_york", 2, ("greedy_long", "greedy"), 6, seed=3, records_dir=str(tmp_path))
    summary = run_tournament(config)
    wins = next(row["wins"] for row in summary["standings"] if row["bot"] == "greedy_long")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    script = str(ROOT / "research" / "paired_baseline.py")
    same = subprocess.run([sys.executable, script, str(tmp_path), "greedy_long", "--baseline", "greedy_long"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert same.returncode == 0, same.stderr
    assert f"6 games; greedy_long won {wins:g} " in same.stdout
    assert "identical games 6" in same.stdout and "better in 0, worse in 0" in same.stdout
    other = subprocess.run([sys.executable, script, str(tmp_path), "greedy_long"], env=env, capture_output=True,
                           text=True, timeout=120)
    assert other.returncode == 0, other.stderr
    found = re.search(r"better in (\d+), worse in (\d+)", other.stdout)
    assert found and int(found[1]) + int(found[2]) <= 6
