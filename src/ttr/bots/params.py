"""Greedy's parameters as data: `GreedyParams` (a frozen dataclass), and the presets, each a named set of them.

A greedy bot plays one `GreedyParams`: the preset's (`PRESETS`), with the values fitted to the map and the seat
count laid over it from the profile of that game (`ttr.bots.profiles`), or parameters given outright
(`GreedyBot(map, seat, seed, params=...)`, for experiments). Costs are in trains, rates in points per train.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class GreedyParams:
    """Every tuning value of greedy's play (see `ttr.bots.greedy` for where each acts)."""

    overhead: float = 0.4  # path cost per route, on top of its length: a claim is a turn
    tunnel_penalty: float = 0.8
    ferry_penalty: float = 2.0  # per locomotive a ferry needs
    borrow_cost: float = 9.0  # path cost of borrowing another seat's route through a new station
    train_share: float = 0.8  # price of a plan's train, as a share of the best points per train a route gives
    setup_cap: float = 0.8  # share of the pieces a setup plan may take
    points_weight: float = 0.3  # share of a route's points taken off its path cost
    ticket_draw_mine: float = 0.25  # draw tickets (plan done) only with this share of the pieces left
    ticket_draw_others: float = 0.35  # ... and every other seat with this share left
    express_weight: float = 0.5  # points per train added to its longest trail (towards the longest-path bonus)
    hand_weight: float = 0.2  # path cost taken off per card in hand that could pay the route
    ticket_draw_min: int = 7  # ... and never with fewer trains than this (mine or anyone's)
    long_min: int = 3  # routes shorter than this are not worth claiming for points alone (outside the end)
    attraction_cost: float = 0.5  # path cost taken off per point of tourist attraction a route would newly reach
    draws_tickets: bool = True  # whether it draws tickets at all once its plan is done (the ticket_draw values)
    detour_weight: float = 0.0  # order of payable plan claims: length + this x the detour losing the route costs
    focus_draws: bool = False  # draw the face-up colour of the plan route fewest cards from paid
    face_up_wilds: bool = True  # take a face-up wild (a whole turn's draw) when the plan needs wilds or lacks 1-2
    hand_cap: int = 16  # with this many cards and a plan it cannot pay yet, claim a route for points with cards
    # the plan does not need rather than draw more (`GreedyBot._spare_claim`; 0: never) ...
    spare_late: float = 0.35  # ... once a seat has at most this share of the pieces left
    rush: bool = False  # play as if the end were near from the start (no more tickets, points once the plan is paid)
    min_damage: float = 8.0  # trains a block must add to the other seats' paths (`ttr.bots.denial`)

    def but(self, changes: dict[str, Any], where: str = "parameters") -> GreedyParams:
        """These parameters with `changes` (name -> value) laid over; `ValueError` naming an unknown one or a
        value of the wrong type (`where` says whose changes they are)."""
        known = {f.name: f.type for f in fields(self)}
        for name, value in changes.items():
            if name not in known:
                raise ValueError(f"{where}: no greedy parameter {name!r}")
            kind = {"float": (int, float), "int": (int,), "bool": (bool,)}[str(known[name])]
            if not isinstance(value, kind) or (kind != (bool,) and isinstance(value, bool)):
                raise ValueError(f"{where}: {name} must be {known[name]}, got {value!r}")
        cast: dict[str, Any] = {name: float(v) if str(known[name]) == "float" else v for name, v in changes.items()}
        return replace(self, **cast)


GREEDY = GreedyParams()
LONG = GREEDY.but({"points_weight": 0.9})  # plans through long routes (route points weigh three times as much)

PRESETS: dict[str, GreedyParams] = {
    "greedy": GREEDY,
    "greedy_long": LONG,
    "greedy_long_duel": LONG,  # with two-seat Europe's fitted values (its profile)
    "greedy_long_four": LONG,  # with three- to five-seat Europe's fitted values (its profile)
    "greedy_rush": LONG.but({"rush": True}),
    "greedy_tickets": LONG.but({"ticket_draw_mine": 0.125, "ticket_draw_others": 0.2, "ticket_draw_min": 5}),
    "denying_long": LONG,  # the search's own playout policy that blocks (`ttr.bots.denial`)
    "denying_long_duel": LONG,  # ... with `greedy_long_duel`'s fitted values
}
"""The presets: name -> base parameters. A profile lays the values fitted to a map and seat count over them."""
