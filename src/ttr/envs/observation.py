"""The observation vector: a fixed-size float32 array of what one seat may see, segment by segment.

Other seats appear in seat order relative to the observer (offset 1 is the next seat to play after it).
The encoder reads a game only through the engine's view of the observing seat (`ttr.engine.IndexView`, the
index form of `SeatView`), which holds no other seat's hand, tickets or offer, no deck or discard order
and no RNG: only the observer's own hand, tickets and offer, and what every seat sees (the board, the
face-up row, counts of cards in piles and hands, scores, a pending tunnel's revealed cards, and the cards
another seat is known to hold, worked out from the public moves alone: taken face up and not played
since, as `ttr.engine.sample` keeps them in a sampled hand).
`SEGMENTS` in `ObservationEncoder` lists every segment with its size (docs/envs.md has the table).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ttr.engine import Game, IndexView
from ttr.engine.phases import TUNNEL
from ttr.maps import GameMap

NUM_PHASES = 6  # choose setup tickets, main, second card, tunnel payment, choose drawn tickets, over


class ObservationEncoder:
    """Encodes a game from one seat's side into a fixed vector; the layout depends on (map, players)."""

    def __init__(self, game_map: GameMap, num_players: int) -> None:
        n = num_players
        cards = len(game_map.colors) + 1
        routes = len(game_map.routes)
        cities = len(game_map.cities)
        tickets = len(game_map.tickets)
        self.n = n
        self.cards = cards
        self.segments: list[tuple[str, int, str]] = [
            ("phase", NUM_PHASES, "one-hot: choose setup tickets, main, second card, tunnel payment, "
                                  "choose drawn tickets, game over"),
            ("to_move", n, "one-hot: the seat to move, relative to the observer (0 = the observer)"),
            ("hand", cards, "the observer's cards per type (colours in map order, the wild card last)"),
            ("face_up", cards, "face-up cards per type"),
            ("discard", cards, "discard pile cards per type"),
            ("piles", 3, "train deck size, discard pile size, ticket deck size"),
            ("players", n * 5, "per relative seat: hand size, tickets held, trains left, stations left, "
                               "route points so far"),
            ("route_owner", routes * n, "per route, one-hot of the owner's relative seat (all 0: unclaimed)"),
            ("route_open", routes, "per route, 1 if it can still be claimed by some seat"),
            ("station_owner", cities * n, "per city, one-hot of the station owner's relative seat"),
            ("tickets_held", tickets, "1 for each ticket the observer holds"),
            ("tickets_joined", tickets, "1 for each held ticket whose cities the observer's own routes join"),
            ("offer", tickets, "1 for each ticket offered to the observer (while it chooses)"),
            ("offer_current", tickets, "1 for the offered ticket under decision now"),
            ("offer_kept", tickets, "1 for each offered ticket already marked keep in this choice"),
            ("tunnel_revealed", cards, "a pending tunnel's revealed cards per type"),
            ("tunnel_colour", cards, "one-hot: the card type the pending tunnel was paid with"),
            ("tunnel_extra", 1, "the extra cards the pending tunnel asks for"),
            ("final_round", 2, "1 once the last round has started; turns left in it"),
            ("known_cards", (n - 1) * cards, "per other relative seat (1 .. n-1), the cards of each type it is "
                                             "known to hold: taken face up and not played since"),
        ]
        self.offsets: dict[str, int] = {}
        pos = 0
        for name, size, _ in self.segments:
            self.offsets[name] = pos
            pos += size
        self.size = pos
        rules = game_map.rules
        card_total = len(game_map.colors) * game_map.per_color + game_map.wild_count
        highs = {
            "hand": card_total, "face_up": rules.face_up, "discard": card_total, "piles": max(card_total,
                                                                                                len(game_map.tickets)),
            "players": max(card_total, len(game_map.tickets), rules.pieces, 10_000),
            "tunnel_revealed": max(rules.tunnel_reveal, 1), "tunnel_extra": max(rules.tunnel_reveal, 1),
            "final_round": n + 1, "known_cards": card_total,
        }
        high = np.ones(self.size, np.float32)
        for name, size, _ in self.segments:
            if name in highs:
                high[self.offsets[name]:self.offsets[name] + size] = highs[name]
        self.high = high
        self.map = game_map
        city = game_map.city
        self._route_a = np.array([city(r.a).index for r in game_map.routes], dtype=np.intp)
        self._route_b = np.array([city(r.b).index for r in game_map.routes], dtype=np.intp)
        self._ticket_a = [city(t.a).index for t in game_map.tickets]
        self._ticket_b = [city(t.b).index for t in game_map.tickets]
        self._routes = routes
        self._cities = cities
        self._buf = np.zeros(self.size, np.float32)
        self._head = [0.0] * (self.offsets["players"] + 5 * n)
        # route_owner .. tickets_joined: recomputed only when a claim, station or ticket count changes
        self._board_lo = self.offsets["route_owner"]
        self._board_hi = self.offsets["tickets_joined"] + tickets
        self._board_cache: dict[int, tuple[tuple[tuple[int | bool, ...], ...], np.ndarray]] = {}  # per seat

    def encode(self, game: Game, seat: int, kept: list[bool] | None = None) -> np.ndarray:
        """A new vector of what `seat` sees in `game` (`IndexView.of(game, seat)`); `kept` are the keep/return
        decisions so far in the observer's own ticket choice (the environments' sequential sub-decisions)."""
        return self.encode_view(IndexView.of(game, seat), kept)

    def encode_view(self, view: IndexView, kept: list[bool] | None = None) -> np.ndarray:
        """A new vector of a seat's view (`IndexView.of(game, seat)`; not a spectator's); `kept` as in `encode`."""
        seat = view.seat
        if seat is None:
            raise ValueError("an observation is a seat's: a spectator's view has no seat")
        out = self._buf
        out.fill(0.0)
        off = self.offsets
        n = self.n
        phase = view.phase
        cards = self.cards
        # phase .. players are contiguous: built as one list, written at once
        head = self._head[:]
        head[phase] = 1.0
        head[NUM_PHASES + (view.current - seat) % n] = 1.0
        o = off["hand"]
        head[o:o + cards] = view.hands[seat] or ()
        o = off["face_up"]
        for c in view.face_up:
            if c >= 0:
                head[o + c] += 1.0
        if view.discard_size:
            o = off["discard"]
            head[o:o + cards] = view.discard
        o = off["piles"]
        head[o:o + 3] = (view.deck_size, view.discard_size, view.ticket_deck_size)
        o = off["players"]
        sizes, counts, trains, stations, scores = (view.hand_sizes, view.ticket_counts, view.trains,
                                                   view.stations, view.scores)
        for rel in range(n):
            p = (seat + rel) % n
            head[o:o + 5] = (sizes[p], counts[p], trains[p], stations[p], scores[p])
            o += 5
        out[:len(head)] = head
        held = view.tickets[seat] or ()
        key = (view.owner, view.blocked, view.station_owner, held)
        cache = self._board_cache.get(seat)
        if cache is None or cache[0] != key:
            self._encode_board(view, seat, held, out)
            self._board_cache[seat] = (key, out[self._board_lo:self._board_hi].copy())
        else:
            out[self._board_lo:self._board_hi] = cache[1]
        offered = view.offered
        if offered is not None:
            out[off["offer"] + np.asarray(offered, dtype=np.intp)] = 1.0
            decided = kept or []
            if len(decided) < len(offered):
                out[off["offer_current"] + offered[len(decided)]] = 1.0
            o = off["offer_kept"]
            for i, keep in enumerate(decided):
                if keep:
                    out[o + offered[i]] = 1.0
        if phase == TUNNEL:
            o = off["tunnel_revealed"]
            for c in view.tunnel_reveal:
                out[o + c] += 1.0
            if view.tunnel_colour >= 0:
                out[off["tunnel_colour"] + view.tunnel_colour] = 1.0
            out[off["tunnel_extra"]] = view.tunnel_extra
        if view.final_turns >= 0:
            o = off["final_round"]
            out[o] = 1.0
            out[o + 1] = view.final_turns
        known = view.known
        o = off["known_cards"]
        for rel in range(1, n):
            out[o:o + cards] = known[(seat + rel) % n]
            o += cards
        return out.copy()

    def _encode_board(self, view: IndexView, seat: int, held: Sequence[int], out: np.ndarray) -> None:
        """The segments that change only when a route, a station or a ticket is taken (cached per seat)."""
        off = self.offsets
        n = self.n
        owner = np.asarray(view.owner, dtype=np.intp)
        claimed = np.flatnonzero(owner >= 0)
        if claimed.size:
            out[off["route_owner"] + claimed * n + (owner[claimed] - seat) % n] = 1.0
        o = off["route_open"]
        out[o:o + self._routes] = [0.0 if b else 1.0 for b in view.blocked]
        station = np.asarray(view.station_owner, dtype=np.intp)
        built = np.flatnonzero(station >= 0)
        if built.size:
            out[off["station_owner"] + built * n + (station[built] - seat) % n] = 1.0
        if held:
            o = off["tickets_held"]
            out[o + np.asarray(held, dtype=np.intp)] = 1.0
            self._joined(out, owner, seat, held)

    def _joined(self, out: np.ndarray, owner: np.ndarray, seat: int, held: Sequence[int]) -> None:
        """Mark the held tickets whose two cities the seat's own routes connect (stations not counted)."""
        mine = np.flatnonzero(owner == seat)
        if not mine.size:
            return
        parent = list(range(self._cities))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in zip(self._route_a[mine].tolist(), self._route_b[mine].tolist(), strict=True):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
        o = self.offsets["tickets_joined"]
        for t in held:
            if find(self._ticket_a[t]) == find(self._ticket_b[t]):
                out[o + t] = 1.0

    def segment(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The slice of an observation vector that holds segment `name`."""
        size = next(s for seg, s, _ in self.segments if seg == name)
        return vector[self.offsets[name]:self.offsets[name] + size]
