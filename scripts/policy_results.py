#!/usr/bin/env python3
"""Win rates of trained policies against the built-in bots, on paired deals: a markdown table.

`scripts/policy_results.py [--deals 50] [--seed 100000] [--jobs 1] [POLICY.npz ...]`

Each policy (default: the ones shipped in src/ttr/envs/policies/) plays `--deals` paired deals (two games a
deal, seats turned; `ttr.sim.league.play_match`) against `random`, the four paper agents and `greedy`, on
its own map and seat count, as the bot `policy:PATH` (its most likely legal move). Deals start at `--seed`,
away from the seeds the training used. Prints the table with 95% Wilson intervals, the commit and the
engine build.
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from ttr.cli.console import engine_build
from ttr.envs.policy_net import PolicyNet
from ttr.sim.league import Agent, League, play_match
from ttr.sim.ratings import wilson

OPPONENTS = ("random", "destination_hungry", "route_focus", "one_step_thinker", "long_route_junkie", "greedy")
SHIPPED = Path(__file__).resolve().parents[1] / "src" / "ttr" / "envs" / "policies"


def commit() -> str:
    """The checked-out commit (with `+changes` when the work tree differs from it)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=SHIPPED).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                               text=True, check=True, cwd=SHIPPED).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def main() -> None:
    parser = argparse.ArgumentParser(description="Trained policies against the built-in bots, paired deals.")
    parser.add_argument("policies", nargs="*", help="policy files (default: the shipped ones)")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    args = parser.parse_args()
    paths = [Path(p) for p in args.policies] or sorted(SHIPPED.glob("*.npz"))
    print(f"commit {commit()}, {engine_build()} engine; {args.deals} paired deals ({2 * args.deals} games) per "
          f"row, seeds {args.seed}-{args.seed + args.deals - 1}\n")
    print("| policy | map | players | opponent | won | win rate (95% CI) |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        net = PolicyNet.load(path)
        league = League(net.map_name, net.players)
        agent = Agent(path.stem, f"policy:{path}", 25.0, 8.0)
        for opponent in args.opponents.split(","):
            games = play_match(league, agent, Agent(opponent, opponent, 25.0, 8.0), args.deals, args.seed, args.jobs)
            wins = sum(1.0 / len(r.winners) for r, seats in games for s in r.winners if seats[s] is agent)
            lo, hi = wilson(wins, len(games))
            print(f"| {path.name} | {net.map_name} | {net.players} | {opponent} | {wins:g}/{len(games)} | "
                  f"{wins / len(games):.3f} ({lo:.3f}-{hi:.3f}) |", flush=True)


if __name__ == "__main__":
    main()
