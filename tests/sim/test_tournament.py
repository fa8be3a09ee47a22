"""`ttr tournament` and `ttr.sim.tournament`: same results whatever the jobs, seats rotate, records replay,
an interrupted tournament continues."""

from __future__ import annotations

import io
import json
import math
import os
import re
import shlex
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from helpers import interrupt_after
from ttr.cli.console import LineProgress
from ttr.cli.main import main
from ttr.records import load_json, read_record, replay
from ttr.sim import tournament
from ttr.sim.ratings import elo, elo_difference_errors, elo_errors, wilson
from ttr.sim.run_folder import SettingsMismatchError, lock
from ttr.sim.tournament import (
    RESULTS,
    SETTINGS,
    GameResult,
    TournamentConfig,
    by_seat,
    finished_games,
    pairwise,
    run_tournament,
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "simple_bot.py"


def _run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["tournament", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_the_same_json_with_one_or_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--map", "new_york", "--players", "3", "--bots", "random,random,random", "--games", "6", "--seed", "11"]
    one = _run_json(capsys, *args, "--jobs", "1")
    two = _run_json(capsys, *args, "--jobs", "2")
    assert one == two
    assert one["games"] == 6 and one["bots"] == ["random", "random#2", "random#3"]
    assert sum(row["wins"] for row in one["standings"]) == pytest.approx(6)  # shared wins split
    assert [r["seed"] for r in one["results"]] == list(range(11, 17))


def test_seats_rotate(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _run_json(capsys, "--map", "europe", "--players", "2", "--bots", "random,greedy,random",
                        "--games", "4", "--seed", "3")
    # More bots than seats: each pair in turn, rotated through the seats.
    assert [r["seats"] for r in summary["results"]] == [["random", "greedy"], ["greedy", "random"],
                                                        ["random", "random#2"], ["random#2", "random"]]
    assert {row["bot"]: row["seats_played"] for row in summary["standings"]} == {"random": 4, "greedy": 2,
                                                                              "random#2": 2}
    greedy = next(row for row in summary["standings"] if row["bot"] == "greedy")
    lo, hi = greedy["win_rate_ci95"]
    assert lo <= greedy["win_rate"] <= hi
    lo, hi = greedy["elo_ci95"]
    assert lo < greedy["elo"] < hi
    assert 0 <= greedy["ticket_completion"] <= 1
    assert set(summary["pairwise"]["greedy"]) == {"random", "random#2"}


def test_records_replay_to_the_same_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = _run_json(capsys, "--map", "europe", "--players", "3", "--bots", "random,greedy", "--games", "3",
                        "--records", str(tmp_path), "--jobs", "2")
    for result in summary["results"]:
        record = read_record(load_json(tmp_path / f"game-{result['game'] + 1:05d}.json"))
        replayed = replay(record)
        assert replayed.error is None
        state = replayed.to_json()
        assert state["status"] == "finished"
        assert [p["total"] for p in state["final"]["players"]] == result["scores"]
        assert record.seed == result["seed"]


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_tournament_keeps_its_games_and_the_same_command_continues(
        sig: signal.Signals, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C (to the whole process group) or SIGTERM (to the main process): exit 130, the standings of the
    finished games, those games kept in the records folder; the same command then plays only the others,
    and the summary is the one of a tournament never interrupted."""
    records = tmp_path / "records"
    args = ["--map", "europe", "--players", "4", "--bots", "greedy,random", "--games", "10", "--seed", "5",
            "--jobs", "2", "--records", str(records)]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), COLUMNS="200")
    command = [sys.executable, "-m", "ttr.cli.main", "tournament", *args]
    for _ in range(3):  # on a loaded machine the workers could finish every game before the signal lands: again
        shutil.rmtree(records, ignore_errors=True)
        returncode, out, err = interrupt_after(command, env, records / RESULTS, sig=sig)
        if returncode != 0:
            break
    assert returncode == 130, err
    assert f"they are kept in {records}: run the same command again to continue" in err
    kept = finished_games(records)
    assert 2 <= len(kept) < 10
    assert f"{len(kept)} of 10 games (seeds 5-14)" in out and "standings" in out
    assert all((records / f"game-{g + 1:05d}.json").exists() for g in kept)

    resumed = _run_json(capsys, *args)  # in this process: the remaining games only
    whole = _run_json(capsys, *args[:-2])  # the same tournament, never interrupted
    assert resumed == whole
    assert sorted(finished_games(records)) == list(range(10))
    kept_now = finished_games(records)
    assert all(kept_now[g] == kept[g] for g in kept)  # the kept games were not played again


def test_an_interrupted_json_summary_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C after two games (in this process): exit 130, the JSON of those two games marked interrupted,
    and the hint that --records would have kept them."""
    real = tournament.run_games

    def two_then_ctrl_c(config: TournamentConfig, indexes: list[int] | None = None) -> Iterator[GameResult]:
        for n, result in enumerate(real(config, indexes)):
            if n == 2:
                raise KeyboardInterrupt
            yield result

    monkeypatch.setattr(tournament, "run_games", two_then_ctrl_c)
    assert main(["tournament", "--map", "new_york", "--bots", "greedy,random", "--games", "5", "--json"]) == 130
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["interrupted"] is True and summary["games"] == 2 and len(summary["results"]) == 2
    assert "interrupted: 2 of 5 games finished; with --records DIR a re-run continues" in captured.err


def test_more_games_continue_and_other_settings_are_refused(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    args = ["--map", "new_york", "--players", "2", "--bots", "greedy,route_focus", "--seed", "30",
            "--records", str(records)]
    first = _run_json(capsys, *args, "--games", "4")
    assert first["games"] == 4 and sorted(finished_games(records)) == [0, 1, 2, 3]
    more = _run_json(capsys, *args, "--games", "7")
    assert more == _run_json(capsys, *args[:-2], "--games", "7")
    assert more["results"][:4] == first["results"]
    fewer = _run_json(capsys, *args, "--games", "2")  # the first games only, nothing played or lost
    assert fewer["results"] == first["results"][:2] and len(finished_games(records)) == 7
    before = (records / RESULTS).read_text()
    for option, value, named in (("--seed", "31", "seed"), ("--bots", "greedy,random", "bots"),
                                 ("--players", "3", "players")):
        changed = [*args]
        changed[changed.index(option) + 1] = value
        assert main(["tournament", *changed, "--games", "7"]) == 1
        err = capsys.readouterr().err
        assert f"holds a tournament with other settings ({named})" in err, err
    assert (records / RESULTS).read_text() == before
    settings = json.loads((records / SETTINGS).read_text())["settings"]
    assert settings["bots"] == ["greedy", "route_focus"] and len(settings["map_sha256"]) == 64


def test_a_cut_line_is_played_again_and_bad_folders_are_refused(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "records"
    config = TournamentConfig("new_york", 2, ("greedy", "random"), 3, seed=8, records_dir=str(records))
    whole = run_tournament(config)
    log = records / RESULTS
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:2]) + lines[2][:20])  # the last line cut short, as by a power cut
    assert sorted(finished_games(records)) == sorted(json.loads(line)["game"] for line in lines[:2])
    assert run_tournament(config) == whole
    tampered = json.loads(lines[0]) | {"entries": [7, 7]}  # a line that does not fit these settings
    with log.open("a", encoding="utf-8") as f:
        f.write(json.dumps(tampered) + "\n")
    assert run_tournament(config) == whole  # that game is played again
    assert len(finished_games(records)) == 3
    held = lock(records, "ttr tournament")
    try:
        with pytest.raises(SettingsMismatchError, match="another ttr tournament is writing"):
            run_tournament(config)
    finally:
        held.close()
    a_file = tmp_path / "file.json"
    a_file.write_text("{}")
    assert main(["tournament", "--bots", "greedy", "--games", "1", "--records", str(a_file)]) == 1
    assert "is a file, not a folder" in capsys.readouterr().err
    assert main(["tournament", "--bots", "greedy", "--games", "1", "--records", str(a_file / "sub")]) == 1
    assert f"--records: cannot write {a_file / 'sub'}" in capsys.readouterr().err  # no traceback
    simulation = tmp_path / "sim"
    assert main(["simulate", "--map", "new_york", "--bots", "greedy,random", "--games", "1", "--format", "csv",
                 "--out", str(simulation)]) == 0
    capsys.readouterr()
    assert main(["tournament", "--map", "new_york", "--bots", "greedy", "--games", "1",
                 "--records", str(simulation)]) == 1
    assert "holds a simulation" in capsys.readouterr().err


def test_a_cmd_bot_in_a_tournament(tmp_path: Path) -> None:
    spec = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))}"
    config = TournamentConfig("new_york", 2, (spec, "random"), 2, seed=5, records_dir=str(tmp_path))
    summary = run_tournament(config)
    row = next(r for r in summary["standings"] if r["bot"] == spec)
    assert row["seats_played"] == 2 and row["replaced_by_random"] == 0
    assert all(note["failures"] == [] and note["program"] == "simple_bot 1.0"
               for r in summary["results"] for note in r["notes"])
    assert len(list((tmp_path / "bot-logs").iterdir())) == 2  # one stderr log per game


def test_human_output_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--map", "new_york", "--bots", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "standings" in out and "games/s" in out
    assert main(["tournament", "--bots", "nosuchbot", "--games", "1"]) == 1
    assert "unknown bot" in capsys.readouterr().err
    assert main(["tournament", "--map", "new_york", "--players", "7", "--games", "1"]) == 1
    assert "new_york is for 2-4 players" in capsys.readouterr().err
    assert main(["tournament", "--jobs", "-1", "--games", "1"]) == 1
    assert "--jobs must be 0" in capsys.readouterr().err
    assert main(["tournament", "--map", "new_york", "--bots", "random", "--games", "1", "--seed", "7"]) == 0
    assert "1 game (seed 7);" in capsys.readouterr().out


def test_piped_output_keeps_whole_intervals(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped (no terminal, no COLUMNS), the standings are not cut to Rich's 80 columns, and the progress is
    reported in plain lines."""
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["tournament", "--map", "new_york", "--bots", "greedy,route_focus", "--games", "4"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "…" not in out
    assert captured.err.splitlines()[-1].startswith("games 4/4 (100%), ")  # progress as lines, not a bar
    rows = [line for line in out.splitlines() if "route_focus" in line and "%" in line and "(" in line]
    assert len(rows) == 1 and re.search(r"\d+\.\d% \(\d+\.\d%-\d+\.\d%\)", rows[0])  # the whole interval
    assert re.search(r"\d{3,4} \(\d{3,4}-\d{3,4}\)", rows[0])  # and the rating's


def test_seating_with_fewer_bots_than_seats() -> None:
    config = TournamentConfig("europe", 4, ("a", "b"), 4)
    assert [config.seating(i) for i in range(3)] == [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1]]
    config = TournamentConfig("europe", 3, ("a", "b", "c"), 3)
    assert [config.seating(i) for i in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    config = TournamentConfig("europe", 2, ("a", "b", "c", "d"), 12)
    pairs = [tuple(sorted(config.seating(i))) for i in range(12)]
    assert sorted(set(pairs)) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]  # a full round robin
    assert all(pairs.count(p) == 2 for p in set(pairs))


def test_statistics() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    even = [GameResult(i, i, [i % 2, 1 - i % 2], [10, 5], [0], [0, 0], [0, 0], 0) for i in range(4)]
    table = pairwise(even, 2)
    assert table[0][1] == [2, 0, 2] and table[1][0] == [2, 0, 2]
    assert elo(table) == pytest.approx([1500, 1500])
    # Seats rotate and bot 0 wins every game (from seat 0, then from seat 1 despite the lower score).
    strong = [GameResult(i, i, [i % 2, 1 - i % 2], [10, 5], [i % 2], [0, 0], [0, 0], 0) for i in range(10)]
    assert pairwise(strong, 2)[0][1] == [10, 0, 0]
    lopsided = [GameResult(i, i, [0, 1], [10, 5], [0], [0, 0], [0, 0], 0) for i in range(10)]
    high, low = elo(pairwise(lopsided, 2))
    assert high > 1700 and low < 1300 and high + low == pytest.approx(3000)


def test_elo_intervals() -> None:
    """Two bots: a rating's error is half the delta-method error of their difference, 400 / ln 10 /
    sqrt(n p (1 - p)); more games, a narrower interval; every bot gets one, even one that never lost."""
    def two(n: int, p: float) -> list[list[list[float]]]:
        return [[[0, 0, 0], [n * p, 0, n * (1 - p)]], [[n * (1 - p), 0, n * p], [0, 0, 0]]]
    table = two(1000, 0.6)
    errors = elo_errors(table, elo(table))
    expected = 400 / math.log(10) / math.sqrt(1000 * 0.6 * 0.4) / 2
    assert errors == pytest.approx([expected, expected], rel=0.01)
    assert elo_errors(two(100, 0.6), elo(two(100, 0.6)))[0] > 3 * errors[0]
    three = [[[0, 0, 0], [60, 0, 40], [70, 0, 30]], [[40, 0, 60], [0, 0, 0], [55, 0, 45]],
             [[30, 0, 70], [45, 0, 55], [0, 0, 0]]]
    assert all(10 < e < 30 for e in elo_errors(three, elo(three)))
    sweep = two(10, 1.0)
    assert all(math.isfinite(e) and e > 50 for e in elo_errors(sweep, elo(sweep)))


def test_elo_difference_intervals() -> None:
    """A difference's error: with two bots the delta-method error, twice a centred rating's; with three it
    is symmetric, and a pair that met in many games is measured more closely than a pair that met in few."""
    table = [[[0, 0, 0], [600, 0, 400]], [[400, 0, 600], [0, 0, 0]]]
    ratings = elo(table)
    apart = elo_difference_errors(table, ratings)
    assert apart[0][0] == 0 and apart[0][1] == apart[1][0]
    assert apart[0][1] == pytest.approx(400 / math.log(10) / math.sqrt(1000 * 0.6 * 0.4), rel=0.01)
    assert apart[0][1] == pytest.approx(2 * elo_errors(table, ratings)[0])
    # bots 0 and 1 met 1000 times, bot 2 met each of them 20 times
    three = [[[0, 0, 0], [550, 0, 450], [12, 0, 8]], [[450, 0, 550], [0, 0, 0], [11, 0, 9]],
             [[8, 0, 12], [9, 0, 11], [0, 0, 0]]]
    apart = elo_difference_errors(three, elo(three))
    assert all(apart[a][b] == pytest.approx(apart[b][a]) for a in range(3) for b in range(3))
    assert apart[0][1] < apart[0][2] / 2


def test_wins_by_seat() -> None:
    """Each bot's wins in each seat position, and each seat's whoever sat there (a shared win split)."""
    results = [
        GameResult(0, 0, [0, 1], [10, 5], [0], [0, 0], [0, 0], 0),  # bot 0 first, wins
        GameResult(1, 1, [1, 0], [10, 5], [0], [0, 0], [0, 0], 0),  # bot 1 first, wins
        GameResult(2, 2, [0, 1], [7, 7], [0, 1], [0, 0], [0, 0], 0),  # a shared win
        GameResult(3, 3, [1, 0], [4, 9], [1], [0, 0], [0, 0], 0),  # bot 0 second, wins
    ]
    per_bot, overall = by_seat(results, 2, 2)
    assert per_bot[0] == [[2, 1.5], [2, 1.0]]
    assert per_bot[1] == [[2, 1.0], [2, 0.5]]
    assert overall == [2.5, 1.5]
    three = [GameResult(0, 0, [0, 1, 0], [1, 2, 3], [2], [0] * 3, [0] * 3, 0)]  # a bot in two seats
    per_bot, overall = by_seat(three, 2, 3)
    assert per_bot[0] == [[1, 0.0], [0, 0.0], [1, 1.0]] and per_bot[1] == [[0, 0.0], [1, 0.0], [0, 0.0]]
    assert overall == [0.0, 0.0, 1.0]


def test_by_seat_in_the_summary_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _run_json(capsys, "--map", "new_york", "--players", "3", "--bots", "greedy,random",
                        "--games", "6", "--seed", "5")
    for row in summary["standings"]:
        seats = row["by_seat"]
        assert len(seats) == 3
        assert sum(s["seats_played"] for s in seats) == row["seats_played"]
        assert sum(s["wins"] for s in seats) == pytest.approx(row["wins"])
        for s in seats:
            assert s["win_rate"] == (pytest.approx(s["wins"] / s["seats_played"]) if s["seats_played"] else None)
    counted = [0.0, 0.0, 0.0]
    for r in summary["results"]:
        for seat in r["winners"]:
            counted[seat] += 1 / len(r["winners"])
    assert [s["wins"] for s in summary["by_seat"]] == pytest.approx(counted)
    assert all(s["seats_played"] == 6 for s in summary["by_seat"])
    assert main(["tournament", "--map", "new_york", "--players", "2", "--bots", "greedy,random", "--games", "4",
                 "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "win rate by seat (seat 1 moves first)" in out
    greedy_row = next(line for line in out.splitlines() if "greedy" in line and " of 2" in line)
    assert greedy_row.count("100.0% of 2") == 2  # greedy beats random from either seat
    assert re.search(r"any bot .*50\.0% of 4 .*50\.0% of 4", out)
    assert "Elo difference" not in out  # two bots: the standings' intervals say it


def test_elo_differences_in_the_summary_and_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    summary = _run_json(capsys, "--map", "new_york", "--players", "2", "--bots", "greedy,random,random",
                        "--games", "12", "--seed", "5")
    ratings = {row["bot"]: row["elo"] for row in summary["standings"]}
    differences = summary["elo_differences"]
    for a, row in differences.items():
        for b, cell in row.items():
            assert cell["difference"] == pytest.approx(ratings[a] - ratings[b], abs=0.11)
            assert cell["ci95"][0] < cell["difference"] < cell["ci95"][1]
            assert differences[b][a]["difference"] == pytest.approx(-cell["difference"])
    assert main(["tournament", "--map", "new_york", "--players", "2", "--bots", "greedy,random,random",
                 "--games", "12", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Elo difference, row minus column" in out
    greedy = summary["standings"][0]["bot"]
    cell = differences[greedy][summary["standings"][1]["bot"]]
    assert f"{cell['difference']:+.0f} ({cell['ci95'][0]:+.0f} to {cell['ci95'][1]:+.0f})" in out


def test_line_progress_reports_each_tenth_and_the_time_left() -> None:
    """Without a terminal the progress is a line per tenth of the games; a resumed run's estimate of the
    time left counts only the games it played itself."""
    console = Console(file=io.StringIO(), width=120)
    progress = LineProgress(console)
    task = progress.add_task("games", total=20)
    for _ in range(5):
        progress.advance(task)
    lines = console.file.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == ["games 2/20 (10%)", "games 4/20 (20%)"]
    assert all("left" in line for line in lines)
    progress.reset(task, total=20, completed=14)  # 14 done by an earlier run
    progress.update(task, completed=15)  # still the same tenth (the 7th): no line
    progress.update(task, completed=20)
    lines = console.file.getvalue().splitlines()
    assert len(lines) == 3 and lines[-1].startswith("games 20/20 (100%), ") and "left" not in lines[-1]
