"""`ttr league`: ratings of named agents kept in a JSON file across runs (`ttr.sim.league`)."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr.cli.console import stdout_console
from ttr.errors import MapError, TTRError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the league sub-command (`add`, `show`)."""
    p = sub.add_parser("league", help="rate agents against a pool kept in a file (openskill, Plackett-Luce)")
    actions = p.add_subparsers(dest="league_action", required=True)
    add = actions.add_parser("add", help="add agents, each rated by paired deals against every agent already in")
    add.add_argument("agents", nargs="+", metavar="AGENT",
                     help="a bot spec (greedy, mcts:medium, 'cmd:python3 bot.py', policy:PATH), or NAME=SPEC")
    add.add_argument("--league", default="league.json", help="the league file (default: league.json)")
    add.add_argument("--map", default=None,
                     help="map of a new league (default: europe; an existing file keeps its own)")
    add.add_argument("--players", type=int, default=None, help="seats per game of a new league (default: 2)")
    add.add_argument("--deals", type=int, default=20,
                     help="paired deals against each agent in the league, two games each (default: 20)")
    add.add_argument("--seed", type=int, default=0, help="deal i uses seed S+i (default: 0)")
    add.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1; 0 = one per CPU)")
    add.add_argument("--json", action="store_true", help="print the table as JSON")
    add.set_defaults(run=run_add)
    show = actions.add_parser("show", help="print the league table")
    show.add_argument("--league", default="league.json", help="the league file (default: league.json)")
    show.add_argument("--json", action="store_true", help="print the table as JSON")
    show.set_defaults(run=run_show)


def _load(path: str) -> Any:
    from ttr.sim.league import load_league

    try:
        return load_league(path)
    except ValueError as exc:
        raise TTRError(str(exc)) from None


def run_add(args: argparse.Namespace) -> int:
    """Add each agent in turn (each against every agent before it), saving the file after each."""
    from ttr.sim.league import League, add_agent, save_league

    if args.deals < 1:
        raise TTRError("--deals must be at least 1")
    if args.jobs < 0:
        raise TTRError("--jobs must be 0 (one per CPU) or more")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    if Path(args.league).exists():
        league = _load(args.league)
        for option, value, have in (("--map", args.map, league.map_name), ("--players", args.players, league.players)):
            if value is not None and value != have:
                raise TTRError(f"{option}: {args.league} is a league of {have}; leave {option} out or use another file")
    else:
        league = League(args.map or "europe", args.players or 2)
        _check_table(league.map_name, league.players)
    entries = [_entry(text) for text in args.agents]
    err = Console(stderr=True)
    for name, spec in entries:
        try:
            add_agent(league, name, spec, args.deals, args.seed, jobs,
                      progress=lambda line: err.print(line, highlight=False))
        except ValueError as exc:
            raise TTRError(f"{name}: {exc}") from None
        save_league(league, args.league)
    _print(league, args.json)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print the table of the league file."""
    if not Path(args.league).exists():
        raise TTRError(f"{args.league}: no league file (ttr league add AGENT --league {args.league} starts one)")
    _print(_load(args.league), args.json)
    return 0


def _entry(text: str) -> tuple[str, str]:
    """(name, spec) of an `AGENT` argument: `NAME=SPEC`, or the spec as its own name."""
    name, eq, spec = text.partition("=")
    if eq and name and ":" not in name and " " not in name:
        return name, spec
    return text, text


def _check_table(map_name: str, players: int) -> None:
    from ttr.maps import load_map

    try:
        rules = load_map(map_name).rules
    except (MapError, OSError, ValueError) as exc:
        raise TTRError(f"--map: {exc}") from None
    if not rules.players_min <= players <= rules.players_max:
        raise TTRError(f"--players: {map_name} is for {rules.players_min}-{rules.players_max} players")


def _print(league: Any, as_json: bool) -> None:
    rows = league.table()
    if as_json:
        print(json.dumps({"map": league.map_name, "players": league.players, "agents": rows}, indent=1))
        return
    console = stdout_console()
    table = Table("agent", "rating mu (95% CI)", "sigma", "mu - 3 sigma", "games", "win rate",
                  title=f"league: {league.map_name}, {league.players} players, {len(league.matches)} matches")
    for row in rows:
        lo, hi = row["ci95"]
        rate = "-" if row["win_rate"] is None else f"{row['win_rate']:.1%}"
        name = row["name"] if row["name"] == row["spec"] else f"{row['name']} ({row['spec']})"
        table.add_row(name, f"{row['mu']:.2f} ({lo:.2f}-{hi:.2f})", f"{row['sigma']:.2f}", f"{row['ordinal']:.2f}",
                      str(row["games"]), rate)
    console.print(table)
