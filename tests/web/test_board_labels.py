"""City names on the boards (New York, Europe) keep clear of every drawn route, of each other and of the other
cities' dots, each near its own city: computed from the SVG the page is sent (and the layout that placed the
names), and measured in the browser in each language (getBBox)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from ttr.maps import load_map
from ttr.maps.layout import CITY_RADIUS, REACH, layout_board
from ttr.maps.render import TITLE_HEIGHT, render_svg

from .conftest import Served, shot
from .driver import create_game

SVG = "{http://www.w3.org/2000/svg}"
Poly = list[tuple[float, float]]
Box = tuple[float, float, float, float]
CLEARANCE = 1.0  # px between a name's box and a route space
# each board, and a city whose name, put back below its dot (where it used to be), lies on its routes
BOARDS = [("new_york", "Greenwich Village"), ("europe", "Wien")]


def separated(a: Poly, b: Poly) -> bool:
    """Whether two convex polygons are apart (separating axis test; touching counts as apart)."""
    for poly in (a, b):
        for i, (px, py) in enumerate(poly):
            qx, qy = poly[(i + 1) % len(poly)]
            ax, ay = qy - py, px - qx
            pa = [x * ax + y * ay for x, y in a]
            pb = [x * ax + y * ay for x, y in b]
            if max(pa) <= min(pb) or max(pb) <= min(pa):
                return True
    return False


def box_poly(x0: float, y0: float, x1: float, y1: float, pad: float = CLEARANCE) -> Poly:
    return [(x0 - pad, y0 - pad), (x1 + pad, y0 - pad), (x1 + pad, y1 + pad), (x0 - pad, y1 + pad)]


def space_poly(cx: float, cy: float, angle: float, x: float, y: float, w: float, h: float) -> Poly:
    """A route space's rectangle (x, y, w, h in its own frame) placed by translate(cx cy) rotate(angle)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + px * c - py * s, cy + px * s + py * c) for px, py in ((x, y), (x + w, y), (x + w, y + h), (x, y + h))]


def svg_spaces(svg: str) -> list[tuple[str, Poly]]:
    """Every route space of a rendered board: (route name, polygon)."""
    out = []
    for g in ET.fromstring(svg.encode()).iter(f"{SVG}g"):
        if "route" not in g.get("class", "").split():
            continue
        for space in g.findall(f"{SVG}g"):
            cx, cy, angle = map(float, re.findall(r"translate\(([-\d.]+) ([-\d.]+)\) rotate\(([-\d.]+)\)",
                                                  space.get("transform", ""))[0])
            rect = space.find(f"{SVG}rect")
            assert rect is not None
            dims = [float(rect.get(k, "0")) for k in ("x", "y", "width", "height")]
            out.append((g.get("data-route", ""), space_poly(cx, cy, angle, *dims)))
    return out


def overlaps(names: dict[str, Box], spaces: list[tuple[str, Poly]]) -> list[str]:
    """Each name over a route space, as "city over route"."""
    return sorted({f"{city} over {route}" for city, box in names.items() for route, poly in spaces
                   if not separated(box_poly(*box), poly)})


def crowded(names: dict[str, Box], dots: dict[str, tuple[float, float]]) -> list[str]:
    """Each name over another name or over another city's dot."""
    found = []
    for city, box in names.items():
        found += [f"{city} over name {other}" for other, b in names.items()
                  if other < city and not separated(box_poly(*box, pad=0), box_poly(*b, pad=0))]
        found += [f"{city} over dot {other}" for other, (x, y) in dots.items()
                  if other != city and not separated(box_poly(*box, pad=0), box_poly(x, y, x, y, pad=CITY_RADIUS))]
    return sorted(found)


def far(names: dict[str, Box], dots: dict[str, tuple[float, float]]) -> list[str]:
    """Each name further than REACH (and a little to spare) from its own city's centre."""
    found = []
    for city, (x0, y0, x1, y1) in names.items():
        x, y = dots[city]
        gap = math.hypot(min(max(x, x0), x1) - x, min(max(y, y0), y1) - y)
        if gap > REACH + 4:
            found.append(f"{city} {gap:.0f} px away")
    return found


@pytest.mark.parametrize(("map_name", "city"), BOARDS, ids=[name for name, _ in BOARDS])
def test_names_clear_the_routes_in_the_svg(map_name: str, city: str) -> None:
    game_map = load_map(map_name)
    svg = render_svg(game_map)
    spaces = svg_spaces(svg)
    assert len(spaces) == sum(r.length for r in game_map.routes)
    layout = layout_board(game_map, top=TITLE_HEIGHT)
    root = ET.fromstring(svg.encode())
    drawn = {t.text: (float(t.get("x", "0")), float(t.get("y", "0")))
             for t in root.iter(f"{SVG}text") if t.get("class") == "city-name"}
    names, dots = {}, {}
    for c in game_map.cities:  # the names are drawn where the layout placed them
        lab = layout.labels[c.index]
        assert drawn[c.name] == pytest.approx((lab.x, lab.y), abs=0.06)
        names[c.name] = lab.box
        dots[c.name] = layout.points[c.index]
    assert overlaps(names, spaces) == []
    assert crowded(names, dots) == []
    assert far(names, dots) == []
    # the check can fail: the city's name put back below its dot, where it was, lies on its routes
    x, y = dots[city]
    width = names[city][2] - names[city][0]
    assert overlaps({city: (x - width / 2, y + 10, x + width / 2, y + 24)}, spaces)
    # and a name put on a neighbour's dot is over that dot and far from its own city
    neighbour = next(r.b if r.a == city else r.a for r in game_map.routes if city in (r.a, r.b))
    nx, ny = dots[neighbour]
    assert crowded({city: (nx - 5, ny - 5, nx + 5, ny + 5)}, dots) == [f"{city} over dot {neighbour}"]
    assert far({city: (nx - 5, ny - 5, nx + 5, ny + 5)}, dots)


MEASURE = """() => {
    const names = {};
    const dots = {};
    for (const t of document.querySelectorAll('svg.board text.city-name')) {
        const b = t.getBBox();
        const g = t.closest('g.city');
        names[g.dataset.city] = [b.x, b.y, b.x + b.width, b.y + b.height];
        const dot = g.querySelector('circle.city-dot');
        dots[g.dataset.city] = [Number(dot.getAttribute('cx')), Number(dot.getAttribute('cy'))];
    }
    const spaces = [];
    for (const sp of document.querySelectorAll('svg.board g.route g.space')) {
        const m = sp.transform.baseVal.consolidate().matrix;
        const r = sp.querySelector('rect');
        const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => Number(r.getAttribute(k)));
        spaces.push([sp.closest('g.route').dataset.route,
                     [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([px, py]) =>
                         [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f])]);
    }
    return [document.documentElement.lang, names, spaces, dots];
}"""


@pytest.mark.parametrize(("map_name", "city"), BOARDS, ids=[name for name, _ in BOARDS])
def test_names_clear_the_routes_in_the_browser(page: Any, server: Served, map_name: str, city: str) -> None:
    """Measured as drawn (getBBox of each name, the route spaces' transforms) in all three languages."""
    game_map = load_map(map_name)
    total = sum(r.length for r in game_map.routes)
    game_id, _ = create_game(server.base, map_name, seed=3)
    page.goto(f"{server.base}/#/watch/{game_id}")
    page.wait_for_selector("main[data-version]")
    seen, found = [], {}
    for lang in ("en", "zh-Hans", "zh-Hant"):
        page.select_option("#lang-select", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        got_lang, measured, spaces, measured_dots = page.evaluate(MEASURE)
        assert got_lang == lang and len(measured) == len(game_map.cities) and len(spaces) == total
        names = {k: (v[0], v[1], v[2], v[3]) for k, v in measured.items()}
        dots = {k: (v[0], v[1]) for k, v in measured_dots.items()}
        polys = [(route, [(p[0], p[1]) for p in poly]) for route, poly in spaces]
        # each name by its own city (a translation too), clear of the routes, the other names and dots
        found[lang] = overlaps(names, polys) + crowded(names, dots) + far(names, dots)
        seen.append(names[city])
    shot(page.locator("svg.board"), f"{map_name.replace('_', '-')}-labels-zh-Hant")
    assert list(found) == ["en", "zh-Hans", "zh-Hant"] and not any(found.values()), found
    assert seen[0] != seen[1]  # the names were measured anew in each language
