"""`research/blunders.py`: its games written as they end, a stopped run going on where it stopped, and the
Markdown table made from them, headed with the commit, build and command."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_module


def load_script() -> ModuleType:
    return load_module("research/blunders.py", "blunders")


def test_a_run_writes_its_games_goes_on_where_it_stopped_and_makes_the_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    out, table = tmp_path / "games.jsonl", tmp_path / "blunders.md"
    base = ["--levels", "random", "--maps", "new_york", "--against", "random,route_focus", "--out", str(out)]
    assert script.main([*base, "--games", "3"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["run"]["build"] in ("pure Python", "compiled")
    assert lines[0]["run"]["command"].startswith("research/blunders.py --levels random")
    assert [(g["seed"], g["opponent"], g["seat"]) for g in lines[1:]] == [
        (70000, "random", 0), (70001, "route_focus", 0), (70002, "random", 1)]
    first = lines[1:]

    # The same run asked for 5 games plays only the 2 it lacks, and its table counts all 5.
    assert script.main([*base, "--games", "5", "--markdown", str(table)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [len(lines), lines[4]["run"]["command"].split()[-3]] == [7, "5"]
    assert lines[1:4] == first and [g["seed"] for g in lines[5:]] == [70003, 70004]
    games = [script.Outcome(**g) for g in lines if "run" not in g]
    text = table.read_text()
    assert text.count("--levels random") == 3  # the command writing it, and both runs with their build and commit
    row = next(line for line in text.splitlines() if line.startswith("| random | new_york |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    wins = sum(g.win for g in games)
    lo, hi = script.wilson(wins, 5)
    assert cells[2:5] == ["5", f"{wins:g}", f"{wins / 5:.0%} ({lo:.0%}-{hi:.0%})"]
    largest = sorted(games, key=lambda g: (-g.hand, -g.trains, g.seed))[:3]
    assert cells[5] == ", ".join(f"{g.hand}/{g.trains}" for g in largest)
    assert cells[6] == str(sum(g.hand >= 20 and g.trains >= 6 for g in games))

    # --from makes the same table from the file without playing; a file that is not one is named.
    again = tmp_path / "again.md"
    capsys.readouterr()
    assert script.main(["--from", str(out), "--markdown", str(again), "--hand", "1", "--trains", "0"]) == 0
    row = next(line for line in again.read_text().splitlines() if line.startswith("| random | new_york |"))
    assert row.split("|")[7].strip() == str(sum(g.hand >= 1 for g in games))
    # A later file's game replaces the same game of an earlier one; --games and --seed pick the seeds.
    later = tmp_path / "later.jsonl"
    changed = {**lines[2], "hand": 99, "trains": 30}
    later.write_text(json.dumps({"run": {"commit": "abc", "build": "compiled", "command": "later run"}}) + "\n"
                     + json.dumps(changed) + "\n")
    picked = tmp_path / "picked.md"
    assert script.main(["--from", str(out), str(later), "--games", "2", "--markdown", str(picked)]) == 0
    text = picked.read_text()
    assert "`later run` (compiled, commit abc)" in text
    row = next(line for line in text.splitlines() if line.startswith("| random | new_york |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[2] == "2" and cells[5].startswith("99/30") and cells[6] == "1"  # seeds 70000 and 70001 only
    with pytest.raises(SystemExit):
        script.main(["--from", str(out), "--levels", "expert"])  # no such games
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"level": "easy"}\n')
    with pytest.raises(SystemExit, match=r"bad\.jsonl:1"):
        script.main(["--from", str(bad)])

