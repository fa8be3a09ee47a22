"""Planning helpers for bots, built only from a seat's view and the map (or a sampled game, for playouts).

- `index`: `MapIndex` (once per map, cached): routes, links (city pairs), adjacency and tickets as flat
  int tables.
- `board`: `Board` (once per decision): the view read into indexes: owners, the routes still open to this
  seat, the hand, trains, stations, the tickets held or offered.
- `options`: `Options`, the legal actions sorted by kind, with card sets decoded (`sort_options`, and
  `game_options` for playouts).
- `paths`: `route_costs` (own routes free, routes closed to the seat unusable, optionally other seats'
  routes at a price when a station could borrow them), `dijkstra`, `shortest_path`, and what closing
  routes adds to a path (`distance_without`, `cut_cost`; what a claim closes is `ttr.engine.doubles.closed_by`).
- `plans`: `plan_tickets` (a greedy Steiner tree joining the tickets' cities) and card needs per colour
  (`colour_needs`, `route_missing`).
- `networks`: ticket completion over the seat's routes (`network`, `completed`, `station_completion`).
- `trails`: the longest continuous trail of a set of routes (`trail_length`, `route_parts`).

Everything is importable from `ttr.bots.planning` itself.
"""

from __future__ import annotations

from ttr.bots.planning.board import BOARD_CACHE_SIZE, Board, open_routes
from ttr.bots.planning.index import INF, MapIndex, map_index
from ttr.bots.planning.networks import borrowable, completed, network, station_completion
from ttr.bots.planning.options import (
    ClaimOption,
    Options,
    StationOption,
    game_options,
    sort_options,
    static_action,
    static_id,
)
from ttr.bots.planning.paths import (
    cut_cost,
    dijkstra,
    distance_without,
    path_to,
    route_costs,
    shortest_path,
)
from ttr.bots.planning.plans import (
    PATH_CACHE_SIZE,
    Plan,
    colour_needs,
    plan_tickets,
    route_missing,
)
from ttr.bots.planning.trails import TRAIL_CACHE_SIZE, part_trail_length, route_parts, trail_length

__all__ = [
    "BOARD_CACHE_SIZE",
    "INF",
    "PATH_CACHE_SIZE",
    "TRAIL_CACHE_SIZE",
    "Board",
    "ClaimOption",
    "MapIndex",
    "Options",
    "Plan",
    "StationOption",
    "borrowable",
    "colour_needs",
    "completed",
    "cut_cost",
    "dijkstra",
    "distance_without",
    "game_options",
    "map_index",
    "network",
    "open_routes",
    "part_trail_length",
    "path_to",
    "plan_tickets",
    "route_costs",
    "route_missing",
    "route_parts",
    "shortest_path",
    "sort_options",
    "static_action",
    "static_id",
    "station_completion",
    "trail_length",
]
