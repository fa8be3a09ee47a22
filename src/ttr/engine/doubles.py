"""The double-route rule for code outside the engine: which routes a seat may still claim, which a claim closes.

E-DOUBLE-1 (N-DOUBLE-1): one seat never holds both tracks of a double route. E-DOUBLE-2: in a game of at
most `double_routes_single_use_max_players` seats only one track of a double route is used. `Game` keeps
these as its indexes (`blocked`, `excluded`); the functions here answer the same questions from a map and
the routes' owners alone, as a seat's view gives them (bots, records, tools).
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr.maps import GameMap


def single_use(game_map: GameMap, n: int) -> bool:
    """Whether only one track of a double route is used in an `n`-seat game (E-DOUBLE-2)."""
    return n <= game_map.rules.double_routes_single_use_max_players


def twins(game_map: GameMap) -> list[int]:
    """Per route, the index of its other track (-1 for a single route). Built once per map: do not change it."""
    found = game_map.engine_cache.get("twins")
    if not isinstance(found, list):
        found = game_map.engine_cache["twins"] = [r.twin for r in game_map.routes]
    return found


def open_routes(game_map: GameMap, owner: Sequence[int], seat: int, n: int) -> list[bool]:
    """Per route, whether `seat` of an `n`-seat game may claim it one day: no one holds it, and its other
    track is neither held by the seat (E-DOUBLE-1) nor held at all where only one track is used (E-DOUBLE-2).
    `owner[r]` is the seat holding route r, -1 if none."""
    small = single_use(game_map, n)
    twin = twins(game_map)
    out = []
    for r, o in enumerate(owner):
        t = twin[r]
        out.append(not (o >= 0 or (t >= 0 and owner[t] >= 0 and (small or owner[t] == seat))))
    return out


def closed_by(game_map: GameMap, route: int, n: int) -> tuple[int, ...]:
    """The routes a claim of `route` closes to every other seat of an `n`-seat game: the route, and its other
    track where only one track is used (E-DOUBLE-2)."""
    twin = twins(game_map)[route]
    return (route, twin) if twin >= 0 and single_use(game_map, n) else (route,)


def twin_conflict(game_map: GameMap, route: int, seat: int, twin_holder: int, n: int) -> str | None:
    """The rule a board breaks where `seat` holds `route` and seat `twin_holder` (-1: no one) its other track
    in an `n`-seat game: E-DOUBLE-1 (one seat, both tracks), E-DOUBLE-2 (both tracks used in a small game), in
    the map's rulebook part (N-DOUBLE-1 in New York); None if it breaks none."""
    if twin_holder < 0 or twins(game_map)[route] < 0:
        return None
    if twin_holder == seat:
        return "N-DOUBLE-1" if game_map.rule_ids == "N" else "E-DOUBLE-1"
    if single_use(game_map, n):
        return "N-DOUBLE-1" if game_map.rule_ids == "N" else "E-DOUBLE-2"
    return None
