"""The league: the file round-trips, a new agent is rated on paired deals, `ttr league add` and `show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from ttr.cli.main import main
from ttr.sim.league import Agent, League, add_agent, load_league, play_match, ranks, save_league
from ttr.sim.tournament import GameResult


def result(scores: list[int], winners: list[int]) -> GameResult:
    return GameResult(game=0, seed=0, entries=list(range(len(scores))), scores=scores, winners=winners,
                      tickets_completed=[0] * len(scores), tickets_failed=[0] * len(scores), actions=0)


def test_the_league_file_round_trips(tmp_path: Path) -> None:
    league = League("new_york", 3, agents=[Agent("g", "greedy", 27.5, 4.25, 12, 7.5),
                                           Agent("p", "policy:x.npz", 21.0, 6.0, 12, 2.0)],
                    matches=[{"agent": "p", "opponent": "g", "deals": 6, "seed": 3, "games": 12, "agent_wins": 2.0,
                              "opponent_wins": 10.0}])
    path = tmp_path / "league.json"
    save_league(league, path)
    back = load_league(path)
    assert back == league
    assert back.to_json() == json.loads(path.read_text())
    save_league(back, tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text() == path.read_text()
    assert [row["name"] for row in league.table()] == ["g", "p"]  # by mu - 3 sigma
    assert league.table()[0]["ci95"] == pytest.approx([27.5 - 1.96 * 4.25, 27.5 + 1.96 * 4.25])


@pytest.mark.parametrize("change,message", [
    (lambda d: d.update(format="other"), "not a league file"),
    (lambda d: d["model"].update(name="TrueSkill"), "unknown rating model"),
    (lambda d: d["agents"].append(dict(d["agents"][0])), "listed twice"),
    (lambda d: d["agents"][0].pop("mu"), "missing or malformed field"),
    (lambda d: d["agents"][0].update(sigma=-1), "no valid rating"),
])
def test_a_broken_league_file_is_refused_by_name(tmp_path: Path, change: object, message: str) -> None:
    data = League("europe", 2, agents=[Agent("a", "random", 25.0, 8.0)]).to_json()
    change(data)  # type: ignore[operator]
    path = tmp_path / "league.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message):
        load_league(path)


def test_a_game_ranks_winners_first_then_by_score() -> None:
    assert ranks(result([40, 55, 40, 30], [1])) == [1, 0, 1, 2]
    assert ranks(result([50, 50, 20], [0, 1])) == [0, 0, 1]


def test_a_match_is_played_on_paired_deals() -> None:
    league = League("new_york", 2)
    a, b = Agent("a", "random", 25.0, 8.0), Agent("b", "greedy", 25.0, 8.0)
    games = play_match(league, a, b, deals=2, seed=5)
    assert [r.seed for r, _ in games] == [5, 5, 6, 6]
    for (first, seats1), (second, seats2) in zip(games[::2], games[1::2], strict=True):
        assert [s.name for s in seats1] == [s.name for s in reversed(seats2)]  # the same deal, seats turned
        assert first.seed == second.seed


def test_a_new_agent_is_rated_against_the_pool_and_the_league_stays_as_it_was_on_error() -> None:
    league = League("new_york", 2)
    add_agent(league, "random", "random")
    assert league.agents[0].games == 0 and not league.matches  # nobody to play yet
    add_agent(league, "greedy", "greedy", deals=3)
    random, greedy = league.agents
    assert random.games == greedy.games == 6
    assert greedy.wins + random.wins == 6
    assert league.matches == [{"agent": "greedy", "opponent": "random", "deals": 3, "seed": 0, "games": 6,
                               "agent_wins": greedy.wins, "opponent_wins": random.wins}]
    assert greedy.mu > 25.0 > random.mu and greedy.sigma < 25.0 / 3
    before = league.to_json()
    with pytest.raises(ValueError, match="already has an agent called 'greedy'"):
        add_agent(league, "greedy", "random")
    with pytest.raises(ValueError, match="unknown bot"):
        add_agent(league, "nobody", "no_such_bot")
    assert league.to_json() == before
    again = League("new_york", 2)
    add_agent(again, "random", "random")
    add_agent(again, "greedy", "greedy", deals=3)
    assert again == league  # the same deals give the same ratings


def test_ttr_league_add_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "league.json")
    assert main(["league", "add", "random", "best=greedy", "--map", "new_york", "--deals", "1", "--league", path,
                 "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [row["name"] for row in shown["agents"]] == ["best", "random"]
    assert main(["league", "show", "--league", path]) == 0
    out = capsys.readouterr().out
    assert "best (greedy)" in out and "random" in out
    before = Path(path).read_text()
    assert main(["league", "add", "random", "--map", "europe", "--league", path]) == 1
    assert "is a league of new_york" in capsys.readouterr().err
    assert main(["league", "add", "best=random", "--deals", "1", "--league", path]) == 1
    assert "already has an agent called 'best'" in capsys.readouterr().err
    assert Path(path).read_text() == before
    assert main(["league", "show", "--league", str(tmp_path / "none.json")]) == 1
    assert "no league file" in capsys.readouterr().err
