"""How long a game review takes, and whether it finds mistakes put in on purpose (docs/review.md).

    python scripts/bench_review.py time [--budget N]            # 2- and 4-player Europe games reviewed
    python scripts/bench_review.py mistakes --map new_york --players 2 --games 5 [--budget N]

`time` plays a greedy game of two-player Europe and one of four players (fixed seeds), reviews seat 0 of
each, and prints the wall and CPU time, the decisions and the time per decision.

`mistakes` plays games where seat 0 is greedy except at `--mistakes` chosen main-turn decisions (its 3rd,
6th, 9th, ... main turns), where it plays a random legal move other than greedy's (seeded); then it reviews
seat 0 and prints how many of those moves the review ranks among its costliest (as many as there are
mistakes), and among all decisions whose loss interval lies above 0.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from ttr.bots import make_bot
from ttr.bots.base import legal_actions
from ttr.engine import Game, SeatView
from ttr.maps import load_map
from ttr.records import read_record, write_record
from ttr.review import review_record

TIME_GAMES = [("europe", 2, 101), ("europe", 4, 102)]
EVERY = 3  # a mistake at every 3rd main turn of the seat
FIRST = 3


def greedy_game(map_name: str, players: int, seed: int) -> Game:
    """A game of greedy seats."""
    game_map = load_map(map_name)
    bots = [make_bot("greedy", game_map, seat, seed) for seat in range(players)]
    game = Game.new(game_map, [f"greedy {i + 1}" for i in range(players)], seed=seed)
    while not game.is_over:
        ids, legal = legal_actions(game)
        action = bots[game.current].choose(SeatView.of(game, game.current), legal)
        game.apply_id(ids[legal.index(action)])
    return game


def mistake_game(map_name: str, players: int, seed: int, mistakes: int) -> tuple[Game, list[int]]:
    """A greedy game where seat 0 plays a random legal move other than greedy's at its `FIRST`-th,
    `FIRST + EVERY`-th, ... main turns, `mistakes` times; the game and the action indexes of those moves."""
    game_map = load_map(map_name)
    bots = [make_bot("greedy", game_map, seat, seed) for seat in range(players)]
    rng = random.Random(seed)
    game = Game.new(game_map, [f"greedy {i + 1}" for i in range(players)], seed=seed)
    at: list[int] = []
    turns = 0
    while not game.is_over:
        ids, legal = legal_actions(game)
        seat = game.current
        action = bots[seat].choose(SeatView.of(game, seat), legal)
        if seat == 0 and game.phase_name == "main":
            turns += 1
            others = [a for a in legal if a != action]
            if others and len(at) < mistakes and turns >= FIRST and (turns - FIRST) % EVERY == 0:
                action = rng.choice(others)
                at.append(len(game.history))
        game.apply_id(ids[legal.index(action)])
    return game, at


def hits(review: dict[str, Any], at: list[int]) -> tuple[int, int, list[int]]:
    """Of the mistakes at indexes `at`: how many are among the `len(at)` costliest decisions, how many have a
    loss interval above 0, and the rank of each by loss (1: the costliest)."""
    rows = sorted(review["decisions"], key=lambda r: (-r["loss"], r["index"]))
    rank = {r["index"]: k + 1 for k, r in enumerate(rows)}
    by_index = {r["index"]: r for r in review["decisions"]}
    top = sum(1 for i in at if rank[i] <= len(at))
    sure = sum(1 for i in at if by_index[i]["interval"][0] > 0)
    return top, sure, [rank[i] for i in at]


def run_time(budget: int | None, only: int | None = None) -> None:
    """Review seat 0 of a 2- and a 4-player Europe game (or only the game of `only` players) and print the times."""
    for map_name, players, seed in TIME_GAMES:
        if only is not None and players != only:
            continue
        record = read_record(write_record(greedy_game(map_name, players, seed)))
        wall, cpu = time.perf_counter(), time.process_time()
        review = review_record(record, 0, budget)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        n = len(review["decisions"])
        print(f"{map_name} {players} players: {n} decisions at {review['playouts']} playouts, "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU, {cpu / n:.2f} s CPU a decision", flush=True)


def run_mistakes(map_name: str, players: int, games: int, mistakes: int, budget: int | None, seed: int) -> None:
    """Review games with known mistakes and print how many the review finds."""
    total_top = total_sure = total = 0
    for g in range(games):
        game, at = mistake_game(map_name, players, seed + g, mistakes)
        review = review_record(read_record(write_record(game)), 0, budget)
        top, sure, ranks = hits(review, at)
        total_top, total_sure, total = total_top + top, total_sure + sure, total + len(at)
        print(f"game {seed + g}: {len(at)} mistakes, {top} among the {len(at)} costliest, {sure} with the interval "
              f"above 0; ranks {ranks} of {len(review['decisions'])} decisions", flush=True)
        rows = {r["index"]: r for r in review["decisions"]}
        for i in at:
            r = rows[i]
            print(f"  move {r['move']}: {r['played_text']} (best {r['best_text']}): loss {r['loss']:.1f} "
                  f"{r['interval']}", flush=True)
    if total:
        print(f"all: {total_top} of {total} mistakes among the costliest ({total_top / total:.0%}), "
              f"{total_sure} of {total} with the interval above 0 ({total_sure / total:.0%})")


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("time", help="time the review of a 2- and a 4-player Europe game")
    p.add_argument("--budget", type=int, help="playouts per decision (default: the review's)")
    p.add_argument("--players", type=int, help="only the game of this many players")
    p = sub.add_parser("mistakes", help="how many mistakes put in on purpose the review finds")
    p.add_argument("--map", default="new_york")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--mistakes", type=int, default=5)
    p.add_argument("--budget", type=int, help="playouts per decision (default: the review's)")
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "time":
        run_time(args.budget, args.players)
    else:
        run_mistakes(args.map, args.players, args.games, args.mistakes, args.budget, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
