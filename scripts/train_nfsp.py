#!/usr/bin/env python3
"""OpenSpiel's NFSP (PyTorch) by self-play on `python_ttr`'s information-state tensors, then its results.

`scripts/train_nfsp.py [--map new_york] [--players 2] [--minutes 25] [--episodes N] [--deals 50] [--seed 0]`

One NFSP agent per seat (`open_spiel.python.pytorch.nfsp`: a DQN best response and an average-policy
network, both MLPs over the information-state tensor scaled to about [0, 1]) learns by self-play through
`open_spiel.python.rl_environment` until `--episodes` games or `--minutes` of wall time, whichever comes
first; the last log line says how many games were played, and the same seed with that `--episodes` (and no
`--minutes`) trains the same networks again. Then each seat's average policy (the strategy NFSP converges
to; it samples its moves) plays `random` (uniform legal moves) and `greedy` on paired deals (each deal once
with the agent in every seat, from seed 100,000 on, away from training) and the win rates are printed as
a Markdown table with 95% Wilson intervals (ties shared). Needs the `openspiel` extra (with dm-tree) and
torch (the `train` extra). One torch thread; run it under `nice` on a shared machine.
"""

from __future__ import annotations

import argparse
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import nfsp

from ttr.envs.openspiel_play import Act, PairedResult, info_scale, play_paired, self_play_game
from ttr.sim.ratings import wilson

EVAL_SEED = 100_000
OPPONENTS = ("random", "greedy")


@dataclass
class Config:
    """The run: the game, the budget and NFSP's settings (OpenSpiel's Leduc poker example where they fit)."""

    map_name: str = "new_york"
    players: int = 2
    episodes: int = 1_000_000
    minutes: float | None = 25.0
    seed: int = 0
    hidden: tuple[int, ...] = (128,)
    reservoir: int = 20_000  # the average policy's reservoir of best-response moves, per seat
    replay: int = 20_000  # the best response's replay buffer, per seat
    anticipatory: float = 0.1  # the share of games a seat plays its best response
    batch_size: int = 128
    learn_every: int = 64
    min_buffer: int = 1_000
    rl_learning_rate: float = 0.01
    sl_learning_rate: float = 0.01
    epsilon_start: float = 0.06
    epsilon_end: float = 0.001
    epsilon_decay: int = 100_000  # decisions
    log_every: int = 100  # games


def make_agents(game: pyspiel.Game, config: Config) -> list[nfsp.NFSP]:
    """One NFSP agent per seat, seeded from the config."""
    return [nfsp.NFSP(p, game.information_state_tensor_size(), game.num_distinct_actions(),
                      hidden_layers_sizes=list(config.hidden), reservoir_buffer_capacity=config.reservoir,
                      anticipatory_param=config.anticipatory, batch_size=config.batch_size,
                      rl_learning_rate=config.rl_learning_rate, sl_learning_rate=config.sl_learning_rate,
                      min_buffer_size_to_learn=config.min_buffer, learn_every=config.learn_every,
                      optimizer_str="sgd", seed=config.seed * 100 + p, replay_buffer_capacity=config.replay,
                      epsilon_start=config.epsilon_start, epsilon_end=config.epsilon_end,
                      epsilon_decay_duration=config.epsilon_decay, discount_factor=1.0)
            for p in range(game.num_players())]


def train(game: pyspiel.Game, agents: list[nfsp.NFSP], config: Config) -> tuple[int, int, float, float]:
    """Self-play until the episode or time budget ends; (games, decisions, wall seconds, CPU seconds)."""
    torch.manual_seed(config.seed)
    np.random.seed(config.seed)
    # The chance sampler is seeded here: Environment(game, seed=...) passes the seed to no one.
    env = rl_environment.Environment(game, chance_event_sampler=rl_environment.ChanceEventSampler(config.seed))
    scale = info_scale(game)
    start, cpu = time.perf_counter(), time.process_time()
    episodes = decisions = 0
    while episodes < config.episodes and (config.minutes is None
                                          or time.perf_counter() - start < config.minutes * 60):
        decisions += self_play_game(env, agents, scale)
        episodes += 1
        if episodes % config.log_every == 0:
            losses = " ".join(f"seat {a.player_id}: sl {fmt(a.loss[0])} rl {fmt(a.loss[1])}" for a in agents)
            print(f"  {episodes} games, {decisions} decisions, {time.perf_counter() - start:.0f} s; {losses}",
                  flush=True)
    return episodes, decisions, time.perf_counter() - start, time.process_time() - cpu


def fmt(loss: float | None) -> str:
    """A loss for the log (`-` before the first update)."""
    return "-" if loss is None else f"{loss:.3f}"


def average_policy(game: pyspiel.Game, agents: list[nfsp.NFSP]) -> Act:
    """The agents' average policy as an `openspiel_play.Act`: the seat's network, its masked softmax sampled."""
    scale = info_scale(game)

    def act(state: pyspiel.State, player: int, rng: np.random.Generator) -> int:
        info = torch.from_numpy(np.asarray(state.information_state_tensor(player), np.float32) / scale)
        legal = state.legal_actions()
        with torch.no_grad():
            logits = agents[player]._avg_network(info.unsqueeze(0)).squeeze(0).numpy()[legal]
        probs = np.exp(logits - logits.max())
        return int(legal[rng.choice(len(legal), p=probs / probs.sum())])

    return act


def commit() -> str:
    """The repository's short commit, or `unknown`."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parent)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def table(config: Config, results: list[PairedResult]) -> str:
    """The results as the Markdown table of docs/research.md."""
    lines = ["| agent | opponent | won | win rate (95% CI) |", "|---|---|---|---|"]
    name = f"NFSP, {config.map_name.replace('_', ' ').title()}, {config.players} players"
    for r in results:
        lo, hi = wilson(r.wins, r.games)
        lines.append(f"| {name} | `{r.opponent}` | {r.wins:g}/{r.games} | "
                     f"{r.wins / r.games:.3f} ({lo:.3f}-{hi:.3f}) |")
    return "\n".join(lines)


def main() -> None:
    """Train, then print the results table."""
    parser = argparse.ArgumentParser(description="OpenSpiel NFSP self-play on python_ttr, then paired deals "
                                                 "against random and greedy.")
    parser.add_argument("--map", default="new_york")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=25.0, help="wall-clock training time (0: no limit)")
    parser.add_argument("--episodes", type=int, default=1_000_000, help="at most this many self-play games")
    parser.add_argument("--deals", type=int, default=50, help="paired deals per opponent (one game per seat)")
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    code = commit()  # the code this run trains with
    config = Config(args.map, args.players, args.episodes, args.minutes or None, args.seed)
    game = pyspiel.load_game(f"python_ttr(map={config.map_name},players={config.players})")
    agents = make_agents(game, config)
    print(f"python_ttr(map={config.map_name},players={config.players}): information state "
          f"{game.information_state_tensor_size()} floats, {game.num_distinct_actions()} actions; NFSP self-play, "
          f"at most {config.episodes} games or {args.minutes:g} min (0: no limit), seed {config.seed}", flush=True)
    episodes, decisions, seconds, cpu = train(game, agents, config)
    print(f"trained on {episodes} self-play games ({decisions} decisions) in {seconds:.0f} s ({cpu:.0f} s of CPU); "
          f"repeat with --episodes {episodes} --minutes 0", flush=True)
    act = average_policy(game, agents)
    results = []
    for opponent in args.opponents.split(","):
        start = time.perf_counter()
        results.append(play_paired(game, act, opponent, args.deals, EVAL_SEED))
        print(f"against {opponent}: {time.perf_counter() - start:.0f} s", flush=True)
    print(f"\nscripts/train_nfsp.py --map {config.map_name} --players {config.players} --seed {config.seed} "
          f"at commit {code}: {episodes} self-play games, {args.deals} paired deals per opponent "
          f"(seeds {EVAL_SEED:,}-{EVAL_SEED + args.deals - 1:,}), the average policy sampled\n")
    print(table(config, results))


if __name__ == "__main__":
    main()
