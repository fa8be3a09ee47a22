#!/usr/bin/env python3
"""Paired baseline for tournament records: `research/paired_baseline.py DIR BOT [--baseline greedy]`.

Reads every `ttr-record/1` file in DIR (as `ttr tournament --records DIR` writes them, one per finished
game), finds the seat of BOT (the player named `BOT <seat>`), and prints BOT's wins (a shared win counts
1/k) with a Wilson 95% interval, its mean score and mean winning score. Then it replays every game's seeds
with the baseline bot in BOT's seat and the same bots elsewhere: the same deal, so the difference of the
two win counts is what BOT changed (games where BOT played as the baseline come out identical). The
games the two decide differently are counted both ways (BOT better, BOT worse) with an exact two-sided
sign test (McNemar's test): the chance of a split at least that uneven if BOT were no better than the
baseline on these deals. A win rate over a hundred games mixes BOT's strength with the luck of the deals;
the paired split does not.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from ttr.bots import make_bot, play_game
from ttr.bots.cmd_bot import end_bots
from ttr.engine import final_score
from ttr.records import load_json, read_record, replay


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test of `better` against `worse` paired outcomes (ties left out)."""
    m = better + worse
    if not m:
        return 1.0
    tail = sum(math.comb(m, i) for i in range(min(better, worse) + 1)) / 2 ** m
    return min(1.0, 2 * tail)


def main() -> int:
    """Summarize the records and their paired baseline."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("bot")
    parser.add_argument("--baseline", default="greedy")
    args = parser.parse_args()
    games = wins = base_wins = 0.0
    scores: list[int] = []
    winning: list[int] = []
    base_scores: list[int] = []
    identical = better = worse = 0
    for path in sorted(Path(args.dir).glob("game-*.json")):  # not tournament.json
        data = load_json(path)
        game = replay(read_record(data)).game
        if not game.is_over:
            continue
        seats = [i for i, name in enumerate(game.players) if name.rsplit(" ", 1)[0] == args.bot]
        if len(seats) != 1:
            print(f"{path.name}: no single seat named {args.bot!r}; skipped", file=sys.stderr)
            continue
        me = seats[0]
        games += 1
        final = final_score(game)
        scores.append(final.players[me].total)
        share = 1 / len(final.winners) if game.players[me] in final.winners else 0.0
        wins += share
        if share:
            winning.append(final.players[me].total)
        specs = [args.baseline if s == me else name.rsplit(" ", 1)[0].split("#")[0]
                 for s, name in enumerate(game.players)]
        seed = int(data["seed"])
        bots = [make_bot(spec, game.map, s, seed) for s, spec in enumerate(specs)]
        base = None
        try:
            base = play_game(game.map, bots, seed, players=game.players)
        finally:
            end_bots(bots, base)  # a `cmd:` bot's program is told the result and closed
        base_final = final_score(base)
        base_scores.append(base_final.players[me].total)
        base_share = 1 / len(base_final.winners) if base.players[me] in base_final.winners else 0.0
        base_wins += base_share
        better += share > base_share
        worse += share < base_share
        identical += base.history == game.history
    if not games:
        print("no finished games")
        return 1
    n = int(games)
    low, high = wilson(wins, n)
    print(f"{args.dir}: {n} games; {args.bot} won {wins:g} ({wins / n:.1%}, 95% {low:.1%}-{high:.1%}); "
          f"mean score {sum(scores) / n:.1f}; mean winning score "
          f"{sum(winning) / len(winning) if winning else float('nan'):.1f}")
    print(f"paired: {args.baseline} in the same seat with the same seeds won {base_wins:g} "
          f"(mean score {sum(base_scores) / n:.1f}); identical games {identical}")
    print(f"decided differently: {args.bot} better in {better}, worse in {worse}; "
          f"sign test p = {sign_test(better, worse):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
