"""Pictures of a game for the environments: `ansi` text and the `rgb_array` board (public information only)."""

from __future__ import annotations

import importlib
import io

import numpy as np

from ttr.engine import Game, IndexView, SeatView
from ttr.maps.render import render_svg

# Seat 0..4 on the board picture: colours no card colour uses (cyan, brown, lime, crimson-magenta, teal).
SEAT_COLOURS = ("#00d0e0", "#8b4513", "#a8e020", "#c2185b", "#00695c")


def ansi(game: Game) -> str:
    """A short text picture of the public state (a spectator's `SeatView`): the turn, the face-up row, each
    seat's counts and routes."""
    m = game.map
    view = SeatView.of(game, None)
    turn = view.turn
    lines = [f"{m.title}: {game.phase_name}"
             + ("" if turn is None else f", {view.players[turn.player].name} to move")]
    lines.append("face up: " + " ".join(c or "-" for c in view.face_up)
                 + f" | deck {view.deck_size}, discard {view.discard_size}, tickets {view.ticket_deck_size}")
    for p in view.players:
        lines.append(f"{p.name}: score {p.score}, trains {p.trains}, stations {p.stations}, cards {p.hand_size}, "
                     f"tickets {p.ticket_count}, routes {len(p.routes)}: {', '.join(p.routes) or '-'}")
    return "\n".join(lines) + "\n"


class BoardPicture:
    """The board with the claimed routes and stations in seat colours, as an H x W x 3 uint8 array."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale
        self._key: tuple[object, ...] | None = None
        self._image: np.ndarray | None = None

    def rgb(self, game: Game) -> np.ndarray:
        """The picture of `game` now (redrawn only when a route or station changed hands)."""
        view = IndexView.of(game, None)
        key = (game.map.name, view.owner, view.station_owner)
        if self._image is None or key != self._key:
            m = game.map
            owners = {r: SEAT_COLOURS[o % len(SEAT_COLOURS)] for r, o in enumerate(view.owner) if o >= 0}
            stations = {m.cities[c].name: SEAT_COLOURS[o % len(SEAT_COLOURS)]
                        for c, o in enumerate(view.station_owner) if o >= 0}
            svg = render_svg(m, owners=owners, stations=stations)
            cairosvg = importlib.import_module("cairosvg")
            image = importlib.import_module("PIL.Image")
            png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=self.scale)
            with image.open(io.BytesIO(png)) as picture:
                self._image = np.asarray(picture.convert("RGB"), dtype=np.uint8)
            self._key = key
        return self._image.copy()


def render_frame(mode: str | None, game: Game, picture: BoardPicture) -> str | np.ndarray | None:
    """What an environment's `render()` returns in `mode`: `ansi` text, the `rgb_array` board, or None
    (`human` prints the text)."""
    if mode == "ansi":
        return ansi(game)
    if mode == "rgb_array":
        return picture.rgb(game)
    if mode == "human":
        print(ansi(game), end="")
    return None
