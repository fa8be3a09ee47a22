"""The views the server sends say when the final round has begun and how many turns are left (E-END-1)."""

from __future__ import annotations

import random

from ttr.engine import Game
from ttr.maps import load_map
from ttr.server.views import view_for


def test_final_turns_counts_down_from_the_trigger_to_the_end() -> None:
    game = Game.new(load_map("europe"), ["Ana", "Ben", "Chen"], seed=11)
    rng = random.Random(11)
    seen: list[int] = []
    turn_of = game.current
    while not game.is_over:
        views = [view_for(game, seat) for seat in (0, 1, 2, None)]
        left = {v["final_turns"] for v in views}
        assert len(left) == 1  # every seat and a spectator are told the same
        (n,) = left
        if min(game.trains) > game.map.rules.end_trigger_pieces:
            assert n is None  # nobody is down to the trigger yet
        else:
            assert n is not None and 1 <= n <= 3
            if not seen or game.current != turn_of:
                seen.append(n)
        turn_of = game.current
        game.apply(rng.choice(game.legal_actions()))
    assert seen == [3, 2, 1]  # one last turn each, the trigger's seat included
    assert view_for(game, 0)["final_turns"] is None
