#!/usr/bin/env python3
"""Where the search's noise lives, and where its guide is beaten: `research/gain_noise.py MAP [--players P]
[--games N] [--worlds W] [--every K] [--seed S] [--jobs J] [--kinds]`.

`mcts` values each candidate move by its gain over the guide's move, world by world (`MctsBot.play_candidate`
on the same sampled world for both), and its gate asks for a mean gain that stands out of the spread of those
gains. This script measures that spread and splits it in two. It plays `N` games of the guide (the search's
own policy, `MctsBot.guide_for`) in seat `-seed mod P` against greedy seats, and at every `K`-th of that
seat's main turns with a choice it builds the search's candidates as `mcts` does (its blocking claim of
`world_blocks` judged on one sampled world, not `block_worlds` of them), then plays each of them
and the guide's move on `W` worlds twice:

- *worlds*: each world a fresh sample of the seat's information set, as the search samples them (the other
  seats' tickets and hands, and the deck order);
- *deck only*: the other seats' tickets and hands of one sampled world kept, and only the train deck's
  order dealt again for each world.

It prints per stage of the game (by the trains the leader has laid) the candidates measured, the spread of
a candidate's gain from world to world (the root mean square over candidates of the standard deviation over
worlds) in both readings, the share of the variance the deck order alone leaves (what knowing the other
seats' tickets and hands could remove at most), and the mean correlation, over the fresh worlds, of a
candidate's margin with the guide's move's: the pairing of the two on one world (common random numbers)
removes a share of the gain's variance about equal to it. The figures measured with it are in
research/bot-measurements.md ("Where the bots stand against the issue's targets") and the experiment log
(`git show 4584f41:research/bot-experiments.md`,
"Ideas: tried, closed and open"): in two-player Europe the gains spread by card luck, not by what the seat does not
know of the others, and the two playouts of one world are only loosely paired.

With `--kinds` it also prints, per kind of the guide's move and of the candidate's (a claim, a ticket draw,
a blind draw, a face-up wild or colour), how many candidates there were, their mean gain over the guide's
move, and how many beat it by 2 points or more and by 2 standard errors, or lost to it by 2 standard
errors. With many worlds (160 a position, `--every 3`) this reads far finer than the search
can in a game, and shows the guide's kinds of move that a card draw beats more often than not: there, its
face-up wilds and its ticket draws after setup, which two-seat Europe's guide no longer plays.
"""

from __future__ import annotations

import argparse
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from ttr.bots import make_bot
from ttr.bots.base import legal_actions
from ttr.bots.mcts import MctsBot
from ttr.bots.planning import Board
from ttr.engine import Action, Game, SeatView, surgery
from ttr.engine.phases import MAIN
from ttr.engine.sample import InfoSet
from ttr.maps import load_map

STAGES = 3  # stages of a game by the trains the leader has laid, each a third of the pieces


def deck_redealt(world: Game, rng: random.Random) -> Game:
    """A copy of `world` with only the train deck's order dealt again: hands, tickets, face-up cards and the
    discard pile as they were."""
    copy = world.copy()
    surgery.shuffle_deck(copy, rng)
    return copy


@dataclass(frozen=True)
class Measured:
    """One candidate at one position: the stage, what the guide and the candidate do (`move_kind`), the
    candidate's mean gain over the guide's move on the fresh worlds with its standard error, the spread of
    that gain in both readings, and the correlation of its margin with the guide's move's."""

    laid: int
    guide: str
    kind: str
    mean: float
    error: float
    spread: float
    deck_spread: float
    pairing: float


def move_kind(action: Action, wild: str) -> str:
    """A short name of what a move does: `claim`, `tickets`, `station`, `deck`, `face-up wild` or
    `face-up colour` (`wild` is the map's wild card name)."""
    if action.kind == "draw_card":
        if action.source == "deck":
            return "deck"
        return "face-up wild" if action.card == wild else "face-up colour"
    return {"claim_route": "claim", "draw_tickets": "tickets", "build_station": "station"}.get(action.kind,
                                                                                                action.kind)


def measure(bot: MctsBot, view: SeatView, legal: list[Action], worlds: int, seed: int,
            laid: int) -> list[Measured]:
    """Every candidate other than the guide's move at this position (`laid`: the trains the leader has laid),
    each played against the guide's move on `worlds` fresh worlds and on `worlds` worlds with the deck order
    alone dealt again (see the module)."""
    bot._fit_guide(len(view.players))
    guide_action = bot.guide.choose(view, legal)
    info = InfoSet(bot.game_map, view.to_json())
    rng = random.Random(seed)
    board = Board.from_view(bot.guide.ix, view)
    belief = bot.belief_of(view, board) if bot.config.belief else None
    first = bot.sample_world(info, rng, belief)
    guide = first.encode(guide_action)
    others = [c for c in bot.candidates(first, guide, view, legal, belief, board, [first]) if c != guide]
    playouts = bot.playouts_for(first.n)[0]
    bases: tuple[list[float], list[float]] = ([], [])  # the guide's move's margin per world, per reading
    margins: dict[int, tuple[list[float], list[float]]] = {c: ([], []) for c in others}
    for _ in range(worlds):
        for world, reading in ((bot.sample_world(info, rng, belief), 0), (deck_redealt(first, rng), 1)):
            bases[reading].append(bot.play_candidate(world, guide, playouts))
            for c in others:
                margins[c][reading].append(bot.play_candidate(world, c, playouts))
    wild = bot.game_map.wild_name
    out = []
    for c, (fresh, deck) in margins.items():
        gains = [[m - b for m, b in zip(ms, bases[k], strict=True)] for k, ms in enumerate((fresh, deck))]
        paired = statistics.pstdev(fresh) > 0 and statistics.pstdev(bases[0]) > 0
        out.append(Measured(laid, move_kind(guide_action, wild), move_kind(first.decode(c), wild),
                            statistics.fmean(gains[0]), statistics.stdev(gains[0]) / worlds ** 0.5,
                            statistics.pstdev(gains[0]), statistics.pstdev(gains[1]),
                            statistics.correlation(fresh, bases[0]) if paired else 0.0))
    return out


def game_rows(task: tuple[str, int, int, int, int]) -> list[Measured]:
    """One game (map name, players, seed, worlds, every): the candidates measured (`measure`) at every
    `every`-th main turn with a choice of the guide's seat."""
    map_name, players, seed, worlds, every = task
    game_map = load_map(map_name)
    game = Game.new(game_map, players, seed=seed)
    me = -seed % players
    guide = MctsBot.guide_for(map_name, players)(game_map, me, seed)
    bots = [guide if q == me else make_bot("greedy", game_map, q, seed) for q in range(players)]
    search = MctsBot(game_map, me, seed, iterations=1)
    rows: list[Measured] = []
    turn = 0
    while not game.is_over:
        ids, legal = legal_actions(game)
        seat = game.current
        view = SeatView.of(game, seat)
        if seat == me and game.phase == MAIN and len(legal) > 1:
            turn += 1
            if turn % every == 0:
                laid = game_map.rules.pieces - min(game.trains)
                rows += measure(search, view, legal, worlds, seed * 1000 + turn, laid)
        action = bots[seat].choose(view, legal)
        game.apply_unchecked(ids[legal.index(action)])
    return rows


def summary(rows: list[Measured], pieces: int) -> list[str]:
    """The noise table: per stage and over all, the candidates, both spreads, the deck's share of the
    variance and the mean correlation of a candidate's margin with the guide's move's."""
    width = -(-pieces // STAGES)
    groups = [(f"{k * width}-{min(pieces, k * width + width - 1)}", [r for r in rows if r.laid // width == k])
              for k in range(STAGES)]
    lines = [f"{'laid':<8} {'candidates':>10} {'worlds sd':>10} {'deck-only sd':>13} {'deck share':>11} "
             f"{'pairing r':>10}"]
    for label, group in [*groups, ("all", rows)]:
        if not group:
            continue
        fresh = statistics.fmean(r.spread ** 2 for r in group)
        deck = statistics.fmean(r.deck_spread ** 2 for r in group)
        share = f"{deck / fresh:.2f}" if fresh > 0 else "-"
        pairing = statistics.fmean(r.pairing for r in group)
        lines.append(f"{label:<8} {len(group):>10} {fresh ** 0.5:>10.2f} {deck ** 0.5:>13.2f} {share:>11} "
                     f"{pairing:>10.2f}")
    return lines


def kinds(rows: list[Measured]) -> list[str]:
    """The `--kinds` table: per pair of the guide's move kind and the candidate's, the candidates, their mean
    gain over the guide's move, and how many gained 2 points or more by 2 standard errors (better) or lost by
    2 standard errors (worse): where the guide's moves are most often beaten."""
    pairs: dict[tuple[str, str], list[Measured]] = {}
    for r in rows:
        pairs.setdefault((r.guide, r.kind), []).append(r)
    lines = [f"{'guide move -> candidate':<34} {'candidates':>10} {'mean gain':>10} {'better':>7} {'worse':>6}"]
    for (guide, kind), group in sorted(pairs.items()):
        better = sum(1 for r in group if r.mean >= max(2.0, 2 * r.error))
        worse = sum(1 for r in group if r.mean <= -2 * r.error)
        mean = statistics.fmean(r.mean for r in group)
        lines.append(f"{guide + ' -> ' + kind:<34} {len(group):>10} {mean:>10.2f} {better:>7} {worse:>6}")
    return lines


def main() -> None:
    """Parse the arguments, measure the games and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("map")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--worlds", type=int, default=16, help="worlds per position and reading (default 16)")
    parser.add_argument("--every", type=int, default=5, help="measure every K-th main turn of the seat (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--kinds", action="store_true",
                        help="also the table of gains by the guide's move kind and the candidate's")
    args = parser.parse_args()
    if args.worlds < 2 or args.every < 1 or args.games < 1:
        parser.error("--worlds must be 2 or more, --every and --games 1 or more")
    tasks = [(args.map, args.players, args.seed + i, args.worlds, args.every) for i in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = [row for game in pool.map(game_rows, tasks) for row in game]
    print("\n".join(summary(rows, load_map(args.map).rules.pieces)))
    if args.kinds:
        print()
        print("\n".join(kinds(rows)))


if __name__ == "__main__":
    main()
