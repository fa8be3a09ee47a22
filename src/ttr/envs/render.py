"""Pictures of a game for the environments: `ansi` text and the `rgb_array` board (public information only)."""

from __future__ import annotations

import importlib
import io

import numpy as np

from ttr.engine import Game
from ttr.maps.render import render_svg

# Seat 0..4 on the board picture: colours no card colour uses (cyan, brown, lime, crimson-magenta, teal).
SEAT_COLOURS = ("#00d0e0", "#8b4513", "#a8e020", "#c2185b", "#00695c")


def ansi(game: Game) -> str:
    """A short text picture of the public state: the turn, the face-up row, each seat's counts and routes."""
    m = game.map
    names = m.card_names
    lines = [f"{m.title}: {game.phase_name}" + ("" if game.is_over else f", {game.players[game.current]} to move")]
    lines.append("face up: " + " ".join(names[c] if c >= 0 else "-" for c in game.face_up)
                 + f" | deck {game.deck_size}, discard {len(game.discard)}, tickets {game.ticket_deck_size}")
    for p in range(game.n):
        routes = [m.routes[r].name for r, o in enumerate(game.owner) if o == p]
        lines.append(f"{game.players[p]}: score {game.scores[p]}, trains {game.trains[p]}, "
                     f"stations {game.stations_left[p]}, cards {sum(game.hands[p])}, "
                     f"tickets {len(game.tickets[p])}, routes {len(routes)}: {', '.join(routes) or '-'}")
    return "\n".join(lines) + "\n"


class BoardPicture:
    """The board with the claimed routes and stations in seat colours, as an H x W x 3 uint8 array."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale
        self._key: tuple[object, ...] | None = None
        self._image: np.ndarray | None = None

    def rgb(self, game: Game) -> np.ndarray:
        """The picture of `game` now (redrawn only when a route or station changed hands)."""
        key = (game.map.name, tuple(game.owner), tuple(game.station_owner))
        if self._image is None or key != self._key:
            m = game.map
            owners = {r: SEAT_COLOURS[o % len(SEAT_COLOURS)] for r, o in enumerate(game.owner) if o >= 0}
            stations = {m.cities[c].name: SEAT_COLOURS[o % len(SEAT_COLOURS)]
                        for c, o in enumerate(game.station_owner) if o >= 0}
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
