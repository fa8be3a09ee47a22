"""What each seat may see: the one place that turns a game into what anyone outside the engine reads.

`IndexView.of(game, seat)` is the projection itself: what `seat` may see (`seat=None`: a spectator), in
the engine's indexes (card types, routes, cities, tickets), typed and frozen. It decides, once, what is
hidden: another seat's hand, tickets and offer are never in it. `SeatView.of(game, seat)` is the same view
with names (cards, routes, tickets, players), the final score and the log: the server and the bots read a
game through it, the learning environments' encoders through `IndexView` (no names to map on every step)
and `seen_history` (the history in indexes, another seat's blind draws and ticket choices without their
cards and tickets). `to_json()` is `SeatView`'s wire form (what `seat_view(game, seat)` and
`public_view(game)` return, the web protocol's `view`). `full_state(game)` is for tools that read a whole
record anyway (`ttr replay`). Views never hold the deck order, the discard
order or the RNG state; a seat's view holds no other seat's hand, tickets or offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from ttr.engine import actions as A
from ttr.engine.game import Game, final_score
from ttr.engine.known import KnownCards
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, OVER, PHASE_NAMES, TUNNEL
from ttr.engine.scoring import FinalScore

EVERYONE = -1
NOBODY = -2


@dataclass(frozen=True, slots=True)
class TurnView:
    """Whose turn it is and what they are in the middle of, as the reader may see it."""

    player: int
    phase: str
    tunnel_reveal: tuple[str, ...] | None = None  # the cards turned for the tunnel being claimed
    tunnel_route: str | None = None  # ... that tunnel (views only: the record format has no such key)
    tunnel_extra: int | None = None  # ... and the extra cards it asks for
    tickets_offered: tuple[str, ...] | None = None  # the tickets offered, if the reader is choosing them
    tickets_offered_count: int | None = None  # ... else how many (views only)

    def to_json(self) -> dict[str, Any]:
        """The `turn` object of the wire form."""
        out: dict[str, Any] = {"player": self.player, "phase": self.phase}
        if self.tunnel_reveal is not None:
            out["tunnel_reveal"] = list(self.tunnel_reveal)
        if self.tunnel_route is not None:
            out["tunnel_route"] = self.tunnel_route
            out["tunnel_extra"] = self.tunnel_extra
        if self.tickets_offered is not None:
            out["tickets_offered"] = list(self.tickets_offered)
        elif self.tickets_offered_count is not None:
            out["tickets_offered_count"] = self.tickets_offered_count
        return out


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat as the reader may see it: its hand and tickets only if the reader is that seat."""

    name: str
    score: int
    trains: int
    stations: int  # stations not built yet
    hand_size: int
    ticket_count: int
    routes: tuple[str, ...]
    station_cities: tuple[str, ...]
    hand: Mapping[str, int] | None = None  # card name -> count (only cards held); None: not the reader's
    tickets: tuple[str, ...] | None = None  # None: not the reader's

    def to_json(self) -> dict[str, Any]:
        """A `players` entry of the wire form (`hand`/`tickets` for the reader, else their counts)."""
        out: dict[str, Any] = {"name": self.name, "score": self.score, "trains": self.trains,
                               "stations": self.stations}
        if self.hand is not None and self.tickets is not None:
            out["hand"] = dict(self.hand)
            out["tickets"] = list(self.tickets)
        else:
            out["hand_size"] = self.hand_size
            out["ticket_count"] = self.ticket_count
        out["routes"] = list(self.routes)
        out["station_cities"] = list(self.station_cities)
        return out


class IndexView(NamedTuple):
    """What one seat (`seat`; None: a spectator) may see of a game at one moment, in the engine's indexes.
    Build it with `of`; per-seat tuples are in seat order. `hands[p]`, `tickets[p]` are None unless the
    reader is seat `p`; `offered` is None unless the reader is the seat choosing tickets. Immutable (a named
    tuple: built on every step of the learning environments, at a fraction of a frozen dataclass's cost)."""

    seat: int | None
    phase: int  # `ttr.engine.phases`
    current: int  # the seat to move
    hands: tuple[tuple[int, ...] | None, ...]  # per seat, the count of each card type held (wild last)
    tickets: tuple[tuple[int, ...] | None, ...]  # per seat, the ticket indexes kept
    offered: tuple[int, ...] | None  # the tickets offered to the reader, while it chooses them
    offered_count: int  # how many tickets are on offer to the seat to move (0 unless one is choosing)
    face_up: tuple[int, ...]  # card type per slot, -1 for an empty slot
    discard: tuple[int, ...]  # cards per type in the discard pile (public: every discard is seen)
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    trains: tuple[int, ...]
    stations: tuple[int, ...]  # stations not built yet
    scores: tuple[int, ...]  # route points so far
    owner: tuple[int, ...]  # per route, the seat that holds it (-1: no one)
    blocked: tuple[bool, ...]  # per route, whether no seat can claim it any more
    station_owner: tuple[int, ...]  # per city, the seat with a station there (-1: none)
    tunnel_route: int  # the tunnel being claimed (-1: none)
    tunnel_colour: int  # the card type paid for it (-1: none)
    tunnel_extra: int  # the extra cards it asks for
    tunnel_reveal: tuple[int, ...]  # the cards turned for it
    final_turns: int  # -1 before the final round; then its turns left, this one included
    known: tuple[tuple[int, ...], ...]  # per seat, the cards of each type it is known to hold (taken face
    # up and not played since: public, `ttr.engine.known`)

    @classmethod
    def of(cls, game: Game, seat: int | None) -> IndexView:
        """The view of `seat` (its own hand, tickets and offer; counts for everyone else), or with
        `seat=None` a spectator's (no hand, no ticket, no offer)."""
        if seat is not None and not 0 <= seat < game._n:
            raise ValueError(f"no seat {seat} in a {game._n}-player game")
        return _index(game, NOBODY if seat is None else seat, seat)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat (`seat`; None: a spectator) may see of a game at one moment. Build it with `of`."""

    seat: int | None
    map: str
    over: bool
    turn: TurnView | None  # None once the game is over
    face_up: tuple[str | None, ...]  # card name per slot, None for an empty slot
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    players: tuple[PlayerView, ...]
    final: FinalScore | None  # the breakdown, once the game is over
    final_turns: int | None  # the final round's turns left, this one included (E-END-1); None before it
    discard_pile: Mapping[str, int]  # card name -> count in the discard pile (public: every discard is seen)
    log: tuple[Mapping[str, Any], ...]  # the actions so far as the reader may see them (`public_log`; shared
    # with the game's cache: read only)

    @classmethod
    def of(cls, game: Game, seat: int | None) -> SeatView:
        """The view of `seat` (its own hand, tickets and offer; counts for everyone else), or with
        `seat=None` a spectator's (no hand, no ticket, no offer): `IndexView.of` with names."""
        view = IndexView.of(game, seat)
        names = game._map.card_names
        return cls(
            seat=seat, map=game._map.name, over=view.phase == OVER, turn=_turn(game, view, with_log=True),
            face_up=tuple(names[c] if c >= 0 else None for c in view.face_up),
            deck_size=view.deck_size, discard_size=view.discard_size, ticket_deck_size=view.ticket_deck_size,
            players=_players(game, view), final=final_score(game) if view.phase == OVER else None,
            final_turns=view.final_turns if view.final_turns > 0 and view.phase != OVER else None,
            discard_pile={names[c]: n for c, n in enumerate(view.discard) if n},
            log=tuple(_log_entries(game, NOBODY if seat is None else seat)),
        )

    @property
    def status(self) -> str:
        """`in_progress` or `finished`, as the record format says."""
        return "finished" if self.over else "in_progress"

    @property
    def me(self) -> PlayerView:
        """The reader's own seat (a spectator has none: ValueError)."""
        if self.seat is None:
            raise ValueError("a spectator's view has no seat of its own")
        return self.players[self.seat]

    def to_json(self) -> dict[str, Any]:
        """The wire form (docs/web-protocol.md's `view`; spec/records.md's state plus the map, the final
        round's turns, the discard pile and the log)."""
        out: dict[str, Any] = {
            "status": self.status,
            "error": None,
            "turn": self.turn.to_json() if self.turn is not None else None,
            "face_up": list(self.face_up),
            "deck_size": self.deck_size,
            "discard_size": self.discard_size,
            "ticket_deck_size": self.ticket_deck_size,
            "players": [p.to_json() for p in self.players],
            "final": self.final.to_json() if self.final is not None else None,
            "map": self.map,
            "final_turns": self.final_turns,
            "discard_pile": dict(self.discard_pile),
            "log": [dict(entry) for entry in self.log],
        }
        if self.seat is not None:
            out["seat"] = self.seat
        return out


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """The wire form of what `seat` may see (`SeatView.of(game, seat).to_json()`)."""
    if not 0 <= seat < game._n:
        raise ValueError(f"no seat {seat} in a {game._n}-player game")
    return SeatView.of(game, seat).to_json()


def public_view(game: Game) -> dict[str, Any]:
    """The wire form of what a spectator may see (`SeatView.of(game, None).to_json()`)."""
    return SeatView.of(game, None).to_json()


def full_state(game: Game, error: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole state, as `ttr replay --json` prints it (spec/records.md)."""
    view = _index(game, EVERYONE, None)
    over = view.phase == OVER
    turn = _turn(game, view, with_log=False)
    names = game._map.card_names
    return {
        "status": "finished" if over else "in_progress",
        "error": error,
        "turn": turn.to_json() if turn is not None else None,
        "face_up": [names[c] if c >= 0 else None for c in view.face_up],
        "deck_size": view.deck_size,
        "discard_size": view.discard_size,
        "ticket_deck_size": view.ticket_deck_size,
        "players": [p.to_json() for p in _players(game, view)],
        "final": final_score(game).to_json() if over else None,
    }


def _visible(viewer: int, seat: int) -> bool:
    return viewer in (EVERYONE, seat)


def _index(game: Game, viewer: int, seat: int | None) -> IndexView:
    """The projection: what `viewer` (a seat, EVERYONE or NOBODY) may see, in indexes."""
    n = game._n
    hands = game._hands
    tickets = game._tickets
    phase = game._phase
    current = game._current
    everyone = viewer == EVERYONE
    pile = game._discard
    cards = len(hands[0])
    discard = tuple([pile.count(c) for c in range(cards)]) if pile else (0,) * cards
    offered = None
    offered_count = 0
    if phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
        offered_count = len(game._offered)
        if everyone or viewer == current:
            offered = tuple(game._offered)
    tunnel = phase == TUNNEL
    known = game._view_cache.get("known")
    if known is None:
        known = game._view_cache["known"] = KnownCards(game._map, n)
    return IndexView(
        seat, phase, current,
        tuple([tuple(hands[p]) if everyone or p == viewer else None for p in range(n)]),
        tuple([tuple(tickets[p]) if everyone or p == viewer else None for p in range(n)]),
        offered, offered_count, tuple(game._face_up), discard,
        len(game._deck), len(game._discard), len(game._ticket_deck),
        tuple([sum(h) for h in hands]), tuple([len(t) for t in tickets]),
        tuple(game._trains), tuple(game._stations_left), tuple(game._scores),
        tuple(game._owner), tuple(game._blocked), tuple(game._station_owner),
        game._t_route if tunnel else -1, game._t_color if tunnel else -1, game._t_extra if tunnel else 0,
        tuple(game._t_revealed) if tunnel else (), game._final_turns,
        known.read_frozen(game),
    )


def _turn(game: Game, view: IndexView, with_log: bool) -> TurnView | None:
    """The turn as the view's reader sees it; `with_log`: with the views' extra keys (tunnel route, offer
    count)."""
    if view.phase == OVER:
        return None
    m = game._map
    names = m.card_names
    reveal = route = extra = offered = count = None
    if view.phase == TUNNEL:
        reveal = tuple(names[c] for c in view.tunnel_reveal)
        if with_log:
            route = m.routes[view.tunnel_route].name
            extra = view.tunnel_extra
    if view.phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
        if view.offered is not None:
            offered = tuple(m.tickets[t].name for t in view.offered)
        elif with_log:
            count = view.offered_count
    return TurnView(player=view.current, phase=PHASE_NAMES[view.phase], tunnel_reveal=reveal,
                    tunnel_route=route, tunnel_extra=extra, tickets_offered=offered, tickets_offered_count=count)


def _players(game: Game, view: IndexView) -> tuple[PlayerView, ...]:
    m = game._map
    names = m.card_names
    n = len(view.hands)
    routes_of: list[list[str]] = [[] for _ in range(n)]
    for r, owner in enumerate(view.owner):
        if owner >= 0:
            routes_of[owner].append(m.routes[r].name)
    stations_of: list[list[str]] = [[] for _ in range(n)]
    for city, owner in enumerate(view.station_owner):
        if owner >= 0:
            stations_of[owner].append(m.cities[city].name)
    out = []
    for p in range(n):
        hand = view.hands[p]
        tickets = view.tickets[p]
        out.append(PlayerView(
            name=game._players[p], score=view.scores[p], trains=view.trains[p], stations=view.stations[p],
            hand_size=view.hand_sizes[p], ticket_count=view.ticket_counts[p],
            routes=tuple(routes_of[p]), station_cities=tuple(stations_of[p]),
            hand={names[c]: k for c, k in enumerate(hand) if k} if hand is not None else None,
            tickets=tuple(m.tickets[t].name for t in tickets) if tickets is not None else None,
        ))
    return tuple(out)


HIDDEN_DETAIL = frozenset((A.DRAW_DECK, A.KEEP_TICKETS))  # kinds whose detail only the acting seat sees


def seen_history(game: Game, seat: int | None) -> list[tuple[int, int, tuple[int, ...]]]:
    """The actions so far as `seat` may see them (None: a spectator), in the engine's indexes: `(seat, action
    id, detail)` as in `Game.history`, with the detail of another seat's blind draw (the card) and of its
    ticket choice (the tickets kept and returned; the action id still says how many it kept) left empty. The
    index form of `public_log`, for readers that count moves (the learning environments). A fresh list."""
    if seat is not None and not 0 <= seat < game._n:
        raise ValueError(f"no seat {seat} in a {game._n}-player game")
    kind = game._cat.kind
    hidden = HIDDEN_DETAIL
    return [entry if entry[0] == seat or kind[entry[1]] not in hidden else (entry[0], entry[1], ())
            for entry in game._history]


def public_log(game: Game, viewer: int = NOBODY) -> list[dict[str, Any]]:
    """The actions so far, as `viewer` may see them: others' blind draws and ticket choices carry no names.

    Entries are worked out once per action and kept with the game (its history only grows); each call
    returns fresh dicts, so callers may change them.
    """
    return [dict(entry) for entry in _log_entries(game, viewer)]


def _log_entries(game: Game, viewer: int) -> list[Mapping[str, Any]]:
    """The log as `viewer` sees it: the entries kept with the game themselves (not copies; read only)."""
    cache: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = game._view_cache.setdefault("log", [])
    if len(cache) > len(game._history):  # a history rewound by hand: start again
        cache.clear()
    if len(cache) < len(game._history):
        _extend_log(game, cache)
    return [own if own is not None and _visible(viewer, p) else public for p, public, own in cache]


def _extend_log(game: Game, cache: list[tuple[int, dict[str, Any], dict[str, Any] | None]]) -> None:
    """Add the log entries of the actions not in `cache` yet: (seat, what all see, what the seat sees)."""
    m = game._map
    names = m.card_names
    cat = game._cat
    tunnel_colour: int = game._view_cache.get("tunnel_colour", -1)
    for p, aid, detail in game._history[len(cache):]:
        kind = cat.kind[aid]
        entry: dict[str, Any] = {"player": p}
        own: dict[str, Any] | None = None
        if kind == A.DRAW_DECK:
            entry.update(action="draw_card", **{"from": "deck"})
            if detail:
                own = {**entry, "card": names[detail[0]]}
        elif kind == A.KEEP_TICKETS:
            entry["action"] = "keep_tickets"
            kept = cat.a[aid].bit_count()  # the detail: the kept tickets, then the returned ones
            own = {**entry, "tickets": [m.tickets[t].name for t in detail[:kept]]}
            if len(detail) > kept:
                own["returned"] = [m.tickets[t].name for t in detail[kept:]]
            entry["count"] = kept
        elif kind == A.PAY_TUNNEL:
            entry.update(action="pay_tunnel", cards=_pay_cards(game, aid, tunnel_colour))
        else:
            entry.update(game.decode(aid).to_json())
            if kind == A.DRAW_FACE_UP and detail:  # the row all seats see after it (the refill is public)
                entry["face_up"] = [names[c] if c >= 0 else None for c in detail]
            if kind == A.CLAIM and m.routes[cat.a[aid]].tunnel and m.rules.tunnel_reveal:
                entry["tunnel_reveal"] = [names[c] for c in detail]
                tunnel_colour = cat.b[aid]
        cache.append((p, entry, own))
    game._view_cache["tunnel_colour"] = tunnel_colour


def _pay_cards(game: Game, aid: int, colour: int) -> dict[str, int]:
    names = game._map.card_names
    x, w = game._cat.a[aid], game._cat.c[aid]
    cards: dict[str, int] = {}
    if x - w:
        cards[names[colour]] = x - w
    if w:
        cards[names[game._wild]] = w
    return cards


def history_actions(game: Game) -> list[dict[str, Any]]:
    """Every action played, in record form with the acting seat (what a `ttr-record/1` lists)."""
    out = []
    for entry in public_log(game, EVERYONE):
        entry.pop("tunnel_reveal", None)
        entry.pop("returned", None)
        entry.pop("face_up", None)
        if entry.get("from") == "deck":
            entry.pop("card", None)
        out.append(entry)
    return out
