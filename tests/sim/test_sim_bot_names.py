"""`mcts:LEVEL` and `mcts:N` bot names (as `ttr simulate --bots greedy,mcts:easy` uses them)."""

from __future__ import annotations

import pytest

from ttr.bots import MCTS_LEVELS, make_bot
from ttr.bots.mcts import MctsBot
from ttr.maps import load_map


def test_mcts_levels_and_iteration_counts() -> None:
    europe = load_map("europe")
    easy = make_bot("mcts:easy", europe, 1, 5)
    assert isinstance(easy, MctsBot)
    assert easy.config.iterations == MCTS_LEVELS["easy"] == 4
    assert easy.config.time_limit is None  # a playout budget only: the same seed gives the same game
    budgets = {spec: getattr(getattr(make_bot(spec, europe, 0, 5), "config", None), "iterations", None)
               for spec in ["mcts:expert", "mcts:hard", "expert", "mcts:37"]}
    assert budgets == {"mcts:expert": 1500, "mcts:hard": 300, "expert": None, "mcts:37": 37}


@pytest.mark.parametrize("spec", ["mcts:", "mcts:fast", "mcts:0", "mcts:-3", "mcts:1.5"])
def test_bad_mcts_specs_are_refused_by_name(spec: str) -> None:
    with pytest.raises(ValueError, match=r"level .*easy.*positive number"):
        make_bot(spec, load_map("europe"), 0, 0)


def test_the_levels_people_play_are_the_ladder_of_bots() -> None:
    """easy, medium, hard, expert: each measured to beat the one below (docs/bots.md, "Difficulty levels")."""
    from ttr.bots.greedy import GreedyBot
    from ttr.bots.levels import FittedGuide
    from ttr.bots.mcts import MctsExpert
    from ttr.bots.paper import LongRouteJunkie
    from ttr.bots.profiles import profile_of

    europe = load_map("europe")
    bots = {level: make_bot(level, europe, 0, 5) for level in ("easy", "medium", "hard", "expert")}
    assert {level: type(bot) for level, bot in bots.items()} == {
        "easy": LongRouteJunkie, "medium": GreedyBot, "hard": FittedGuide, "expert": MctsExpert}
    expert = bots["expert"]
    assert isinstance(expert, MctsExpert)
    fitted = profile_of("europe", 4).search.playout_actions
    assert expert.budget_for(4) == (None, fitted)  # a count: the same on every build


@pytest.mark.parametrize(("spec", "seconds"), [("mcts:2s", 2.0), ("mcts:0.25s", 0.25), ("mcts:.1s", 0.1)])
def test_mcts_seconds_per_decision(spec: str, seconds: float) -> None:
    bot = make_bot(spec, load_map("new_york"), 0, 5)
    assert isinstance(bot, MctsBot)
    assert (bot.config.time_limit, bot.config.iterations) == (seconds, None)


def test_a_seconds_budget_searches_and_plays_a_legal_move() -> None:
    from ttr.engine import Game, SeatView

    game_map = load_map("new_york")
    game = Game.new(game_map, ["a", "b"], seed=4)
    while game.phase_name != "main":  # both seats keep their tickets first
        game.apply(game.legal_actions()[0])
    bot = make_bot("mcts:0.05s", game_map, game.current, 4)
    legal = game.legal_actions()
    action = bot.choose(SeatView.of(game, game.current), legal)
    assert action in legal
    assert isinstance(bot, MctsBot) and bot.last_iterations >= 2  # at least one world for two candidates


@pytest.mark.parametrize("spec", ["mcts:0s", "mcts:-1s", "mcts:nans", "mcts:infs", "mcts:1e3s", "mcts:601s",
                                  "mcts:s", "mcts: 2s", "mcts:2ss", "mcts:1_0s"])
def test_bad_mcts_seconds_are_refused_by_name(spec: str) -> None:
    with pytest.raises(ValueError, match=r"seconds per decision such as 0\.5s") as error:
        make_bot(spec, load_map("europe"), 0, 0)
    assert spec in str(error.value)
