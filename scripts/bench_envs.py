#!/usr/bin/env python3
"""Environment speed: `scripts/bench_envs.py [--seconds S] [--seed N]`.

Prints steps per second of wall time and per second of this process's CPU time (the figure that holds on
a shared machine), each step with its observation and action mask, for:
- the PettingZoo AEC environment (every seat takes uniformly random legal actions from the mask), per map
  and player count;
- the Gymnasium environment (the learning seat random from the mask; opponents `random` and `greedy`);
- the OpenSpiel game (random legal actions and chance outcomes; a step is any action, chance included,
  with the observation tensor of the player to move).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ttr.envs import aec_env, gym_env


def bench_aec(map_name: str, players: int, seconds: float, seed: int) -> tuple[float, float, int]:
    """(steps per wall second, per CPU second, games finished) of the AEC environment under random masked play."""
    env = aec_env(map_name, players)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        env.reset(seed=int(rng.integers(1 << 62)))
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu), games


def bench_gym(map_name: str, players: int, opponents: str, seconds: float, seed: int) -> tuple[float, float, int]:
    """(learning-seat steps per wall second, per CPU second, games finished) of the Gymnasium environment."""
    env = gym_env(map_name, players, opponents=opponents)
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _ = env.reset(seed=int(rng.integers(1 << 62)))
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = terminated or truncated
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu), games


def bench_openspiel(map_name: str, players: int, seconds: float, seed: int) -> tuple[float, float, int] | None:
    """(steps per wall second, per CPU second, games finished) of the OpenSpiel game, or None without open_spiel."""
    try:
        import pyspiel

        import ttr.envs.openspiel  # noqa: F401  # registers python_ttr
    except ImportError:
        return None
    game = pyspiel.load_game(f"python_ttr(map={map_name},players={players})")
    rng = np.random.default_rng(seed)
    steps = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                state.observation_tensor(state.current_player())
                state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu), games


def main() -> None:
    parser = argparse.ArgumentParser(description="Steps per second of the learning environments.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'environment':<12} {'map':<9} {'players':>7} {'opponents':<9} {'steps/s':>9} {'steps/cpu-s':>11} "
          f"{'games':>6}")
    for map_name in ("europe", "new_york"):
        for players in (2, 4):
            rate, cpu_rate, games = bench_aec(map_name, players, args.seconds, args.seed)
            print(f"{'aec':<12} {map_name:<9} {players:>7} {'-':<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
                  flush=True)
    for map_name in ("europe", "new_york"):
        for opponents in ("random", "greedy"):
            rate, cpu_rate, games = bench_gym(map_name, 2, opponents, args.seconds, args.seed)
            print(f"{'gym':<12} {map_name:<9} {2:>7} {opponents:<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
                  flush=True)
    for map_name in ("europe", "new_york"):
        result = bench_openspiel(map_name, 2, args.seconds, args.seed)
        if result is None:
            print("openspiel: not installed (pip install 'ttr-game[openspiel]')")
            break
        rate, cpu_rate, games = result
        print(f"{'openspiel':<12} {map_name:<9} {2:>7} {'-':<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
              flush=True)


if __name__ == "__main__":
    main()
