"""`ttr map check|show|analyze|render|print`: the map tools. A map is `europe`, `new_york`, or a map file path."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from ttr.errors import MapError
from ttr.maps import BUILTIN_MAPS, load_map
from ttr.maps.check import check_map
from ttr.maps.render import render_png, render_svg
from ttr.maps.summary import format_summary, map_summary

MAP_HELP = f"a shipped map ({', '.join(BUILTIN_MAPS)}) or a ttr-map/1 JSON file"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `ttr map` and its sub-commands."""
    parser = sub.add_parser("map", help="check, summarise or draw a map", description=__doc__)
    tools = parser.add_subparsers(dest="map_command", metavar="TOOL")
    tools.required = True

    check = tools.add_parser("check", help="report every problem of a map file (exit 1 if any)")
    check.add_argument("map", metavar="MAP", help=MAP_HELP)
    check.set_defaults(run=run_check)

    show = tools.add_parser("show", help="summarise a map: cities, routes, tickets, cards")
    show.add_argument("map", metavar="MAP", help=MAP_HELP)
    show.add_argument("--json", action="store_true", help="print the summary as JSON")
    show.set_defaults(run=run_show)

    analyze = tools.add_parser("analyze", help="static balance: tickets against shortest paths, bottlenecks, "
                               "colours against the deck, cities by degree")
    analyze.add_argument("map", metavar="MAP", help=MAP_HELP)
    analyze.add_argument("--json", action="store_true", help="print the analysis as JSON (docs/maps.md)")
    analyze.set_defaults(run=run_analyze)

    render = tools.add_parser("render", help="draw the board as SVG or PNG (by the output's extension)")
    render.add_argument("map", metavar="MAP", help=MAP_HELP)
    render.add_argument("-o", "--output", required=True, metavar="FILE", help="board.svg or board.png")
    render.add_argument("--scale", type=float, default=1.0, help="PNG only: pixels per SVG unit (default 1)")
    render.set_defaults(run=run_render)

    printing = tools.add_parser("print", help="print and play: the board at a real size, ticket cards and a "
                                "rules sheet, as SVG and PDF")
    printing.add_argument("map", metavar="MAP", help=MAP_HELP)
    printing.add_argument("--size", default="80x55cm", help="the board's size, WIDTHxHEIGHT with cm, mm or in "
                          "(default: 80x55cm)")
    printing.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write into")
    printing.add_argument("--svg-only", action="store_true", help="write the SVG files only (no cairosvg needed)")
    printing.set_defaults(run=run_print)


def run_print(args: argparse.Namespace) -> int:
    """Write the board at the asked size, the ticket sheets and the rules sheet (SVG, and PDF when possible)."""
    from ttr.maps.printing import parse_size, pdf_available, print_map

    size = parse_size(args.size)
    game_map = load_map(args.map)
    pdf = not args.svg_only
    if pdf and not pdf_available():
        raise MapError("PDF output needs cairosvg and the cairo library (pip install 'ttr[png]'); "
                       "or give --svg-only")
    written = print_map(game_map, size, Path(args.output), pdf=pdf)
    print(f"wrote {len(written)} files to {args.output}: {', '.join(p.name for p in written)}")
    return 0


def read_map_data(name_or_path: str) -> Any:
    """A map's parsed JSON, unchecked: a shipped map by name, or a file by path."""
    if name_or_path in BUILTIN_MAPS:
        text = resources.files("ttr.maps").joinpath(f"{name_or_path}.json").read_text(encoding="utf-8")
        return json.loads(text)
    path = Path(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        hint = f" (shipped maps: {', '.join(BUILTIN_MAPS)})" if not path.suffix else ""
        raise MapError(f"cannot read map file {name_or_path}: {exc.strerror or exc}{hint}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError(f"{name_or_path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def run_check(args: argparse.Namespace) -> int:
    """Print every problem of the map as ``MAP: where: message``; exit status 1 if there is any."""
    data = read_map_data(args.map)
    problems = check_map(data)
    for problem in problems:
        print(f"{args.map}: {problem}")
    if problems:
        noun = "problem" if len(problems) == 1 else "problems"
        print(f"{args.map}: {len(problems)} {noun}", file=sys.stderr)
        return 1
    game_map = load_map(args.map)  # the loader's own structural checks, too
    print(f"{args.map}: ok ({len(game_map.cities)} cities, {len(game_map.routes)} routes, "
          f"{len(game_map.tickets)} tickets)")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print the map's summary as tables, or as JSON with --json."""
    summary = map_summary(load_map(args.map))
    if args.json:
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_summary(summary, color=sys.stdout.isatty()))
    return 0


def run_analyze(args: argparse.Namespace) -> int:
    """Print the map's static analysis as tables, or as JSON with --json."""
    from ttr.maps.analyze import analyze_map, format_analysis  # here: networkx and numpy load only for this

    analysis = analyze_map(load_map(args.map))
    if args.json:
        print(json.dumps(analysis, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(format_analysis(analysis, color=sys.stdout.isatty()))
    return 0


def run_render(args: argparse.Namespace) -> int:
    """Draw the board to the output file, SVG or PNG by its extension."""
    game_map = load_map(args.map)
    output = Path(args.output)
    suffix = output.suffix.lower()
    if suffix == ".svg":
        try:
            output.write_text(render_svg(game_map), encoding="utf-8")
        except OSError as exc:
            raise MapError(f"cannot write {output}: {exc.strerror or exc}") from None
    elif suffix == ".png":
        render_png(game_map, output, scale=args.scale)
    else:
        raise MapError(f"cannot tell the format of {output}: name it .svg or .png")
    print(f"wrote {output}")
    return 0
