"""A map at a glance: counts of cities, routes, tickets and cards, as data and as Rich tables."""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from rich.console import Console
from rich.table import Table

from ttr.maps.model import GameMap


def map_summary(game_map: GameMap) -> dict[str, Any]:
    """The map's numbers as a JSON-ready dict (lengths and colours in a stable order)."""
    routes = game_map.routes
    rules = game_map.rules
    by_length = Counter(r.length for r in routes)
    by_color = Counter(r.color for r in routes)
    color_order = [*game_map.colors, "gray"]
    points = [t.points for t in game_map.tickets]
    long_count = sum(t.long for t in game_map.tickets)
    return {
        "name": game_map.name,
        "title": game_map.title,
        "players": {"min": rules.players_min, "max": rules.players_max},
        "cities": len(game_map.cities),
        "tourist_attractions": len(game_map.tourist_attractions),
        "routes": len(routes),
        "routes_by_length": {
            str(n): {"routes": by_length[n], "points_each": rules.route_points.get(n, 0)} for n in sorted(by_length)
        },
        "routes_by_color": {c: by_color[c] for c in color_order if by_color[c]},
        "tunnels": sum(r.tunnel for r in routes),
        "ferries": sum(r.ferry_locomotives > 0 for r in routes),
        "ferry_locomotive_spaces": sum(r.ferry_locomotives for r in routes),
        "double_routes": sum(1 for r in routes if r.twin > r.index),
        "tickets": {
            "count": len(points),
            "long": long_count,
            "regular": len(points) - long_count,
            "points_min": min(points, default=0),
            "points_max": max(points, default=0),
        },
        "totals": {
            "spaces": sum(r.length for r in routes),
            "route_points": sum(rules.route_points.get(r.length, 0) for r in routes),
            "cards": game_map.total_cards,
            "cards_per_color": game_map.per_color,
            "wild_cards": game_map.wild_count,
            "wild_name": game_map.wild_name,
            "pieces_per_player": rules.pieces,
            "piece_name": rules.piece_name,
            "stations_per_player": rules.stations,
        },
    }


def summary_tables(summary: dict[str, Any]) -> list[Table]:
    """Rich tables for a `map_summary`: the board, routes by length, routes by colour, tickets and cards."""
    board = Table(title=f"{summary['title']} ({summary['name']})", show_header=False)
    board.add_column("what")
    board.add_column("count", justify="right")
    players = summary["players"]
    totals = summary["totals"]
    for label, value in (
        ("players", f"{players['min']}-{players['max']}"),
        ("cities", summary["cities"]),
        ("tourist attractions", summary["tourist_attractions"]),
        ("routes", summary["routes"]),
        ("double routes", summary["double_routes"]),
        ("tunnels", summary["tunnels"]),
        ("ferries", f"{summary['ferries']} ({summary['ferry_locomotive_spaces']} locomotive spaces)"),
        ("total spaces", totals["spaces"]),
        ("total route points", totals["route_points"]),
        (totals["piece_name"] + " per player", totals["pieces_per_player"]),
        ("stations per player", totals["stations_per_player"]),
    ):
        board.add_row(label, str(value))

    lengths = Table(title="Routes by length")
    for column in ("length", "routes", "points each"):
        lengths.add_column(column, justify="right")
    for length, row in summary["routes_by_length"].items():
        lengths.add_row(length, str(row["routes"]), str(row["points_each"]))

    colors = Table(title="Routes by colour")
    colors.add_column("colour")
    colors.add_column("routes", justify="right")
    for color, count in summary["routes_by_color"].items():
        colors.add_row(color, str(count))

    tickets = summary["tickets"]
    extras = Table(title="Tickets and cards", show_header=False)
    extras.add_column("what")
    extras.add_column("count", justify="right")
    for label, value in (
        ("tickets", tickets["count"]),
        ("long tickets", tickets["long"]),
        ("regular tickets", tickets["regular"]),
        ("ticket points", f"{tickets['points_min']}-{tickets['points_max']}"),
        ("cards", totals["cards"]),
        ("cards per colour", totals["cards_per_color"]),
        (f"{totals['wild_name']} cards", totals["wild_cards"]),
    ):
        extras.add_row(label, str(value))
    return [board, lengths, colors, extras]


def format_summary(summary: dict[str, Any], *, width: int = 100, color: bool = False) -> str:
    """A `map_summary` as text (Rich tables); `color` keeps terminal styling."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=color, color_system="standard" if color else None,
                      highlight=False)
    for table in summary_tables(summary):
        console.print(table)
    return out.getvalue()
