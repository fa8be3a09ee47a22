"""`research/knob_sweep.py`: greedy with knobs laid over its own, the configs it sweeps, and whole runs that
give the same figures from the same seed."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_module
from ttr.bots.params import PRESETS
from ttr.bots.profiles import profile_of


def load_script() -> ModuleType:
    return load_module("research/knob_sweep.py", "knob_sweep")


def test_a_config_is_laid_over_the_bots_own_knobs_and_an_unknown_knob_is_named() -> None:
    script = load_script()
    bot = script.tuned("greedy", {"overhead": 1.3, "draws_tickets": False}, "new_york", 0, 1, players=4)
    assert bot.preset == "greedy"
    assert (bot.params.overhead, bot.params.draws_tickets) == (1.3, False)
    assert bot.params.points_weight == PRESETS["greedy"].points_weight  # knobs not in the config are greedy's own
    long = script.tuned("greedy_long", {"overhead": 0.0}, "new_york", 0, 1)
    assert long.preset == "greedy_long"
    fitted = profile_of("new_york", 2).params("greedy_long")
    assert (long.params.overhead, long.params.points_weight) == (0.0, fitted.points_weight)
    assert long.params.attraction_cost == fitted.attraction_cost  # its New York values stay
    assert script.tuned("greedy_long", {}, "europe", 0, 1).params.attraction_cost == PRESETS["greedy"].attraction_cost
    with pytest.raises(ValueError, match="no_such_knob"):
        script.tuned("greedy", {"no_such_knob": 1}, "europe", 0, 1)
    with pytest.raises(ValueError, match="has no knobs"):
        script.tuned("route_focus", {}, "europe", 0, 1)


def test_neighbours_move_one_knob_one_step_and_random_configs_come_from_the_space() -> None:
    script = load_script()
    base = {"overhead": 0.8, "long_min": 1}
    neighbours = script.configs(base, 0, True, 0)
    assert neighbours[0] == base
    def knob(config: Mapping[str, object], k: str) -> object:
        return config.get(k, getattr(PRESETS["greedy"], k))

    for config in neighbours[1:]:
        changed = [k for k in script.SPACE if knob(config, k) != knob(base, k)]
        assert len(changed) == 1
    assert {"overhead": 0.6, "long_min": 1} in neighbours and {"overhead": 1.0, "long_min": 1} in neighbours
    assert {"overhead": 0.8, "long_min": 2} in neighbours
    assert not any(c.get("long_min") == 0 for c in neighbours)  # no step below the space's first value
    own = {"points_weight": PRESETS["greedy_long"].points_weight}
    long = script.configs({}, 0, True, 0, own)  # from the bot's own values
    assert {"points_weight": 0.7} in long and {"points_weight": 1.1} in long
    drawn = script.configs({}, 5, False, 7)
    assert len(drawn) == 6 and drawn == script.configs({}, 5, False, 7)
    assert all(c[k] in script.SPACE[k] for c in drawn[1:] for k in c)


def test_each_map_sweeps_only_the_knobs_it_can_use() -> None:
    """New York has no longest-path bonus, tunnels, ferries or stations, Europe no tourist attractions: their
    knobs would change nothing there. A config drawn for a map has only the map's knobs."""
    script = load_script()
    from ttr.maps import load_map

    new_york, europe = script.space_for(load_map("new_york")), script.space_for(load_map("europe"))
    assert set(script.SPACE) - set(new_york) == {"express_weight", "tunnel_penalty", "ferry_penalty", "borrow_cost"}
    assert set(script.SPACE) - set(europe) == {"attraction_cost"}
    drawn = script.configs({}, 3, False, 7, None, new_york)
    assert all(set(c) == set(new_york) for c in drawn[1:])
    full = script.configs({}, 3, False, 7)  # the same draws as over the whole space: old seeds still hold
    assert drawn[1:] == [{k: v for k, v in c.items() if k in new_york} for c in full[1:]]
    moved = {k for c in script.configs({}, 0, True, 0, None, europe)[1:] for k in c}
    assert moved == set(europe)


def test_a_run_prints_a_line_per_config_and_the_same_seed_gives_the_same_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    out = tmp_path / "sweep.jsonl"
    argv = ["new_york", "--against", "random,route_focus", "--configs", "1", "--games", "4", "--seed", "3"]
    assert script.main([*argv, "--out", str(out)]) == 0
    first = capsys.readouterr().out.splitlines()
    assert len(first) == 2 and all(line.startswith("lowest paper ") for line in first)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [set(r["rates"]) for r in rows] == [{"random", "route_focus"}] * 2
    assert rows[0]["knobs"] == {} and rows[0]["lowest_paper"] == rows[0]["rates"]["route_focus"]
    assert all(0.0 <= rate <= 1.0 for r in rows for rate in r["rates"].values())
    assert rows[0]["rates"]["random"] == 1.0  # greedy beats random in every one of the 4 deals
    assert script.main(argv) == 0
    assert capsys.readouterr().out.splitlines() == first


def test_with_more_players_the_config_takes_one_seat_in_turn_and_the_opponent_every_other(
        monkeypatch: pytest.MonkeyPatch) -> None:
    script = load_script()
    seated: list[list[str]] = []
    real_play = script.play_game

    def spy(game_map: object, bots: list[object], seed: int) -> object:
        seated.append([type(bot).__name__ for bot in bots])
        return real_play(game_map, bots, seed)

    monkeypatch.setattr(script, "play_game", spy)
    shares = [script.one_game(("europe", "greedy", {"overhead": 0.4}, "random", seed, 4)) for seed in (8, 9, 10, 11)]
    assert shares == [1.0] * 4  # greedy beats three random seats
    assert [row.index("GreedyBot") for row in seated] == [0, 1, 2, 3]
    assert all(len(row) == 4 and row.count("RandomBot") == 3 for row in seated)


def test_any_bot_the_tournament_names_can_be_an_opponent_a_search_or_a_program(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    example = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"
    program = f"cmd:{shlex.quote(sys.executable)} {shlex.quote(str(example))}"
    out = tmp_path / "sweep.jsonl"
    argv = ["new_york", "--against", f"mcts:3,{program}", "--configs", "0", "--games", "2", "--out", str(out)]
    assert script.main(argv) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 1 and list(rows[0]["rates"]) == ["mcts:3", program]
    assert rows[0]["lowest_paper"] is None  # no paper agent among the opponents
    assert all(rate in (0.0, 0.25, 0.5, 0.75, 1.0) for rate in rows[0]["rates"].values())  # 2 games, ties half
    assert capsys.readouterr().out.count("\n") == 1


@pytest.mark.parametrize(("args", "message"), [
    (["new_york", "--base", "{oops"], "--base is not JSON"),
    (["new_york", "--base", "[1]"], "a JSON object"),
    (["new_york", "--base", '{"no_such_knob": 1}'], "no_such_knob"),
    (["new_york", "--against", "nobody"], "unknown bot"),
    (["new_york", "--against", "route_focus,mcts:0"], "--against: mcts:0"),
    (["new_york", "--against", "cmd: "], "cmd: needs a command"),
    (["atlantis"], "unknown map"),
    (["europe", "--bot", "random"], "has no knobs"),
    (["new_york", "--games", "0"], "--games must be at least 1"),
    (["europe", "--players", "6"], "europe is played by 2-5, not 6"),
    (["new_york", "--players", "1"], "new_york is played by 2-4, not 1"),
])
def test_bad_arguments_are_refused_with_the_problem_named(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    with pytest.raises(SystemExit) as stop:
        script.main(["--games", "1", *args])  # a later --games wins
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
