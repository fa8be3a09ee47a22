"""Whether the bots still make the same moves: seeded games recorded once, then replayed and compared.

`record OUT` plays, for each bot of the set (the levels, the search at a small budget, the paper agents, the
greedy presets, random), GAMES seeded games per map and table size (2 and 4 seats) and writes every game's
action ids to OUT (JSON). `compare OUT` plays the same games again with the code as it is now and prints,
per bot, the games whose actions differ (with the first differing move). A refactoring that should not
change a bot's play must show no difference.

The cheap bots play every seat of their games; the search bots (`expert`, `mcts:N`) play seat 0 (or seat 1
in odd games) against a mix of the cheap ones, and play fewer games (`--search-games`, fewer still away from
two-seat New York: `SEARCH_SHARE`).

    python research/same_moves.py record /tmp/moves.json
    python research/same_moves.py compare /tmp/moves.json
    python research/same_moves.py diff /tmp/moves.json /tmp/moves-now.json  # two records, game by game
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

from ttr.bots import make_bot, play_game
from ttr.maps import load_map

CHEAP = ["random", "greedy", "greedy_long", "greedy_long_duel", "greedy_long_four", "easy", "medium", "hard",
         "destination_hungry", "route_focus", "one_step_thinker"]
SEARCH = ["mcts:8", "mcts", "expert"]
MIX = ["greedy", "route_focus", "hard", "destination_hungry"]
MAPS = ["new_york", "europe"]
SEATS = [2, 4]


# the games of the search bots per (map, seats), as a share of `--search-games` (none: not played there): the
# full budget is dear away from two-seat New York
SEARCH_SHARE = {"mcts:8": {("new_york", 2): 1.0, ("europe", 2): 0.5, ("new_york", 4): 0.5},
                "mcts": {("new_york", 2): 1.0, ("europe", 2): 0.25},
                "expert": {("new_york", 2): 1.0, ("europe", 2): 0.25}}


def jobs(games: int, search_games: int) -> list[tuple[str, str, int, int]]:
    """Every game to play: (bot, map, seats, seed)."""
    out = []
    for bot in CHEAP + SEARCH:
        for map_name in MAPS:
            for seats in SEATS:
                if bot in CHEAP:
                    count = games
                else:
                    share = SEARCH_SHARE[bot].get((map_name, seats), 0.0)
                    count = max(1, round(share * search_games)) if share else 0
                out.extend((bot, map_name, seats, seed) for seed in range(count))
    return out


def play(job: tuple[str, str, int, int]) -> tuple[str, list[int]]:
    """The action ids of one game of the job."""
    bot, map_name, seats, seed = job
    game_map = load_map(map_name)
    if bot in CHEAP:
        specs = [bot] * seats
    else:
        specs = [MIX[(seed + k) % len(MIX)] for k in range(seats)]
        specs[seed % 2] = bot
    bots = [make_bot(spec, game_map, seat, seed) for seat, spec in enumerate(specs)]
    game = play_game(game_map, bots, seed)
    return key(job), [aid for _, aid, *_ in game.history]


def key(job: tuple[str, str, int, int]) -> str:
    """The record's name of a job."""
    bot, map_name, seats, seed = job
    return f"{bot}|{map_name}|{seats}|{seed}"


def main(argv: list[str] | None = None) -> int:
    """Record or compare (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["record", "compare", "diff"])
    parser.add_argument("path", type=Path)
    parser.add_argument("other", type=Path, nargs="?", help="diff: a second record, compared game by game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--search-games", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated bots to play (compare: the others are skipped)")
    parser.add_argument("--search-at", default="", help="MAP-SEATS: the search bots play only there (e.g. new_york-2)")
    args = parser.parse_args(argv)
    if args.mode == "diff":
        return report(json.loads(args.path.read_text()), json.loads(args.other.read_text()))
    todo = jobs(args.games, args.search_games)
    if args.only:
        wanted = set(args.only.split(","))
        todo = [j for j in todo if j[0] in wanted]
    if args.search_at:
        todo = [j for j in todo if j[0] in CHEAP or f"{j[1]}-{j[2]}" == args.search_at]
    if args.mode == "compare":
        recorded: dict[str, list[int]] = json.loads(args.path.read_text())
        todo = [j for j in todo if key(j) in recorded]
    with Pool(args.jobs) as pool:
        results = dict(pool.imap_unordered(play, todo))
    if args.mode == "record":
        old: dict[str, list[int]] = json.loads(args.path.read_text()) if args.path.exists() else {}
        old.update(results)
        args.path.write_text(json.dumps(old))
        print(f"recorded {len(results)} games to {args.path}")
        return 0
    return report(recorded, results)


def report(recorded: dict[str, list[int]], results: dict[str, list[int]]) -> int:
    """Print, per bot, the games of `results` whose actions differ from `recorded` (the games both hold); 0 if
    none does."""
    common = sorted(set(recorded) & set(results))
    differ: dict[str, list[str]] = {}
    for name in common:
        actions, before = results[name], recorded[name]
        if actions != before:
            at = next((i for i, (a, b) in enumerate(zip(actions, before, strict=False)) if a != b),
                      min(len(actions), len(before)))
            differ.setdefault(name.split("|")[0], []).append(f"{name} (move {at})")
    for bot in sorted({name.split("|")[0] for name in common}):
        games = sum(1 for name in common if name.split("|")[0] == bot)
        moves = sum(len(results[name]) for name in common if name.split("|")[0] == bot)
        bad = differ.get(bot, [])
        shown = f": {', '.join(bad[:5])}" if bad else ""
        print(f"{bot:20} {games:4} games {moves:6} actions, {len(bad)} differ{shown}")
    print("same moves" if not differ else "MOVES DIFFER")
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
