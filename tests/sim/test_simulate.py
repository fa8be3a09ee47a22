"""`ttr simulate` and `ttr.sim.simulate`: rows independent of jobs, resumable after Ctrl-C, custom rule
variants, clear errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import interrupt_after
from ttr.cli.main import main
from ttr.engine import Game, final_score
from ttr.maps import load_map
from ttr.sim.rows import COLUMNS, _turns, game_rows, read_table, ticket_paths
from ttr.sim.simulate import PROGRESS, SettingsMismatchError, load_progress, simulate, table_path
from ttr.sim.tournament import TournamentConfig, play_seated

ROOT = Path(__file__).resolve().parents[2]
EUROPE = ROOT / "src" / "ttr" / "maps" / "europe.json"


def _config(**kw: Any) -> TournamentConfig:
    base: dict[str, Any] = {"map_name": "new_york", "players": 3, "bots": ("random", "greedy"), "games": 6,
                            "seed": 40, "jobs": 1}
    base.update(kw)
    return TournamentConfig(**base)


def _rows(folder: Path, fmt: str = "parquet") -> list[dict[str, Any]]:
    return read_table(table_path(folder, fmt))


def test_rows_do_not_depend_on_the_number_of_jobs(tmp_path: Path) -> None:
    one = tmp_path / "one"
    two = tmp_path / "two"
    assert simulate(_config(jobs=1), one) == 6
    assert simulate(_config(jobs=2), two) == 6
    rows = _rows(one)
    assert rows == _rows(two)
    assert [(r["game"], r["seat"]) for r in rows] == [(g, s) for g in range(6) for s in range(3)]
    assert [r["seed"] for r in rows[::3]] == list(range(40, 46))
    # two bots over three seats, rotated as in a tournament: game g seat s plays bot (g + s) % 2
    assert [r["bot"] for r in rows[:6]] == ["random", "greedy", "random", "greedy", "random", "greedy"]
    assert set(rows[0]) == set(COLUMNS)


def test_a_row_holds_the_games_breakdown(tmp_path: Path) -> None:
    config = _config(map_name="europe", players=4, bots=("greedy", "random"), games=1, seed=3)
    game, entries, _ = play_seated(config, 0)
    rows = game_rows(game, list(config.bots), entries, 0)
    final = final_score(game)
    assert [r["score"] for r in rows] == [p.total for p in final.players]
    for row, p in zip(rows, final.players, strict=True):
        parts = row["route_points"] + row["ticket_points"] + row["station_points"] + row["express_bonus"]
        assert row["score"] == parts + row["attractions"]
        assert row["winner"] == (p.name in final.winners)
        routes = [int(r) for r in row["route_ids"].split()]
        assert routes and all(game.owner[r] == row["seat"] for r in routes)
        assert row["routes_claimed"] == len(routes)
        assert row["trains_used"] == 45 - game.trains[row["seat"]]
        assert set(map(int, row["contested_routes"].split())) <= set(routes)
        assert row["tickets_completed_names"].split(";") == p.tickets_completed or not p.tickets_completed
    assert sum(r["win_share"] for r in rows) == pytest.approx(1.0)
    assert rows[0]["turns"] > 40 and rows[0]["actions"] == len(game.history)
    # the contested list: a route of seat s on another seat's ticket path
    paths = ticket_paths(game.map)
    for row in rows:
        others = set().union(*(paths[t] for s in range(4) if s != row["seat"] for t in game.tickets[s]))
        assert set(map(int, row["contested_routes"].split())) == {int(r) for r in row["route_ids"].split()} & others


def test_ticket_paths_are_shortest_paths() -> None:
    europe = load_map("europe")
    paths = ticket_paths(europe)
    names = {europe.routes[r].name for r in paths[europe.ticket("Athina-Angora").index]}
    assert names == {"Athina-Smyrna", "Angora-Smyrna"}
    assert len(paths) == len(europe.tickets)


def test_ctrl_c_keeps_the_finished_games_and_a_rerun_completes_the_same_table(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [sys.executable, "-m", "ttr.cli.main", "simulate", "--map", "europe", "--players", "4",
            "--bots", "greedy,random", "--games", "16", "--seed", "5", "--jobs", "2", "--out", str(out)]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    for _ in range(3):  # on a loaded machine the workers could finish every game before the SIGINT lands: again
        shutil.rmtree(out, ignore_errors=True)
        returncode, _, err = interrupt_after(args, env, out / PROGRESS)
        if returncode != 0:
            break
    assert returncode == 130, err
    assert "run the same command again to continue" in err
    kept = _rows(out)
    done = sorted({r["game"] for r in kept})
    assert 2 <= len(done) < 16
    assert len(load_progress(out)) == len(done)
    # the rerun plays only the missing games
    rerun = subprocess.run(args, env=env, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({16 - len(done)} played now" in rerun.stdout
    whole = tmp_path / "whole"
    simulate(TournamentConfig("europe", 4, ("greedy", "random"), 16, 5, 1), whole)
    assert _rows(out) == _rows(whole)
    kept_games = {g: [r for r in kept if r["game"] == g] for g in done}
    assert all(kept_games[g] == [r for r in _rows(whole) if r["game"] == g] for g in done)


def test_a_rerun_with_more_games_continues_and_other_settings_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate(_config(games=3), out, "csv")
    assert simulate(_config(games=5), out, "csv") == 5
    whole = tmp_path / "whole"
    simulate(_config(games=5), whole, "csv")
    assert _rows(out, "csv") == _rows(whole, "csv")
    before = (out / PROGRESS).read_text()
    with pytest.raises(SettingsMismatchError, match="seed"):
        simulate(_config(games=5, seed=41), out, "csv")
    assert (out / PROGRESS).read_text() == before


def test_csv_and_parquet_hold_the_same_rows(tmp_path: Path) -> None:
    simulate(_config(games=2), tmp_path / "p", "parquet")
    simulate(_config(games=2), tmp_path / "c", "csv")
    assert _rows(tmp_path / "p") == _rows(tmp_path / "c", "csv")


def test_a_rule_variant_map_file(tmp_path: Path) -> None:
    data = json.loads(EUROPE.read_text(encoding="utf-8"))
    rules = data["rules"]
    rules.update(stations=0, station_costs=[], unbuilt_station_points=0, longest_path_bonus=0)
    rules["route_points"] = {k: 2 * v for k, v in rules["route_points"].items()}
    variant = tmp_path / "europe-variant.json"
    variant.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    code = main(["simulate", "--map", str(variant), "--players", "3", "--bots", "greedy", "--games", "2",
                 "--jobs", "1", "--out", str(out), "--records"])
    assert code == 0
    rows = _rows(out)
    europe = load_map("europe")
    points = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    for row in rows:
        assert row["stations_built"] == 0 and row["station_points"] == 0 and row["express_bonus"] == 0
        lengths = [europe.routes[int(r)].length for r in row["route_ids"].split()]
        assert row["route_points"] == sum(2 * points[n] for n in lengths)
    settings = json.loads((out / "simulation.json").read_text())["settings"]
    assert json.loads(settings["map_json"])["rules"]["stations"] == 0  # workers need no file path
    records = sorted((out / "records").iterdir())
    assert [p.name for p in records] == ["game-00001.json", "game-00002.json"]


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
    (["--bots", "mcts:fast"], "mcts:fast"),
    (["--jobs", "many"], "--jobs: give a number or auto"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--players", "9"], "--players"),
    (["--games", "0"], "--games must be at least 1"),
    (["--map", "atlantis"], "--map"),
])
def test_bad_input_is_refused_by_name_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          args: list[str], message: str) -> None:
    out = tmp_path / "out"
    assert main(["simulate", "--games", "2", "--out", str(out), *args]) == 1
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_settings_mismatch_and_a_file_as_out_via_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    base = ["simulate", "--map", "new_york", "--players", "2", "--bots", "random", "--games", "2", "--jobs", "1"]
    assert main([*base, "--out", str(out)]) == 0
    assert main([*base, "--seed", "9", "--out", str(out)]) == 1
    assert "other settings (seed)" in capsys.readouterr().err
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert main([*base, "--out", str(a_file)]) == 1
    assert "is a file" in capsys.readouterr().err
    assert main([*base, "--out", str(a_file / "sub")]) == 1  # a folder that cannot be made: no traceback
    assert f"--out: cannot write {a_file / 'sub'}" in capsys.readouterr().err


def test_turns_count_turns_not_actions() -> None:
    game = Game.new(load_map("new_york"), 2, seed=1)
    game._history = [(0, 0, ()), (1, 0, ()), (0, 1, ()), (0, 2, ()), (1, 3, ()), (0, 4, ())]
    assert _turns(game) == 3  # setup choices (0, 1), then turns of 0 (two actions), 1, 0


def test_a_second_run_into_the_same_folder_at_the_same_time_is_refused(tmp_path: Path) -> None:
    from ttr.sim.simulate import _lock

    out = tmp_path / "out"
    simulate(_config(games=1), out)
    held = _lock(out)
    try:
        with pytest.raises(SettingsMismatchError, match="another ttr simulate is writing"):
            simulate(_config(games=2), out)
    finally:
        held.close()
    assert simulate(_config(games=2), out) == 2


def test_without_pyarrow_the_table_is_csv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import ttr.sim.rows

    monkeypatch.setattr(ttr.sim.rows, "have_pyarrow", lambda: False)
    out = tmp_path / "out"
    base = ["simulate", "--map", "new_york", "--players", "2", "--bots", "random", "--games", "2", "--jobs", "1"]
    assert main([*base, "--out", str(out)]) == 0
    assert (out / "games.csv").is_file() and not (out / "games.parquet").exists()
    assert main([*base, "--format", "parquet", "--out", str(tmp_path / "other")]) == 1
    assert "--format parquet needs pyarrow" in capsys.readouterr().err
