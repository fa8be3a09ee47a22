"""The map data the page draws from: `/api/maps`, `/api/maps/{name}`, `/api/maps/{name}/board.svg`."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ttr.maps import BUILTIN_MAPS, load_map
from ttr.maps.layout import layout_board
from ttr.maps.render import TITLE_HEIGHT, city_ids, render_svg
from ttr.server.custom_maps import resolve

WIDTH = 1000.0


def maps_list() -> list[dict[str, Any]]:
    """`[{name, title, players_min, players_max, cities, routes}]` for the shipped maps."""
    out = []
    for name in BUILTIN_MAPS:
        m = load_map(name)
        out.append({"name": name, "title": m.title, "players_min": m.rules.players_min,
                    "players_max": m.rules.players_max, "cities": len(m.cities), "routes": len(m.routes)})
    return out


@lru_cache(maxsize=8)
def map_data(name: str) -> dict[str, Any]:
    """A shipped (or registered custom) map for the page, with the board layout of `board.svg` scaled to 1000
    wide."""
    m = resolve(name)
    layout = layout_board(m, top=TITLE_HEIGHT)
    k = WIDTH / layout.width
    ids = city_ids(m)
    attractions = set(m.tourist_attractions)
    twins = {r.index for r in m.routes if r.twin >= 0}
    rules = m.rules
    return {
        "name": name, "title": m.title, "colors": list(m.colors), "wild": m.wild_name,
        "width": WIDTH, "height": round(layout.height * k, 1), "svg_scale": k,
        "rules": {
            "players_min": rules.players_min, "players_max": rules.players_max, "pieces": rules.pieces,
            "piece_name": rules.piece_name, "stations": rules.stations, "station_costs": list(rules.station_costs),
            "route_points": {str(n): p for n, p in sorted(rules.route_points.items())},
            "longest_path_bonus": rules.longest_path_bonus, "attraction_points": rules.attraction_points,
            "double_routes_single_use_max_players": rules.double_routes_single_use_max_players,
            "starting_hand": rules.starting_hand, "face_up": rules.face_up,
            "setup_tickets": rules.setup_long_tickets + rules.setup_regular_tickets,
            "setup_keep_min": rules.setup_keep_min,
            "draw_tickets": rules.draw_tickets, "draw_keep_min": rules.draw_keep_min,
            "end_trigger_pieces": rules.end_trigger_pieces, "tunnel_reveal": rules.tunnel_reveal,
            "unbuilt_station_points": rules.unbuilt_station_points,
            "rule_ids": m.rule_ids,
        },
        "cities": [
            {"id": c.index, "name": c.name, "x": round(x * k, 1), "y": round(y * k, 1),
             "attraction": c.name in attractions, "svg_id": ids[c.index]}
            for c, (x, y) in zip(m.cities, layout.points, strict=True)
        ],
        "routes": [
            {"id": r.index, "name": r.name, "a": r.a, "b": r.b, "length": r.length, "color": r.color,
             "tunnel": r.tunnel, "locomotives": r.ferry_locomotives, "double": r.index in twins, "twin": r.twin}
            for r in m.routes
        ],
        "tickets": [
            {"id": t.index, "name": t.name, "a": t.a, "b": t.b, "points": t.points, "long": t.long}
            for t in m.tickets
        ],
    }


@lru_cache(maxsize=8)
def board_svg(name: str) -> str:
    """The board drawing of a shipped (or registered custom) map."""
    return render_svg(resolve(name))
