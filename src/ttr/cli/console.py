"""The Rich consoles the commands print to, and their progress reports."""

from __future__ import annotations

import os
import time
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

PIPED_WIDTH = 120
"""Columns for output that goes to a file or a pipe: Rich's default of 80 cuts wide tables (a tournament's
confidence intervals ended in "…")."""


def engine_build() -> str:
    """Which build of the engine runs: "compiled (mypyc)" (setup.py's `TTR_COMPILE=1`) or "pure Python"."""
    import ttr.engine.game as engine_module

    compiled = not engine_module.__file__ or not engine_module.__file__.endswith(".py")
    return "compiled (mypyc)" if compiled else "pure Python"


def stdout_console() -> Console:
    """A console on standard output: the terminal's width, or `COLUMNS`, or `PIPED_WIDTH` when piped."""
    console = Console()
    if console.is_terminal or "COLUMNS" in os.environ:
        return console
    return Console(width=PIPED_WIDTH)


class LineProgress:
    """A progress report for a log file: a plain line on `console` each time another tenth of the games is
    done (a bar would not show there). Takes the calls of `rich.progress.Progress` the commands make."""

    def __init__(self, console: Console, label: str = "games") -> None:
        self.console = console
        self.label = label
        self.total = 0
        self.completed = 0
        self.start = time.monotonic()
        self.base = 0  # games done before this run (a resumed simulation): not counted in the estimate
        self.tenth = 0  # tenths reported so far

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: int) -> TaskID:
        """Start counting `total` games (one task only)."""
        self.total = total
        return TaskID(0)

    def advance(self, task: TaskID, advance: int = 1) -> None:
        """`advance` more games are done."""
        self.update(task, completed=self.completed + advance)

    def reset(self, task: TaskID, total: int, completed: int = 0) -> None:
        """Count again: `total` games of which `completed` were done before (the estimate leaves them out)."""
        self.total, self.completed, self.base = total, completed, completed
        self.start = time.monotonic()
        self.tenth = completed * 10 // total if total else 0

    def update(self, task: TaskID, completed: int) -> None:
        """`completed` games are done; a line when that reaches another tenth of the total."""
        self.completed = completed
        if not self.total:
            return
        tenth = completed * 10 // self.total
        if tenth <= self.tenth:
            return
        self.tenth = tenth
        elapsed = time.monotonic() - self.start
        line = f"{self.label} {completed}/{self.total} ({completed / self.total:.0%}), {_clock(elapsed)} elapsed"
        run = completed - self.base
        if run > 0 and completed < self.total:
            line += f", about {_clock(elapsed / run * (self.total - completed))} left"
        self.console.print(line, highlight=False)

    def stop(self) -> None:
        """Nothing to take down (a bar would be)."""


def _clock(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def games_progress(console: Console, eta: bool = False) -> Progress | LineProgress:
    """A progress report of games on `console` (standard error): a bar on a terminal (with the time left if
    `eta`), else a `LineProgress`."""
    if not console.is_terminal:
        return LineProgress(console)
    columns: list[Any] = [TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if eta:
        columns += [TextColumn("ETA"), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=True)
