"""OpenSpiel's Python ISMCTS bot against random legal moves on the `python_ttr` game.

    python examples/openspiel_ismcts.py --map new_york --games 40 --simulations 50

Seats alternate between games; chance outcomes and the random seat's moves come from a seeded generator
per game. Prints the ISMCTS seat's wins with a 95% Wilson interval. Needs `pip install 'ttr-game[openspiel]'`.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import ttr.envs.openspiel  # noqa: F401  # registers python_ttr


def play(game: object, seat: int, simulations: int, seed: int) -> bool:
    """One 2-player game, ISMCTS in `seat`; whether it won."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        elif state.current_player() == seat:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return bool(state.returns()[seat] > 0)


def main() -> None:
    parser = argparse.ArgumentParser(description="ISMCTS against random on python_ttr.")
    parser.add_argument("--map", default="new_york")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=50)
    args = parser.parse_args()
    game = pyspiel.load_game(f"python_ttr(map={args.map},players=2)")
    start = time.monotonic()
    wins = sum(play(game, g % 2, args.simulations, g) for g in range(args.games))
    n, z = args.games, 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(f"ISMCTS({args.simulations}) vs random on {args.map}: won {wins}/{n} = {p:.3f} "
          f"(95% CI {centre - half:.3f}-{centre + half:.3f}) in {time.monotonic() - start:.0f}s")


if __name__ == "__main__":
    main()
