"""`ttr report A B`: differences with intervals and tests, the multiple-comparison flag, paired runs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.main import main
from ttr.engine import Game
from ttr.maps import load_map, parse_map
from ttr.sim.compare import are_paired
from ttr.sim.report import compare_results, comparison, difference_table, load_results
from ttr.sim.rows import write_table
from ttr.sim.simulate import SETTINGS

pytest.importorskip("scipy", reason="the comparison needs scipy (ttr[sim])")

GAMES = 300


def _row(game: int, seat: int, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game, "seed": game, "players": 2, "seat": seat, "bot": "greedy", "score": 0,
                           "route_points": 0, "ticket_points": 0, "station_points": 0, "express_bonus": 0,
                           "attractions": 0, "longest_path": 0, "tickets_completed": 2, "tickets_failed": 1,
                           "tickets_completed_names": "", "tickets_failed_names": "", "routes_claimed": 0,
                           "trains_used": 0, "route_ids": "", "contested_routes": "", "stations_built": 0,
                           "borrowed_routes": "", "turns": 60, "actions": 120, "winner": False, "win_share": 0.0}
    row.update(kw)
    return row


def synthetic(folder: Path, *, seed: int, first_wins: float, score_shift: float = 0.0,
              noise_seed: int | None = None, sim_seed: int = 1, games: int = GAMES) -> Path:
    """A 2-seat run: seat 1 wins with probability `first_wins`; scores N(100, 20) drawn from `seed` (the same
    `seed` gives the same base scores: a paired run), plus `score_shift` and, with `noise_seed`, N(0, 1)."""
    base = random.Random(seed)
    noise = random.Random(noise_seed) if noise_seed is not None else None
    rows = []
    for g in range(games):
        first = base.random() < first_wins
        scores = [base.gauss(100, 20), base.gauss(100, 20)]
        turns = base.randint(50, 70)
        route = "0" if base.random() < 0.5 else ""
        for s in (0, 1):
            shift = score_shift + (noise.gauss(0, 1) if noise else 0.0)
            won = first == (s == 0)
            rows.append(_row(g, s, score=round(scores[s] + shift), winner=won, win_share=1.0 if won else 0.0,
                             turns=turns, route_ids=route if s == 0 else ""))
    folder.mkdir(parents=True)
    write_table(rows, folder / "games.csv", "csv")
    settings = {"format": "ttr-simulation/1", "map": "europe", "map_json": None, "players": 2, "bots": ["greedy"],
                "seed": sim_seed, "time_per_move": 1.0, "table_format": "csv"}
    (folder / SETTINGS).write_text(json.dumps({"settings": settings, "labels": ["greedy"], "games_done": games}))
    return folder


def by_figure(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["figure"]: d for d in result["differences"]}


def test_a_planted_difference_is_flagged(tmp_path: Path) -> None:
    a = synthetic(tmp_path / "a", seed=1, first_wins=0.5, sim_seed=1)
    b = synthetic(tmp_path / "b", seed=2, first_wins=0.75, sim_seed=2)
    result = comparison([a, b])
    assert result["paired"] is False
    seat1 = by_figure(result)["win rate, seat 1"]
    assert seat1["real"] and seat1["p_adjusted"] < 0.001
    assert seat1["low"] < seat1["difference"] < seat1["high"]
    assert 0.15 < seat1["difference"] < 0.35 and seat1["low"] > 0  # planted: +25 percentage points
    assert by_figure(result)["win rate, seat 2"]["real"]
    assert "first-player advantage (seat 1 win rate - 1/players)" in result["real"]
    for unplanted in ("mean score, all seats", "turns per game", "ticket completion, greedy"):
        assert not by_figure(result)[unplanted]["real"]


def test_no_difference_flags_nothing(tmp_path: Path) -> None:
    a = synthetic(tmp_path / "a", seed=3, first_wins=0.5, sim_seed=1)
    b = synthetic(tmp_path / "b", seed=4, first_wins=0.5, sim_seed=2)
    result = comparison([a, b])
    assert result["real"] == []
    assert all(d["p_adjusted"] >= d["p"] for d in result["differences"])
    seat1 = by_figure(result)["win rate, seat 1"]
    assert seat1["low"] < 0 < seat1["high"]


def test_paired_runs_use_paired_tests(tmp_path: Path) -> None:
    """B is A's games with 2 points more per seat (and a little noise): the paired test finds it, Welch's cannot."""
    a = synthetic(tmp_path / "a", seed=5, first_wins=0.5)
    b = synthetic(tmp_path / "b", seed=5, first_wins=0.5, score_shift=2, noise_seed=9)
    paired = comparison([a, b])
    assert paired["paired"] is True
    score = by_figure(paired)["mean score, all seats"]
    assert score["real"] and 1.5 < score["low"] < 2 < score["high"] < 2.5
    assert score["games_a"] == score["games_b"] == GAMES
    # the same rows with a different seed recorded: not paired, Welch's test, the 2 points lost in the spread
    c = synthetic(tmp_path / "c", seed=5, first_wins=0.5, score_shift=2, noise_seed=9, sim_seed=7)
    unpaired = comparison([a, c])
    assert unpaired["paired"] is False
    assert not by_figure(unpaired)["mean score, all seats"]["real"]
    assert by_figure(unpaired)["route claimed, Amsterdam-Bruxelles"]["difference"] == 0


def test_report_page_and_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = synthetic(tmp_path / "a", seed=1, first_wins=0.5, sim_seed=1, games=40)
    b = synthetic(tmp_path / "b", seed=2, first_wins=0.95, sim_seed=2, games=40)
    table = difference_table(*compare_results(load_results(a), load_results(b)))  # build_report's section
    assert "Welch" in table and "<td>win rate, seat 1</td>" in table and "<td><b>yes</b></td>" in table
    assert main(["report", str(a), str(b), "--json"]) == 0
    assert "win rate, seat 1" in json.loads(capsys.readouterr().out)["real"]
    assert main(["report", str(a), "--json"]) != 0
    assert "two" in capsys.readouterr().err


def test_same_seed_same_deals_on_a_rule_variant() -> None:
    data = json.loads(json.dumps(load_map("europe").to_json()))
    data["rules"]["route_points"]["8"] = 30
    variant = parse_map(data, where="variant")
    for seed in range(5):
        one, two = Game.new(load_map("europe"), 3, seed=seed), Game.new(variant, 3, seed=seed)
        assert one.hands == two.hands and one.face_up == two.face_up


def test_paired_with_plays_the_same_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(json.dumps(load_map("europe").to_json()))
    data["rules"]["longest_path_bonus"] = 0
    variant = tmp_path / "variant.json"
    variant.write_text(json.dumps(data), encoding="utf-8")
    base, other = tmp_path / "base", tmp_path / "other"
    assert main(["simulate", "--map", "europe", "--players", "2", "--bots", "greedy", "--games", "4", "--seed", "3",
                 "--jobs", "1", "--out", str(base), "--format", "csv"]) == 0
    assert main(["simulate", "--map", str(variant), "--paired-with", str(base), "--jobs", "1", "--out", str(other),
                 "--format", "csv"]) == 0
    saved = json.loads((other / SETTINGS).read_text())
    assert (saved["settings"]["seed"], saved["settings"]["players"], saved["games_done"]) == (3, 2, 4)
    assert are_paired(json.loads((base / SETTINGS).read_text())["settings"], saved["settings"])
    capsys.readouterr()
    assert main(["report", str(base), str(other), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["paired"] is True
    # no longest-path bonus in B: the mean score falls (exactly 10 per game in which one seat took it, or more)
    assert by_figure(result)["mean score, all seats"]["difference"] < 0
    assert main(["simulate", "--map", str(variant), "--paired-with", str(base), "--seed", "4", "--out",
                 str(tmp_path / "x")]) != 0
    assert "differs" in capsys.readouterr().err
