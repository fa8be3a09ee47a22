"""Per-game rows of a simulation: one row per seat of every game, and the table files that hold them.

Columns (`COLUMNS`, with their types): the game index and seed, the seat (0 moves first) and its bot, the
score breakdown, tickets completed and failed (counts, and the ticket names joined by `;`), the routes
claimed (count, trains, and the route indexes joined by spaces), the routes claimed that another seat
wanted (`contested_routes`: on the shortest path of a ticket another seat held), stations built and the
routes they borrowed, the game's turns and actions, and whether the seat won (`win_share` splits a shared
win). Lists are strings so that Parquet and CSV hold the same table.
"""

from __future__ import annotations

import csv
import heapq
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ttr.engine import Game, final_score
from ttr.maps import GameMap

COLUMNS: dict[str, type] = {
    "game": int, "seed": int, "players": int, "seat": int, "bot": str,
    "score": int, "route_points": int, "ticket_points": int, "station_points": int, "express_bonus": int,
    "attractions": int, "longest_path": int,
    "tickets_completed": int, "tickets_failed": int, "tickets_completed_names": str, "tickets_failed_names": str,
    "routes_claimed": int, "trains_used": int, "route_ids": str, "contested_routes": str,
    "stations_built": int, "borrowed_routes": str,
    "turns": int, "actions": int, "winner": bool, "win_share": float,
}
FORMATS = ("parquet", "csv")


def game_rows(game: Game, labels: list[str], entries: list[int], index: int) -> list[dict[str, Any]]:
    """The rows of one finished game: one per seat, in seat order; `labels[entries[seat]]` names its bot."""
    game_map = game.map
    final = final_score(game)
    n = len(final.players)
    routes: list[list[int]] = [[] for _ in range(n)]
    for r, owner in enumerate(game.owner):
        if owner >= 0:
            routes[owner].append(r)
    wanted = [set[int]().union(*(ticket_paths(game_map)[t] for t in game.tickets[s])) for s in range(n)]
    turns = _turns(game)
    share = 1.0 / len(final.winners) if final.winners else 0.0
    rows = []
    for s, p in enumerate(final.players):
        others = set[int]().union(*(wanted[t] for t in range(n) if t != s))
        rows.append({
            "game": index, "seed": game.seed, "players": n, "seat": s, "bot": labels[entries[s]],
            "score": p.total, "route_points": p.route_points, "ticket_points": p.ticket_points,
            "station_points": p.station_points, "express_bonus": p.express_bonus, "attractions": p.attractions,
            "longest_path": p.longest_path,
            "tickets_completed": len(p.tickets_completed), "tickets_failed": len(p.tickets_failed),
            "tickets_completed_names": ";".join(p.tickets_completed),
            "tickets_failed_names": ";".join(p.tickets_failed),
            "routes_claimed": len(routes[s]), "trains_used": sum(game_map.routes[r].length for r in routes[s]),
            "route_ids": " ".join(map(str, routes[s])),
            "contested_routes": " ".join(str(r) for r in routes[s] if r in others),
            "stations_built": game_map.rules.stations - game.stations_left[s],
            "borrowed_routes": ";".join(r for r in p.borrowed_routes.values() if r),
            "turns": turns, "actions": len(game.history),
            "winner": s in final.winner_seats, "win_share": share if s in final.winner_seats else 0.0,
        })
    return rows


def _turns(game: Game) -> int:
    """Turns played after the setup ticket choices: runs of consecutive actions by one seat, less one per seat."""
    runs = 0
    last = -1
    for seat, _, _ in game.history:
        if seat != last:
            runs += 1
            last = seat
    return max(0, runs - game.n)


_PATHS: dict[int, tuple[GameMap, tuple[frozenset[int], ...]]] = {}


def ticket_paths(game_map: GameMap) -> tuple[frozenset[int], ...]:
    """Per ticket, the routes (both tracks of a double route) of its shortest path in trains on the empty board."""
    cached = _PATHS.get(id(game_map))
    if cached is None or cached[0] is not game_map:
        cached = _PATHS[id(game_map)] = (game_map, _ticket_paths(game_map))
    return cached[1]


def _ticket_paths(game_map: GameMap) -> tuple[frozenset[int], ...]:
    adjacency: dict[int, list[tuple[int, int]]] = {}
    links: dict[tuple[int, int], list[int]] = {}
    for route in game_map.routes:
        a, b = game_map.city(route.a).index, game_map.city(route.b).index
        adjacency.setdefault(a, []).append((b, route.length))
        adjacency.setdefault(b, []).append((a, route.length))
        links.setdefault((min(a, b), max(a, b)), []).append(route.index)
    out = []
    for ticket in game_map.tickets:
        start, goal = game_map.city(ticket.a).index, game_map.city(ticket.b).index
        dist = {start: 0}
        prev: dict[int, int] = {}
        heap = [(0, start)]
        while heap:
            d, c = heapq.heappop(heap)
            if c == goal:
                break
            if d > dist[c]:
                continue
            for nxt, length in sorted(adjacency.get(c, [])):
                if d + length < dist.get(nxt, 1 << 30):
                    dist[nxt] = d + length
                    prev[nxt] = c
                    heapq.heappush(heap, (d + length, nxt))
        path: set[int] = set()
        c = goal
        while c in prev:
            p = prev[c]
            path.update(links[(min(c, p), max(c, p))])
            c = p
        out.append(frozenset(path))
    return tuple(out)


# ---------------------------------------------------------------------- table files


def have_pyarrow() -> bool:
    """Whether Parquet can be written here (pyarrow importable)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def write_table(rows: Iterable[dict[str, Any]], path: Path, fmt: str) -> None:
    """Write rows (already in order) as Parquet or CSV, through a temporary file so no half table is left."""
    rows = list(rows)
    tmp = path.with_name(path.name + ".tmp")
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        types = {int: pa.int64(), str: pa.string(), bool: pa.bool_(), float: pa.float64()}
        schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS.items()])
        table = pa.Table.from_pylist(rows, schema=schema)
        pq.write_table(table, tmp)
    else:
        with tmp.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
            writer.writeheader()
            writer.writerows(rows)
    tmp.replace(path)


def read_table(path: Path) -> list[dict[str, Any]]:
    """The rows of a Parquet or CSV table written by `write_table` (by file suffix), typed as `COLUMNS`."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
        missing = set(COLUMNS) - set(rows[0]) if rows else set()
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(sorted(missing))}")
        return rows
    out = []
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        missing = set(COLUMNS) - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(sorted(missing))}")
        for line in reader:
            row: dict[str, Any] = {}
            for name, kind in COLUMNS.items():
                text = line[name]
                row[name] = text == "True" if kind is bool else kind(text)
            out.append(row)
    return out
