#!/usr/bin/env python3
"""Environment speed: `scripts/bench_envs.py [--seconds S] [--seed N]`.

Prints steps per second of wall time and per second of this process's CPU time (the figure that holds on
a shared machine), each step with its observation and action mask, for:
- the PettingZoo AEC environment (every seat takes uniformly random legal actions from the mask), per map
  and player count;
- the Gymnasium environment (the learning seat random from the mask; opponents `random` and `greedy`);
- the OpenSpiel game (random legal actions and chance outcomes; a step is any action, chance included,
  with the observation tensor of the player to move);
- the batched environment (`vector_env`, N = 1, 16, 256 games against `random`, every row random from its
  mask) against N separate Gymnasium environments stepped one after another with the same policy; a step is
  one learning-seat step of one game.
`--only aec,gym,openspiel,vector` runs some of the sections.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ttr.envs import aec_env, gym_env, vector_env


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


def masked_random(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal id per row of a (N, actions) 0/1 mask array."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def bench_vector(map_name: str, players: int, num_envs: int, seconds: float, seed: int) -> tuple[float, float]:
    """(game steps per wall second, per CPU second) of one batched environment of `num_envs` games."""
    env = vector_env(num_envs, map_name, players, opponents="random")
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        obs, _, _, _, _ = env.step(masked_random(obs["action_mask"], rng))
        steps += num_envs
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def bench_separate(map_name: str, players: int, num_envs: int, seconds: float, seed: int) -> tuple[float, float]:
    """(game steps per wall second, per CPU second) of `num_envs` Gymnasium environments stepped in a loop."""
    envs = [gym_env(map_name, players, opponents="random") for _ in range(num_envs)]
    rng = np.random.default_rng(seed)
    masks = np.stack([env.reset(seed=seed + i)[0]["action_mask"] for i, env in enumerate(envs)])
    steps = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        actions = masked_random(masks, rng).tolist()
        for i, env in enumerate(envs):
            obs, _, terminated, truncated, _ = env.step(actions[i])
            if terminated or truncated:
                obs, _ = env.reset()
            masks[i] = obs["action_mask"]
        steps += num_envs
    return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description="Steps per second of the learning environments.")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="aec,gym,openspiel,vector", help="sections to run, comma-separated")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    if "vector" in sections:
        print(f"{'batched':<12} {'map':<9} {'players':>7} {'N':>4} {'vector/s':>9} {'vector/cpu-s':>12} "
              f"{'separate/s':>10} {'separate/cpu-s':>14}")
        for map_name, players in (("europe", 2), ("europe", 4), ("new_york", 2)):
            for num_envs in (1, 16, 256):
                rate, cpu_rate = bench_vector(map_name, players, num_envs, args.seconds, args.seed)
                sep, sep_cpu = bench_separate(map_name, players, num_envs, args.seconds, args.seed)
                print(f"{'vector':<12} {map_name:<9} {players:>7} {num_envs:>4} {rate:>9.0f} {cpu_rate:>12.0f} "
                      f"{sep:>10.0f} {sep_cpu:>14.0f}", flush=True)
    if not sections & {"aec", "gym", "openspiel"}:
        return
    print(f"{'environment':<12} {'map':<9} {'players':>7} {'opponents':<9} {'steps/s':>9} {'steps/cpu-s':>11} "
          f"{'games':>6}")
    for map_name in ("europe", "new_york"):
        for players in (2, 4) if "aec" in sections else ():
            rate, cpu_rate, games = bench_aec(map_name, players, args.seconds, args.seed)
            print(f"{'aec':<12} {map_name:<9} {players:>7} {'-':<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
                  flush=True)
    for map_name in ("europe", "new_york"):
        for opponents in ("random", "greedy") if "gym" in sections else ():
            rate, cpu_rate, games = bench_gym(map_name, 2, opponents, args.seconds, args.seed)
            print(f"{'gym':<12} {map_name:<9} {2:>7} {opponents:<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
                  flush=True)
    for map_name in ("europe", "new_york") if "openspiel" in sections else ():
        result = bench_openspiel(map_name, 2, args.seconds, args.seed)
        if result is None:
            print("openspiel: not installed (pip install 'ttr-game[openspiel]')")
            break
        rate, cpu_rate, games = result
        print(f"{'openspiel':<12} {map_name:<9} {2:>7} {'-':<9} {rate:>9.0f} {cpu_rate:>11.0f} {games:>6}",
              flush=True)


if __name__ == "__main__":
    main()
