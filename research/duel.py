#!/usr/bin/env python3
"""Head-to-head measurement: `research/duel.py MAP BOT_A BOT_B GAMES [--seed S] [--players N] [--jobs J]`.

Plays GAMES games (seeds S, S+1, ...); seats alternate (A first in even games) so the first-player
advantage cancels out. Prints A's wins, B's wins, ties, win rate of A (ties count half), mean scores,
tickets completed and failed per game, and games per second.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ttr.bots import make_bot, play_game
from ttr.bots.cmd_bot import end_bots
from ttr.engine import final_score
from ttr.maps import load_map


def one_game(args: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """Play one game; A is seat 0 in even games, seat 1 in odd ones (others: more copies of B)."""
    map_name, a, b, seed, players = args
    game_map = load_map(map_name)
    a_seat = seed % 2 if players == 2 else seed % players
    specs = [a if s == a_seat else b for s in range(players)]
    bots = [make_bot(spec, game_map, s, seed) for s, spec in enumerate(specs)]
    game = None
    try:
        game = play_game(game_map, bots, seed)
    finally:
        end_bots(bots, game)  # a `cmd:` bot's program is told the result and closed
    final = final_score(game).to_json()
    winners = final["winners"]
    a_name = game.players[a_seat]
    rows = final["players"]
    b_rows = [r for i, r in enumerate(rows) if i != a_seat]
    return {
        "a_win": a_name in winners, "b_win": any(game.players[i] in winners for i in range(players) if i != a_seat),
        "shared": len(winners) > 1, "a_score": rows[a_seat]["total"],
        "b_score": sum(r["total"] for r in b_rows) / len(b_rows),
        "a_done": len(rows[a_seat]["tickets_completed"]), "a_failed": len(rows[a_seat]["tickets_failed"]),
        "b_done": sum(len(r["tickets_completed"]) for r in b_rows) / len(b_rows),
        "b_failed": sum(len(r["tickets_failed"]) for r in b_rows) / len(b_rows),
        "actions": len(game.history),
    }


def main() -> int:
    """Run the duel and print the summary."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("map")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("games", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    work = [(args.map, args.a, args.b, args.seed + i, args.players) for i in range(args.games)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one_game, work, chunksize=4))
    else:
        results = [one_game(w) for w in work]
    elapsed = time.perf_counter() - start
    n = len(results)
    a_wins = sum(r["a_win"] and not r["shared"] for r in results)
    b_wins = sum(r["b_win"] and not r["shared"] for r in results)
    ties = sum(r["shared"] for r in results)

    def mean(key: str) -> float:
        return sum(r[key] for r in results) / n

    print(f"map={args.map} players={args.players} games={n} seeds={args.seed}..{args.seed + n - 1}")
    print(f"{args.a}: {a_wins} wins, {args.b}: {b_wins} wins, shared: {ties}")
    print(f"win rate of {args.a}: {(a_wins + ties / 2) / n:.3f}")
    print(f"mean score {args.a} {mean('a_score'):.1f}, {args.b} {mean('b_score'):.1f}")
    print(f"tickets per game {args.a} {mean('a_done'):.2f} done / {mean('a_failed'):.2f} failed; "
          f"{args.b} {mean('b_done'):.2f} done / {mean('b_failed'):.2f} failed")
    print(f"mean actions {mean('actions'):.0f}; {n / elapsed:.2f} games/s with {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
