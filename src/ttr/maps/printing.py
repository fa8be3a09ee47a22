"""Print and play: the board at a chosen real size, the ticket cards and a rules sheet, as SVG and PDF.

`print_map` writes into a folder:

* ``board.svg`` and ``board.pdf``: the board of `ttr.maps.render` at the size asked for (``80x55cm``),
  centred on the sheet with its proportions kept;
* ``tickets-1.svg``, ``tickets-2.svg``, ... and ``tickets.pdf``: the destination tickets as cards of
  63 x 88 mm, nine to an A4 sheet, each with its two cities marked on a small map of the board, its
  points, and a cutting outline;
* ``rules.svg`` and ``rules.pdf``: one A4 sheet of the rules the map file sets.

The PDFs are drawn by cairosvg (the ``png`` extra); without it only the SVG files are written.
"""

from __future__ import annotations

import importlib
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from ttr.errors import MapError
from ttr.maps.layout import layout_board
from ttr.maps.model import GameMap, Ticket
from ttr.maps.render import BACKGROUND, FONT, render_svg

A4 = (210.0, 297.0)  # mm
CARD = (63.0, 88.0)  # mm: the usual card size
CARDS_PER_ROW, ROWS_PER_SHEET = 3, 3
UNITS_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}
SIZE_PATTERN = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)\s*$")


@dataclass(frozen=True)
class PrintSize:
    """A sheet size: width and height in millimetres, and how it was written."""

    width_mm: float
    height_mm: float
    text: str


def parse_size(text: str) -> PrintSize:
    """``80x55cm``, ``800x550mm`` or ``31.5x21.7in``; `MapError` says what is wrong with anything else."""
    match = SIZE_PATTERN.match(text)
    if not match:
        raise MapError(f"--size {text!r}: write WIDTHxHEIGHT with a unit, e.g. 80x55cm, 800x550mm or 31x22in")
    unit = UNITS_MM[match.group(3)]
    width, height = float(match.group(1)) * unit, float(match.group(2)) * unit
    if not (50 <= width <= 5000 and 50 <= height <= 5000):
        raise MapError(f"--size {text!r}: each side must be from 5 cm to 5 m")
    return PrintSize(width, height, text.strip())


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") + "mm"


def board_svg(game_map: GameMap, size: PrintSize) -> str:
    """The board as SVG whose document is exactly `size` (the drawing scaled to fit, centred)."""
    svg = render_svg(game_map)
    head = re.search(r'<svg [^>]*?width="(\d+)" height="(\d+)"', svg)
    if head is None:  # render_svg always writes them
        raise MapError("the board drawing has no size")
    return (svg[:head.start()] + head.group(0).replace(f'width="{head.group(1)}" height="{head.group(2)}"',
                                                       f'width="{_mm(size.width_mm)}" height="{_mm(size.height_mm)}" '
                                                       'preserveAspectRatio="xMidYMid meet"')
            + svg[head.end():])


def _sheet(width: float, height: float, body: list[str], title: str) -> str:
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(width)}" height="{_mm(height)}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="{FONT}">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="#ffffff"/>',
        *body,
        "</svg>",
    ]) + "\n"


def _ticket_card(game_map: GameMap, ticket: Ticket, x: float, y: float, points: list[tuple[float, float]]) -> list[str]:
    """One card at (x, y) mm: its cities, points, and a small map with its two cities marked."""
    w, h = CARD
    out = [f'<g class="ticket" data-ticket="{escape(ticket.name)}">',
           f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:g}" height="{h:g}" rx="3" fill="{BACKGROUND}" '
           'stroke="#555" stroke-width="0.3" stroke-dasharray="1.5,1"/>']
    pad = 4.0
    box_w, box_h = w - 2 * pad, h * 0.55
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    scale = min(box_w / max(max(xs) - min(xs), 1.0), box_h / max(max(ys) - min(ys), 1.0))
    ox = x + pad + (box_w - (max(xs) - min(xs)) * scale) / 2
    oy = y + 16 + (box_h - (max(ys) - min(ys)) * scale) / 2

    def place(i: int) -> tuple[float, float]:
        px, py = points[i]
        return ox + (px - min(xs)) * scale, oy + (py - min(ys)) * scale

    for route in game_map.routes:
        if route.twin >= 0 and route.twin < route.index:
            continue
        (x1, y1), (x2, y2) = place(game_map.city_index[route.a]), place(game_map.city_index[route.b])
        out.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" stroke="#b9b09a" '
                   'stroke-width="0.35"/>')
    for city in game_map.cities:
        cx, cy = place(city.index)
        out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="0.7" fill="#6b6454"/>')
    for name in (ticket.a, ticket.b):
        cx, cy = place(game_map.city_index[name])
        out.append(f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="1.8" fill="#d7263d" stroke="#fff" stroke-width="0.4"/>')
    out.append(f'<text x="{x + w / 2:.2f}" y="{y + 8:.2f}" font-size="4.2" font-weight="bold" text-anchor="middle">'
               f"{escape(ticket.a)}</text>")
    out.append(f'<text x="{x + w / 2:.2f}" y="{y + 13:.2f}" font-size="4.2" font-weight="bold" text-anchor="middle">'
               f"{escape(ticket.b)}</text>")
    cy = y + h - 12
    out.append(f'<circle cx="{x + w / 2:.2f}" cy="{cy:.2f}" r="7" fill="#fff" stroke="#333" stroke-width="0.5"/>')
    out.append(f'<text class="points" x="{x + w / 2:.2f}" y="{cy + 2.6:.2f}" font-size="7.5" font-weight="bold" '
               f'text-anchor="middle">{ticket.points}</text>')
    if ticket.long:
        out.append(f'<text x="{x + w - 3:.2f}" y="{y + h - 3:.2f}" font-size="3" text-anchor="end">long</text>')
    out.append("</g>")
    return out


def ticket_sheets(game_map: GameMap) -> list[str]:
    """The ticket cards, nine to an A4 sheet: one SVG document per sheet."""
    points = list(layout_board(game_map, top=0).points)
    per_sheet = CARDS_PER_ROW * ROWS_PER_SHEET
    gap = 3.0
    left = (A4[0] - CARDS_PER_ROW * CARD[0] - (CARDS_PER_ROW - 1) * gap) / 2
    top = (A4[1] - ROWS_PER_SHEET * CARD[1] - (ROWS_PER_SHEET - 1) * gap) / 2
    sheets = []
    tickets = list(game_map.tickets)
    for start in range(0, max(1, len(tickets)), per_sheet):
        body = []
        for n, ticket in enumerate(tickets[start:start + per_sheet]):
            col, row = n % CARDS_PER_ROW, n // CARDS_PER_ROW
            body += _ticket_card(game_map, ticket, left + col * (CARD[0] + gap), top + row * (CARD[1] + gap), points)
        page = start // per_sheet + 1
        pages = math.ceil(len(tickets) / per_sheet) or 1
        body.append(f'<text x="{A4[0] / 2:g}" y="{A4[1] - 4:g}" font-size="3" text-anchor="middle" fill="#777">'
                    f"{escape(game_map.title)}: tickets, sheet {page} of {pages}</text>")
        sheets.append(_sheet(*A4, body, f"{game_map.title}: tickets {page}/{pages}"))
    return sheets


def rules_lines(game_map: GameMap) -> list[str]:
    """The map's rules, one line each, as the rules sheet prints them."""
    r = game_map.rules
    pieces = r.piece_name
    points = ", ".join(f"{n}: {p}" for n, p in sorted(r.route_points.items()))
    setup = f"{r.setup_regular_tickets} tickets" + (f" and {r.setup_long_tickets} long" if r.setup_long_tickets else "")
    returned = "out of the game" if r.setup_returned == "box" else "under the ticket deck"
    lines = [
        f"Players: {r.players_min} to {r.players_max}. Each starts with {r.pieces} {pieces}"
        + (f" and {r.stations} stations." if r.stations else "."),
        f"Deck: {game_map.per_color} cards of each colour ({', '.join(game_map.colors)}) and "
        f"{game_map.wild_count} {game_map.wild_name} cards (wild).",
        f"Setup: deal {r.starting_hand} cards to each player and {r.face_up} face up; deal {setup} to each "
        f"player, who keeps at least {r.setup_keep_min}; the rest go {returned}.",
        "On your turn do one thing: draw 2 cards (a face-up wild card is your only draw), claim a route, "
        + ("build a station, " if r.stations else "") + "or draw tickets.",
        f"Draw tickets: take {r.draw_tickets}, keep at least {r.draw_keep_min}, the rest under the deck.",
        f"When {r.face_up_wild_limit} wild cards lie face up, the row is discarded and dealt again.",
        f"Route points by length: {points}.",
        f"Double routes: with {r.double_routes_single_use_max_players} players or fewer only one track "
        "may be claimed; a player never claims both.",
    ]
    if any(route.tunnel for route in game_map.routes):
        lines.append(f"Tunnels: turn up {r.tunnel_reveal} cards; each of the colour played (or wild) costs one more.")
    if any(route.ferry_locomotives for route in game_map.routes):
        lines.append("Ferries: the marked spaces must be paid with wild cards.")
    if r.stations:
        lines.append(f"Stations cost {', '.join(map(str, r.station_costs))} cards; each unbuilt station scores "
                     f"{r.unbuilt_station_points}; a station borrows one route of another player at the end.")
    lines.append(f"The last round starts when a player has {r.end_trigger_pieces} {pieces} or fewer after a turn.")
    lines.append("At the end: tickets completed add their points, tickets not completed subtract them.")
    if r.longest_path_bonus:
        lines.append(f"Longest continuous path: {r.longest_path_bonus} points (shared on a tie).")
    if game_map.tourist_attractions:
        lines.append(f"Tourist attractions: {r.attraction_points} point(s) each your routes reach.")
    names = {"tickets_completed": "most tickets completed", "fewest_stations_built": "fewest stations built",
             "longest_path": "the longest path"}
    if r.tiebreaks:
        lines.append("Ties: " + ", then ".join(names[t] for t in r.tiebreaks) + ".")
    return lines


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def rules_sheet(game_map: GameMap) -> str:
    """One A4 SVG sheet of the rules the map file sets."""
    body = [f'<text x="15" y="22" font-size="7" font-weight="bold">{escape(game_map.title)}</text>',
            f'<text x="15" y="30" font-size="4" fill="#555">Rules of this map ({escape(game_map.name)})</text>']
    y = 42.0
    for line in rules_lines(game_map):
        for n, part in enumerate(_wrap(line, 88)):
            body.append(f'<text x="{15 if n == 0 else 19}" y="{y:.1f}" font-size="4">{"• " if n == 0 else ""}'
                        f"{escape(part)}</text>")
            y += 5.6
        y += 2.4
    return _sheet(*A4, body, f"{game_map.title}: rules")


def _cairosvg() -> Any:
    try:
        return importlib.import_module("cairosvg")
    except (ImportError, OSError):
        return None


def write_pdf(pages: list[str], path: Path) -> None:
    """SVG documents as the pages of one PDF (cairosvg); every page takes its own document's size."""
    cairosvg = _cairosvg()
    if cairosvg is None:
        raise MapError("PDF output needs cairosvg and the cairo library: pip install 'ttr[png]'")
    cairocffi = importlib.import_module("cairocffi")
    tree_class = importlib.import_module("cairosvg.parser").Tree
    pdf_surface: Any = importlib.import_module("cairosvg.surface").PDFSurface

    shared: list[Any] = []

    class PageSurface(pdf_surface):  # type: ignore[misc]
        """Draws onto one shared cairo PDF surface instead of a new file per document."""

        def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
            if not shared:
                shared.append(cairocffi.PDFSurface(str(path), width, height))
            else:
                shared[0].set_size(width, height)
            return shared[0], width, height

    try:
        for page in pages:
            PageSurface(tree_class(bytestring=page.encode("utf-8")), None, 96)
            shared[0].show_page()
        shared[0].finish()
    except OSError as exc:
        raise MapError(f"cannot write {path}: {exc.strerror or exc}") from None


def print_map(game_map: GameMap, size: PrintSize, out: Path, *, pdf: bool = True) -> list[Path]:
    """Write the board, the ticket sheets and the rules sheet into `out` (made if missing); the files written."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MapError(f"cannot make {out}: {exc.strerror or exc}") from None
    board = board_svg(game_map, size)
    sheets = ticket_sheets(game_map)
    rules = rules_sheet(game_map)
    files: list[tuple[Path, str]] = [(out / "board.svg", board), (out / "rules.svg", rules)]
    files += [(out / f"tickets-{n}.svg", sheet) for n, sheet in enumerate(sheets, 1)]
    written = []
    for path, text in files:
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise MapError(f"cannot write {path}: {exc.strerror or exc}") from None
        written.append(path)
    if pdf:
        for name, pages in (("board.pdf", [board]), ("tickets.pdf", sheets), ("rules.pdf", [rules])):
            write_pdf(pages, out / name)
            written.append(out / name)
    return written


def pdf_available() -> bool:
    """Whether PDF output can be drawn here (cairosvg and the cairo library)."""
    return _cairosvg() is not None
