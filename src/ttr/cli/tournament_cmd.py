"""`ttr tournament`: many games between bots, seats rotated, in parallel; standings, ratings, records."""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr.cli.console import games_progress, stdout_console
from ttr.cli.long_runs import folder_errors, sigterm_as_ctrl_c
from ttr.errors import MapError, TTRError
from ttr.sim.tournament import TournamentConfig, TournamentInterrupted, run_tournament

MAX_TIME_PER_MOVE = 600.0  # seconds a `cmd:` bot may think (as `mcts:Ts` at most)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the tournament sub-command."""
    p = sub.add_parser("tournament", help="play many games between bots and rank them")
    p.add_argument("--map", default="europe", help="map name or map file (default: europe)")
    p.add_argument("--players", type=int, default=2, help="seats per game (default: 2)")
    p.add_argument("--bots", default="greedy,random",
                   help="comma-separated bot names, e.g. greedy,random or 'cmd:python3 bot.py,greedy' "
                        "(seats rotate across games; default: greedy,random)")
    p.add_argument("--games", type=int, default=100, help="number of games (default: 100)")
    p.add_argument("--jobs", type=int, default=1,
                   help="worker processes (default: 1; 0 = one per CPU); the results do not depend on it")
    p.add_argument("--seed", type=int, default=0, help="game i uses seed S+i (default: 0)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--records", metavar="DIR",
                   help="write every game's record (ttr-record/1) to DIR; the same command again continues an "
                        "interrupted tournament there (or more --games)")
    p.add_argument("--time-per-move", type=float, default=1.0, metavar="T",
                   help="seconds per decision for cmd: bots, plus 1 s of grace (default: 1.0; at most 600)")
    p.set_defaults(run=run_tournament_cmd)


def bot_names(args: argparse.Namespace) -> tuple[str, ...]:
    """The `--bots` names, after checking `--bots` and `--time-per-move` (tournament, simulate, play)."""
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if not bots:
        raise TTRError("--bots: name at least one bot")
    if not 0 < args.time_per_move <= MAX_TIME_PER_MOVE:  # also refuses nan; inf would wait for ever on a silent bot
        raise TTRError(f"--time-per-move must be positive, at most {MAX_TIME_PER_MOVE:g} seconds")
    return bots


def bots_to_play(args: argparse.Namespace) -> tuple[str, ...]:
    """`bot_names`, after checking `--games` too (tournament, simulate)."""
    if args.games < 1:
        raise TTRError("--games must be at least 1")
    return bot_names(args)


def run_tournament_cmd(args: argparse.Namespace) -> int:
    """Run the tournament with a progress bar (on stderr), then print the standings or the JSON. Ctrl-C (or
    SIGTERM) prints the standings of the finished games; with `--records` a re-run continues."""
    bots = bots_to_play(args)
    if args.jobs < 0:
        raise TTRError("--jobs must be 0 (one per CPU) or more")
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    config = TournamentConfig(args.map, args.players, bots, args.games, args.seed, jobs, args.time_per_move,
                              args.records)
    check_config(config)
    if args.records and os.path.exists(args.records) and not os.path.isdir(args.records):
        raise TTRError(f"--records: {args.records} is a file, not a folder")
    err = Console(stderr=True)
    start = time.perf_counter()
    counts = [0, -1]  # games finished; games found finished in the records folder (-1: not known yet)
    interrupted = False
    with games_progress(err, eta=True) as bar:
        task = bar.add_task("games", total=config.games)

        def progress(done: int, total: int) -> None:
            if counts[1] < 0:
                counts[1] = done
                bar.reset(task, total=total, completed=done)
            counts[0] = done
            bar.update(task, completed=done)

        with sigterm_as_ctrl_c(), folder_errors("--records", args.records):
            try:
                summary = run_tournament(config, progress)
            except TournamentInterrupted as exc:
                bar.stop()
                summary, interrupted = exc.summary, True
    elapsed = time.perf_counter() - start
    resumed = max(0, counts[1])
    if interrupted:
        kept = (f"; they are kept in {args.records}: run the same command again to continue" if args.records
                else "; with --records DIR a re-run continues where it stopped")
        err.print(f"interrupted: {summary['games']} of {config.games} games finished{kept}", highlight=False,
                  soft_wrap=True)
        summary["interrupted"] = True
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=1))
    elif summary["games"]:
        _print(stdout_console(), summary, elapsed, summary["games"] - resumed, config.games)
    return 130 if interrupted else 0


def check_config(config: TournamentConfig) -> None:
    """Fail early, with a clear message, on a map, seat count or bot name that cannot play."""
    from ttr.bots import check_bot_spec
    from ttr.maps import load_map

    try:
        game_map = load_map(config.map_name)
    except (MapError, OSError, ValueError) as exc:
        raise TTRError(f"--map: {exc}") from None
    rules = game_map.rules
    if not rules.players_min <= config.players <= rules.players_max:
        raise TTRError(f"--players: {game_map.name} is for {rules.players_min}-{rules.players_max} players")
    for spec in config.bots:
        try:
            check_bot_spec(spec, game_map)
        except ValueError as exc:
            raise TTRError(f"--bots: {exc}") from None


def _print(console: Console, summary: dict[str, Any], elapsed: float, played: int, planned: int) -> None:
    """The standings of `summary["games"]` of `planned` games; `played` of them were played by this run (the
    others read from the records folder)."""
    games = summary["games"]
    seeds = f"seed {summary['seed']}" if planned == 1 else f"seeds {summary['seed']}-{summary['seed'] + planned - 1}"
    rate = played / elapsed if elapsed > 0 else 0.0
    if played == games:
        actions = sum(r["actions"] for r in summary["results"])
        speed = f"{elapsed:.1f} s, {rate:.2f} games/s, {actions / elapsed if elapsed > 0 else 0:.0f} actions/s"
    else:
        speed = f"{games - played} from the records folder, {played} played now in {elapsed:.1f} s ({rate:.2f} games/s)"
    count = f"{games} game{'s' * (games != 1)}" if games == planned else f"{games} of {planned} games"
    console.print(f"{summary['map']}, {summary['players']} players, {count} ({seeds}); "
                  f"{speed}", highlight=False)
    table = Table("bot", "seats", "wins", "win rate (95% CI)", "mean score", "tickets done", "Elo (95% CI)",
                  title="standings")
    rows = sorted(summary["standings"], key=lambda row: -row["elo"])
    for row in rows:
        lo, hi = row["win_rate_ci95"]
        tickets = row["ticket_completion"]
        table.add_row(row["bot"], str(row["seats_played"]), f"{row['wins']:g}",
                      f"{row['win_rate']:.1%} ({lo:.1%}-{hi:.1%})", f"{row['mean_score']:.1f}",
                      "-" if tickets is None else f"{tickets:.0%}", _elo_cell(row))
    console.print(table)
    if len(rows) > 1:
        def record(a: str, b: str) -> str:
            w, d, lost = summary["pairwise"][a][b]
            return f"{w:g}-{d:g}-{lost:g}"

        _print_pairs(console, summary, "pairwise: wins-draws-losses", record)
    if len(rows) > 2:
        _print_pairs(console, summary, "Elo difference, row minus column (95% CI; * where it excludes 0)",
                     lambda a, b: _difference_cell(summary, a, b))
    _print_by_seat(console, summary)
    for result in summary["results"]:
        for note in result["notes"]:
            if note["failures"]:
                replaced = ", then random played the seat" if note["replaced_by"] else ""
                console.print(f"game {result['game'] + 1}, seat {note['seat'] + 1} ({note['bot']}): "
                              f"{len(note['failures'])} failure(s){replaced}: {note['failures'][0]}",
                              highlight=False)


def _print_pairs(console: Console, summary: dict[str, Any], title: str, cell: Callable[[str, str], str]) -> None:
    """A table of every pair of bots, `cell(row bot, column bot)` off the diagonal."""
    names = [row["bot"] for row in summary["standings"]]
    table = Table("bot", *names, title=title)
    for a in names:
        table.add_row(a, *["-" if a == b else cell(a, b) for b in names])
    console.print(table)


def _difference_cell(summary: dict[str, Any], a: str, b: str) -> str:
    """Bot a's Elo minus bot b's with its 95% interval, starred where the interval leaves out 0 (with three
    bots or more, overlapping intervals in the standings do not show that two bots are level)."""
    cell = summary["elo_differences"][a][b]
    lo, hi = cell["ci95"]
    star = "*" if lo > 0 or hi < 0 else ""
    return f"{cell['difference']:+.0f} ({lo:+.0f} to {hi:+.0f}){star}"


def _print_by_seat(console: Console, summary: dict[str, Any]) -> None:
    """The win rate of each bot in each seat, and of each seat whoever sat there: the first-player advantage."""
    if summary["players"] < 2 or not summary["games"]:
        return
    seats = [f"seat {s + 1}" for s in range(summary["players"])]
    table = Table("bot", *seats, title="win rate by seat (seat 1 moves first)")

    def cell(row: dict[str, Any]) -> str:
        if not row["seats_played"]:
            return "-"
        return f"{row['win_rate']:.1%} of {row['seats_played']}"

    for row in summary["standings"]:
        table.add_row(row["bot"], *[cell(seat) for seat in row["by_seat"]])
    table.add_row("any bot", *[cell(seat) for seat in summary["by_seat"]])
    console.print(table)


def _elo_cell(row: dict[str, Any]) -> str:
    """The rating and its 95% interval, e.g. `1544 (1480-1608)`."""
    lo, hi = row["elo_ci95"]
    return f"{row['elo']:.0f} ({lo:.0f}-{hi:.0f})"
