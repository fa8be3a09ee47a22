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
    assert easy.iterations == MCTS_LEVELS["easy"] == 4
    assert easy.time_limit is None  # a playout budget only: the same seed gives the same game
    budgets = {spec: getattr(make_bot(spec, europe, 0, 5), "iterations", None)
               for spec in ["mcts:expert", "mcts:hard", "expert", "mcts:37"]}
    assert budgets == {"mcts:expert": 1500, "mcts:hard": 300, "expert": 1500, "mcts:37": 37}


@pytest.mark.parametrize("spec", ["mcts:", "mcts:fast", "mcts:0", "mcts:-3", "mcts:1.5"])
def test_bad_mcts_specs_are_refused_by_name(spec: str) -> None:
    with pytest.raises(ValueError, match=r"level .*easy.*positive number"):
        make_bot(spec, load_map("europe"), 0, 0)


def test_the_levels_people_play_are_the_ladder_of_bots() -> None:
    """easy, medium, hard, expert: each measured to beat the one below (docs/bots.md, "Difficulty levels")."""
    from ttr.bots.greedy import GreedyBot
    from ttr.bots.mcts import MctsExpert
    from ttr.bots.paper import LongRouteJunkie
    from ttr.bots.styles import GreedyLong

    europe = load_map("europe")
    bots = {level: make_bot(level, europe, 0, 5) for level in ("easy", "medium", "hard", "expert")}
    assert {level: type(bot) for level, bot in bots.items()} == {
        "easy": LongRouteJunkie, "medium": GreedyBot, "hard": GreedyLong, "expert": MctsExpert}
    assert getattr(bots["expert"], "time_limit", None) == 0.5
