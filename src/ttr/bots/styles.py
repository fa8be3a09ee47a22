"""Variants of `greedy` that `mcts` (`ttr.bots.mcts`) plays for its own seat and compares.

`GreedyLong` is `greedy` valuing a route's points three times as much when it plans its paths (long routes
score far more per train), which alone wins about 57% of two-player games against greedy; `mcts` plays it
for its own seat (its *guide*). Search that always continues with one policy can only find better *moves*
for that policy; continuing with another style instead lets it weigh a different *plan* (end the game fast,
or take more tickets), and play that plan's move when the plan does better on the sampled worlds.
"""

from __future__ import annotations

from typing import ClassVar

from mypy_extensions import mypyc_attr

from ttr.bots.greedy import NEW_YORK_DUEL_KNOBS, GreedyBot
from ttr.maps import GameMap

NEW_YORK_KNOBS = {"attraction_cost": 0.2, "setup_cap": 0.75}  # fitted on two-player games against greedy


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyLong(GreedyBot):
    """`greedy` with `points_weight` 0.9 (greedy: 0.3): a plan runs through long routes, which pay more
    points per train; routes of 3 or more trains cost about one turn each in its path costs.

    In New York (15 taxis) it never draws more tickets, takes at most 11 taxis of tickets at setup and
    counts a tourist attraction for less in its paths: with these it wins 62.5% of two-player games
    against greedy instead of 57%, and 68.3% instead of 65.5% against Route Focus. Taking no face-up wild there
    either, it wins 64.0% instead of 60.7% of 4000 paired two-player deals against greedy, and
    38.2% instead of 34.3% of 2000 four-player ones against three greedy (research/bot-experiments.md). In two-seat
    New York it plays greedy's two-seat knobs there without face-up wilds (`seat_knobs`):
    53.4% of 10000 games against greedy."""

    name = "greedy_long"
    points_weight = 0.9
    map_knobs: ClassVar[dict[str, dict[str, float]]] = {"new_york": {**NEW_YORK_KNOBS, "draws_tickets": False,
                                                                       "face_up_wilds": False}}
    seat_knobs: ClassVar[dict[str, dict[int, dict[str, float]]]] = {
        "new_york": {2: {**NEW_YORK_DUEL_KNOBS, "face_up_wilds": False}}}  # greedy's two-seat knobs, no face-up wild


EUROPE_DUEL_KNOBS = {"overhead": 0.8, "points_weight": 0.75, "tunnel_penalty": 0.8, "ferry_penalty": 3.0,
                     "borrow_cost": 6.0, "train_share": 0.9, "setup_cap": 0.9, "express_weight": 1.5,
                     "hand_weight": 0.3, "long_min": 4, "face_up_wilds": False, "draws_tickets": False}
# No `ticket_draw_mine` or `ticket_draw_others`: it draws no tickets after setup, so those knobs would not apply.


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyLongDuel(GreedyLong):
    """`GreedyLong` with knobs fitted jointly to two-player Europe (`EUROPE_DUEL_KNOBS`): a turn counts for
    more in its paths, the longest trail and the cards in hand too, and it claims routes of 4 or more for points.
    It wins 58.7% of two-player Europe games against greedy where `GreedyLong` wins 55.4%, but only 31.7% of
    four-player ones against three greedy (35.5%), so `mcts` plays it in two-seat Europe games only
    (`MctsBot.seat_styles`; research/bot-experiments.md, "a guide for two-seat Europe"). Taking no face-up wild
    and drawing no tickets after setup, it wins 62.1% instead of 59.5% of 4000 paired deals."""

    name = "greedy_long_duel"
    map_knobs: ClassVar[dict[str, dict[str, float]]] = {**GreedyLong.map_knobs, "europe": EUROPE_DUEL_KNOBS}


EUROPE_FOUR_KNOBS = {"long_min": 4, "ticket_draw_others": 0.45, "face_up_wilds": False}


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyLongFour(GreedyLong):
    """`GreedyLong` with knobs moved for four-player Europe (`EUROPE_FOUR_KNOBS`): it claims routes of 4
    or more for points (not 3), and draws more tickets only while every other seat has 45% of its trains
    (not 35%). Against three greedy seats it wins 34.4% of 2000 four-player Europe games where `GreedyLong`
    wins 32.3% (the same deals: 112 better, 70 worse; +2.1 points, standard error 0.7), and with three and
    five seats it beats `GreedyLong` too (+3.9 and +1.2 points), so `mcts` plays it in Europe games of three
    to five seats (`MctsBot.seat_styles`; research/bot-experiments.md, "a guide for four-seat Europe"). Taking
    no face-up wild, it wins against greedy 35.5% instead of 32.3% of 2000 paired four-player deals, 44.5%
    instead of 42.0% of 2000 three-player ones, and level (27.1%) on 1000 five-player ones."""

    name = "greedy_long_four"
    map_knobs: ClassVar[dict[str, dict[str, float]]] = {**GreedyLong.map_knobs, "europe": EUROPE_FOUR_KNOBS}


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyRush(GreedyLong):
    """Plays as if the end were near from the start: no more tickets, and once its plan is paid for it claims
    the route worth most now, to end the game while it leads."""

    name = "greedy_rush"

    def __init__(self, game_map: GameMap, seat: int, seed: int) -> None:
        super().__init__(game_map, seat, seed)
        self.endgame_trains = self.pieces


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyTickets(GreedyLong):
    """Draws more tickets: whenever its plan is done and it has an eighth of its pieces (others a fifth)."""

    name = "greedy_tickets"
    map_knobs: ClassVar[dict[str, dict[str, float]]] = {"new_york": NEW_YORK_KNOBS}
    seat_knobs: ClassVar[dict[str, dict[int, dict[str, float]]]] = {}
    ticket_draw_mine = 0.125
    ticket_draw_others = 0.2
    ticket_draw_min = 5


STYLES: tuple[type[GreedyBot], ...] = (GreedyRush, GreedyTickets)
