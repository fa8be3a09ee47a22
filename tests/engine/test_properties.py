"""Property tests over random full games on both maps (Europe 2-5 players, New York 2-4).

Games are reachable by construction: every step plays an id taken from `legal_ids()`, chosen by
Hypothesis (`st.data()`) or by a seeded `random.Random`. Checked after every step:

- every train card is accounted for, per card type (deck, discard, row, hands, a pending tunnel's
  paid and revealed cards)
- tickets are conserved (deck, hands, offered, setup offers still to choose, out of the game)
- trains stay in 0..pieces and equal the pieces minus the routes held; stations likewise
- the running score equals the route points recomputed from the owners
- the double-route rule for the seat count (never both tracks with one seat; never both in small games)
- the face-up row, the deck and the discard pile follow the draw rules exactly (a reference below,
  E-DRAW-2, -6, -7), so the row holds 3+ wilds only when the reset limit was hit
- listed ids are legal, encode back to themselves and apply on a copy; a sample of unlisted ids is
  refused with `IllegalActionError` and no change
- the game's record (write -> JSON -> read -> replay) gives the same state after every action

`Checker(deep=True)` also checks at every step: every listed id applies, the whole internal state is
unchanged by refused ids, `copy()` is equal, independent and plays on identically, and no view
(`seat_view`, `public_view`) holds another seat's secrets or changes when only secrets change (deck
and discard order, RNG state, others' hands and tickets). The plain loop over hundreds of seeded
games (`deep=False`) runs those deep checks at one random step and at the end of each game.
"""

from __future__ import annotations

import json
import os
import pickle
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import card_total
from ttr.engine import Game, full_state, public_view, seat_view
from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, MAIN, OVER, TUNNEL
from ttr.engine.rng import Rng
from ttr.errors import IllegalActionError
from ttr.maps import GameMap, load_map
from ttr.records import read_record, replay, write_record

MAPS: dict[str, tuple[int, ...]] = {"europe": (2, 3, 4, 5), "new_york": (2, 3, 4)}
MAX_STEPS = 5000  # a random game that has not ended by now is an engine loop
MAX_APPLIED = 150  # listed ids applied on copies per step (all of them are checked legal)
SECRET_KEYS = {"deck", "discard", "rng", "seed", "ticket_deck", "initial_train", "decks", "reshuffles", "offered"}
_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

settings.register_profile("ttr-ci", derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=_CHECKS)
settings.register_profile("ttr-dev", deadline=None, print_blob=True, suppress_health_check=_CHECKS)
PROFILE = settings.get_profile(os.environ.get("TTR_HYPOTHESIS_PROFILE", "ttr-ci"))


# ---------------------------------------------------------------------- whole-state helpers


def _frozen(value: Any) -> bytes:
    """A comparable snapshot of a state field: pickled, with sets sorted and the RNG by its state."""
    if isinstance(value, Rng):
        value = ("rng", value.state)
    elif isinstance(value, (set, frozenset)):
        value = sorted(value)
    elif isinstance(value, list) and value and isinstance(value[0], (set, frozenset)):
        value = [sorted(v) for v in value]
    return pickle.dumps(value)


def internal(game: Game) -> dict[str, bytes]:
    """Every state field of the game (the shared map and catalogue, and the views' cache, left out)."""
    names = (set(getattr(game, "__dict__", {})) | set(getattr(Game, "__slots__", ()))
             | set(getattr(Game, "__annotations__", {})))  # a compiled Game may have only annotations
    names = {n for n in names if hasattr(game, n)} - {"_map", "_cat", "_view_cache"}
    assert {"_deck", "_hands", "_history", "_rng"} <= names
    return {name: _frozen(getattr(game, name)) for name in sorted(names)}


def fingerprint(game: Game) -> tuple[Any, ...]:
    """The state that play can change, cheaply (order of deck, discard and tickets included)."""
    return (game.phase, game.current, game.final_turns, game.passes, tuple(game._deck), tuple(game.discard),
            tuple(game.face_up), tuple(tuple(h) for h in game.hands), tuple(game.owner), tuple(game.trains),
            tuple(game.scores), tuple(game.station_owner), tuple(game.stations_left),
            tuple(tuple(t) for t in game.tickets), tuple(game._ticket_deck), tuple(game.offered),
            game.t_route, game.t_color, game.t_wild, game.t_extra, tuple(game.t_revealed), len(game.history),
            len(game._reshuffles), game._rng.state)


def _without_rng(fp: tuple[Any, ...]) -> tuple[Any, ...]:
    """A fingerprint without the RNG state: a replay from recorded deck orders shuffles nothing."""
    return fp[:-1]


def map_cards(m: GameMap) -> list[int]:
    """How many cards of each type the map has (colours, then the wild card)."""
    return [m.per_color] * len(m.colors) + [m.wild_count]


def card_counts(game: Game) -> list[int]:
    """Cards of each type anywhere: deck, discard, row, hands, a pending tunnel's paid and revealed cards."""
    loose = game._deck + game.discard + game.face_up + game.t_revealed
    counts = [loose.count(c) + held for c, held in enumerate(map(sum, zip(*game.hands, strict=True)))]
    if game.t_route >= 0:
        length = game.map.routes[game.t_route].length
        counts[game.wild] += game.t_wild
        counts[game.t_color] += length - game.t_wild
    return counts


def setup_offer(game: Game, seat: int) -> list[int]:
    """The tickets dealt to `seat` at setup, worked out from the starting orders (E-SETUP-3/4, N-SETUP-2)."""
    rules = game.map.rules
    long_, regular = rules.setup_long_tickets, rules.setup_regular_tickets
    return (game._initial_long[seat * long_:(seat + 1) * long_]
            + game._initial_tickets[seat * regular:(seat + 1) * regular])


def tickets_out(game: Game) -> list[int]:
    """Tickets that left the game at setup: unused long tickets, and setup returns where they go to the box."""
    rules = game.map.rules
    out = game._initial_long[game.n * rules.setup_long_tickets:]
    if rules.setup_returned == "box":
        for seat, aid, detail in game.history[:game.n]:  # the setup choices come first, one per seat
            if game.cat.kind[aid] != A.KEEP_TICKETS:
                break
            kept = detail[:game.cat.a[aid].bit_count()]  # a keep's detail: the kept tickets, then the returned
            out += [t for t in setup_offer(game, seat) if t not in kept]
    return out


def tickets_pending(game: Game) -> list[int]:
    """Setup offers of seats that have not chosen yet (the current seat's is `offered`)."""
    if game.phase != CHOOSE_SETUP:
        return []
    return [t for seat in range(game.current + 1, game.n) for t in setup_offer(game, seat)]


# ---------------------------------------------------------------------- reference card flow


@dataclass
class Before:
    """What the card-flow reference needs from the state before a step."""

    deck: list[int]
    discard: list[int]
    face_up: list[int]
    hands: list[list[int]]
    current: int
    phase: int
    reshuffles: int
    tunnel: tuple[int, int, int, list[int]]  # route, colour, wilds played, revealed

    @classmethod
    def of(cls, game: Game) -> Before:
        """Take it from `game`."""
        return cls(game._deck[:], game.discard[:], game.face_up[:], [h[:] for h in game.hands], game.current,
                   game.phase, len(game._reshuffles), (game.t_route, game.t_color, game.t_wild, game.t_revealed[:]))


class CardFlow:
    """Where every card goes in a step, worked out from the rules independently of the engine's code.

    Draws take the top card (E-DRAW-1, -2), a reshuffle happens only when a card must be taken from an
    empty deck (E-DRAW-7) and takes the order the engine recorded (top first) after checking it holds
    exactly the discard pile; 3+ face-up wilds reset the row up to the limit (E-DRAW-6); a tunnel
    reveals the top cards and asks for the matching extra cards (E-TUN-2, -3, -5, -6); played cards
    go to the discard pile; a slot left empty is filled at the end of a turn once cards are back.
    """

    def __init__(self, game: Game, deck: list[int], discard: list[int], face: list[int], used: int) -> None:
        self.rules = game.map.rules
        self.wild = game.wild
        self.deck = deck
        self.discard = discard
        self.face = face
        self.orders = game._reshuffles
        self.used = used
        self.row_hit: bool | None = None  # the last row check of the step: None if there was none

    def take(self) -> int:
        """The top card, reshuffling the discard pile first if the deck is empty; -1 if none."""
        if not self.deck:
            if not self.discard:
                return -1
            assert self.used < len(self.orders), "the deck ran out but no reshuffle was recorded"
            order = self.orders[self.used]
            assert sorted(order) == sorted(self.discard), "a reshuffle must hold exactly the discard pile"
            self.used += 1
            self.discard = []
            self.deck = order[::-1]
        return self.deck.pop()

    def check_row(self) -> None:
        """Reset the row while it holds too many wilds; remember whether the reset limit was hit."""
        resets = 0
        limit, most = self.rules.face_up_wild_limit, self.rules.face_up_max_resets
        while self.face.count(self.wild) >= limit and resets < most:
            self.discard.extend(c for c in self.face if c >= 0)
            self.face = [self.take() for _ in self.face]
            resets += 1
        self.row_hit = resets == most

    def end_turn(self) -> None:
        """Fill empty slots once cards are back."""
        if -1 in self.face and (self.deck or self.discard):
            self.face = [c if c >= 0 else self.take() for c in self.face]
            self.check_row()


def check_deal(game: Game) -> None:
    """The deal of a new game: hands dealt in seat order from the top, then the row (E-SETUP-1/2, N-SETUP-1)."""
    flow = CardFlow(game, game._initial_train[::-1], [], [], 0)
    hands = [[0] * (game.ncol + 1) for _ in range(game.n)]
    for hand in hands:
        for _ in range(game.map.rules.starting_hand):
            hand[flow.take()] += 1
    flow.face = [flow.take() for _ in range(game.map.rules.face_up)]
    flow.check_row()
    assert hands == game.hands, "setup: the hands are not the top cards dealt in seat order"
    assert (game.face_up, game._deck, game.discard) == (flow.face, flow.deck, flow.discard), "setup: the row"
    if game.face_up.count(game.wild) >= game.map.rules.face_up_wild_limit:
        assert flow.row_hit, "3+ wilds face up although the reset limit was not reached"


def check_card_flow(before: Before, aid: int, game: Game) -> None:
    """The deck, discard pile, row and hands after a step are what the rules make them."""
    cat = game.cat
    kind = cat.kind[aid]
    wild = game.wild
    flow = CardFlow(game, before.deck[:], before.discard[:], before.face_up[:], before.reshuffles)
    hands = [h[:] for h in before.hands]
    hand = hands[before.current]
    if kind == A.DRAW_DECK:
        card = flow.take()
        assert card >= 0
        hand[card] += 1
    elif kind == A.DRAW_FACE_UP:
        card = cat.b[aid]
        flow.face[flow.face.index(card)] = flow.take()
        flow.check_row()
        hand[card] += 1
    elif kind in (A.CLAIM, A.BUILD_STATION):
        colour, w = cat.b[aid], cat.c[aid]
        size = game.map.routes[cat.a[aid]].length if kind == A.CLAIM else cat.d[aid]
        paid = [colour] * (size - w) + [wild] * w
        for c in paid:
            hand[c] -= 1
        if kind == A.CLAIM and game.map.routes[cat.a[aid]].tunnel and game.map.rules.tunnel_reveal:
            revealed = [c for c in (flow.take() for _ in range(game.map.rules.tunnel_reveal)) if c >= 0]
            due = [c for c in revealed if c == wild or (c == colour and colour != wild)]
            assert game.history[-1][2] == tuple(revealed), "the tunnel did not reveal the top cards"
            if due:
                assert (game.t_extra, game.t_revealed, game.t_color) == (len(due), revealed, colour)
                paid = []  # the played cards wait aside until the tunnel is paid or abandoned
            else:
                paid += revealed
        flow.discard += paid
    elif kind == A.PAY_TUNNEL:
        route, colour, w, revealed = before.tunnel
        x, extra_w = cat.a[aid], cat.c[aid]
        extra = [colour] * (x - extra_w) + [wild] * extra_w
        for c in extra:
            hand[c] -= 1
        length = game.map.routes[route].length
        flow.discard += [colour] * (length - w) + [wild] * w + extra + revealed
    elif kind == A.ABANDON_TUNNEL:
        route, colour, w, revealed = before.tunnel
        for c in [colour] * (game.map.routes[route].length - w) + [wild] * w:
            hand[c] += 1
        flow.discard += revealed
    if before.phase != CHOOSE_SETUP and game.phase in (MAIN, OVER) and not game.passes >= game.n:
        flow.end_turn()
    assert game.hands == hands, "the hands differ from the cards drawn and played"
    assert game._deck == flow.deck, "the deck differs from the rules"
    assert sorted(game.discard) == sorted(flow.discard), "the discard pile differs from the rules"
    assert game.face_up == flow.face, "the face-up row differs from the rules"
    assert len(game._reshuffles) == flow.used, "a reshuffle happened that no draw needed"
    if game.face_up.count(wild) >= game.map.rules.face_up_wild_limit and flow.row_hit is not None:
        assert flow.row_hit, "3+ wilds face up although the reset limit was not reached"


# ---------------------------------------------------------------------- views


def secret_tickets(game: Game, viewer: int | None) -> set[str]:
    """Names of the tickets `viewer` (None: a spectator) must not see."""
    secret = set(game._ticket_deck) | set(tickets_out(game)) | set(tickets_pending(game))
    if game.current != viewer:
        secret |= set(game.offered)
    if not game.is_over:  # at the end the breakdown names every held ticket
        for p in range(game.n):
            if p != viewer:
                secret |= set(game.tickets[p])
    for p, aid, detail in game.history:  # the viewer saw the tickets it gave back: its log may name them
        if p == viewer and game.cat.kind[aid] == A.KEEP_TICKETS:
            secret -= set(detail[game.cat.a[aid].bit_count():])
    return {game.map.tickets[t].name for t in secret}


class ViewChecker:
    """Checks the views of one game; logs are checked incrementally (earlier entries never change)."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.game = game
        self.rnd = rnd
        self.logs: dict[int | None, list[dict[str, Any]]] = {}
        self.turn = 0

    def check(self, every_seat: bool) -> None:
        """The public view and every seat's view (or the next seat's in turn); one of them also
        against a copy of the game with that viewer's secrets changed."""
        g = self.game
        seats = list(range(g.n)) if every_seat else [self.turn // 2 % g.n]
        views: dict[int | None, dict[str, Any]] = {}
        for viewer in [*seats, None]:
            views[viewer] = public_view(g) if viewer is None else seat_view(g, viewer)
            self._check_view(views[viewer], viewer)
        viewer = seats[0] if self.turn % 2 else None  # the seats in turn, and the public
        self.turn += 1
        view = views[viewer]
        twin = self._perturbed(viewer)
        again = public_view(twin) if viewer is None else seat_view(twin, viewer)
        assert again == view, f"the view of {viewer} depends on hidden information"

    def _check_view(self, view: dict[str, Any], viewer: int | None) -> None:
        g = self.game
        if viewer is not None:
            assert view["seat"] == viewer
        log = view["log"]
        old = self.logs.get(viewer, [])
        assert log[:len(old)] == old, "an earlier log entry changed"
        new = log[len(old):]
        self.logs[viewer] = log
        rest = {k: v for k, v in view.items() if k != "log"}
        for p, entry in enumerate(view["players"]):
            if p != viewer:
                assert "hand" not in entry and "tickets" not in entry, f"seat {p}'s hand or tickets shown"
        assert view["deck_size"] == len(g._deck) and view["ticket_deck_size"] == len(g._ticket_deck)
        text = json.dumps(rest) + json.dumps(new)  # a name is in the view iff its JSON string is in the text
        keys = {k for k in SECRET_KEYS if f"{json.dumps(k)}:" in text}
        assert not keys, f"secret fields in a view: {keys}"
        leaked = {t for t in secret_tickets(g, viewer) if json.dumps(t) in text}
        assert not leaked, f"tickets leaked to {viewer}: {leaked}"
        assert str(g._rng.state) not in text, "the RNG state is in a view"
        if g.seed >= 10**6:
            assert str(g.seed) not in text, "the seed is in a view"
        if viewer is not None and g.phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and g.current == viewer:
            assert view["turn"]["tickets_offered"] == [self.game.map.tickets[t].name for t in g.offered]
        assert len(log) == len(g.history)
        for entry, (seat, aid, _) in zip(new, g.history[len(old):], strict=True):
            assert entry["player"] == seat
            kind = g.cat.kind[aid]
            if kind == A.DRAW_DECK:
                assert ("card" in entry) == (seat == viewer), "a blind draw is shown to another seat"
            if kind == A.KEEP_TICKETS and seat != viewer:
                assert "tickets" not in entry, "another seat's ticket choice is shown"

    def _perturbed(self, viewer: int | None) -> Game:
        """A copy with every secret of `viewer` changed: deck and discard order, RNG, others' cards and tickets."""
        g = self.game
        rnd = self.rnd
        c = g.copy()
        rnd.shuffle(c._deck)
        rnd.shuffle(c._discard)
        c._rng.state = rnd.getrandbits(64)
        for p in range(g.n):
            if p != viewer:
                size = sum(c._hands[p])
                c._hands[p] = [0] * (g.ncol + 1)
                for _ in range(size):
                    c._hands[p][rnd.randrange(g.ncol + 1)] += 1
        others = [] if g.is_over else [p for p in range(g.n) if p != viewer]
        offered = g.current != viewer and g.phase in (CHOOSE_SETUP, CHOOSE_TICKETS)
        pool = c._ticket_deck + [t for p in others for t in c._tickets[p]] + (c._offered if offered else [])
        rnd.shuffle(pool)
        c._ticket_deck = [pool.pop() for _ in c._ticket_deck]
        for p in others:
            c._tickets[p] = [pool.pop() for _ in c._tickets[p]]
        if offered:
            c._offered = [pool.pop() for _ in c._offered]
        return c


# ---------------------------------------------------------------------- the checker


class Checker:
    """Checks one game's invariants: `step(aid)` plays and checks, `finish()` at the end."""

    def __init__(self, game: Game, rnd: random.Random, deep: bool, deep_step: int = -1,
                 views_mid: bool = True) -> None:
        self.game = game
        self.rnd = rnd
        self.deep = deep
        self.deep_step = deep_step
        self.views_mid = views_mid
        m = game.map
        rules = m.rules
        self.total_cards = map_cards(m)
        self.total_tickets = list(range(len(m.tickets)))
        self.twins = [(r.index, r.twin) for r in m.routes if r.twin >= 0 and r.index < r.twin]
        self.small = game.n <= rules.double_routes_single_use_max_players
        self.lengths = [r.length for r in m.routes]
        self.points = [rules.route_points[r.length] for r in m.routes]
        self.views = ViewChecker(game, rnd)
        self.seen: Counter[str] = Counter()
        self.next_ids: list[int] = []  # the legal ids of the game as it is (set by check_ids)
        self.out: list[int] | None = None  # the tickets out of the game, once the setup is over (check_state)
        self.owners: list[int] | None = None  # the routes' owners when the two below were worked out
        self.trains_held: list[int] = []  # each seat's pieces left for the routes it holds
        self.route_points: list[int] = []  # ... and their points
        self.steps = 0
        self.states: list[Any] = [self._state_of(game)]
        check_deal(game)
        self.check_state()
        self.check_ids(deep=True)
        self.check_copy()
        self.views.check(every_seat=True)


    def after_surgery(self) -> None:
        """Forget what the checks keep from step to step (the views' logs, the tickets out of the game, the
        pieces and points of the routes held): a move of `ttr.engine.surgery` or `positions` may change them."""
        self.views.logs.clear()
        self.out = None
        self.owners = None

    def check_state(self) -> None:
        """Cards, tickets, pieces, score, owners, double routes, stations, phase."""
        g = self.game
        rules = g.map.rules
        assert card_counts(g) == self.total_cards, f"cards: {card_counts(g)} != {self.total_cards}"
        assert card_total(g) == sum(self.total_cards)
        assert all(min(h) >= 0 for h in g.hands)
        out = self.out if self.out is not None else tickets_out(g)
        if g.phase != CHOOSE_SETUP:
            self.out = out  # fixed once every seat has chosen its setup tickets
        where = g._ticket_deck + [t for ts in g.tickets for t in ts] + g.offered + tickets_pending(g) + out
        assert sorted(where) == self.total_tickets, "tickets not conserved"
        owner = g.owner
        if owner != self.owners:  # the pieces and points of the routes held: worked out again when an owner changed
            self.owners = owner[:]
            used = [0] * g.n
            points = [0] * g.n
            for r, o in enumerate(owner):
                if o >= 0:
                    used[o] += self.lengths[r]
                    points[o] += self.points[r]
                else:
                    assert o == -1
            self.trains_held = [rules.pieces - u for u in used]
            self.route_points = points
            for r, t in self.twins:
                a, b = owner[r], owner[t]
                assert not (a >= 0 and a == b), f"{g.map.routes[r].name}: one seat holds both tracks"
                assert not (self.small and a >= 0 and b >= 0), f"{g.map.routes[r].name}: both tracks with {g.n} seats"
        assert g.trains == self.trains_held, "pieces do not match the routes held"
        assert all(0 <= t <= rules.pieces for t in g.trains)
        assert g.scores == self.route_points, "the running score is not the route points"
        stations = g.station_owner
        built = [stations.count(p) for p in range(g.n)]
        assert sum(built) + stations.count(-1) == len(stations), "a station's owner is not a seat"
        assert [rules.stations - b for b in built] == g.stations_left
        assert all(0 <= s <= rules.stations for s in g.stations_left)
        assert (g.phase == TUNNEL) == (g.t_route >= 0)
        assert g.is_over == (g.phase == OVER)

    def check_ids(self, deep: bool, fp: tuple[Any, ...] | None = None) -> None:
        """Listed ids are legal, round-trip through `Action` and apply on a copy; unlisted ones are refused.

        Deep: every listed id (applied: all, or `MAX_APPLIED` of them when there are more), a dozen
        unlisted ones, the whole internal state compared. Otherwise one of each, compared by `fp`, the
        fingerprint of the game as it is.
        """
        g = self.game
        rnd = self.rnd
        ids = self.next_ids = g.legal_ids()
        listed = set(ids)
        assert len(listed) == len(ids), "an id is listed twice"
        assert bool(ids) != g.is_over, "no legal action in a running game (or one after the end)"
        before = internal(g) if deep else fp
        state = full_state(g) if deep else None
        sample = ids if deep or not ids else [rnd.choice(ids)]
        for aid in sample:
            assert g.why_illegal(aid) is None and g.is_legal_id(aid), (aid, g.why_illegal(aid))
            assert g.encode(g.decode(aid)) == aid, f"{g.decode(aid)} does not encode back to {aid}"
        # Hoarded hands can list thousands of claims and stations: apply at most MAX_APPLIED of them.
        applied = sample if len(sample) <= MAX_APPLIED else rnd.sample(sample, MAX_APPLIED)
        for aid in applied:
            c = g.copy()
            c.apply_id(aid)
            assert len(c.history) == len(g.history) + 1
        size = len(g.cat)
        tries = 6 if deep else 1
        near = sorted({i + d for i in sample for d in (-1, 1)} - listed)
        unlisted = rnd.sample(near, min(tries, len(near)))
        unlisted += [i for i in (rnd.randrange(size) for _ in range(tries)) if i not in listed]
        if deep:
            unlisted += [-1, size]
        for aid in unlisted:
            assert g.why_illegal(aid) is not None and not g.is_legal_id(aid), f"unlisted id {aid} is legal"
            try:
                g.apply_id(aid)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"unlisted id {aid} was applied")
        assert (internal(g) if deep else fingerprint(g)) == before, "refused actions changed the game"
        if deep:
            assert full_state(g) == state

    def check_copy(self) -> None:
        """`copy()` is equal to the game and shares nothing mutable with it."""
        g = self.game
        before = internal(g)
        c = g.copy()
        assert internal(c) == before
        assert full_state(c) == full_state(g)
        if not g.is_over:
            c.apply_id(self.rnd.choice(c.legal_ids()))
        c._deck.append(0)
        c._discard.append(0)
        c._face_up[0] = -1
        for seq in (*c._hands, *c._tickets, c._ticket_deck, c._offered, c._owner, c._trains, c._scores, c._t_revealed):
            seq.append(-1)
        assert internal(g) == before, "changing a copy changed the original"

    def step(self, aid: int) -> None:
        """Play `aid` (taken from `legal_ids`) and check everything."""
        g = self.game
        deep = self.deep or self.steps + 1 == self.deep_step
        before = Before.of(g)
        twin = g.copy() if deep else None
        g.apply_id(aid)
        self.steps += 1
        assert self.steps < MAX_STEPS, "the game does not end"
        if twin is not None:
            twin.apply_id(aid)
            assert internal(twin) == internal(g), "a copy plays on differently from the original"
        check_card_flow(before, aid, g)
        self.check_state()
        self.note(aid, before)
        if deep:
            self.check_ids(deep=True)
            self.check_copy()
            if self.deep:
                self.views.check(every_seat=False)
            elif self.views_mid:
                self.views.check(every_seat=True)
            self.states.append(self._state_of(g))
        else:
            fp = fingerprint(g)
            self.check_ids(deep=False, fp=fp)
            self.states.append(_without_rng(fp))

    def note(self, aid: int, before: Before) -> None:
        """Count the rarer situations the game went through (for coverage checks)."""
        g = self.game
        seen = self.seen
        if not g._deck and not g.discard:
            seen["no card to draw"] += 1
        if len(g._reshuffles) > before.reshuffles:
            seen["reshuffle"] += 1
        if -1 in g.face_up:
            seen["empty face-up slot"] += 1
        if g.face_up.count(g.wild) >= g.map.rules.face_up_wild_limit:
            seen["wild limit"] += 1
        if not g._ticket_deck:
            seen["no ticket to draw"] += 1
        if g.phase == TUNNEL:
            seen["tunnel payment due"] += 1
        if g.final_turns >= 0:
            seen["last round"] += 1
        if g.cat.kind[aid] == A.PASS:
            seen["pass"] += 1

    def finish(self) -> None:
        """At the end: the deep checks, then the record replays to the same state after every action."""
        g = self.game
        assert g.is_over
        self.check_ids(deep=True)
        self.check_copy()
        self.views.check(every_seat=True)
        check_replay(g, self.states, self._state_of)

    def _state_of(self, game: Game) -> Any:
        """What the replay is compared with after each action."""
        return full_state(game) if self.deep else _without_rng(fingerprint(game))


def check_replay(game: Game, states: list[Any], state_of: Callable[[Game], Any] = full_state) -> None:
    """`write_record` -> JSON -> `read_record` -> `replay` gives the same state, and so does every prefix."""
    doc = json.loads(json.dumps(write_record(game)))
    record = read_record(doc)
    result = replay(record)
    assert result.error is None, result.error
    assert full_state(result.game) == full_state(game)
    stepwise = record.new_game()
    assert state_of(stepwise) == states[0]
    for i, (_, action, _) in enumerate(record.actions):
        stepwise.apply(action)
        assert state_of(stepwise) == states[i + 1], f"the replay differs after action {i} ({action})"


Policy = Callable[[Game, list[int]], int]


def uniform(rnd: random.Random) -> Policy:
    """Any listed id, all equally likely."""
    return lambda game, ids: rnd.randrange(len(ids))


def biased(rnd: random.Random, kinds: tuple[int, ...], p: float) -> Policy:
    """With probability `p` an id of these kinds when one is listed, else any: reaches rarer states
    (draw-heavy play empties the deck, the discard pile and face-up slots; ticket-heavy play the ticket deck)."""
    def choose(game: Game, ids: list[int]) -> int:
        preferred = [i for i, aid in enumerate(ids) if game.cat.kind[aid] in kinds]
        if preferred and rnd.random() < p:
            return rnd.choice(preferred)
        return rnd.randrange(len(ids))
    return choose


def hoarder(rnd: random.Random) -> Policy:
    """Draw cards, else tickets, else abandon a tunnel; claim or build only when nothing else is legal.
    Hands grow until nobody can draw, which reaches passes (E-DRAW-8)."""
    order = (A.DRAW_FACE_UP, A.DRAW_DECK, A.DRAW_TICKETS, A.KEEP_TICKETS, A.ABANDON_TUNNEL)

    def choose(game: Game, ids: list[int]) -> int:
        for kind in order:
            preferred = [i for i, aid in enumerate(ids) if game.cat.kind[aid] == kind]
            if preferred:
                return rnd.choice(preferred)
        return rnd.randrange(len(ids))
    return choose


def play(game: Game, choose: Policy, rnd: random.Random, deep: bool,
         mid_record: bool = False) -> Checker:
    """Play a whole game, choosing `ids[choose(game, ids)]` at each step, checking after every step."""
    checker = Checker(game, rnd, deep, rnd.randrange(1, 150), views_mid=rnd.random() < 0.25)
    record_at = rnd.randrange(1, 150) if mid_record else -1
    while not game.is_over:
        ids = checker.next_ids
        checker.step(ids[choose(game, ids)])
        if checker.steps == record_at:
            check_replay(game, checker.states, checker._state_of)
    checker.finish()
    return checker


# ---------------------------------------------------------------------- the tests


def _chosen_game(map_name: str, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(MAPS[map_name]), label="players")
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    game = Game.new(load_map(map_name), players, seed=seed)
    play(game, lambda g, ids: data.draw(st.integers(0, len(ids) - 1)), random.Random(seed), deep=True)


def _seeded_game(map_name: str, seed: int, seat_pick: int) -> None:
    seats = MAPS[map_name]
    game = Game.new(load_map(map_name), seats[seat_pick % len(seats)], seed=seed)
    rnd = random.Random(seed)
    play(game, uniform(rnd), rnd, deep=True, mid_record=True)


@settings(PROFILE, max_examples=3)
@given(data=st.data())
def test_hypothesis_chosen_europe_games_keep_every_invariant(data: st.DataObject) -> None:
    """Hypothesis picks the seat count, the seed and every action; every check after every step."""
    _chosen_game("europe", data)


@settings(PROFILE, max_examples=10)
@given(data=st.data())
def test_hypothesis_chosen_new_york_games_keep_every_invariant(data: st.DataObject) -> None:
    """Hypothesis picks the seat count, the seed and every action; every check after every step."""
    _chosen_game("new_york", data)


@settings(PROFILE, max_examples=3)
@given(seed=st.integers(0, 2**63 - 1), seat_pick=st.integers(0, 3))
def test_seeded_europe_games_keep_every_invariant(seed: int, seat_pick: int) -> None:
    """A seed drives the deal and a `random.Random` the actions; every check after every step."""
    _seeded_game("europe", seed, seat_pick)


@settings(PROFILE, max_examples=10)
@given(seed=st.integers(0, 2**63 - 1), seat_pick=st.integers(0, 3))
def test_seeded_new_york_games_keep_every_invariant(seed: int, seat_pick: int) -> None:
    """A seed drives the deal and a `random.Random` the actions; every check after every step."""
    _seeded_game("new_york", seed, seat_pick)


CHUNKS = 4
GAMES_PER_MAP = 200
QUICK_CHUNKS = 1  # `scripts/test --quick` plays the first chunk (50 games per map); the full suite all four


@pytest.mark.parametrize("chunk", [pytest.param(c, marks=() if c < QUICK_CHUNKS else pytest.mark.full)
                                   for c in range(CHUNKS)])
@pytest.mark.parametrize("map_name", sorted(MAPS))
def test_hundreds_of_random_games_per_map(map_name: str, chunk: int) -> None:
    """200 seeded random games per map, in chunks of 50 that each reach every rarer situation (every seat count
    in turn; 3 in 5 uniform, the others draw- or ticket-heavy): cheap checks every step, deep ones at one random
    step and at the end."""
    m = load_map(map_name)
    seats = MAPS[map_name]
    lengths = []
    seen: Counter[str] = Counter()  # in how many games each rarer situation happened
    for seed in range(chunk, GAMES_PER_MAP, CHUNKS):
        rnd = random.Random(seed * 7919 + 17)
        game = Game.new(m, seats[(seed + seed // CHUNKS) % len(seats)], seed=rnd.getrandbits(63))
        policies = [uniform(rnd), uniform(rnd), uniform(rnd), biased(rnd, (A.DRAW_DECK, A.DRAW_FACE_UP), 0.85),
                    biased(rnd, (A.DRAW_TICKETS,), 0.5)]
        checker = play(game, policies[seed // CHUNKS % len(policies)], rnd, deep=False)
        lengths.append(checker.steps)
        seen.update(set(checker.seen))
    assert len(lengths) == len(range(chunk, GAMES_PER_MAP, CHUNKS))
    assert Counter(lengths).most_common(1)[0][1] < len(lengths)  # the games differ
    expected = {"no card to draw", "reshuffle", "empty face-up slot", "no ticket to draw", "last round"}
    if m.rules.tunnel_reveal:
        expected.add("tunnel payment due")
    assert expected <= set(seen), f"the random games never reached {expected - set(seen)}"


@pytest.mark.parametrize(("map_name", "games"), [("europe", 6), ("new_york", 30)])
def test_hoarding_games_keep_every_invariant(map_name: str, games: int) -> None:
    """Seats that draw whenever they can and claim only when forced: huge hands, empty piles, passes."""
    m = load_map(map_name)
    seats = MAPS[map_name]
    seen: Counter[str] = Counter()
    for seed in range(games):
        rnd = random.Random(seed)
        game = Game.new(m, seats[seed % len(seats)], seed=seed + 1000)
        seen.update(set(play(game, hoarder(rnd), rnd, deep=False).seen))
    assert seen["no card to draw"] == games
