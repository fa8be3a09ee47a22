"""`Board`: a seat's view (or a sampled game, for playouts) read into the indexes of `MapIndex`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ttr.bots.abandoned_tunnel import (
    FEW_CARDS_TO_REVEAL,
    abandoned_in_history,
    abandoned_in_log,
    tunnels_abandoned_in_history,
    tunnels_abandoned_in_log,
)
from ttr.bots.planning.index import MapIndex
from ttr.engine import Game, SeatView, doubles
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, PHASE_NAMES, TUNNEL

BOARD_CACHE_SIZE = 4096  # boards whose open routes `Board.from_game` keeps per map (then it starts over)


def open_routes(ix: MapIndex, owner: list[int], seat: int, n: int) -> list[bool]:
    """Per route, whether `seat` of an `n`-seat game may claim it one day (the engine's double-route rule,
    `ttr.engine.doubles.open_routes`)."""
    return doubles.open_routes(ix.game_map, owner, seat, n)


@dataclass(slots=True)
class Board:
    """A seat's view read into indexes (see `Board.from_view`)."""

    ix: MapIndex
    seat: int
    n: int
    phase: str
    owner: list[int]  # route -> seat, -1 if free
    open: list[bool]  # route claimable by this seat one day: free and not closed to it (E-DOUBLE-1/2)
    hand: list[int]
    trains: list[int]
    stations_left: list[int]
    station_at: list[int]  # city -> seat, -1 if none
    scores: list[int]
    tickets: list[int]
    offered: list[int]
    face_up: list[int]  # card index per slot, -1 for an empty slot
    ticket_deck_size: int
    deck_size: int
    discard_size: int
    tunnel_route: int = -1
    tunnel_extra: int = 0
    final_round: bool = False  # some seat has reached the end trigger: everyone has one turn left
    signature: tuple[int, ...] = field(default=())
    abandoned_tunnel: int = -1  # the tunnel just abandoned from this hand and board, read only when few
    # cards are left to reveal (`ttr.bots.abandoned_tunnel`; it matters only then, and a playout reads many boards)
    tunnels_abandoned: tuple[int, ...] = ()  # the tunnels this seat has claimed and abandoned in the game

    @classmethod
    def from_view(cls, ix: MapIndex, view: SeatView) -> Board:
        """Read a seat's view (`ttr.engine.views.SeatView`)."""
        m = ix.game_map
        seat = view.seat
        if seat is None:
            raise ValueError("a board is read from a seat's view, not a spectator's")
        players = view.players
        n = len(players)
        owner = [-1] * len(ix.length)
        station_at = [-1] * ix.ncity
        for p, entry in enumerate(players):
            for name in entry.routes:
                owner[m.route_index[name]] = p
            for name in entry.station_cities:
                station_at[m.city_index[name]] = p
        is_open = open_routes(ix, owner, seat, n)
        me = players[seat]
        hand = [0] * (ix.ncol + 1)
        for name, count in (me.hand or {}).items():
            hand[m.card_index[name]] += count
        turn = view.turn
        tunnel_route = -1
        if turn is not None and turn.tunnel_route:
            tunnel_route = m.route_index[turn.tunnel_route]
        trains = [p.trains for p in players]
        log = view.log
        return cls(
            ix=ix, seat=seat, n=n, phase=turn.phase if turn is not None else "game_over", owner=owner,
            open=is_open, hand=hand, trains=trains, stations_left=[p.stations for p in players],
            station_at=station_at, scores=[p.score for p in players],
            tickets=[m.ticket_index[t] for t in me.tickets or ()],
            offered=[m.ticket_index[t] for t in (turn.tickets_offered if turn is not None else None) or ()],
            face_up=[m.card_index[c] if c is not None else -1 for c in view.face_up],
            ticket_deck_size=view.ticket_deck_size, deck_size=view.deck_size,
            discard_size=view.discard_size, tunnel_route=tunnel_route,
            tunnel_extra=(turn.tunnel_extra or 0) if turn is not None else 0,
            final_round=view.final_turns is not None,
            signature=(*owner, *station_at),
            abandoned_tunnel=(m.route_index.get(abandoned_in_log(log, seat) or "", -1)
                              if view.deck_size + view.discard_size <= FEW_CARDS_TO_REVEAL else -1),
            tunnels_abandoned=tuple(m.route_index[name] for name in
                                    tunnels_abandoned_in_log(log, seat) if name in m.route_index),
        )

    @classmethod
    def from_game(cls, ix: MapIndex, game: Game, seat: int) -> Board:
        """The `Board` that `from_view` would read from `SeatView.of(game, seat)`, taken from the game directly
        (for search on sampled games, where building views would cost most of the time)."""
        m = ix.game_map
        owner = list(game.owner)
        station_at = list(game.station_owner)
        signature = (*owner, *station_at)
        small = doubles.single_use(m, game.n)
        key = (-1 if small else seat, signature)  # in a small game no route is closed to one seat only
        found = ix.open_routes.get(key)
        if found is None:
            found = open_routes(ix, owner, seat, game.n)
            if len(ix.open_routes) >= BOARD_CACHE_SIZE:
                ix.open_routes.clear()
            ix.open_routes[key] = found
        is_open = found[:]
        trains = list(game.trains)
        phase = game.phase
        tunnel = phase == TUNNEL
        return cls(
            ix=ix, seat=seat, n=game.n, phase=PHASE_NAMES[phase], owner=owner, open=is_open,
            hand=list(game.hands[seat]), trains=trains, stations_left=list(game.stations_left),
            station_at=station_at, scores=list(game.scores), tickets=list(game.tickets[seat]),
            offered=list(game.offered) if phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and game.current == seat else [],
            face_up=list(game.face_up), ticket_deck_size=game.ticket_deck_size, deck_size=game.deck_size,
            discard_size=len(game.discard), tunnel_route=game.t_route if tunnel else -1,
            tunnel_extra=game.t_extra if tunnel else 0,
            final_round=game.final_round,
            signature=signature,
            abandoned_tunnel=(abandoned_in_history(game, seat)
                              if game.deck_size + len(game.discard) <= FEW_CARDS_TO_REVEAL else -1),
            tunnels_abandoned=tunnels_abandoned_in_history(game, seat),
        )

    @classmethod
    def bare(cls, ix: MapIndex, seat: int, owner: list[int], trains: list[int]) -> Board:
        """A board that knows only the routes' owners and the trains left (an empty hand, no stations, no
        tickets): enough to plan a seat's paths at a past moment of the game (`ttr.bots.inference`)."""
        n = len(trains)
        station_at = [-1] * ix.ncity
        return cls(
            ix=ix, seat=seat, n=n, phase="main", owner=owner[:], open=open_routes(ix, owner, seat, n),
            hand=[0] * (ix.ncol + 1), trains=trains[:], stations_left=[0] * n, station_at=station_at,
            scores=[0] * n, tickets=[], offered=[], face_up=[], ticket_deck_size=0, deck_size=0, discard_size=0,
            signature=(*owner, *station_at),
        )

    def futile_retry(self, route: int) -> bool:
        """Whether claiming tunnel `route` would most likely end as the last try did: it is the tunnel this
        seat just abandoned from this hand and board, and few cards are left to reveal."""
        return route == self.abandoned_tunnel and self.deck_size + self.discard_size <= FEW_CARDS_TO_REVEAL

    def tunnel_spare(self, route: int) -> int:
        """The spare cards (of the claim's colour or wild) a claim of tunnel `route` should leave in hand for the
        extra cards: 1, or every card a reveal can ask for a tunnel this seat has abandoned before in the game."""
        return self.ix.game_map.rules.tunnel_reveal if route in self.tunnels_abandoned else 1

    @property
    def my_trains(self) -> int:
        """Trains (pieces) this seat has left."""
        return self.trains[self.seat]

    @property
    def my_stations(self) -> int:
        """Stations this seat has not built yet."""
        return self.stations_left[self.seat]

    def min_other_trains(self) -> int:
        """The fewest trains any other seat has left."""
        return min((t for p, t in enumerate(self.trains) if p != self.seat), default=self.my_trains)
