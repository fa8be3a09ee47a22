#!/usr/bin/env python3
"""Fit the search's playout budgets: `scripts/fit_playouts.py [--games N] [--seconds S] [--bots expert,mcts]`.

`mcts` and `expert` search a fixed number of playout actions a decision (`ttr.bots.budgets`), so that a
level plays the same games on the pure-Python and the compiled build. This measures what those numbers
should be: for each map and seat count it plays N games (the bot in seat `i % seats` of game i with
a time budget of S CPU seconds a decision; the other seats greedy) on the build this Python
runs, and prints, per bot and configuration, the playout actions of the decisions that ran to the time limit
(those that stopped early, with one candidate left, say nothing of the budget): their count, quartiles
and median (and the median of their playouts). The median is the figure to write into the table. Time is
the thread's CPU time, as the search counts it, so a shared machine slows the run but moves the figures
little.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from typing import Any

from ttr.bots import make_bot, play_game
from ttr.bots.base import Bot
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.cli.console import engine_build
from ttr.engine import Action, SeatView
from ttr.maps import GameMap, load_map

CONFIGS = (("europe", 2), ("europe", 3), ("europe", 4), ("europe", 5),
           ("new_york", 2), ("new_york", 3), ("new_york", 4))
EXPERT_CAP = 1500  # the playout cap `expert` had beside its 0.5 s


class Enough(Exception):
    """The bot has made the decisions asked for: the game stops there."""


class Timed:
    """A bot whose decisions are timed: per decision, its CPU seconds and the search's playouts and actions."""

    def __init__(self, bot: MctsBot, most: int | None = None) -> None:
        self.bot = bot
        self.name = bot.name
        self.most = most
        self.decisions: list[tuple[float, int, int]] = []

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """The bot's move, timed."""
        if self.most is not None and len(self.decisions) >= self.most:
            raise Enough
        start = time.thread_time()
        action = self.bot.choose(view, legal)
        self.decisions.append((time.thread_time() - start, self.bot.last_iterations, self.bot.last_actions))
        return action


def timed_bot(name: str, game_map: GameMap, seat: int, seed: int, seconds: float, most: int | None) -> Timed:
    """`name` (mcts or expert) with a time budget of `seconds` a decision, timed (at most `most` decisions)."""
    if name == "expert":
        return Timed(MctsExpert(game_map, seat, seed, iterations=EXPERT_CAP, time_limit=seconds), most)
    return Timed(MctsBot(game_map, seat, seed, time_limit=seconds), most)


def fit(name: str, map_name: str, seats: int, games: int, seconds: float, seed: int,
        most: int | None = None) -> dict[str, Any]:
    """The playouts of the decisions of `name` that ran to the time limit in `games` games."""
    game_map = load_map(map_name)
    full: list[int] = []  # playout actions of the decisions at the limit
    playouts: list[int] = []
    decisions = 0
    for i in range(games):
        me = i % seats
        timed = timed_bot(name, game_map, me, seed + i, seconds, most)
        bots: list[Bot] = [timed if q == me else make_bot("greedy", game_map, q, seed + i) for q in range(seats)]
        with contextlib.suppress(Enough):
            play_game(game_map, bots, seed + i)
        decisions += len(timed.decisions)
        at_limit = [(n, a) for spent, n, a in timed.decisions if spent >= 0.9 * seconds and n > 0]
        full += [a for _, a in at_limit]
        playouts += [n for n, _ in at_limit]
    if len(full) < 2:
        return {"bot": name, "map": map_name, "seats": seats, "decisions": decisions, "at_limit": len(full)}
    q1, median, q3 = statistics.quantiles(full, n=4)
    return {"bot": name, "map": map_name, "seats": seats, "decisions": decisions, "at_limit": len(full),
            "q1": round(q1), "median": round(median), "q3": round(q3), "mean": round(statistics.fmean(full)),
            "playouts_median": round(statistics.median(playouts))}


def main() -> int:
    """Measure every configuration and print a line each (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per bot and configuration (default 1)")
    parser.add_argument("--seconds", type=float, default=0.5, help="time budget a decision (default 0.5)")
    parser.add_argument("--bots", default="expert,mcts", help="bots to fit (default expert,mcts)")
    parser.add_argument("--only", default=None, help="one configuration, e.g. europe:2")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--decisions", type=int, default=None,
                        help="stop each game after the bot's first this many decisions (default: play it out)")
    parser.add_argument("--json", action="store_true", help="also print each result as a JSON line")
    args = parser.parse_args()
    configs = CONFIGS
    if args.only:
        map_name, _, seats = args.only.partition(":")
        configs = ((map_name, int(seats)),)
    print(f"build: {engine_build()}; {args.games} game(s) per configuration, {args.seconds:g} s a decision",
          flush=True)
    for name in args.bots.split(","):
        for map_name, seats in configs:
            row = fit(name, map_name, seats, args.games, args.seconds, args.seed, args.decisions)
            if "median" in row:
                print(f"{name:<7} {map_name:<9} {seats} seats: {row['at_limit']:>4} of {row['decisions']:>4} "
                      f"decisions at the limit; playout actions median {row['median']:>6}, "
                      f"quartiles {row['q1']}-{row['q3']}, mean {row['mean']}; playouts median "
                      f"{row['playouts_median']}", flush=True)
            else:
                print(f"{name:<7} {map_name:<9} {seats} seats: too few decisions at the limit ({row['at_limit']})",
                      flush=True)
            if args.json:
                print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
