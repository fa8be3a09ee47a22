#!/usr/bin/env python3
"""World sampling speed of the search: `scripts/bench_worlds.py [--games N] [--worlds W] [--seed S]`.

`mcts` deals a world for every round of playouts (`MctsBot.sample_world`: `resample` ticket deals weighed by
the belief, the one kept completed with cards and deck orders). For Europe and New York with 2 and 4 players,
this plays N greedy games (seeds S, S+1, ...) to three main turns of seat 0 (after 20, 40 and 60 actions,
where the game lasts), builds the search's belief there, deals W worlds and prints per configuration: CPU
milliseconds per world (`time.process_time`), positions, and a digest of the worlds' tickets and decks
(equal digests: the same worlds were dealt).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

from ttr.bots.mcts import MctsBot
from ttr.bots.planning import Board
from ttr.bots.playout import GreedyPlayout
from ttr.engine import Game, SeatView, surgery
from ttr.engine.phases import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import load_map

CONFIGS = (("europe", 2), ("europe", 4), ("new_york", 2), ("new_york", 4))
AFTER = (20, 40, 60)  # actions played before a position is taken


def positions(map_name: str, players: int, games: int, seed: int) -> list[Game]:
    """Main turns of seat 0 in greedy games, after each of `AFTER` actions (those the game reaches)."""
    game_map = load_map(map_name)
    out = []
    for i in range(games):
        game = Game.new(game_map, players, seed=seed + i)
        playout = GreedyPlayout(game_map, players, seed + i)
        for after in AFTER:
            while not game.is_over and (game.phase != MAIN or game.current != 0 or len(game.history) < after):
                game.apply_unchecked(playout.choose_id(game))
            if game.is_over:
                break
            out.append(game.copy())
    return out


def bench(map_name: str, players: int, games: int, worlds: int, seed: int) -> tuple[float, int, str]:
    """(CPU ms per world, positions, digest of the worlds dealt) of one configuration."""
    game_map = load_map(map_name)
    digest = hashlib.sha256()
    cpu = 0.0
    found = positions(map_name, players, games, seed)
    for k, game in enumerate(found):
        view = SeatView.of(game, 0)
        bot = MctsBot(game_map, 0, seed + k)
        info = InfoSet(game_map, view.to_json())
        belief = bot.belief_of(view, Board.from_view(bot.guide.ix, view))
        rng = random.Random(seed + k)
        start = time.process_time()
        dealt = [bot.sample_world(info, rng, belief) for _ in range(worlds)]
        cpu += time.process_time() - start
        for world in dealt:
            digest.update(repr((world.tickets, surgery.hidden_deck(world), surgery.hidden_ticket_deck(world))).encode())
    return 1000 * cpu / max(1, len(found) * worlds), len(found), digest.hexdigest()[:12]


def main() -> None:
    """Parse the arguments and print one line per configuration."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="greedy games per configuration (default 5)")
    parser.add_argument("--worlds", type=int, default=40, help="worlds dealt per position (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    args = parser.parse_args()
    print(f"{'map':<9} {'seats':>5} {'ms/world':>9} {'positions':>9}  worlds digest")
    for map_name, players in CONFIGS:
        ms, count, digest = bench(map_name, players, args.games, args.worlds, args.seed)
        print(f"{map_name:<9} {players:>5} {ms:>9.2f} {count:>9}  {digest}")


if __name__ == "__main__":
    main()
