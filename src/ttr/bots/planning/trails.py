"""The longest continuous trail of a set of routes (the European Express bonus), cached per map."""

from __future__ import annotations

from ttr.bots.planning.index import MapIndex

TRAIL_CACHE_SIZE = 20_000  # route sets whose longest trail `trail_length` keeps per map (then it starts over)


def trail_length(ix: MapIndex, routes: list[int]) -> int:
    """`longest_trail(map, routes)[0]`, the length in trains of the longest trail over a set of routes,
    remembered per map and route set (search plays the same networks again and again)."""
    key = frozenset(routes)
    cache = ix.trails
    found = cache.get(key)
    if found is None:
        if len(cache) >= TRAIL_CACHE_SIZE:
            cache.clear()
        found = 0
        parts = route_parts(ix, routes)
        for part in parts:  # the best of its parts, each remembered too (most stay as they were)
            length = _longest_trail_length(ix, part) if len(parts) == 1 else part_trail_length(ix, part)
            if length > found:
                found = length
        cache[key] = found
    return found


def part_trail_length(ix: MapIndex, part: list[int]) -> int:
    """`trail_length` of routes known to be connected (one of `route_parts`, or several joined by a route)."""
    key = frozenset(part)
    cache = ix.trails
    found = cache.get(key)
    if found is None:
        if len(cache) >= TRAIL_CACHE_SIZE:
            cache.clear()
        found = cache[key] = _longest_trail_length(ix, part)
    return found


def route_parts(ix: MapIndex, routes: list[int]) -> list[list[int]]:
    """`routes` split into connected parts."""
    by_city: dict[int, list[int]] = {}
    route_a, route_b = ix.route_a, ix.route_b
    for r in routes:
        by_city.setdefault(route_a[r], []).append(r)
        by_city.setdefault(route_b[r], []).append(r)
    parts = []
    taken: set[int] = set()
    for r in routes:
        if r in taken:
            continue
        taken.add(r)
        part = [r]
        i = 0
        while i < len(part):
            x = part[i]
            i += 1
            for y in (*by_city[route_a[x]], *by_city[route_b[x]]):
                if y not in taken:
                    taken.add(y)
                    part.append(y)
        parts.append(part)
    return parts


def _longest_trail_length(ix: MapIndex, routes: list[int]) -> int:
    """`ttr.engine.longest_trail(map, routes)[0]` by the same search (trails from odd-degree cities, a whole
    all-even component as one circuit), which stops once a trail takes a whole component and does not
    start from the last odd city."""
    adj: dict[int, list[tuple[int, int, int]]] = {}
    route_a, route_b, lengths = ix.route_a, ix.route_b, ix.length
    for bit, r in enumerate(routes):
        a, b, size = route_a[r], route_b[r], lengths[r]
        found = adj.get(a)
        if found is None:
            adj[a] = [(bit, b, size)]
        else:
            found.append((bit, b, size))
        found = adj.get(b)
        if found is None:
            adj[b] = [(bit, a, size)]
        else:
            found.append((bit, a, size))
    best = 0
    total = 0

    def walk(city: int, used: int, length: int) -> bool:
        """Extend the trail; True once it holds every route of the component (nothing can be longer)."""
        nonlocal best
        extended = False
        for bit, other, size in adj[city]:
            if not (used >> bit) & 1:
                extended = True
                if walk(other, used | (1 << bit), length + size):
                    return True
        if not extended and length > best:
            best = length
            return best == total
        return False

    seen: set[int] = set()
    for start in adj:
        if start in seen:
            continue
        component = {start}
        stack = [start]
        while stack:
            for _, other, _ in adj[stack.pop()]:
                if other not in component:
                    component.add(other)
                    stack.append(other)
        seen |= component
        total = sum(size for city in component for _, _, size in adj[city]) // 2
        if total <= best:
            continue
        odd = [city for city in component if len(adj[city]) % 2]
        if not odd:  # every route of the component in one closed trail
            best = total
            continue
        # A trail from the last odd city ends stuck at another odd city; from there, backwards, the search
        # finds it (or a longer one): the last start adds nothing.
        for city in odd[:-1]:
            if walk(city, 0, 0):
                break
    return best
