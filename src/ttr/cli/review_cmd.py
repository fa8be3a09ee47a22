"""`ttr review`: a finished game's decisions of one seat rated by the `expert` search (docs/review.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr.cli.console import LineProgress, stdout_console
from ttr.errors import RecordError
from ttr.records import load_json, read_record
from ttr.review import default_playouts, review_record

SPARK = "▁▂▃▄▅▆▇█"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the review sub-command."""
    p = sub.add_parser("review", help="rate every decision of a seat in a finished game (ttr-record/1)")
    p.add_argument("record", help="path of a ttr-record/1 JSON file of a finished game")
    p.add_argument("--seat", type=int, default=0, help="the seat to review, 0 first as in the record (default: 0)")
    p.add_argument("--budget", type=int, metavar="N",
                   help="playouts per decision (default: 96, New York 320); the review is the same on every "
                        "machine for the same record, seat and budget")
    p.add_argument("--json", action="store_true", help="print the review as JSON (ttr-review/1, docs/review.md)")
    p.set_defaults(run=run_review)


def run_review(args: argparse.Namespace) -> int:
    """Review the seat's game; the table or the JSON on standard output, progress on standard error."""
    record = read_record(load_json(args.record))
    if args.budget is not None and args.budget < 1:
        raise RecordError(f"--budget: expected at least 1 playout per decision, got {args.budget}")
    err = Console(stderr=True)
    progress = LineProgress(err, "decisions")
    task = progress.add_task("decisions", 0)

    def report(done: int, total: int) -> None:
        if progress.total != total:
            progress.reset(task, total)
        progress.update(task, done)

    review = review_record(record, args.seat, args.budget, report if err.is_terminal or not args.json else None)
    if args.json:
        json.dump(review, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        print_review(stdout_console(), review)
    return 0


def _loss(row: dict[str, Any]) -> str:
    lo, hi = row["interval"]
    return f"{row['loss']:.1f} ({lo:.1f}-{hi:.1f})" if row["loss"] > 0 else "0"


def sparkline(values: list[float]) -> str:
    """`values` as a line of block characters, lowest to highest."""
    if not values:
        return ""
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    return "".join(SPARK[min(len(SPARK) - 1, int((v - lo) / span * len(SPARK)))] for v in values)


def print_review(console: Console, review: dict[str, Any]) -> None:
    """The review as tables: every decision, the costliest with why, the standing curve, the summary."""
    seat = review["seat"]
    console.print(f"[bold]{review['players'][seat]}[/] (seat {seat}), {review['map']}: "
                  f"{len(review['decisions'])} decisions, {review['playouts']} playouts each; "
                  f"points given up in all: {review['total_loss']:.1f}", highlight=False)
    table = Table(title="Decisions (loss: points given up against the best move found, 95% interval)")
    for column in ("move", "phase", "played", "best", "loss", "value", "win"):
        table.add_column(column, justify="right" if column in ("move", "loss", "value", "win") else "left")
    for row in review["decisions"]:
        best = row["best_text"] if row["loss"] > 0 else ""
        table.add_row(str(row["move"]), row["phase"], row["played_text"], best, _loss(row), f"{row['value']:.1f}",
                      f"{row['win_chance']:.0%}")
    console.print(table)
    by_index = {row["index"]: row for row in review["decisions"]}
    costly = Table(title="The costliest decisions")
    for column in ("move", "played", "better", "loss", "why the better move"):
        costly.add_column(column, justify="right" if column in ("move", "loss") else "left")
    for index in review["costliest"]:
        row = by_index[index]
        costly.add_row(str(row["move"]), row["played_text"], row["best_text"], _loss(row), row["reason_text"])
    console.print(costly)
    values = [s["value"] for s in review["standing"]]
    if values:
        console.print(f"standing (margin over the best other seat, move by move): {sparkline(values)}  "
                      f"from {values[0]:+.1f} to {values[-1]:+.1f}", highlight=False)
    s = review["summary"]
    console.print(f"final: {s['score']} points, rank {s['rank']}{' (won)' if s['won'] else ''}; "
                  f"tickets never finished: {', '.join(s['tickets_unfinished']) or 'none'}; "
                  f"cards held at the end: {s['cards_held_count']}; "
                  f"tunnels abandoned: {', '.join(s['tunnels_abandoned']) or 'none'}; "
                  f"{s['piece_name']} unused: {s['pieces_unused']}", highlight=False)


__all__ = ["default_playouts", "print_review", "register", "run_review", "sparkline"]
