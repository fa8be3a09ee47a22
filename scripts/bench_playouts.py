#!/usr/bin/env python3
"""Greedy playout speed: `scripts/bench_playouts.py [--games N] [--seed S]`.

Plays `N` greedy playouts (`ttr.bots.playout.GreedyPlayout.run`, what `mcts` runs thousands of times per
decision) from `Game.new(map, players, seed=S + i)` for Europe and New York with 2 and 4 players, one
playout object per configuration (as search reuses it), and prints per configuration: CPU milliseconds
per playout (`time.process_time`, the figure that holds on a shared machine), actions per playout, actions
per CPU second, and a digest of the games' action histories (equal digests: the same games were played,
action for action).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from ttr.bots.playout import GreedyPlayout
from ttr.engine import Game
from ttr.maps import load_map

CONFIGS = (("europe", 2), ("europe", 4), ("new_york", 2), ("new_york", 4))


def bench(map_name: str, players: int, games: int, seed: int) -> tuple[float, float, float, str]:
    """(CPU ms per playout, actions per playout, actions per CPU second, history digest) of one configuration."""
    game_map = load_map(map_name)
    playout = GreedyPlayout(game_map, players, seed)
    digest = hashlib.sha256()
    actions = 0
    cpu = 0.0
    for i in range(games):
        game = Game.new(game_map, players, seed=seed + i)
        start = time.process_time()
        actions += playout.run(game)
        cpu += time.process_time() - start
        digest.update(repr(game.history).encode())
    return 1000 * cpu / games, actions / games, actions / cpu, digest.hexdigest()[:12]


def main() -> None:
    """Parse the arguments and print one line per configuration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="playouts per configuration (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args()
    print(f"{'map':<9} {'seats':>5} {'ms/playout':>10} {'actions':>8} {'actions/s':>10}  history digest")
    for map_name, players in CONFIGS:
        ms, per_game, rate, digest = bench(map_name, players, args.games, args.seed)
        print(f"{map_name:<9} {players:>5} {ms:>10.1f} {per_game:>8.0f} {rate:>10.0f}  {digest}")


if __name__ == "__main__":
    main()
