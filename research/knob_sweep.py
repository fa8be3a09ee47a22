#!/usr/bin/env python3
"""Sweep greedy's tuning knobs: `research/knob_sweep.py MAP [--bot BOT] [--against BOTS] [--configs N |
--neighbours] [--base JSON] [--players P] [--games G] [--seed S] [--jobs J] [--out FILE]`.

Each *config* is a set of `GreedyBot` knobs (class attributes such as `overhead` or `points_weight`) laid
over the parameters `--bot` (default greedy; or a preset such as `greedy_long`) has for MAP (its profile for
the seat count).
The first config is `--base` (default: the bot as it is); then `--configs N` random configs drawn from
`SPACE` (seeded by `--seed`), or with `--neighbours` every config one step from the base along one knob of
`SPACE` (in both, only the knobs the map can use: `space_for`). Each config plays G games of P players
(default 2; seeds S, S+1, ...; in the game of seed s it sits in seat s mod P, every other seat the opponent)
against each bot of `--against` (default: the four FDG 2017 agents and `greedy_long`; any bot `ttr
tournament --bots` takes, `mcts:200` or `cmd:python3 mybot.py` included), so every config meets the same
deals. One line per config: its win rate against each bot (a shared win counts half) and the lowest against
the paper agents; with `--out`, the same as a JSON line appended to FILE.

It was used to ask whether greedy can beat every paper agent in 70% of two-player New York games,
and to tune `greedy_long` against greedy in two-player Europe (the experiment log,
`git show 4584f41:research/bot-experiments.md`, "a greedy that meets the New York target costs the search its own").
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ttr.bots import BOTS, check_bot_spec, make_bot, play_game
from ttr.bots.base import Bot
from ttr.bots.cmd_bot import end_bots
from ttr.bots.greedy import GreedyBot
from ttr.bots.params import PRESETS
from ttr.bots.profiles import profile
from ttr.bots.styles import Policy
from ttr.engine import Game, final_score
from ttr.maps import GameMap, load_map

PAPER_AGENTS = ("route_focus", "destination_hungry", "one_step_thinker", "long_route_junkie")
AGAINST = (*PAPER_AGENTS, "greedy_long")

SPACE: dict[str, list[Any]] = {
    "overhead": [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.3],
    "points_weight": [0.3, 0.5, 0.7, 0.9, 1.1, 1.3, 1.6],
    "attraction_cost": [0.0, 0.2, 0.5, 0.8, 1.2],
    "setup_cap": [0.6, 0.75, 0.8, 0.9, 1.0],
    "draws_tickets": [True, False],
    "face_up_wilds": [True, False],
    "hand_weight": [0.0, 0.1, 0.2, 0.4, 0.6],
    "train_share": [0.5, 0.65, 0.8, 1.0, 1.2],
    "long_min": [1, 2, 3, 4],
    "ticket_draw_mine": [0.15, 0.25, 0.35],
    "ticket_draw_others": [0.3, 0.35, 0.45],
    "express_weight": [0.25, 0.5, 1.0, 1.5],
    "tunnel_penalty": [0.3, 0.8, 1.5],
    "ferry_penalty": [1.0, 2.0, 3.0],
    "borrow_cost": [6.0, 9.0, 12.0],
}
"""The values a random config draws each knob from (and the steps of `--neighbours`); `space_for` leaves
out those a map cannot use."""

FEATURE_KNOBS: dict[str, str] = {
    "attraction_cost": "tourist attractions",
    "express_weight": "a longest-path bonus",
    "tunnel_penalty": "tunnels",
    "ferry_penalty": "ferries",
    "borrow_cost": "stations",
}
"""The knobs that weigh something only some maps have (New York: attractions; Europe: the rest)."""


def space_for(game_map: GameMap) -> dict[str, list[Any]]:
    """`SPACE` without the knobs of `FEATURE_KNOBS` whose feature the map lacks: they would change nothing
    there, only the configs printed."""
    rules = game_map.rules
    has = {
        "tourist attractions": bool(game_map.tourist_attractions),
        "a longest-path bonus": rules.longest_path_bonus > 0,
        "tunnels": any(r.tunnel for r in game_map.routes),
        "ferries": any(r.ferry_locomotives > 0 for r in game_map.routes),
        "stations": rules.stations > 0,
    }
    return {knob: values for knob, values in SPACE.items() if knob not in FEATURE_KNOBS or has[FEATURE_KNOBS[knob]]}


def tuned(bot: str, knobs: dict[str, Any], map_name: str | GameMap, seat: int, seed: int,
          players: int = 2) -> GreedyBot:
    """Bot `bot` (greedy or one of its presets, e.g. `greedy_long`) for `map_name` (a map, a map's name or a
    map file) with `knobs` laid over its parameters in a game of `players` seats there (its profile's;
    `ValueError` for an unknown knob or map, or a bot without greedy's parameters)."""
    game_map = map_name if isinstance(map_name, GameMap) else load_map(map_name)
    base = BOTS.get(bot)
    preset = "greedy" if base is GreedyBot else base.preset if isinstance(base, Policy) else None
    if preset is None:
        raise ValueError(f"--bot {bot!r} has no knobs: give greedy or one of its variants (e.g. greedy_long)")
    params = profile(game_map, players).params(preset).but(knobs, "--base")
    return GreedyBot(game_map, seat, seed, preset=preset, params=params)


def one_game(args: tuple[str, str, dict[str, Any], str, int, int]) -> float:
    """The config's share of the win in one game of `players` seats, every other seat `opponent` (it sits in
    seat `seed mod players`: in two-player games it moves first in even seeds)."""
    map_name, bot, knobs, opponent, seed, players = args
    game_map = load_map(map_name)
    mine = seed % players
    bots: list[Bot] = []
    game: Game | None = None
    try:
        for s in range(players):
            bots.append(tuned(bot, knobs, game_map, s, seed, players) if s == mine
                        else make_bot(opponent, game_map, s, seed))
        game = play_game(game_map, bots, seed)
        winners = final_score(game).winners
    finally:
        end_bots(bots, game)  # a `cmd:` opponent's program is told the result and closed
    return 1 / len(winners) if game.players[mine] in winners else 0.0


def configs(base: dict[str, Any], count: int, neighbours: bool, seed: int,
            current: dict[str, Any] | None = None, space: dict[str, list[Any]] | None = None) -> list[dict[str, Any]]:
    """The base, then `count` random configs or (with `neighbours`) the base moved one step along each knob
    of `space` (default `SPACE`) from its `current` value (the bot's own with the base laid over; default
    greedy's class values; a value not in the space is moved to each of the knob's values)."""
    space = SPACE if space is None else space
    out = [dict(base)]
    if neighbours:
        for knob, values in space.items():
            now = (current or {}).get(knob, base.get(knob, getattr(PRESETS["greedy"], knob)))
            i = values.index(now) if now in values else -1
            steps = [values[j] for j in (i - 1, i + 1) if 0 <= j < len(values)] if i >= 0 else values
            out += [{**base, knob: value} for value in steps]
    else:
        rng = random.Random(seed)
        for _ in range(count):  # drawn over all of `SPACE`, so a seed draws the same configs on every map
            drawn = {knob: rng.choice(values) for knob, values in SPACE.items()}
            out.append({knob: value for knob, value in drawn.items() if knob in space})
    return out


def evaluate(map_name: str, bot: str, knobs: dict[str, Any], against: list[str], games: int, seed: int,
             pool: ProcessPoolExecutor | None, players: int = 2) -> dict[str, float]:
    """Per opponent, the config's win rate over `games` games of `players` seats (seeds `seed`...)."""
    result = {}
    for opponent in against:
        work = [(map_name, bot, knobs, opponent, seed + i, players) for i in range(games)]
        wins = list(pool.map(one_game, work, chunksize=25)) if pool else [one_game(w) for w in work]
        result[opponent] = sum(wins) / games
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the sweep and print a line per config."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("map")
    p.add_argument("--bot", default="greedy", help="the bot whose knobs are swept: greedy (default) or a variant")
    p.add_argument("--against", default=",".join(AGAINST),
                   help="comma-separated bots, as `ttr tournament --bots` names them (e.g. mcts:200, cmd:...)")
    p.add_argument("--configs", type=int, default=20, help="random configs after the base")
    p.add_argument("--neighbours", action="store_true", help="the base's one-step neighbours instead")
    p.add_argument("--base", default="{}", help="the first config, as a JSON object of knobs")
    p.add_argument("--players", type=int, default=2, help="seats per game: the config in one, the opponent in the rest")
    p.add_argument("--games", type=int, default=1000, help="games per config and opponent")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", help="append a JSON line per config to this file")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    against = [name.strip() for name in args.against.split(",") if name.strip()]
    try:
        base = json.loads(args.base)
    except json.JSONDecodeError as error:
        p.error(f"--base is not JSON: {error}")
    if not isinstance(base, dict):
        p.error("--base must be a JSON object of knobs")
    try:
        probe = tuned(args.bot, base, args.map, 0, 0, args.players)
    except ValueError as error:  # an unknown knob, map or bot (`ttr.errors` are ValueErrors)
        p.error(str(error))
    rules = probe.game_map.rules
    if not rules.players_min <= args.players <= rules.players_max:
        p.error(f"--players: {args.map} is played by {rules.players_min}-{rules.players_max}, not {args.players}")
    for name in against:
        try:
            check_bot_spec(name, probe.game_map)
        except ValueError as error:
            p.error(f"--against: {error}")
    space = space_for(probe.game_map)
    current = {knob: getattr(probe.params, knob) for knob in space}
    paper = [name for name in against if name in PAPER_AGENTS]
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        for knobs in configs(base, args.configs, args.neighbours, args.seed, current, space):
            rates = evaluate(args.map, args.bot, knobs, against, args.games, args.seed, pool, args.players)
            lowest = min((rates[name] for name in paper), default=None)
            cells = "  ".join(f"{name} {rate:.3f}" for name, rate in rates.items())
            low = f"lowest paper {lowest:.3f}  " if lowest is not None else ""
            print(f"{low}{cells}  {json.dumps(knobs)}", flush=True)
            if args.out:
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"knobs": knobs, "rates": rates, "lowest_paper": lowest}) + "\n")
    finally:
        if pool:
            pool.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
