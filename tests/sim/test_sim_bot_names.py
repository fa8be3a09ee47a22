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
               for spec in ["mcts:expert", "mcts:hard", "hard", "mcts:37"]}
    assert budgets == {"mcts:expert": 1500, "mcts:hard": 300, "hard": 300, "mcts:37": 37}


@pytest.mark.parametrize("spec", ["mcts:", "mcts:fast", "mcts:0", "mcts:-3", "mcts:1.5"])
def test_bad_mcts_specs_are_refused_by_name(spec: str) -> None:
    with pytest.raises(ValueError, match=r"level .*easy.*positive number"):
        make_bot(spec, load_map("europe"), 0, 0)
