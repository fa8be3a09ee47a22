"""`ttr simulate` (many bot games in parallel into a results folder, resumable) and `ttr report` (the HTML page)."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from rich.console import Console

from ttr.cli.console import games_progress
from ttr.cli.long_runs import folder_errors, sigterm_as_ctrl_c
from ttr.cli.tournament_cmd import bots_to_play, check_config
from ttr.errors import TTRError
from ttr.maps import BUILTIN_MAPS
from ttr.sim.simulate import Runner
from ttr.sim.tournament import TournamentConfig


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the simulate and report sub-commands."""
    p = sub.add_parser("simulate", help="play many bot games into a results folder (per-game rows)")
    p.add_argument("--map", default="europe", help="map name or map file (rule variants: docs/maps.md)")
    p.add_argument("--players", type=int, default=None, help="seats per game (default: 4)")
    p.add_argument("--bots", default=None,
                   help="comma-separated bot names, rotated through the seats (e.g. greedy,greedy,mcts:easy,random;"
                        " default: greedy)")
    p.add_argument("--games", type=int, default=None, help="number of games (default: 1000)")
    p.add_argument("--jobs", default="auto", help="worker processes, or auto = one per CPU (default: auto); "
                                                  "the results do not depend on it")
    p.add_argument("--seed", type=int, default=None, help="game i uses seed S+i (default: 0)")
    p.add_argument("--paired-with", metavar="DIR", default=None,
                   help="play the same deals as the simulation in DIR: its seed, players, bots and games "
                        "(for `ttr report DIR OUT`, which then uses paired tests)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="results folder; re-running with the same settings continues an interrupted run")
    p.add_argument("--format", choices=["parquet", "csv"], default=None,
                   help="table format (default: parquet when pyarrow is installed, else csv)")
    p.add_argument("--records", action="store_true", help="also write every game's record to DIR/records/")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run on Ray: local (a Ray instance on this machine), auto, or HOST:PORT (needs ttr[ray])")
    p.add_argument("--time-per-move", type=float, default=1.0, metavar="T",
                   help="seconds per decision for cmd: bots, plus 1 s of grace (default: 1.0; at most 600)")
    p.set_defaults(run=run_simulate)

    r = sub.add_parser("report", help="an HTML page of plots from one or two simulation folders")
    r.add_argument("folders", nargs="+", metavar="DIR", help="a folder written by ttr simulate (two to compare)")
    r.add_argument("-o", "--output", default="report.html", help="the HTML file to write (default: report.html)")
    r.add_argument("--markdown", action="store_true",
                   help="print the win-rate table (95%% Wilson intervals) of every folder as Markdown instead")
    r.add_argument("--json", action="store_true",
                   help="with two folders: print the comparison (B - A, intervals, tests, real differences) as JSON")
    r.set_defaults(run=run_report)


def _jobs(text: str) -> int:
    if text == "auto":
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            return os.cpu_count() or 1
    try:
        jobs = int(text)
    except ValueError:
        raise TTRError(f"--jobs: give a number or auto, not {text!r}") from None
    if jobs < 1:
        raise TTRError("--jobs must be at least 1 (or auto)")
    return jobs


DEFAULTS = {"players": 4, "bots": "greedy", "games": 1000, "seed": 0}


def _settle_pairing(args: argparse.Namespace) -> None:
    """Fill in --players, --bots, --games and --seed: from the --paired-with folder, else the defaults. A value
    given that differs from the paired folder's is refused (the deals would not be the same)."""
    if args.paired_with is None:
        for key, value in DEFAULTS.items():
            if getattr(args, key) is None:
                setattr(args, key, value)
        return
    from ttr.sim.simulate import SETTINGS

    path = Path(args.paired_with) / SETTINGS
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        settings = saved["settings"]
        base = {"players": int(settings["players"]), "bots": ",".join(settings["bots"]),
                "seed": int(settings["seed"]), "games": int(saved["games_done"])}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise TTRError(f"--paired-with: {path} is not a simulation's settings ({exc})") from None
    for key, value in base.items():
        given = getattr(args, key)
        if given is None or key == "games":
            setattr(args, key, value if given is None else given)
        elif (",".join(b.strip() for b in given.split(",")) if key == "bots" else given) != value:
            raise TTRError(f"--{key} {given} differs from {args.paired_with}'s {value}: paired runs share the seed, "
                           "players and bots (leave it out)")


def run_simulate(args: argparse.Namespace) -> int:
    """Run the simulation with a progress bar and ETA (on stderr); Ctrl-C keeps the finished games."""
    from ttr.sim.rows import have_pyarrow
    from ttr.sim.simulate import run_local

    _settle_pairing(args)
    bots = bots_to_play(args)
    fmt = args.format or ("parquet" if have_pyarrow() else "csv")
    if fmt == "parquet" and not have_pyarrow():
        raise TTRError("--format parquet needs pyarrow (pip install 'ttr-game[sim]'), or use --format csv")
    map_json = None
    if args.map not in BUILTIN_MAPS and Path(args.map).is_file():  # workers (and Ray nodes) get the text
        try:
            map_json = Path(args.map).read_text(encoding="utf-8")
        except (OSError, ValueError) as exc:
            raise TTRError(f"--map: cannot read {args.map!r}: {exc}") from None
    config = TournamentConfig(args.map, args.players, bots, args.games, args.seed, _jobs(args.jobs),
                              args.time_per_move, map_json=map_json)
    check_config(config)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise TTRError(f"--out: {out} is a file, not a folder")
    if args.ray is None:
        return _simulate(args, config, out, fmt, run_local)
    from ttr.sim.ray_runner import RayConnectError, connect, ray_available, ray_runner

    if not ray_available():
        raise TTRError("--ray needs Ray (pip install 'ttr-game[ray]')")
    try:
        started = connect(args.ray, config.jobs)  # before the folder is touched: a bad address changes nothing
    except RayConnectError as exc:
        raise TTRError(str(exc)) from None
    try:
        return _simulate(args, config, out, fmt, ray_runner(args.ray))
    finally:
        if started:
            import ray

            ray.shutdown()


def _simulate(args: argparse.Namespace, config: TournamentConfig, out: Path, fmt: str, runner: Runner) -> int:
    """Run the simulation with the progress bar; the summary line or the interruption message."""
    from ttr.sim.simulate import simulate, table_path

    err = Console(stderr=True)
    start = time.perf_counter()
    done_box = [0, 0]
    with games_progress(err, eta=True) as bar:
        task = bar.add_task("games", total=config.games)

        def progress(done: int, total: int) -> None:
            if done_box[1] == 0:
                bar.reset(task, total=total, completed=done)  # the ETA counts only this run's games
            done_box[:] = [done, done_box[1] + 1]
            bar.update(task, completed=done)

        with sigterm_as_ctrl_c(), folder_errors("--out", out):
            try:
                games = simulate(config, out, fmt, with_records=args.records, runner=runner, progress=progress)
            except KeyboardInterrupt:
                bar.stop()
                err.print(f"interrupted: {done_box[0]} of {config.games} games kept in {out} "
                          f"({table_path(out, fmt).name}); run the same command again to continue",
                          highlight=False, soft_wrap=True)
                return 130
    elapsed = time.perf_counter() - start
    played = max(0, done_box[1] - 1)
    rate = f", {played / elapsed * 3600:.0f} games/hour" if played and elapsed > 0 else ""
    print(f"{games} games in {table_path(out, fmt)} ({played} played now in {elapsed:.1f} s{rate}); "
          f"next: ttr report {out} -o report.html")
    return 0


def run_report(args: argparse.Namespace) -> int:
    """Write the HTML report of one or two simulation folders."""
    from ttr.sim.report import ReportError, comparison, markdown_table, write_report

    if args.json:
        try:
            print(json.dumps(comparison([Path(f) for f in args.folders]), indent=2))
        except ReportError as exc:
            raise TTRError(str(exc)) from None
        return 0
    if args.markdown:
        try:
            print(markdown_table([Path(f) for f in args.folders]), end="")
        except ReportError as exc:
            raise TTRError(str(exc)) from None
        return 0
    if len(args.folders) > 2:
        raise TTRError("give one simulation folder, or two to compare")
    try:
        write_report([Path(f) for f in args.folders], Path(args.output))
    except ReportError as exc:
        raise TTRError(str(exc)) from None
    except OSError as exc:
        raise TTRError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}")
    return 0
