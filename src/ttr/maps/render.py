"""Draw a map as SVG (or PNG through cairosvg) from its data alone.

Each route is a group ``<g id="route-N" class="route" data-route="A-B/colour">`` of spaces (one
rotated rectangle per space, with the colour's letter for colour-blind players); each city is a
group ``<g id="city-Name" class="city" data-city="Name" data-station-x=".." data-station-y="..">`` (where
a station piece stands, clear of the names). The output is deterministic: the same
map and arguments give the same bytes.
"""

from __future__ import annotations

import importlib
import math
import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from ttr.errors import MapError
from ttr.maps.layout import CITY_RADIUS, END_GAP, FONT_SIZE, MARGIN, SPACE_GAP, BoardLayout, layout_board, station_box
from ttr.maps.model import GameMap, Route

SPACE_WIDTH = 11.0
TITLE_HEIGHT = 30.0
BACKGROUND = "#f3ecd8"
OUTLINE = "#3b3b3b"
HIGHLIGHT = "#e0119d"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

FILLS = {
    "red": "#d7263d", "orange": "#f58a07", "yellow": "#f7d038", "green": "#3aa655", "blue": "#2f6fde",
    "purple": "#8a4fbf", "pink": "#f28cc3", "black": "#2b2b2b", "white": "#fbfbf8", "gray": "#a9a9a9",
}
LETTERS = {"black": "K", "blue": "B", "brown": "N", "gray": ""}


def render_svg(game_map: GameMap, *, owners: dict[int, str] | None = None, stations: dict[str, str] | None = None,
               highlight: set[int] | None = None) -> str:
    """The board as an SVG document.

    `owners` maps a route index to a CSS colour: that route is drawn claimed, a piece on each space.
    `stations` maps a city name to a CSS colour: a station marker beside that city. `highlight` holds
    route indexes to outline.
    """
    owners = owners or {}
    # MapError names an unknown city; a spelling variant counts as the board's spelling
    stations = {game_map.city(name).name: color for name, color in (stations or {}).items()}
    highlight = highlight or set()
    for index in (*owners, *highlight):
        if not 0 <= index < len(game_map.routes):
            raise MapError(f"no route {index} on map {game_map.name} (routes are 0-{len(game_map.routes) - 1})")
    layout = layout_board(game_map, top=TITLE_HEIGHT)
    letters = color_letters(game_map.colors)
    width, height = math.ceil(layout.width), math.ceil(layout.height)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="{FONT}" data-map={quoteattr(game_map.name)}>',
        f"<title>{escape(game_map.title)}</title>",
        f'<rect class="background" x="0" y="0" width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        f'<text class="map-title" x="{_n(MARGIN)}" y="22" font-size="16" font-weight="bold" '
        f'fill="#333">{escape(game_map.title)}</text>',
        '<g id="routes">',
    ]
    for route in game_map.routes:
        out.extend(_route_svg(game_map, layout, route, letters, owners.get(route.index), route.index in highlight))
    out.append("</g>")
    out.append('<g id="cities">')
    ids = city_ids(game_map)
    attractions = set(game_map.tourist_attractions)
    for city in game_map.cities:
        out.extend(_city_svg(layout, city.index, city.name, ids[city.index], city.name in attractions,
                             stations.get(city.name)))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def render_png(game_map: GameMap, path: str | Path, *, owners: dict[int, str] | None = None,
               stations: dict[str, str] | None = None, highlight: set[int] | None = None, scale: float = 1.0) -> None:
    """Write the board as a PNG file; needs cairosvg (``pip install 'ttr-game[png]'``) and the cairo library."""
    try:
        cairosvg = importlib.import_module("cairosvg")
    except ImportError:
        raise MapError("PNG output needs cairosvg: install it with pip install 'ttr-game[png]' "
                       "(or write an .svg file instead)") from None
    except OSError as exc:  # cairocffi found no libcairo
        raise MapError(f"PNG output needs the cairo library (Debian: apt-get install libcairo2): {exc}") from None
    svg = render_svg(game_map, owners=owners, stations=stations, highlight=highlight)
    try:
        cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(path), scale=scale)
    except OSError as exc:
        raise MapError(f"cannot write {path}: {exc.strerror or exc}") from None


def color_letters(colors: tuple[str, ...]) -> dict[str, str]:
    """A distinct capital letter per card colour (black is K, as blue is B); gray has none."""
    letters: dict[str, str] = {"gray": ""}
    used: set[str] = set()
    for color in colors:
        preferred = LETTERS.get(color)
        choices = [preferred] if preferred else []
        choices += [ch.upper() for ch in color if ch.isalpha()]
        letter = next((ch for ch in choices if ch not in used), "?")
        letters[color] = letter
        used.add(letter)
    return letters


def city_ids(game_map: GameMap) -> list[str]:
    """The SVG id of each city: ``city-`` and its name with anything but letters, digits, - and _ made ``_``."""
    ids: list[str] = []
    for city in game_map.cities:
        base = "city-" + re.sub(r"[^A-Za-z0-9_-]", "_", city.name)
        ids.append(base if base not in ids else f"{base}-{city.index}")
    return ids


def _n(value: float) -> str:
    """A coordinate with one decimal, never "-0.0"."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _fill(color: str) -> str:
    return FILLS.get(color, color)


def _text_color(fill: str) -> str:
    """Dark text on light fills, white on dark ones (unknown colours get dark text)."""
    match = re.fullmatch(r"#([0-9a-fA-F]{6})", fill)
    if not match:
        return "#111"
    r, g, b = (int(match.group(1)[i:i + 2], 16) for i in (0, 2, 4))
    return "#111" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 140 else "#fff"


def _ferry_slots(length: int, locomotives: int) -> set[int]:
    """Which spaces of a ferry carry the locomotive mark: spread evenly along the route."""
    if locomotives <= 0:
        return set()
    return {min(length - 1, int((k + 0.5) * length / locomotives)) for k in range(locomotives)}


def _route_svg(game_map: GameMap, layout: BoardLayout, route: Route, letters: dict[str, str], owner: str | None,
               highlighted: bool) -> list[str]:
    ia, ib = game_map.city_index[route.a], game_map.city_index[route.b]
    if ia > ib:  # draw from the lower city index, so both tracks of a double route share a direction
        ia, ib = ib, ia
    (ax, ay), (bx, by) = layout.points[ia], layout.points[ib]
    dist = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / dist, (by - ay) / dist
    nx, ny = -uy, ux
    offset = 0.0
    if route.twin >= 0:
        offset = (SPACE_WIDTH / 2 + 1.5) * (-1 if route.index < route.twin else 1)
    start = CITY_RADIUS + END_GAP
    usable = dist - 2 * start
    size = max(3.0, (usable - SPACE_GAP * (route.length - 1)) / route.length)
    angle = math.degrees(math.atan2(uy, ux))
    if angle > 90:
        angle -= 180
    elif angle <= -90:
        angle += 180
    classes = ["route"]
    if route.twin >= 0:
        classes.append("double")
    if route.tunnel:
        classes.append("tunnel")
    if route.ferry_locomotives:
        classes.append("ferry")
    if owner:
        classes.append("claimed")
    if highlighted:
        classes.append("highlighted")
    kind = ", tunnel" if route.tunnel else ""
    if route.ferry_locomotives:
        kind += f", ferry ({route.ferry_locomotives} locomotive)"
    attrs = (f'id="route-{route.index}" class="{" ".join(classes)}" data-route={quoteattr(route.name)} '
             f'data-a={quoteattr(route.a)} data-b={quoteattr(route.b)} data-length="{route.length}" '
             f'data-color={quoteattr(route.color)}')
    if owner:
        attrs += f" data-owner={quoteattr(owner)}"
    out = [f"<g {attrs}>", f"<title>{escape(route.name)}: {route.length} {escape(route.color)}{escape(kind)}</title>"]
    ox, oy = nx * offset, ny * offset
    if highlighted:
        out.append(
            f'<line class="route-highlight" x1="{_n(ax + ux * start + ox)}" y1="{_n(ay + uy * start + oy)}" '
            f'x2="{_n(bx - ux * start + ox)}" y2="{_n(by - uy * start + oy)}" stroke="{HIGHLIGHT}" '
            f'stroke-width="{_n(SPACE_WIDTH + 8)}" stroke-linecap="round" stroke-opacity="0.75"/>'
        )
    fill = _fill(route.color)
    letter = letters.get(route.color, route.color[:1].upper())
    ferry = _ferry_slots(route.length, route.ferry_locomotives)
    if route.tunnel:
        stroke = 'stroke="#111" stroke-width="1.6" stroke-dasharray="3 2"'
    else:
        stroke = f'stroke="{OUTLINE}" stroke-width="0.8"'
    for k in range(route.length):
        t = start + size / 2 + k * (size + SPACE_GAP) if usable > 0 else dist / 2
        cx, cy = ax + ux * t + ox, ay + uy * t + oy
        out.append(f'<g class="space" transform="translate({_n(cx)} {_n(cy)}) rotate({_n(angle)})">')
        out.append(f'<rect x="{_n(-size / 2)}" y="{_n(-SPACE_WIDTH / 2)}" width="{_n(size)}" '
                   f'height="{_n(SPACE_WIDTH)}" rx="1.5" fill="{escape(fill)}" {stroke}/>')
        mark_x, letter_x = 0.0, 0.0
        if k in ferry and letter:
            mark_x, letter_x = -size / 4, size / 4
        if letter:
            out.append(f'<text class="space-letter" x="{_n(letter_x)}" y="3.0" font-size="8" font-weight="bold" '
                       f'text-anchor="middle" fill="{_text_color(fill)}">{escape(letter)}</text>')
        if k in ferry:
            out.append(_locomotive_mark(mark_x))
        if owner:
            out.append(f'<rect class="train" x="{_n(-size / 2 + 1.5)}" y="{_n(-SPACE_WIDTH / 2 + 1.5)}" '
                       f'width="{_n(max(1.0, size - 3))}" height="{_n(SPACE_WIDTH - 3)}" rx="2" '
                       f'fill={quoteattr(owner)} stroke="#000" stroke-width="0.8"/>')
        out.append("</g>")
    out.append("</g>")
    return out


def _locomotive_mark(x: float) -> str:
    """A small locomotive: a ferry space that needs a wild card."""
    return (f'<g class="ferry-loco" transform="translate({_n(x)} 0)" fill="#111" stroke="#fff" stroke-width="0.5">'
            '<path d="M-4.5,1.2 V-1.8 H0.2 V-3.8 H2.8 V-1.8 H4.5 V1.2 Z"/>'
            '<circle cx="-2.4" cy="2.4" r="1.3"/><circle cx="2.4" cy="2.4" r="1.3"/></g>')


def _city_svg(layout: BoardLayout, index: int, name: str, city_id: str, attraction: bool,
              station: str | None) -> list[str]:
    x, y = layout.points[index]
    label = layout.labels[index]
    classes = "city attraction" if attraction else "city"
    spot_x, spot_y = layout.stations[index]
    out = [f'<g id={quoteattr(city_id)} class="{classes}" data-city={quoteattr(name)} '
           f'data-station-x="{_n(spot_x)}" data-station-y="{_n(spot_y)}">',
           f"<title>{escape(name)}</title>"]
    out.append(f'<circle class="city-dot" cx="{_n(x)}" cy="{_n(y)}" r="{_n(CITY_RADIUS)}" '
               f'fill="{"#f7c948" if attraction else "#fff8e7"}" stroke="#5a3b1c" stroke-width="2"/>')
    if attraction:
        out.append(f'<circle class="attraction-mark" cx="{_n(x)}" cy="{_n(y)}" r="2.5" fill="#5a3b1c"/>')
    if station:  # a house: walls from the box's bottom up to its shoulders at y - 1, a roof to its top
        left, top, right, bottom = station_box((spot_x, spot_y))
        shoulder = _n(spot_y - 1)
        out.append(f'<path class="station" data-owner={quoteattr(station)} '
                   f'd="M{_n(left)},{_n(bottom)} V{shoulder} L{_n(spot_x)},{_n(top)} L{_n(right)},{shoulder} '
                   f'V{_n(bottom)} Z" fill={quoteattr(station)} stroke="#000" stroke-width="1"/>')
    common = (f'x="{_n(label.x)}" y="{_n(label.y)}" font-size="{_n(FONT_SIZE)}" text-anchor="{label.anchor}" '
              f'font-weight="bold"')
    out.append(f'<text class="city-halo" {common} fill="#fff" stroke="#fff" stroke-width="3.5" '
               f'stroke-linejoin="round" aria-hidden="true">{escape(name)}</text>')
    out.append(f'<text class="city-name" {common} fill="#1f1f1f">{escape(name)}</text>')
    out.append("</g>")
    return out
