#!/usr/bin/env python3
"""Train a masked PPO policy and save it: `scripts/train_ppo.py --map new_york --out PATH.npz`.

`--opponents random,greedy` (one batched environment per opponent and learning seat), `--updates N`
(each update is `rows x steps` learning-seat steps), `--minutes M` stops early, `--seed S` fixes the run
(the same seed and updates train the same weights). Needs the `train` extra (torch); one torch thread.
The saved file plays as the bot `policy:PATH` (`ttr tournament --bots policy:PATH,greedy`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ttr.envs.ppo import PPOConfig, train


def main() -> None:
    parser = argparse.ArgumentParser(description="Train a masked PPO policy on the batched environment.")
    parser.add_argument("--map", default="new_york")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random,greedy", help="bot names, comma-separated")
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this much wall time")
    parser.add_argument("--rows", type=int, default=4, help="games per batched environment")
    parser.add_argument("--steps", type=int, default=128, help="steps per row per update")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="the .npz file to write")
    args = parser.parse_args()
    config = PPOConfig(map_name=args.map, players=args.players, opponents=tuple(args.opponents.split(",")),
                       rows_per_env=args.rows, steps_per_rollout=args.steps, updates=args.updates,
                       minutes=args.minutes, seed=args.seed)
    policy = train(config, report=lambda line: print(line, flush=True))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes): {policy.meta['training']['games']} training games")


if __name__ == "__main__":
    main()
