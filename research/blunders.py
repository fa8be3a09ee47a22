"""Blunders a person would see: the largest final hands and the tunnels tried again and again, per level.

Each level (default: `easy`, `medium`, `hard`, `expert`) plays GAMES two-player games per map against a mix of
opponents (by turns: `random`, the four FDG 2017 agents, the greedy presets and `examples/bots/simple_bot.py`),
its seat alternating, on the seeds S, S+1, ... (the same deals for every level). Per level it prints the games,
its wins (ties count half), the largest final hands (cards held when the game ended, with the trains left, the
map, the seed and the opponent), how many games ended with at least `--hand` cards held, and the tunnel
attempts: per game the most times the level's seat claimed one tunnel and abandoned it, the largest of those
over the games, and in how many games one tunnel was abandoned twice or more.

    python research/blunders.py --games 200
    python research/blunders.py --levels expert --maps europe --games 60 --json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path

from ttr.bots import make_bot, play_game
from ttr.bots.cmd_bot import end_bots
from ttr.engine import Game, final_score
from ttr.engine.actions import KIND_NAMES
from ttr.maps import load_map

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'simple_bot.py'}"
MIX = ["random", "destination_hungry", "route_focus", "one_step_thinker", "long_route_junkie", "greedy",
       "greedy_long", "greedy_long_fitted", EXAMPLE]
LEVELS = ["easy", "medium", "hard", "expert"]


@dataclass(frozen=True)
class Outcome:
    """One game of a level: its seat's final hand and trains, the tunnel it abandoned most, the result."""

    level: str
    opponent: str
    map_name: str
    seed: int
    seat: int
    hand: int  # cards the level's seat held at the end
    trains: int  # trains it had left
    tunnel_retries: int  # the most times it abandoned one tunnel in the game
    tunnel: str  # that tunnel's name ("" when it abandoned none)
    win: float  # 1 a win, 1/k a shared win, 0 a loss


def abandons(game: Game, seat: int) -> Counter[int]:
    """Per route, how many times `seat` claimed that tunnel and then abandoned it in `game`."""
    cat = game.cat
    counts: Counter[int] = Counter()
    claimed = -1
    for p, aid, *_ in game.history:
        if p != seat:
            continue
        kind = KIND_NAMES[cat.kind[aid]]
        if kind == "claim_route":
            claimed = cat.a[aid]
        elif kind == "abandon_tunnel" and claimed >= 0:
            counts[claimed] += 1
    return counts


def play(task: tuple[str, str, str, int, int]) -> Outcome:
    """One game: `level` in `seat` against `opponent` on `map_name` with `seed`."""
    level, opponent, map_name, seed, seat = task
    game_map = load_map(map_name)
    specs = [opponent, opponent]
    specs[seat] = level
    bots = [make_bot(spec, game_map, s, seed) for s, spec in enumerate(specs)]
    game = None
    try:
        game = play_game(game_map, bots, seed, players=["a", "b"])
    finally:
        end_bots(bots, game)
    counts = abandons(game, seat)
    route, retries = counts.most_common(1)[0] if counts else (-1, 0)
    winners: list[object] = list(final_score(game).winners)
    win = 1 / len(winners) if seat in winners or ["a", "b"][seat] in winners else 0.0
    name = "" if route < 0 else game_map.routes[route].name
    return Outcome(level, "example" if opponent == EXAMPLE else opponent, map_name, seed, seat,
                   sum(game.hands[seat]), game.trains[seat], retries, name, win)


def tasks(levels: list[str], maps: list[str], games: int, seed: int,
          mix: list[str]) -> Iterator[tuple[str, str, str, int, int]]:
    """Every game to play: per level and map, `games` seeds, the opponent by turns and the seat alternating."""
    for level in levels:
        for map_name in maps:
            for i in range(games):
                yield level, mix[i % len(mix)], map_name, seed + i, (i // len(mix)) % 2


def summary(outcomes: list[Outcome], top: int, hand: int, trains: int) -> dict[str, object]:
    """Per level: games, wins, the largest final hands, games ending with `hand` cards or more (and with
    `trains` trains or more left), tunnel retries."""
    out: dict[str, object] = {}
    for level in dict.fromkeys(o.level for o in outcomes):
        mine = [o for o in outcomes if o.level == level]
        by_hand = sorted(mine, key=lambda o: (-o.hand, -o.trains, o.seed))
        by_tunnel = sorted(mine, key=lambda o: (-o.tunnel_retries, o.seed))
        out[level] = {
            "games": len(mine),
            "wins": sum(o.win for o in mine),
            "largest_hands": [asdict(o) for o in by_hand[:top]],
            f"hands_{hand}_or_more": sum(o.hand >= hand for o in mine),
            f"hands_{hand}_or_more_with_{trains}_trains": sum(o.hand >= hand and o.trains >= trains for o in mine),
            "most_tunnel_retries": [asdict(o) for o in by_tunnel[:top] if o.tunnel_retries],
            "games_with_a_tunnel_abandoned_twice": sum(o.tunnel_retries >= 2 for o in mine),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the report (a table, or `--json`)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated bot names (default: the levels)")
    parser.add_argument("--maps", default="europe,new_york")
    parser.add_argument("--games", type=int, default=200, help="games per level and map (default: 200)")
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--against", default=None, help="comma-separated opponents (default: the mix)")
    parser.add_argument("--top", type=int, default=3, help="games listed per level (default: 3)")
    parser.add_argument("--hand", type=int, default=20, help="a final hand this large counts (default: 20)")
    parser.add_argument("--trains", type=int, default=6, help="... with this many trains left (default: 6)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    mix = args.against.split(",") if args.against else MIX
    todo = list(tasks(args.levels.split(","), args.maps.split(","), args.games, args.seed, mix))
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            outcomes = list(pool.imap(play, todo))
    else:
        outcomes = [play(t) for t in todo]
    report = summary(outcomes, args.top, args.hand, args.trains)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    for level, row in report.items():
        assert isinstance(row, dict)
        stuck = row[f"hands_{args.hand}_or_more_with_{args.trains}_trains"]
        print(f"{level}: {row['games']} games, {row['wins']:g} wins; {row[f'hands_{args.hand}_or_more']} ended with "
              f"{args.hand}+ cards ({stuck} with {args.trains}+ trains left); "
              f"{row['games_with_a_tunnel_abandoned_twice']} with a tunnel abandoned twice or more")
        for o in row["largest_hands"]:
            print(f"  hand {o['hand']:2d} cards, {o['trains']:2d} trains left  {o['map_name']} seed {o['seed']} "
                  f"seat {o['seat']} against {o['opponent']}")
        for o in row["most_tunnel_retries"]:
            print(f"  {o['tunnel']} abandoned {o['tunnel_retries']} times  {o['map_name']} seed {o['seed']} "
                  f"seat {o['seat']} against {o['opponent']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
