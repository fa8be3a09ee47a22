#!/usr/bin/env python3
"""OpenSpiel's PyTorch policy gradient (A2C) on `python_ttr`'s information-state tensors, then its record.

`scripts/train_openspiel_pg.py [--map new_york] [--players 2] [--minutes 5] [--eval-games 100] [--seed 0]`

Two agents (one per seat) learn by self-play through `open_spiel.python.rl_environment` on the
information-state tensor (scaled to about [0, 1]) for the given wall-clock time; then seat 0's agent (and
seat 1's, seats alternating) plays fresh games against `random` (uniform legal moves) and `greedy`, sampling
its moves, and the win rates are printed with 95% Wilson intervals. Needs the `openspiel` and `train`
extras (torch). One torch thread; run it under `nice` on a shared machine.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import policy_gradient

from ttr.bots import make_bot
from ttr.envs.openspiel_play import bot_action, info_scale, self_play_game
from ttr.sim.ratings import wilson


def evaluate(game: pyspiel.Game, agents: list[policy_gradient.PolicyGradient], opponent: str, games: int,
             seed: int, scale: np.ndarray) -> float:
    """Games won by the trained agents against `opponent`, seats alternating, fresh seeds."""
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        learner = g % game.num_players()
        state = game.new_initial_state()
        bots = {p: make_bot(opponent, game.data.game_map, p, seed + 1000 * g + p)
                for p in range(game.num_players()) if p != learner and opponent != "random"}
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            p = state.current_player()
            legal = state.legal_actions()
            if p == learner:
                info = np.asarray(state.information_state_tensor(p), np.float32) / scale
                action, _ = agents[p]._act(list(info), legal)
            elif opponent == "random":
                action = int(rng.choice(legal))
            else:
                action = bot_action(state, bots[p])
            state.apply_action(int(action))
        returns = state.returns()
        wins += 1.0 if returns[learner] > 0 and returns[learner] >= max(returns) else 0.0
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description="OpenSpiel A2C self-play on information-state tensors.")
    parser.add_argument("--map", default="new_york")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=5.0, help="wall-clock training time")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    game = pyspiel.load_game(f"python_ttr(map={args.map},players={args.players})")
    # The chance sampler is seeded here: Environment(game, seed=...) passes the seed to no one.
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(args.seed))
    size = game.information_state_tensor_size()
    scale = info_scale(game)
    agents = [policy_gradient.PolicyGradient(p, size, game.num_distinct_actions(), loss_str="a2c",
                                             hidden_layers_sizes=(128,), batch_size=16, critic_learning_rate=0.01,
                                             pi_learning_rate=0.01, entropy_cost=0.01, num_critic_before_pi=4,
                                             optimizer_str="adam")
              for p in range(args.players)]
    print(f"python_ttr(map={args.map},players={args.players}): information state {size} floats, "
          f"{game.num_distinct_actions()} actions; A2C self-play for {args.minutes:g} min", flush=True)
    start = time.perf_counter()
    episodes = steps = 0
    while time.perf_counter() - start < args.minutes * 60:
        steps += self_play_game(env, agents, scale)
        episodes += 1
        if episodes % 200 == 0:
            print(f"  {episodes} games, {steps} decisions, {time.perf_counter() - start:.0f} s", flush=True)
    print(f"trained on {episodes} self-play games ({steps} decisions) in {time.perf_counter() - start:.0f} s")
    for opponent in ("random", "greedy"):
        wins = evaluate(game, agents, opponent, args.eval_games, args.seed + 10_000, scale)
        lo, hi = wilson(wins, args.eval_games)
        print(f"against {opponent}: won {wins:g}/{args.eval_games} = {wins / args.eval_games:.3f} "
              f"(95% CI {lo:.3f}-{hi:.3f})", flush=True)


if __name__ == "__main__":
    main()
