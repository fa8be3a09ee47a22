"""Where each city and its name go on a drawn board: projected from latitude and longitude, spread apart.

Cities are projected equirectangularly (longitude scaled by the cosine of the mean latitude), or taken
from the map's board placement where it has one (`"board"`: x to the right, y down, in board units), scaled
so that a typical city is `spacing` pixels from its nearest neighbour, then pushed apart for a few
rounds: no two cities closer than `min_distance`, two cities joined by a route far enough apart for
its spaces, and no city sitting on a route it is not an end of. Each name goes in the nearest place beside
its city that touches no drawn track (the tracks' whole width, both tracks of a double route), no other name
and no dot, and may sit a little further from its city to do so. Everything is deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ttr.maps.model import GameMap

CITY_RADIUS = 7.0
FONT_SIZE = 13.0
SPACE_MIN = 20.0  # the shortest a drawn space may be, in pixels
SPACE_GAP = 3.0
END_GAP = 4.0  # between a city dot and the first space
MARGIN = 24.0  # the blank border around the board
MIN_ANGLE = math.radians(24)  # the least angle between two routes leaving a city
# A bold name's advance per character, in font sizes (DejaVu Sans Bold, the board's first font, as Chromium
# measures it: a name's width comes out within 1% of getBBox); other characters count as BOLD_OTHER.
BOLD_ADVANCE = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ '.-",
    (0.675, 0.716, 0.593, 0.716, 0.678, 0.435, 0.716, 0.712, 0.343, 0.343, 0.665, 0.343, 1.042, 0.712, 0.687,
     0.716, 0.716, 0.493, 0.595, 0.478, 0.712, 0.652, 0.924, 0.645, 0.652, 0.582,
     0.774, 0.762, 0.734, 0.83, 0.683, 0.683, 0.821, 0.837, 0.372, 0.372, 0.775, 0.637, 0.995, 0.837, 0.85,
     0.733, 0.85, 0.77, 0.72, 0.682, 0.812, 0.774, 1.103, 0.771, 0.724, 0.725, 0.348, 0.306, 0.38, 0.415),
    strict=True))
BOLD_OTHER = 0.85
ASCENT, DESCENT = 0.94, 0.26  # of the font size: a name's measured box above and below its baseline
TRACK_HALF = 5.5  # half the drawn width of a track (ttr.maps.render.SPACE_WIDTH / 2)
TWIN_OFFSET = 7.0  # how far each track of a double route sits from the line between the cities
TRACK_CLEARANCE = 2.0  # between a name and a track, beyond the track's width (the name's white halo)
REACH = 40.0  # how far from its city's centre a name may sit to keep clear of the tracks

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class Label:
    """A city name's anchor point, SVG text-anchor and bounding box."""

    x: float
    y: float
    anchor: str
    box: Box


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """Pixel positions of the cities (by city index) and their names, and the canvas size."""

    width: float
    height: float
    points: tuple[Point, ...]
    labels: tuple[Label, ...]
    stations: tuple[Point, ...]  # per city: where a station piece stands (its centre), clear of the names


STATION_OFFSETS = ((9.0, -11.0), (-9.0, -11.0), (9.0, 13.0), (-9.0, 13.0))  # station spots tried, nearest first
STATION_BOX = (-7.0, -8.0, 7.0, 6.0)  # a station piece's extent around its spot (the page draws the same shape)


_LAYOUTS: dict[tuple[int, float, float, float, float, int], tuple[GameMap, BoardLayout]] = {}
_LAYOUTS_KEPT = 16  # layouts remembered (a report draws its board twice; a server lays out each map once)


def layout_board(game_map: GameMap, *, spacing: float = 110.0, min_distance: float = 85.0, margin: float = MARGIN,
                 top: float = 0.0, rounds: int = 60) -> BoardLayout:
    """Lay out the board: city points and name labels, shifted so everything fits from (margin, margin + top).
    The layout (immutable) is worked out once per map object and settings and then given again."""
    key = (id(game_map), spacing, min_distance, margin, top, rounds)
    kept = _LAYOUTS.get(key)
    if kept is not None and kept[0] is game_map:
        return kept[1]
    layout = _layout_board(game_map, spacing, min_distance, margin, top, rounds)
    if len(_LAYOUTS) >= _LAYOUTS_KEPT:
        del _LAYOUTS[next(iter(_LAYOUTS))]
    _LAYOUTS[key] = (game_map, layout)
    return layout


def _layout_board(game_map: GameMap, spacing: float, min_distance: float, margin: float, top: float,
                  rounds: int) -> BoardLayout:
    points = _project(game_map, spacing)
    _spread(game_map, points, min_distance, rounds)
    labels = _place_labels_clear_of_tracks(game_map, points)
    boxes = [lab.box for lab in labels] + [
        (x - CITY_RADIUS, y - CITY_RADIUS, x + CITY_RADIUS, y + CITY_RADIUS) for x, y in points
    ]
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    dx, dy = margin - x0, margin + top - y0
    moved = tuple((x + dx, y + dy) for x, y in points)
    moved_labels = tuple(
        Label(lab.x + dx, lab.y + dy, lab.anchor, (lab.box[0] + dx, lab.box[1] + dy, lab.box[2] + dx, lab.box[3] + dy))
        for lab in labels
    )
    width, height = x1 - x0 + 2 * margin, y1 - y0 + 2 * margin + top
    stations = tuple(station_spot(point, moved_labels, width, height) for point in moved)
    return BoardLayout(width, height, moved, moved_labels, stations)


def station_box(spot: Point) -> Box:
    """The box a station piece standing at `spot` covers."""
    x, y = spot
    return (x + STATION_BOX[0], y + STATION_BOX[1], x + STATION_BOX[2], y + STATION_BOX[3])


def station_spot(point: Point, labels: tuple[Label, ...], width: float, height: float) -> Point:
    """Where a station piece beside the city at `point` stands: the first of `STATION_OFFSETS` whose piece
    stays on the canvas and overlaps no city name, else the one on the canvas that overlaps the names least."""
    def cost(offset: tuple[float, float]) -> tuple[bool, float]:
        box = station_box((point[0] + offset[0], point[1] + offset[1]))
        off_canvas = box[0] < 0 or box[1] < 0 or box[2] > width or box[3] > height
        return off_canvas, sum(_overlap(box, label.box) for label in labels)

    dx, dy = min(STATION_OFFSETS, key=cost)
    return point[0] + dx, point[1] + dy


def _project(game_map: GameMap, spacing: float) -> list[list[float]]:
    """City points before spreading: the board placement, or the projected lat/lon, scaled to `spacing`."""
    cities = game_map.cities
    if not cities:
        return []
    if game_map.board:
        raw = list(game_map.board)
    else:
        mean_lat = sum(c.lat for c in cities) / len(cities)
        k = math.cos(math.radians(mean_lat))
        raw = [(c.lon * k, -c.lat) for c in cities]
    nearest = []
    for i, (x, y) in enumerate(raw):
        others = [math.hypot(x - u, y - v) for j, (u, v) in enumerate(raw) if j != i]
        positive = [d for d in others if d > 0]
        if positive:
            nearest.append(min(positive))
    nearest.sort()
    typical = nearest[len(nearest) // 2] if nearest else 1.0
    scale = spacing / typical
    return [[x * scale, y * scale] for x, y in raw]


def _pair_minimums(game_map: GameMap, min_distance: float) -> dict[tuple[int, int], float]:
    """The least distance between two cities joined by a route: room for its spaces."""
    need: dict[tuple[int, int], float] = {}
    for r in game_map.routes:
        i, j = sorted((game_map.city_index[r.a], game_map.city_index[r.b]))
        length = r.length * (SPACE_MIN + SPACE_GAP) - SPACE_GAP + 2 * (CITY_RADIUS + END_GAP)
        need[(i, j)] = max(need.get((i, j), min_distance), length)
    return need


def _spread(game_map: GameMap, p: list[list[float]], min_distance: float, rounds: int) -> None:
    """Push cities apart in place until no rule is broken by more than half a pixel, or `rounds` run out."""
    n = len(p)
    need = _pair_minimums(game_map, min_distance)
    ends = [sorted((game_map.city_index[r.a], game_map.city_index[r.b])) for r in game_map.routes]
    segments = sorted({(a, b) for a, b in ends})
    clearance = CITY_RADIUS + 36.0
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for a, b in segments:
        neighbours[a].append(b)
        neighbours[b].append(a)
    for _ in range(rounds):
        worst = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                want = need.get((i, j), min_distance)
                dx, dy = p[j][0] - p[i][0], p[j][1] - p[i][1]
                d = math.hypot(dx, dy)
                if d >= want:
                    continue
                if d < 1e-9:  # the same spot: part them along a fixed, index-based direction
                    angle = 2.399963 * (i + 1) * (j + 1)
                    dx, dy, d = math.cos(angle), math.sin(angle), 1.0
                push = (want - d) / 2
                worst = max(worst, push)
                ux, uy = dx / d, dy / d
                p[i][0] -= ux * push
                p[i][1] -= uy * push
                p[j][0] += ux * push
                p[j][1] += uy * push
        for a, b in segments:
            for c in range(n):
                if c in (a, b):
                    continue
                shift = _away_from_segment(p[c], p[a], p[b], clearance)
                if shift is not None:
                    worst = max(worst, math.hypot(*shift))
                    p[c][0] += shift[0]
                    p[c][1] += shift[1]
        for c in range(n):
            worst = max(worst, _fan_out(p, c, neighbours[c]))
        if worst < 0.5:
            break


def _fan_out(p: list[list[float]], c: int, others: list[int]) -> float:
    """Turn the routes leaving city `c` apart, about `c`, until no two leave within MIN_ANGLE; the largest move."""
    worst = 0.0
    cx, cy = p[c]
    for k, x in enumerate(others):
        for y in others[k + 1:]:
            ax = math.atan2(p[x][1] - cy, p[x][0] - cx)
            ay = math.atan2(p[y][1] - cy, p[y][0] - cx)
            diff = (ay - ax + math.pi) % (2 * math.pi) - math.pi
            if abs(diff) >= MIN_ANGLE:
                continue
            turn = (MIN_ANGLE - abs(diff)) / 2 * (1 if diff >= 0 else -1)
            for city, angle in ((x, -turn), (y, turn)):
                dx, dy = p[city][0] - cx, p[city][1] - cy
                cos, sin = math.cos(angle), math.sin(angle)
                nx, ny = cx + dx * cos - dy * sin, cy + dx * sin + dy * cos
                worst = max(worst, math.hypot(nx - p[city][0], ny - p[city][1]))
                p[city][0], p[city][1] = nx, ny
    return worst


def _away_from_segment(c: list[float], a: list[float], b: list[float], clearance: float) -> Point | None:
    """How far to move city `c` so that it is `clearance` from the middle of segment a-b, or None."""
    ax, ay = a
    vx, vy = b[0] - ax, b[1] - ay
    length2 = vx * vx + vy * vy
    if length2 < 1e-9:
        return None
    t = ((c[0] - ax) * vx + (c[1] - ay) * vy) / length2
    if not 0.08 < t < 0.92:
        return None
    qx, qy = ax + t * vx, ay + t * vy
    dx, dy = c[0] - qx, c[1] - qy
    d = math.hypot(dx, dy)
    if d >= clearance:
        return None
    if d < 1e-9:
        length = math.sqrt(length2)
        dx, dy, d = -vy / length, vx / length, 1.0
    return (dx / d * (clearance - d), dy / d * (clearance - d))


def _label_candidates(x: float, y: float, width: float) -> list[Label]:
    fs, r = FONT_SIZE, CITY_RADIUS
    spots = [
        (0.0, r + fs + 1, "middle"), (0.0, -r - 4, "middle"), (r + 4, fs * 0.35, "start"),
        (-r - 4, fs * 0.35, "end"), (r + 1, r + fs - 1, "start"), (r + 1, -r - 2, "start"),
        (-r - 1, -r - 2, "end"), (-r - 1, r + fs - 1, "end"),
    ]
    out = []
    for dx, dy, anchor in spots:
        tx, ty = x + dx, y + dy
        left = {"start": tx, "middle": tx - width / 2, "end": tx - width}[anchor]
        out.append(Label(tx, ty, anchor, (left, ty - fs * 0.8, left + width, ty + fs * 0.25)))
    return out


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def track_bands(game_map: GameMap, points: list[Point] | tuple[Point, ...]) -> list[tuple[Point, Point, float]]:
    """Each pair of cities joined by a route as drawn: the ends of its spaces (from the first space to the
    last) and the half-width of its track(s), both tracks of a double route included."""
    half: dict[tuple[int, int], float] = {}
    for r in game_map.routes:
        pair = (min(game_map.city_index[r.a], game_map.city_index[r.b]),
                max(game_map.city_index[r.a], game_map.city_index[r.b]))
        half[pair] = max(half.get(pair, 0.0), TRACK_HALF + (TWIN_OFFSET if r.twin >= 0 else 0.0))
    bands = []
    trim = CITY_RADIUS + END_GAP
    for (a, b), width in sorted(half.items()):
        (ax, ay), (bx, by) = points[a], points[b]
        d = math.hypot(bx - ax, by - ay)
        if d <= 2 * trim:
            continue
        ux, uy = (bx - ax) / d, (by - ay) / d
        bands.append(((ax + ux * trim, ay + uy * trim), (bx - ux * trim, by - uy * trim), width))
    return bands


class _Band:
    """A drawn track as a rotated rectangle, with what the overlap test needs worked out once."""

    __slots__ = ("box", "n_hi", "n_lo", "nx", "ny", "u_hi", "u_lo", "ux", "uy")

    def __init__(self, p: Point, q: Point, half: float) -> None:
        dx, dy = q[0] - p[0], q[1] - p[1]
        length = math.hypot(dx, dy) or 1.0
        self.ux, self.uy = dx / length, dy / length
        self.nx, self.ny = -self.uy, self.ux
        self.u_lo = p[0] * self.ux + p[1] * self.uy
        self.u_hi = self.u_lo + length
        centre = p[0] * self.nx + p[1] * self.ny
        self.n_lo, self.n_hi = centre - half, centre + half
        ex, ey = abs(self.nx) * half, abs(self.ny) * half
        self.box = (min(p[0], q[0]) - ex, min(p[1], q[1]) - ey, max(p[0], q[0]) + ex, max(p[1], q[1]) + ey)

    def hits(self, box: Box) -> bool:
        """Whether the track meets `box` (separating axes: the box's two, then the track's two)."""
        b = self.box
        if not (box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]):
            return False
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        hw, hh = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
        along = cx * self.ux + cy * self.uy
        reach = hw * abs(self.ux) + hh * abs(self.uy)
        if along + reach <= self.u_lo or along - reach >= self.u_hi:
            return False
        across = cx * self.nx + cy * self.ny
        reach = hw * abs(self.nx) + hh * abs(self.ny)
        return not (across + reach <= self.n_lo or across - reach >= self.n_hi)


def bold_width(name: str) -> float:
    """How wide a city's name is drawn (bold, FONT_SIZE), with 2% to spare."""
    return 1.02 * FONT_SIZE * sum(BOLD_ADVANCE.get(ch, BOLD_OTHER) for ch in name)


def _near_spots(x: float, y: float, width: float, reach: float = 34.0, step: float = 3.0) -> list[Label]:
    """Every place for a name's box around the city (x, y), clear of its dot and at most `reach` from it,
    nearest first (then the flatter, then left to right and top to bottom), anchored towards the city."""
    height = FONT_SIZE * (ASCENT + DESCENT)
    gap = CITY_RADIUS + 2
    spots: list[tuple[float, float, float, float]] = []
    left = x - width - reach
    while left <= x + reach:
        top = y - height - reach
        while top <= y + reach:
            nx = min(max(x, left), left + width)
            ny = min(max(y, top), top + height)
            d = math.hypot(nx - x, ny - y)
            if gap <= d <= reach:
                spots.append((d, abs(top + height / 2 - y), left, top))
            top += step
        left += step
    spots.sort()
    out = []
    for _, _, lf, tp in spots:
        # anchored on the side towards the city, so that a shorter name (a translation) stays by its city
        if lf + width <= x:
            anchor, lx = "end", lf + width
        elif lf >= x:
            anchor, lx = "start", lf
        else:
            anchor, lx = "middle", lf + width / 2
        out.append(Label(lx, tp + FONT_SIZE * ASCENT, anchor, (lf, tp, lf + width, tp + height)))
    return out


def _place_labels_clear_of_tracks(game_map: GameMap, p: list[list[float]]) -> list[Label]:
    """Each name in the nearest place beside its city that touches no drawn track, no other name and no
    dot: one of the eight usual spots if one is clear, else anywhere within REACH; where no place is
    clear, the usual spot touching fewest."""
    points = [(x, y) for x, y in p]
    dots = [(x - CITY_RADIUS - 2, y - CITY_RADIUS - 2, x + CITY_RADIUS + 2, y + CITY_RADIUS + 2) for x, y in points]
    widths = [bold_width(c.name) for c in game_map.cities]
    bands = [_Band(a, b, half) for a, b, half in track_bands(game_map, points)]

    def hits(box: Box, near: list[_Band] = bands) -> int:
        grown = (box[0] - TRACK_CLEARANCE, box[1] - TRACK_CLEARANCE, box[2] + TRACK_CLEARANCE, box[3] + TRACK_CLEARANCE)
        return sum(1 for band in near if band.hits(grown))

    usual = [[Label(c.x, c.y, c.anchor, (c.box[0], c.y - FONT_SIZE * ASCENT, c.box[2], c.y + FONT_SIZE * DESCENT))
              for c in _label_candidates(x, y, widths[i])] for i, (x, y) in enumerate(points)]
    chosen: list[Label] = []
    for i in range(len(points)):  # to begin with: the usual spot touching the fewest tracks and dots
        scored = [(hits(c.box) * 1000 + sum(10 * _overlap(c.box, d) for j, d in enumerate(dots) if j != i) + rank, rank)
                  for rank, c in enumerate(usual[i])]
        chosen.append(usual[i][min(scored)[1]])
    spots = [(*usual[i], *_near_spots(x, y, widths[i], REACH)) for i, (x, y) in enumerate(points)]
    regions = [(min(c.box[0] for c in cands) - 1, min(c.box[1] for c in cands) - 1,
                max(c.box[2] for c in cands) + 1, max(c.box[3] for c in cands) + 1) for cands in spots]
    grown_regions = [(r[0] - TRACK_CLEARANCE, r[1] - TRACK_CLEARANCE, r[2] + TRACK_CLEARANCE, r[3] + TRACK_CLEARANCE)
                     for r in regions]
    near_bands = [[band for band in bands if _touch(band.box, region)] for region in grown_regions]
    for _ in range(2):  # then each name in the nearest clear place, the others in place
        for i in range(len(points)):
            others = [box for j, box in enumerate([lab.box for lab in chosen] + dots)
                      if j not in (i, len(points) + i) and _touch(box, regions[i])]
            for cand in spots[i]:
                box = cand.box
                if not any(_touch(box, other) for other in others) and not hits(box, near_bands[i]):
                    chosen[i] = cand
                    break
    return chosen


def _touch(a: Box, b: Box) -> bool:
    """Whether two boxes overlap (more than along an edge)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
