#!/usr/bin/env python3
"""What the other seats' hidden cards are worth to the search: `research/hidden_worth.py MAP --cheat WHAT`.

Plays `mcts` against greedy seats on a run of deals (seeds S, S+1, ...; the searched seat is `seed mod
players`, and `--seat` keeps the deals of one seat) and writes one JSON line per game to `--out`. With
`--cheat` the search is given, in every world it samples, the other seats' real tickets (`tickets`), real
hand (`hand`), both (`both`), or the real hand only while the other seats have laid fewer than `--early`
trains (`hand-early`) or only from then on (`hand-late`); the decks are still dealt at random. A cheat
reads the hidden game, so it is a measurement that lives here and never in a bot: the gap between a cheat
and `none` on the same deals is the most that a better reading of those cards could win.

Every world is dealt afresh from the belief (the world filter, `assume_greedy_tracking`, is off), so the cheat is
the only difference between runs. `--compare A B` then pairs two such files by deal and prints the wins of
each, the deals each decided better, an exact sign test of that split, the mean gain in margin (the
searched seat's score minus the best other's) with its standard error, and the same per seat.

A time budget makes each run a new draw of the search's own noise: the same search run twice on 90 deals
has won 51 and 58 (the experiment log, `git show 4584f41:research/bot-experiments.md`, "Ideas: tried,
closed and open"), so a few games in 100 is within the noise.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from ttr.bots import make_bot
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.engine import Game, SeatView, final_score, surgery
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap, load_map

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling scripts below, however this one is run

from departures import with_real_tickets
from paired_baseline import sign_test

CHEATS = ("none", "tickets", "hand", "both", "hand-early", "hand-late")


def with_real_hands(world: Game, real: Game, seat: int, rng: random.Random) -> Game:
    """`world` with each other seat's hand swapped for its real one: the cards the world dealt to those hands
    and its deck are pooled, the real hands taken out of the pool and the rest shuffled into the deck, so
    every card stays once. (The pool holds every card `seat` has not seen, which the real hands are made of.)"""
    others = [q for q in range(world.n) if q != seat]
    for q in others:
        surgery.return_to_deck(world, q, list(world.hands[q]))
    for q in others:
        surgery.set_hand(world, q, real.hands[q])
    surgery.shuffle_deck(world, rng)
    return world


class CheatingSearch(MctsBot):
    """`mcts` whose sampled worlds hold some of the other seats' real hidden cards (`cheat`, see the module)."""

    config = replace(MctsBot.config, assume_greedy_tracking=False)  # every world dealt afresh, so that the cheat
    # is the only difference

    def __init__(self, game_map: GameMap, seat: int, seed: int, real: Game, cheat: str, early: int,
                 **budget: Any) -> None:
        super().__init__(game_map, seat, seed, **budget)
        self.real = real
        self.cheat = cheat
        self.early = early

    def sample_world(self, info: InfoSet, rng: Any, belief: Any = None) -> Game:
        """A world as `mcts` samples it, with the real cards `cheat` names put in."""
        world = super().sample_world(info, rng, belief)
        if self.cheat in ("tickets", "both"):
            world = with_real_tickets(world, self.real, self.seat)
        if self.cheat in ("hand", "both") or (self.cheat.startswith("hand-") and self._in_window()):
            world = with_real_hands(world, self.real, self.seat, rng)
        return world

    def _in_window(self) -> bool:
        """Whether the hand cheat applies now: `hand-early` before the other seats have laid `early` trains
        in all, `hand-late` from then on."""
        pieces = self.game_map.rules.pieces
        laid = sum(pieces - self.real.trains[q] for q in range(self.real.n) if q != self.seat)
        return (laid < self.early) == (self.cheat == "hand-early")


def one_game(args: tuple[str, int, str, int, int, dict[str, Any]]) -> dict[str, Any]:
    """One game of the (cheating) search against greedy seats; its seed, seat, win (a shared win counts
    1/k) and the scores."""
    map_name, players, cheat, early, seed, budget = args
    game_map = load_map(map_name)
    game = Game.new(game_map, [f"p{i}" for i in range(players)], seed=seed)
    me = seed % players
    bots = [CheatingSearch(game_map, s, seed, game, cheat, early, **budget) if s == me
            else make_bot("greedy", game_map, s, seed) for s in range(players)]
    while not game.is_over:
        seat = game.current
        ids, legal = legal_actions(game)
        action = bots[seat].choose(SeatView.of(game, seat), legal)
        game.apply_id(ids[legal.index(action)])
    scores = final_score(game).to_json()
    totals = [row["total"] for row in scores["players"]]
    winners = scores["winners"]
    win = 1 / len(winners) if f"p{me}" in winners else 0.0
    return {"seed": seed, "seat": me, "cheat": cheat, "win": win, "score": totals[me],
            "best_other": max(t for q, t in enumerate(totals) if q != me)}


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[str]:
    """The paired comparison of two runs (rows of `one_game`) on the deals both played, as printed lines."""
    by_a = {row["seed"]: row for row in a}
    by_b = {row["seed"]: row for row in b}
    common = sorted(set(by_a) & set(by_b))
    if not common:
        return ["no deal in common"]
    better = sum(by_b[s]["win"] > by_a[s]["win"] for s in common)
    worse = sum(by_b[s]["win"] < by_a[s]["win"] for s in common)
    gains = [(by_b[s]["score"] - by_b[s]["best_other"]) - (by_a[s]["score"] - by_a[s]["best_other"]) for s in common]
    mean = sum(gains) / len(gains)
    error = (math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains))
             if len(gains) > 1 else math.nan)
    name_a, name_b = a[0]["cheat"], b[0]["cheat"]
    lines = [f"{len(common)} deals: {name_a} won {sum(by_a[s]['win'] for s in common):g}, "
             f"{name_b} won {sum(by_b[s]['win'] for s in common):g}",
             f"{name_b} decided {better} deals better and {worse} worse "
             f"(sign test p = {sign_test(better, worse):.3f}); "
             f"margin gain {mean:+.1f} points a game (standard error {error:.1f})"]
    for seat in sorted({by_a[s]["seat"] for s in common}):
        deals = [s for s in common if by_a[s]["seat"] == seat]
        lines.append(f"seat {seat}: {len(deals)} deals, {name_a} won {sum(by_a[s]['win'] for s in deals):g}, "
                     f"{name_b} won {sum(by_b[s]['win'] for s in deals):g}")
    return lines


def read_rows(path: str) -> list[dict[str, Any]]:
    """The rows of a run's JSON-lines file."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def main() -> int:
    """Run the search on the deals (or compare two runs) and print the summary."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map", nargs="?", help="europe or new_york (not needed with --compare)")
    p.add_argument("--cheat", choices=CHEATS, default="none")
    p.add_argument("--early", type=int, default=12, help="trains laid that end `hand-early` (default 12)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seat", type=int, help="play only the deals where the search sits in this seat")
    p.add_argument("--time", type=float, default=0.5, help="seconds per decision (default 0.5)")
    p.add_argument("--iterations", type=int, help="a playout budget instead of time (reproducible)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", help="JSON-lines file the games are appended to")
    p.add_argument("--compare", nargs=2, metavar=("A", "B"), help="pair two runs' files by deal")
    args = p.parse_args()
    if args.compare:
        for line in compare(read_rows(args.compare[0]), read_rows(args.compare[1])):
            print(line)
        return 0
    if args.map is None:
        p.error("a map is needed to play")
    budget: dict[str, Any] = {"iterations": args.iterations} if args.iterations else {"time_limit": args.time}
    seeds = (args.seed + i for i in range(args.games * (args.players if args.seat is not None else 1)))
    if args.seat is not None:
        seeds = (s for s in seeds if s % args.players == args.seat)
    work = [(args.map, args.players, args.cheat, args.early, seed, budget) for seed in seeds]
    rows = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(one_game, work):
            rows.append(row)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(row) + "\n")
    n = len(rows)
    print(f"{args.cheat}: won {sum(r['win'] for r in rows):g} of {n}; mean score "
          f"{sum(r['score'] for r in rows) / n:.1f} against {sum(r['best_other'] for r in rows) / n:.1f} "
          "(the best other seat's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
