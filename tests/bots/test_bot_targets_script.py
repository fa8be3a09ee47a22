"""`scripts/bot_targets.py`: the bots issue's targets, each measured by a tournament and judged."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from ttr.sim.tournament import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_targets", ROOT / "scripts" / "bot_targets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_targets"] = module
    spec.loader.exec_module(module)
    return module


def test_every_target_of_the_issue_is_listed_once(script: ModuleType) -> None:
    targets = script.targets()
    names = [t.name for t in targets]
    assert len(names) == len(set(names)) == 17
    paper = [t for t in targets if t.name.startswith("greedy-") and "random" not in t.name]
    assert len(paper) == 8 and all(t.threshold == 0.70 and t.bots[0] == "greedy" for t in paper)
    search = [t for t in targets if t.name.startswith("mcts-")]
    assert all(t.games >= 100 and t.bots[0] == "mcts" for t in search)  # the issue: at least 100 games
    assert {(t.players, t.threshold) for t in search if t.measure == "win_rate"} == {(2, 0.75), (4, 0.40)}
    assert sum(t.games for t in targets if t.measure == "finished") == 10_000


def test_the_mean_winning_score_counts_shared_wins(script: ModuleType) -> None:
    summary: dict[str, Any] = {"results": [
        {"seats": ["mcts", "greedy"], "scores": [120, 90], "winners": [0]},
        {"seats": ["greedy", "mcts"], "scores": [100, 100], "winners": [0, 1]},
        {"seats": ["greedy", "mcts"], "scores": [130, 95], "winners": [0]},
    ]}
    assert script.mean_winning_score(summary, "mcts") == (110.0, 2)
    assert script.mean_winning_score(summary, "nobody") == (0.0, 0)


def test_a_short_run_reports_the_tournaments_figures_and_is_not_called_met(
        script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert script.main(["--only", "greedy-random-new_york,greedy-route_focus-new", "--scale", "0.002",
                        "--json", "--seed", "3"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["target"] for r in rows] == ["greedy-random-new_york", "greedy-route_focus-new_york"]
    target = next(t for t in script.targets() if t.name == "greedy-route_focus-new_york")
    summary = run_tournament(TournamentConfig("new_york", 2, ("greedy", "route_focus"), 20,
                                              seed=3 + target.seed_offset))
    assert rows[1]["games"] == 20 and rows[1]["value"] == summary["standings"][0]["win_rate"]
    assert all(r["short"] and not r["met"] for r in rows)  # fewer games than the issue asks


def test_a_tournament_that_stops_is_a_target_missed(script: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def stops(config: TournamentConfig) -> dict[str, Any]:
        raise RuntimeError("seat 1 played an illegal move")

    monkeypatch.setattr(script, "run_tournament", stops)
    assert script.main(["--only", "no-crash-new_york", "--scale", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "stopped: seat 1 played an illegal move" in out and out.rstrip().endswith("short")


def test_bad_options_are_refused_by_name(script: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in ((["--only", "nothing"], "names no target"), (["--scale", "0"], "--scale must be"),
                          (["--jobs", "0"], "--jobs must be")):
        with pytest.raises(SystemExit):
            script.main(argv)
        assert message in capsys.readouterr().err


def _bot_results() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_results", ROOT / "scripts" / "bot_results.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_results"] = module
    spec.loader.exec_module(module)
    return module


def test_a_saved_run_names_its_commit_and_build_and_its_table_is_generated(
        script: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert script.main(["--only", "greedy-random-new_york,greedy-random-europe", "--scale", "0.01",
                        "--seed", "5", "--save", str(first)]) == 0
    assert script.main(["--only", "greedy-random-europe", "--scale", "0.02", "--seed", "6",
                        "--save", str(second)]) == 0
    capsys.readouterr()
    run = json.loads(first.read_text(encoding="utf-8"))
    assert run["format"] == "ttr-bot-targets/1" and run["build"] == script.build()
    assert run["build"] in ("pure Python", "compiled") and run["commit"]
    assert run["command"].endswith("--save " + str(first))
    assert [r["target"] for r in run["rows"]] == ["greedy-random-europe", "greedy-random-new_york"]
    results = _bot_results()
    page = results.render(results.load_runs([first, second]))
    rows = [line for line in page.splitlines() if line.startswith("| greedy beats random")]
    europe, new_york = rows  # one row a target, in the order first measured: the later run's Europe row
    assert "europe" in europe and europe.split(" | ")[1] == "4" and europe.endswith("| short | 2 |")
    assert "new_york" in new_york and new_york.split(" | ")[1] == "2" and new_york.endswith("| 1 |")
    assert f"1. commit `{run['commit']}`, {run['build']} build" in page
    assert results.main([str(first), "--out", str(tmp_path / "page.md")]) == 0
    assert (tmp_path / "page.md").read_text(encoding="utf-8") == results.render(results.load_runs([first]))


def test_the_kept_results_page_is_the_one_generated_from_the_kept_runs() -> None:
    results = _bot_results()
    runs = results.load_runs([ROOT / "docs" / "bot-results.json"])
    expected = results.render(runs)
    assert (ROOT / "docs" / "bot-results.md").read_text(encoding="utf-8") == expected, (
        "run scripts/bot_results.py docs/bot-results.json --out docs/bot-results.md")
    assert {row["target"] for run in runs for row in run["rows"]} == {t.name for t in _targets()}


def _targets() -> list[Any]:
    spec = importlib.util.spec_from_file_location("bot_targets_for_results", ROOT / "scripts" / "bot_targets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_targets_for_results"] = module
    spec.loader.exec_module(module)
    return list(module.targets())


def test_a_file_that_is_not_a_run_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = _bot_results()
    for name, text, message in (("other.json", '{"format": "ttr-record/1"}', "not a ttr-bot-targets/1 run"),
                                ("rowless.json", '{"format": "ttr-bot-targets/1", "rows": [{"target": "x"}]}',
                                 "a row lacks text"),
                                ("broken.json", "{", "broken.json")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(SystemExit):
            results.main([str(tmp_path / name)])
        assert message in capsys.readouterr().err
