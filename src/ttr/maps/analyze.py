"""Static balance analysis of a map: what its graph says before anyone plays it.

* tickets: each ticket's points against its shortest path in trains, a least-squares line through
  them (this map's own, and the shipped maps' together) and how far each ticket lies from it;
* routes: how many tickets have a shortest path through each connection (a pair of cities: both tracks
  of a double route count as one), and how much losing it lengthens the tickets (bottlenecks); cut
  edges (bridges) whose loss splits the board;
* colours: track spaces of each colour against the cards of that colour in the deck;
* cities: how many tracks and neighbours each has, and how many tickets start or end there.

The graph work is networkx, the fits numpy; the result is JSON-ready (`analyze_map`) and drawn as
Rich tables (`format_analysis`).
"""

from __future__ import annotations

import io
import math
from functools import lru_cache
from typing import Any

import networkx as nx
import numpy as np
from rich.console import Console
from rich.table import Table

from ttr.maps import BUILTIN_MAPS, load_map
from ttr.maps.model import GameMap

ANALYSIS_FORMAT = "ttr-map-analysis/1"


def board_graph(game_map: GameMap) -> nx.Graph:
    """The board as a simple graph: one edge per pair of joined cities, weighted by its length in trains,
    with the indexes of its tracks (two on a double route)."""
    graph = nx.Graph()
    graph.add_nodes_from(c.name for c in game_map.cities)
    for route in game_map.routes:
        if graph.has_edge(route.a, route.b):
            edge = graph.edges[route.a, route.b]
            edge["tracks"].append(route.index)
            edge["length"] = min(edge["length"], route.length)
        else:
            graph.add_edge(route.a, route.b, length=route.length, tracks=[route.index])
    return graph


def _distances(graph: nx.Graph) -> dict[str, dict[str, float]]:
    return {source: dict(lengths) for source, lengths in nx.all_pairs_dijkstra_path_length(graph, weight="length")}


def fit_line(xs: list[float], ys: list[float]) -> dict[str, float]:
    """The least-squares line ``y = slope * x + intercept`` (numpy), with its R^2 and root-mean-square error.

    Fewer than two distinct x values give a line through the origin and the mean ratio."""
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    if len(x) == 0:
        return {"slope": 0.0, "intercept": 0.0, "r2": 0.0, "rms": 0.0}
    if len(set(xs)) < 2:
        slope = float(np.sum(y) / np.sum(x)) if np.sum(x) else 0.0
        intercept = 0.0
    else:
        design = np.column_stack([x, np.ones_like(x)])
        (slope, intercept), *_ = np.linalg.lstsq(design, y, rcond=None)
    predicted = slope * x + intercept
    residual = y - predicted
    total = float(np.sum((y - y.mean()) ** 2))
    r2 = 1.0 - float(np.sum(residual**2)) / total if total > 0 else 1.0
    return {"slope": round(float(slope), 4), "intercept": round(float(intercept), 4), "r2": round(r2, 4),
            "rms": round(float(np.sqrt(np.mean(residual**2))), 4)}


def ticket_lengths(game_map: GameMap) -> list[float]:
    """Each ticket's shortest path in trains, in ticket order (inf when its cities are not joined)."""
    distances = _distances(board_graph(game_map))
    return [distances[t.a].get(t.b, math.inf) for t in game_map.tickets]


@lru_cache(maxsize=1)
def reference_fit() -> dict[str, float]:
    """The line the shipped maps' tickets follow together: points against shortest path in trains."""
    xs: list[float] = []
    ys: list[float] = []
    for name in BUILTIN_MAPS:
        game_map = load_map(name)
        for ticket, length in zip(game_map.tickets, ticket_lengths(game_map), strict=True):
            if math.isfinite(length):
                xs.append(length)
                ys.append(ticket.points)
    return fit_line(xs, ys)


def suggested_points(length: float, fit: dict[str, float] | None = None) -> int:
    """Points the fit gives a ticket whose shortest path is `length` trains (at least 1)."""
    line = fit or reference_fit()
    return max(1, round(line["slope"] * length + line["intercept"]))


def _ticket_rows(game_map: GameMap, distances: dict[str, dict[str, float]],
                 fit: dict[str, float], reference: dict[str, float]) -> list[dict[str, Any]]:
    rows = []
    for ticket in game_map.tickets:
        length = distances[ticket.a].get(ticket.b, math.inf)
        joined = math.isfinite(length)
        expected = fit["slope"] * length + fit["intercept"] if joined else None
        expected_ref = reference["slope"] * length + reference["intercept"] if joined else None
        rows.append({
            "ticket": ticket.name, "points": ticket.points, "long": ticket.long,
            "shortest": int(length) if joined else None,
            "expected": round(expected, 2) if expected is not None else None,
            "residual": round(ticket.points - expected, 2) if expected is not None else None,
            "reference_expected": round(expected_ref, 2) if expected_ref is not None else None,
            "reference_residual": round(ticket.points - expected_ref, 2) if expected_ref is not None else None,
        })
    return rows


def _on_some_shortest_path(d: dict[str, dict[str, float]], s: str, t: str, u: str, v: str, w: float) -> bool:
    target = d[s].get(t, math.inf)
    if not math.isfinite(target):
        return False
    forward = d[s].get(u, math.inf) + w + d[v].get(t, math.inf)
    backward = d[s].get(v, math.inf) + w + d[u].get(t, math.inf)
    return min(forward, backward) == target


def _connection_rows(game_map: GameMap, graph: nx.Graph,
                     distances: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    bridges = {frozenset(edge) for edge in nx.bridges(graph)}
    pairs = [(t.a, t.b) for t in game_map.tickets if math.isfinite(distances[t.a].get(t.b, math.inf))]
    rows = []
    for u, v, edge in list(graph.edges(data=True)):
        tracks = edge["tracks"]
        on_path = sum(_on_some_shortest_path(distances, s, t, u, v, edge["length"]) for s, t in pairs)
        without = nx.restricted_view(graph, [], [(u, v)])
        extra = 0.0
        lengthened = 0
        cut = 0
        for s, t in pairs:
            before = distances[s][t]
            try:
                after = float(nx.dijkstra_path_length(without, s, t, weight="length"))
            except nx.NetworkXNoPath:
                cut += 1
                continue
            if after > before:
                lengthened += 1
                extra += after - before
        first = game_map.routes[tracks[0]]
        rows.append({
            "connection": f"{first.a}-{first.b}", "tracks": [game_map.routes[i].name for i in tracks],
            "length": edge["length"], "tickets_on_shortest_path": on_path, "tickets_lengthened": lengthened,
            "extra_trains": int(extra), "tickets_cut_off": cut, "bridge": frozenset((u, v)) in bridges,
        })
    rows.sort(key=lambda r: (-r["tickets_cut_off"], -r["extra_trains"], -r["tickets_on_shortest_path"],
                             r["connection"]))
    return rows


def _color_rows(game_map: GameMap) -> list[dict[str, Any]]:
    rows = []
    total_spaces = sum(r.length for r in game_map.routes if r.color != "gray")
    total_cards = game_map.per_color * len(game_map.colors)
    for color in (*game_map.colors, "gray"):
        routes = [r for r in game_map.routes if r.color == color]
        spaces = sum(r.length for r in routes)
        cards = game_map.per_color if color != "gray" else None
        rows.append({
            "color": color, "routes": len(routes), "spaces": spaces, "cards": cards,
            "spaces_per_card": round(spaces / cards, 3) if cards else None,
            "share_of_colored_spaces": round(spaces / total_spaces, 4) if color != "gray" and total_spaces else None,
            "share_of_colored_cards": round(game_map.per_color / total_cards, 4) if cards and total_cards else None,
        })
    return rows


def _city_rows(game_map: GameMap, graph: nx.Graph) -> list[dict[str, Any]]:
    tickets: dict[str, int] = {c.name: 0 for c in game_map.cities}
    for t in game_map.tickets:
        tickets[t.a] += 1
        tickets[t.b] += 1
    rows = [{"city": c.name, "tracks": len(game_map.city_routes[c.index]), "neighbours": graph.degree(c.name),
             "tickets": tickets[c.name]} for c in game_map.cities]
    rows.sort(key=lambda r: (-r["tracks"], -r["neighbours"], r["city"]))
    return rows


def analyze_map(game_map: GameMap) -> dict[str, Any]:
    """The whole analysis as a JSON-ready dict (the format is documented in `docs/maps.md`)."""
    graph = board_graph(game_map)
    distances = _distances(graph)
    lengths = [distances[t.a].get(t.b, math.inf) for t in game_map.tickets]
    joined = [(n, t.points) for n, t in zip(lengths, game_map.tickets, strict=True) if math.isfinite(n)]
    fit = fit_line([n for n, _ in joined], [float(p) for _, p in joined])
    reference = reference_fit()
    return {
        "format": ANALYSIS_FORMAT,
        "map": game_map.name,
        "fit": fit,
        "reference_fit": reference,
        "tickets": _ticket_rows(game_map, distances, fit, reference),
        "connections": _connection_rows(game_map, graph, distances),
        "bridges": sorted(f"{u}-{v}" if u < v else f"{v}-{u}" for u, v in nx.bridges(graph)),
        "colors": _color_rows(game_map),
        "wild_cards": game_map.wild_count,
        "cities": _city_rows(game_map, graph),
    }


def analysis_tables(analysis: dict[str, Any], *, top: int = 15) -> list[Table]:
    """Rich tables for an `analyze_map` result: tickets against the fit, bottlenecks, colours, cities."""
    fit = analysis["fit"]
    ref = analysis["reference_fit"]
    tickets = Table(title=f"Tickets: points = {fit['slope']} x trains + {fit['intercept']} "
                          f"(R² {fit['r2']}, rms {fit['rms']}); shipped maps: {ref['slope']} x + {ref['intercept']}")
    for column, justify in (("ticket", "left"), ("points", "right"), ("shortest", "right"), ("expected", "right"),
                            ("off by", "right"), ("long", "left")):
        tickets.add_column(column, justify=justify)  # type: ignore[arg-type]
    for row in sorted(analysis["tickets"], key=lambda r: -abs(r["residual"] or 0)):
        tickets.add_row(row["ticket"], str(row["points"]), str(row["shortest"]), str(row["expected"]),
                        f"{row['residual']:+}" if row["residual"] is not None else "-", "yes" if row["long"] else "")
    routes = Table(title=f"Connections whose loss lengthens tickets most (top {top})")
    for column in ("connection", "length", "on shortest paths", "tickets lengthened", "extra trains", "cut off",
                   "bridge"):
        routes.add_column(column, justify="left" if column == "connection" else "right")
    for row in analysis["connections"][:top]:
        routes.add_row(row["connection"], str(row["length"]), str(row["tickets_on_shortest_path"]),
                       str(row["tickets_lengthened"]), str(row["extra_trains"]), str(row["tickets_cut_off"]),
                       "yes" if row["bridge"] else "")
    busiest = Table(title=f"Connections on the most tickets' shortest paths (top {top})")
    busiest.add_column("connection")
    busiest.add_column("tickets", justify="right")
    for row in sorted(analysis["connections"], key=lambda r: (-r["tickets_on_shortest_path"], r["connection"]))[:top]:
        busiest.add_row(row["connection"], str(row["tickets_on_shortest_path"]))
    colors = Table(title=f"Track colours against the deck ({analysis['wild_cards']} wild cards)")
    for column in ("colour", "routes", "spaces", "cards", "spaces per card"):
        colors.add_column(column, justify="left" if column == "colour" else "right")
    for row in analysis["colors"]:
        colors.add_row(row["color"], str(row["routes"]), str(row["spaces"]), str(row["cards"] or "-"),
                       str(row["spaces_per_card"] or "-"))
    cities = Table(title=f"Cities by degree (top {top})")
    for column in ("city", "tracks", "neighbours", "tickets"):
        cities.add_column(column, justify="left" if column == "city" else "right")
    for row in analysis["cities"][:top]:
        cities.add_row(row["city"], str(row["tracks"]), str(row["neighbours"]), str(row["tickets"]))
    return [tickets, routes, busiest, colors, cities]


def format_analysis(analysis: dict[str, Any], *, width: int = 110, color: bool = False) -> str:
    """An `analyze_map` result as text (Rich tables); `color` keeps terminal styling."""
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=color, color_system="standard" if color else None,
                      highlight=False)
    for table in analysis_tables(analysis):
        console.print(table)
    bridges = analysis["bridges"]
    console.print(f"Bridges (a connection whose loss splits the board): {', '.join(bridges) if bridges else 'none'}")
    return out.getvalue()


def draft_shortest(data: Any, a: str, b: str) -> int | None:
    """The shortest path in trains between two cities of a draft map's parsed JSON (unchecked: routes that are
    not well formed are skipped), or None when they are not joined."""
    graph = nx.Graph()
    routes = data.get("routes") if isinstance(data, dict) else None
    for route in routes if isinstance(routes, list) else []:
        if not isinstance(route, dict):
            continue
        x, y, length = route.get("a"), route.get("b"), route.get("length")
        if not (isinstance(x, str) and isinstance(y, str) and isinstance(length, int) and length > 0 and x != y):
            continue
        if not graph.has_edge(x, y) or graph.edges[x, y]["length"] > length:
            graph.add_edge(x, y, length=length)
    try:
        return int(nx.dijkstra_path_length(graph, a, b, weight="length"))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None
