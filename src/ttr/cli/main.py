"""`ttr`: the one command. Each sub-command lives in a module of this package and registers itself here."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from ttr.errors import TTRError

Register = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]


def _registrars() -> list[Register]:
    from ttr.cli import league_cmd, map_cmd, play_cmds, review_cmd, serve_cmd, sim_cmd, tournament_cmd

    return [play_cmds.register, map_cmd.register, tournament_cmd.register, league_cmd.register, serve_cmd.register,
            sim_cmd.register, review_cmd.register]


def version_line() -> str:
    """What `ttr --version` prints: the distribution, its version and the engine's build."""
    from ttr import DISTRIBUTION, __version__
    from ttr.cli.console import engine_build

    return f"ttr ({DISTRIBUTION}) {__version__}, {engine_build()}"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(prog="ttr", description="Ticket to Ride: Europe and New York.")
    parser.add_argument("--version", action="version", version=version_line(),
                        help="print the version and the engine's build, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for register in _registrars():
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `ttr`; returns the exit status (1 for a rule or input error, 2 for a usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except TTRError as exc:
        print(f"ttr {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
