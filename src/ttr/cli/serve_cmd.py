"""Placeholder: being written (see the open issues). Registers nothing yet."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this module's sub-commands (none yet)."""
