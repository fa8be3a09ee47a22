"""Fit reference ratings of the bot levels with openskill, for the leaderboards' "about as strong as ...".

Plays the levels against each other on every map and table size (the seats of each game drawn from the
levels, a fresh seed per game), rates every game with openskill's Weng-Lin PlackettLuce model (the same model
and placement rule as games between accounts, `ttr.server.ratings.placements`), and writes the ratings to
`src/ttr/server/data/bot_ratings.json`:

    {"model": "PlackettLuce", "games": {...}, "ratings": {MAP: {SEATS: {LEVEL: {"mu": .., "sigma": ..}}}}}

    python scripts/calibrate_bot_ratings.py --games 40 --levels easy,medium,hard
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from openskill.models import PlackettLuce

from ttr.bots import make_bot
from ttr.bots.base import play_game
from ttr.engine import final_score
from ttr.maps import BUILTIN_MAPS, load_map
from ttr.server.ratings import placements

OUT = Path(__file__).resolve().parents[1] / "src" / "ttr" / "server" / "data" / "bot_ratings.json"


def main() -> None:
    """Play, fit and write the reference ratings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per map and table size")
    parser.add_argument("--levels", default="easy,medium,hard", help="levels to calibrate (expert is slow)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--maps", default=",".join(BUILTIN_MAPS))
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    levels = args.levels.split(",")
    rng = random.Random(args.seed)
    model = PlackettLuce()
    out: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    counts: dict[str, dict[str, int]] = {}
    start = time.perf_counter()
    for map_name in args.maps.split(","):
        game_map = load_map(map_name)
        rules = game_map.rules
        out[map_name], counts[map_name] = {}, {}
        for seats in range(rules.players_min, rules.players_max + 1):
            table = {lv: model.rating(name=lv) for lv in levels}
            for _ in range(args.games):
                chosen = [levels[i % len(levels)] for i in range(seats)] if seats >= len(levels) else \
                    rng.sample(levels, seats)
                rng.shuffle(chosen)
                seed = rng.randrange(2**53)
                bots = [make_bot(lv, game_map, seat, seed + seat) for seat, lv in enumerate(chosen)]
                game = play_game(game_map, bots, seed, players=[f"{lv} {i}" for i, lv in enumerate(chosen)],
                                 strict=False)
                ranks = placements(final_score(game))
                # one level may hold several seats: each seat is its own team, the level's rating updated by
                # the mean of its seats' changes
                teams = [[model.rating(mu=table[lv].mu, sigma=table[lv].sigma)] for lv in chosen]
                rated = model.rate(teams, ranks=ranks)
                for lv in set(chosen):
                    mine = [rated[i][0] for i, x in enumerate(chosen) if x == lv]
                    table[lv] = model.rating(mu=sum(r.mu for r in mine) / len(mine),
                                             sigma=min(r.sigma for r in mine), name=lv)
            out[map_name][str(seats)] = {lv: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3)}
                                         for lv, r in table.items()}
            counts[map_name][str(seats)] = args.games
            print(f"{map_name} {seats} seats: " + ", ".join(f"{lv} {r.mu:.1f}±{r.sigma:.1f}" for lv, r in table.items())
                  + f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    data = {"model": "PlackettLuce", "levels": levels, "games": counts, "seed": args.seed, "ratings": out}
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
