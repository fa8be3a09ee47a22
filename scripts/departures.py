#!/usr/bin/env python3
"""What the search's departures from its guide are worth: `scripts/departures.py MAP [--games N] [--seed S]`.

Plays `mcts` against greedy seats (the tournament's deals and seats: the searched seat is `-seed mod
players`). Each time the search plays another move than its guide's, the script values that move against
the guide's on fresh worlds, twice:

- *fresh*: worlds sampled as the search samples them (its belief about the other seats' tickets), but
  not the worlds that chose the move. The search's own value of the move, read on the worlds that chose
  it among several candidates, is flattered by that choice (the winner's curse); the fresh value is not.
- *real*: the same worlds with every other seat's real tickets put in (a measurement only the script can
  make: it reads the hidden game). The gap between fresh and real is what the belief gets wrong.

It prints, per kind of departure (the guide's move kind, then the search's), how many there were and the
mean gain in points of final margin by each reading, and how many lose points on the real tickets. The
measurement reads hidden state, so it lives here and never in a bot.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from typing import Any

from ttr.bots import make_bot
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.bots.planning import Board
from ttr.engine import Action, Game, seat_view
from ttr.engine.sample import InfoSet
from ttr.maps import GameMap, load_map


def with_real_tickets(world: Game, real: Game, seat: int) -> Game:
    """`world` with each other seat's tickets swapped for its real ones: each displaced ticket goes where the
    real one was in the world (another hand, the ticket deck or the offer; nowhere for a Europe long ticket
    the world had set aside at setup, as the displaced one then is), so no ticket is in two places."""
    for q in range(world.n):
        if q == seat or len(real.tickets[q]) != len(world.tickets[q]):
            continue
        want = list(real.tickets[q])
        for t in want:
            if t in world.tickets[q]:
                continue
            out = next(x for x in world.tickets[q] if x not in want)
            for p in range(world.n):
                if p != q and t in world.tickets[p]:
                    world.tickets[p][world.tickets[p].index(t)] = out
                    break
            else:
                for pile in (world.ticket_deck, world.offered):
                    if t in pile:
                        pile[pile.index(t)] = out
                        break
            world.tickets[q][world.tickets[q].index(out)] = t
    return world


def kind(action: dict[str, Any]) -> str:
    """A short name of an action's kind (a card draw says where from: `draw deck` or `draw face_up`)."""
    name = str(action["action"])
    if name == "draw_card":
        return f"draw {action['from']}"
    return {"claim_route": "claim", "keep_tickets": "keep"}.get(name, name)


class Probe(MctsBot):
    """`mcts` that, after each departure from its guide, values it on fresh worlds with and without the real
    tickets (see the module)."""

    def __init__(self, game_map: GameMap, seat: int, seed: int, real: Game, worlds: int,
                 iterations: int | None) -> None:
        super().__init__(game_map, seat, seed, iterations=iterations)
        self.real = real
        self.fresh_worlds = worlds
        self.rows: list[dict[str, Any]] = []

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """The search's move; a departure is valued as the module says."""
        action = super().choose(view, legal)
        if not self.last_values:
            return action
        guide_action = self.guide.choose(view, legal)
        if action == guide_action:
            return action
        info = InfoSet(self.game_map, view)
        rng = random.Random(len(view["log"]))
        belief = self.belief_of(view, Board.from_view(self.guide.ix, view))
        first = self.sample_world(info, rng, belief)
        guide = first.encode(guide_action)
        best = max(self.last_values, key=lambda aid: (self.last_values[aid], aid == guide, -aid))
        fresh: list[float] = []
        real: list[float] = []
        playouts = self.playouts_for(first.n)[0]
        for _ in range(self.fresh_worlds):
            world = self.sample_world(info, rng, belief)
            fresh.append(self.play_candidate(world, best, playouts) - self.play_candidate(world, guide, playouts))
            world = with_real_tickets(world, self.real, self.seat)
            real.append(self.play_candidate(world, best, playouts) - self.play_candidate(world, guide, playouts))
        self.rows.append({"kind": f"{kind(guide_action.to_json())} -> {kind(action.to_json())}",
                          "searched": self.last_values[best], "fresh": statistics.fmean(fresh),
                          "real": statistics.fmean(real)})
        return action


def play(game_map: GameMap, players: int, seed: int, worlds: int, iterations: int | None) -> list[dict[str, Any]]:
    """One game of the probe against greedy seats; its departures."""
    game = Game.new(game_map, players, seed=seed)
    me = -seed % players
    probe = Probe(game_map, me, seed, game, worlds, iterations)
    bots = [probe if q == me else make_bot("greedy", game_map, q, seed) for q in range(players)]
    while not game.is_over:
        ids, legal = legal_actions(game)
        action = bots[game.current].choose(seat_view(game, game.current), legal)
        game.apply_unchecked(ids[legal.index(action)])
    return probe.rows


def main() -> int:
    """Play the games and print the departures' values by kind."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("map")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=120, help="fresh worlds per departure")
    parser.add_argument("--iterations", type=int, help="playouts per decision instead of 0.5 s")
    args = parser.parse_args()
    game_map = load_map(args.map)
    rows: list[dict[str, Any]] = []
    for seed in range(args.seed, args.seed + args.games):
        rows.extend(play(game_map, args.players, seed, args.worlds, args.iterations))
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(row)
    print(f"{len(rows)} departures in {args.games} games; mean gain over the guide's move, points of margin")
    print(f"{'kind':28} {'n':>4} {'searched':>9} {'fresh':>7} {'real':>7} {'real < 0':>9}")
    for name, group in [*sorted(by_kind.items(), key=lambda item: -len(item[1])), ("all", rows)]:
        if not group:
            continue
        means = [statistics.fmean(r[key] for r in group) for key in ("searched", "fresh", "real")]
        losing = sum(1 for r in group if r["real"] < 0)
        print(f"{name:28} {len(group):4} " + " ".join(f"{m:{w}.1f}" for m, w in zip(means, (9, 7, 7), strict=True))
              + f" {losing:9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
