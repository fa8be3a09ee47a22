"""The Rich console the commands print their tables to."""

from __future__ import annotations

import os

from rich.console import Console

PIPED_WIDTH = 120
"""Columns for output that goes to a file or a pipe: Rich's default of 80 cuts wide tables (a tournament's
confidence intervals ended in "…")."""


def stdout_console() -> Console:
    """A console on standard output: the terminal's width, or `COLUMNS`, or `PIPED_WIDTH` when piped."""
    console = Console()
    if console.is_terminal or "COLUMNS" in os.environ:
        return console
    return Console(width=PIPED_WIDTH)
