"""The information-state vector: the observation vector and a fixed-size summary of what the seat has seen.

OpenSpiel's deep algorithms (NFSP, policy gradients, ...) need a tensor of each player's information state.
This one is the observation vector (`ObservationEncoder`: everything the seat sees now, the cards other
seats are known to hold included) followed by what it remembers beyond the present position:

| segment | size | content |
|---|---|---|
| `observation` | S | the observation vector (docs/envs.md) |
| `tickets_returned` | T | 1 for each ticket the seat itself was offered and gave back |
| `seat_actions` | 5n | per relative seat: deck draws, face-up draws, ticket draws, tickets returned, tunnels given up |
| `decisions` | 1 | the player decisions made so far in the game (ticket sub-decisions included) |

The game is read only through the engine's views of the seat (`IndexView` for the observation,
`seen_history` for the moves): its own cards and tickets and the public record. Other seats' deck draws
are counted with no card in them, and of their ticket choices only how many they returned is known (from
the public keep/return sub-decisions). It is a summary, not the whole record: two histories with the same
counts and the same present position share a vector.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ttr.engine import Game, seen_history
from ttr.engine.actions import ABANDON_TUNNEL, DRAW_DECK, DRAW_FACE_UP, DRAW_TICKETS, KEEP_TICKETS
from ttr.envs.observation import ObservationEncoder

SEAT_COUNTS = ("deck draws", "face-up draws", "ticket draws", "tickets returned", "tunnels given up")
PRIVATE_SEGMENTS = ("hand", "tickets_held", "tickets_joined", "offer", "offer_current", "offer_kept")


class InfoStateEncoder:
    """Encodes a seat's information state into a fixed vector; `segments` and `offsets` give the layout."""

    def __init__(self, encoder: ObservationEncoder) -> None:
        self.obs = encoder
        n = encoder.n
        tickets = len(encoder.map.tickets)
        self.segments: list[tuple[str, int, str]] = [
            ("observation", encoder.size, "the observation vector"),
            ("tickets_returned", tickets, "1 for each ticket the seat itself was offered and gave back"),
            ("seat_actions", 5 * n, "per relative seat: " + ", ".join(SEAT_COUNTS)),
            ("decisions", 1, "player decisions so far"),
        ]
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, size, _ in self.segments:
            self.offsets[name] = pos
            pos += size
        self.size = pos

    def encode(self, game: Game, seat: int, kept: list[bool] | None, decisions: int, returns: Sequence[int],
               public_only: bool = False) -> np.ndarray:
        """A new vector of `seat`'s information state; `kept` its keep/return sub-decisions so far (None when
        it is not choosing), `decisions` the player decisions so far, `returns` the tickets each seat gave back
        (counted from the public keep/return decisions); `public_only` zeroes what only the seat knows (its
        cards, tickets and offers)."""
        out = np.zeros(self.size, np.float32)
        enc = self.obs
        vec = enc.encode(game, seat, kept)
        if public_only:
            for name in PRIVATE_SEGMENTS:
                enc.segment(vec, name)[:] = 0.0
        out[:enc.size] = vec
        n = enc.n
        cat = game.cat
        kind, mask_of = cat.kind, cat.a
        returned = self.offsets["tickets_returned"]
        counts = self.offsets["seat_actions"]
        for p, aid, detail in seen_history(game, seat):
            k = kind[aid]
            base = counts + 5 * ((p - seat) % n)
            if k == DRAW_DECK:
                out[base] += 1.0
            elif k == DRAW_FACE_UP:
                out[base + 1] += 1.0
            elif k == DRAW_TICKETS:
                out[base + 2] += 1.0
            elif k == KEEP_TICKETS and p == seat and not public_only:
                for t in detail[mask_of[aid].bit_count():]:  # the kept ones first, then the returned
                    out[returned + t] = 1.0
            elif k == ABANDON_TUNNEL:
                out[base + 4] += 1.0
        for rel in range(n):
            out[counts + 5 * rel + 3] = returns[(seat + rel) % n]
        out[self.offsets["decisions"]] = decisions
        return out

    def segment(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The slice of an information-state vector that holds segment `name`."""
        size = next(s for seg, s, _ in self.segments if seg == name)
        return vector[self.offsets[name]:self.offsets[name] + size]


__all__ = ["PRIVATE_SEGMENTS", "SEAT_COUNTS", "InfoStateEncoder"]
