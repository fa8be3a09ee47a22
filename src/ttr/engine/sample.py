"""Determinization: a full game consistent with what one seat has seen, the hidden parts sampled.

Information-set search plays on sampled games: `InfoSet(map, view)` reads a seat's view once
(`ttr.engine.views.seat_view`) and `sample(rng)` deals what the seat cannot see at random, as many
times as needed; `determinize(map, view, rng)` does both at once. `sample` is two steps, which a caller
can take apart: `deal_tickets` deals the other seats' hidden tickets alone, `complete` deals the rest
around them (a search that weighs many ticket deals by how well they explain the play completes only the
one it keeps).

What is kept exactly: the seat's hand, tickets and offer; the face-up row; the discard pile's counts;
routes, stations, trains, scores; the phase, the seat to play, a pending tunnel; the final round and
the run of passes (both read from the public log); the public log itself (`seat_view` of a sample is
the view it came from). What is sampled: the other seats' hands (their sizes kept, and every card a
seat took face up and has not played since stays in its hand), their tickets (counts kept; Europe:
a seat holds its long ticket with the chance that a random choice of as many of its four starting
tickets holds it; unused long tickets are out of the game), tickets on offer to another seat, the
order of the train deck and of the ticket deck, and the RNG of later reshuffles.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate
from typing import Any

from ttr.engine.game import Game
from ttr.engine.known import KnownCards
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, PHASE_NAMES, SECOND_CARD, TUNNEL
from ttr.engine.rng import Rng
from ttr.maps import GameMap

_PHASES = {name: i for i, name in enumerate(PHASE_NAMES) if name != "choose_tickets"}


class TicketDeal:
    """The other seats' tickets of one deal (`InfoSet.deal_tickets`; the seat's own list is left empty) and
    the hidden tickets left, in no order: the long and the regular ones (one list for both, the same object,
    where tickets returned at setup went back into the deck)."""

    __slots__ = ("long_pool", "regular_pool", "tickets")

    def __init__(self, tickets: list[list[int]], long_pool: list[int], regular_pool: list[int]) -> None:
        self.tickets = tickets
        self.long_pool = long_pool
        self.regular_pool = regular_pool


class InfoSet:
    """One seat's knowledge of a game, read from its view; `sample(rng)` deals a consistent full game."""

    def __init__(self, game_map: GameMap, view: dict[str, Any]) -> None:
        """Read `view` (a `seat_view` dict); `ValueError` if it is over or not consistent with the map."""
        if view.get("status") != "in_progress" or not view.get("turn"):
            raise ValueError("the game is over: nothing to sample")
        self.map = game_map
        seat = view["seat"]
        self.seat: int = seat
        players = view["players"]
        names = [p["name"] for p in players]
        self.n = n = len(names)
        rules = game_map.rules
        log: list[dict[str, Any]] = view["log"]
        turn = view["turn"]
        g = Game.new(game_map, names, seed=0)
        cat = g._cat
        ncol = g._ncol
        wild = g._wild
        card = game_map.card

        # Phase and turn.
        current = turn["player"]
        if turn["phase"] == "choose_tickets":
            phase = CHOOSE_SETUP if len(log) < n else CHOOSE_TICKETS
        else:
            phase = _PHASES[turn["phase"]]
        g._phase = phase
        g._current = current

        # The board.
        g._owner = [-1] * len(game_map.routes)
        g._station_owner = [-1] * len(game_map.cities)
        for p, entry in enumerate(players):
            for name in entry["routes"]:
                g._owner[game_map.route(name).index] = p
            for name in entry["station_cities"]:
                g._station_owner[game_map.city(name).index] = p
        g._rebuild_indexes()
        g._trains = [p["trains"] for p in players]
        g._stations_left = [p["stations"] for p in players]
        g._scores = [p["score"] for p in players]
        g._face_up = [-1 if c is None else card(c) for c in view["face_up"]]
        g._discard = [card(c) for c, k in sorted(view["discard_pile"].items()) for _ in range(k)]
        g._reshuffles = []
        g._forced_reshuffles = None

        # The seat's own hand and tickets.
        me = players[seat]
        g._hands = [[0] * (ncol + 1) for _ in range(n)]
        for name, k in me["hand"].items():
            g._hands[seat][card(name)] += k
        g._tickets = [[] for _ in range(n)]
        g._tickets[seat] = [game_map.ticket(t).index for t in me["tickets"]]
        own_offer = [game_map.ticket(t).index for t in turn.get("tickets_offered", [])]
        self.offer_count: int = len(own_offer) if own_offer else int(turn.get("tickets_offered_count", 0))
        g._offered = own_offer

        # Seen cards: own hand, the row, the discard pile, a pending tunnel's cards.
        seen = g._hands[seat][:]
        for c in g._face_up:
            if c >= 0:
                seen[c] += 1
        for c in g._discard:
            seen[c] += 1
        g._clear_tunnel()
        if phase == TUNNEL:
            claim = log[-1]
            paid = {card(k): v for k, v in claim["cards"].items()}
            route = game_map.route(turn["tunnel_route"])
            g._t_route = route.index
            g._t_wild = paid.get(wild, 0)
            colours = [c for c in paid if c != wild and paid[c]]
            g._t_color = colours[0] if colours else wild
            g._t_extra = turn["tunnel_extra"]
            g._t_revealed = [card(c) for c in turn["tunnel_reveal"]]
            for c, k in paid.items():
                seen[c] += k
            for c in g._t_revealed:
                seen[c] += 1

        # The log: the final round's trigger, setup keeps, the history (and from it the known cards).
        setup_keep = [-1] * n
        self._keeps: list[tuple[int, int, int]] = []  # (history index, seat, count) of other seats' keeps
        trains = [rules.pieces] * n
        built = [0] * n
        trigger = -1
        pending: tuple[int, dict[int, int]] = (-1, {})  # a tunnel waiting for payment: (length, cards)
        history: list[tuple[int, int, tuple[int, ...]]] = []
        # The ticket deck as the seat knows it, top first: a ticket it gave back (its own returns go to the
        # bottom, E-TICK-2 / N-SETUP-2) or -1 for one it has not seen. Its setup returns to the box are out.
        regular_total = sum(1 for t in game_map.tickets if not t.long)
        slots = [-1] * (regular_total - n * rules.setup_regular_tickets)
        boxed: list[int] = []
        last_offer: list[int] = []
        setup_offer = rules.setup_long_tickets + rules.setup_regular_tickets
        for i, entry in enumerate(log):
            p = entry["player"]
            kind = entry["action"]
            cards = {card(k): v for k, v in entry.get("cards", {}).items()}
            detail: tuple[int, ...] = ()
            claimed = 0
            if kind == "draw_card":
                if entry["from"] == "deck":
                    aid = cat.draw_deck
                    if "card" in entry:
                        detail = (card(entry["card"]),)
                else:
                    c = card(entry["card"])
                    aid = cat.draw_face_up[c]
                    if "face_up" in entry:  # the row after the draw
                        detail = tuple(card(x) if x is not None else -1 for x in entry["face_up"])
            elif kind == "draw_tickets":
                aid = cat.draw_tickets
                last_offer = slots[:rules.draw_tickets]
                del slots[:rules.draw_tickets]
            elif kind == "keep_tickets":
                if "tickets" in entry:
                    kept = tuple(game_map.ticket(t).index for t in entry["tickets"])
                    back = [game_map.ticket(t).index for t in entry.get("returned", [])]
                    detail = kept + tuple(back)
                    count = len(kept)
                else:
                    count = entry["count"]
                    self._keeps.append((i, p, count))
                    back = [-1] * ((setup_offer if i < n else len(last_offer)) - count)
                aid = cat.keep_base + (1 << count) - 1
                if i < n:
                    setup_keep[p] = count
                    if rules.setup_returned == "bottom":
                        slots.extend(back)
                    elif p == seat:
                        boxed.extend(back)
                else:
                    slots.extend(back)
                last_offer = []
            elif kind == "claim_route":
                route = game_map.route(entry["route"])
                w = cards.get(wild, 0)
                colours = [c for c in cards if c != wild and cards[c]]
                colour = colours[0] if colours else wild
                if colour == wild:
                    aid = cat.claim_all_wild[route.index]
                elif route.color == "gray":
                    aid = cat.claim_base[route.index] + colour * route.length + w
                else:
                    aid = cat.claim_base[route.index] + w
                claimed = route.length
                if "tunnel_reveal" in entry:
                    detail = tuple(card(c) for c in entry["tunnel_reveal"])
                    extra = sum(1 for c in detail if c == wild or (c == colour and colour != wild))
                    if extra:
                        pending = (route.length, cards)
                        claimed = 0
            elif kind == "pay_tunnel":
                aid = cat.pay[(sum(cards.values()), cards.get(wild, 0))]
                claimed = pending[0]
            elif kind == "abandon_tunnel":
                aid = cat.abandon
            elif kind == "build_station":
                city = game_map.city(entry["city"]).index
                cost = sum(cards.values())
                colours = [c for c in cards if c != wild and cards[c]]
                offset = colours[0] * cost + cards.get(wild, 0) if colours else ncol * cost
                aid = cat.station_base[city][built[p]] + offset
                built[p] += 1
            else:
                aid = cat.pass_
            if claimed:
                trains[p] -= claimed
                if trigger < 0 and trains[p] <= rules.end_trigger_pieces:
                    trigger = p
            history.append((p, aid, detail))
        g._history = history
        known = KnownCards(game_map, n).read(g)  # cards taken face up and not played since (own hand: exact)
        if trains != g._trains:
            raise ValueError("the view's trains do not match its log")
        g._final_turns = -1 if trigger < 0 else n - (current - trigger - 1) % n
        in_progress = 1 if phase in (SECOND_CARD, TUNNEL, CHOOSE_TICKETS) else 0
        passes = 0
        for entry in reversed(log[:len(log) - in_progress]):
            if entry["action"] != "pass":
                break
            passes += 1
        g._passes = passes if phase != CHOOSE_SETUP else 0

        # Hidden cards: what is left of every card type once the seen and known ones are out.
        totals = [game_map.per_color] * ncol + [game_map.wild_count]
        unseen: list[int] = []
        for c in range(ncol + 1):
            left = totals[c] - seen[c] - sum(known[q][c] for q in range(n) if q != seat)
            if left < 0:
                raise ValueError(f"the view shows more {game_map.card_names[c]} cards than the map has")
            unseen.extend([c] * left)
        self._known = known
        self._unknown = [0 if q == seat else players[q]["hand_size"] - sum(known[q]) for q in range(n)]
        self._deck_size: int = view["deck_size"]
        if min(self._unknown) < 0 or len(unseen) != self._deck_size + sum(self._unknown):
            raise ValueError("the view's card counts do not add up")
        self._unseen_cards = unseen

        # Hidden tickets: every ticket the seat has not placed, split into long and regular ones.
        if len(slots) != view["ticket_deck_size"]:
            raise ValueError("the view's ticket counts do not add up")
        self._slots = slots
        self._offer_slots = last_offer if phase == CHOOSE_TICKETS and current != seat else []
        if self._offer_slots and len(self._offer_slots) != self.offer_count:
            raise ValueError("the view's ticket offer does not match its log")
        mine = set(g._tickets[seat]) | set(own_offer) | set(boxed)
        mine.update(t for t in slots if t >= 0)
        mine.update(t for t in self._offer_slots if t >= 0)
        self._box = rules.setup_returned == "box"
        self._long = [t.index for t in game_map.tickets if t.long and t.index not in mine]
        self._regular = [t.index for t in game_map.tickets if not t.long and t.index not in mine]
        self._counts = [0 if q == seat else players[q]["ticket_count"] for q in range(n)]
        self._setup_keep = setup_keep
        self._ticket_deck_size: int = view["ticket_deck_size"]
        self._template = g

    def setup_keep(self, seat: int) -> int:
        """How many tickets `seat` kept at setup (-1 before it chose)."""
        return self._setup_keep[seat]

    def hidden_tickets(self) -> tuple[list[int], list[int]]:
        """The long and the regular tickets this seat cannot place (another seat, a deck or the box may
        hold them): what `sample` deals from. Fresh lists."""
        return self._long[:], self._regular[:]

    def sample(self, rng: random.Random, weights: Sequence[Sequence[float] | None] | None = None,
               long_held: Sequence[Sequence[float] | None] | None = None,
               setup_kept: Sequence[Sequence[int] | None] | None = None) -> Game:
        """A full game: the view's state with the hidden cards and tickets dealt at random by `rng`.

        `weights[q][t]` (optional, > 0) makes seat q more likely to hold ticket t than a uniform deal would
        (a belief read from q's play); the deck and offers take the rest uniformly. `long_held[q][j]`
        (optional) is the chance that the tickets seat q kept at setup hold j long ones (a model of how it
        keeps, e.g. greedy nearly always keeps its long ticket); without it every keep-set of that size is
        as likely, so a seat that kept 2 of 1 long and 3 regular tickets holds its long one half the time.
        `setup_kept[q]` (optional) are the tickets seat q kept at setup, chosen by the caller among
        `hidden_tickets()` (as many as it kept; no ticket twice); its later tickets are dealt as before.
        The same as `complete(rng, deal_tickets(rng, weights, long_held, setup_kept))`.
        """
        return self.complete(rng, self.deal_tickets(rng, weights, long_held, setup_kept))

    def deal_tickets(self, rng: random.Random, weights: Sequence[Sequence[float] | None] | None = None,
                     long_held: Sequence[Sequence[float] | None] | None = None,
                     setup_kept: Sequence[Sequence[int] | None] | None = None) -> TicketDeal:
        """The other seats' hidden tickets alone, dealt as `sample` deals them (see there for the arguments):
        cheaper than a whole game, for a caller that weighs many deals by their tickets and completes only
        the one it keeps (`complete`)."""
        rules = self.map.rules
        n = self.n
        seat = self.seat
        long_pool = self._long[:]
        if self._box:
            regular_pool = self._regular[:]
        else:  # tickets returned at setup go back into the deck: any ticket may be anywhere
            long_pool += self._regular
            regular_pool = long_pool
        n_long, n_regular = rules.setup_long_tickets, rules.setup_regular_tickets
        given = self._given(setup_kept, long_pool, regular_pool)
        tickets: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            if q == seat:
                continue
            setup = given[q] or []  # the setup tickets given for it; the rest is dealt
            count = self._counts[q] - len(setup)
            held_long = 0
            kept = self._setup_keep[q]
            if given[q] is None and kept > 0 and n_long:
                odds = long_held[q] if long_held is not None else None
                if odds:
                    held_long = min(_draw_index(odds, rng), kept, n_long, len(long_pool))
                else:
                    held_long = sum(1 for slot in rng.sample(range(n_long + n_regular), kept) if slot < n_long)
            w = weights[q] if weights is not None else None
            if w is None:
                tickets[q] = setup + _take_random(long_pool, held_long, rng) + _take_random(
                    regular_pool, count - held_long, rng)
            else:
                tickets[q] = (setup + _take_weighted(long_pool, held_long, w, rng)
                              + _take_weighted(regular_pool, count - held_long, w, rng))
        return TicketDeal(tickets, long_pool, regular_pool)

    def complete(self, rng: random.Random, deal: TicketDeal) -> Game:
        """A full game with the other seats' tickets of `deal` (from `deal_tickets` of this information set)
        and the rest dealt at random by `rng`: the hidden cards, the order of the train deck and of the
        tickets left (offers still to be made, the ticket deck), and the RNG of later reshuffles."""
        g = self._template.copy()
        n = self.n
        seat = self.seat
        cards = self._unseen_cards[:]
        rng.shuffle(cards)
        pos = 0
        for q in range(n):
            if q != seat:
                hand = self._known[q][:]
                for c in cards[pos:pos + self._unknown[q]]:
                    hand[c] += 1
                pos += self._unknown[q]
                g._hands[q] = hand
                g._tickets[q] = deal.tickets[q][:]
        g._deck = cards[pos:]
        used = [0] * n
        for i, q, count in self._keeps:  # each keep of another seat names its tickets, in the order held
            g._history[i] = (q, g._history[i][1], tuple(g._tickets[q][used[q]:used[q] + count]))
            used[q] += count

        long_pool = deal.long_pool[:]
        rng.shuffle(long_pool)
        if self._box:
            regular_pool = deal.regular_pool[:]
            rng.shuffle(regular_pool)
        else:  # one pool for both (see `deal_tickets`)
            regular_pool = long_pool
        n_long, n_regular = self.map.rules.setup_long_tickets, self.map.rules.setup_regular_tickets
        setup_offers: list[list[int]] = [[] for _ in range(n)]
        if g._phase == CHOOSE_SETUP:
            for q in range(g._current, n):
                if q == g._current and g._offered:
                    setup_offers[q] = g._offered[:]
                else:
                    setup_offers[q] = _take(long_pool, n_long) + _take(regular_pool, n_regular)
            g._offered = setup_offers[g._current][:]
        elif g._phase == CHOOSE_TICKETS and not g._offered:
            g._offered = _fill(self._offer_slots, regular_pool) if self._offer_slots else _take(
                regular_pool, self.offer_count)
        g._setup_offers = setup_offers
        g._ticket_deck = _fill(self._slots, regular_pool)
        g._rng = Rng(rng.getrandbits(64))
        return g

    def _given(self, setup_kept: Sequence[Sequence[int] | None] | None, long_pool: list[int],
               regular_pool: list[int]) -> list[list[int] | None]:
        """Per seat, the setup tickets `sample` was given for it (checked, and taken out of the pools), or None."""
        out: list[list[int] | None] = [None] * self.n
        if setup_kept is None:
            return out
        if len(setup_kept) != self.n:
            raise ValueError(f"setup_kept: {len(setup_kept)} entries for {self.n} seats")
        for q, kept in enumerate(setup_kept):
            if kept is None:
                continue
            if q == self.seat or len(kept) != self._setup_keep[q]:
                raise ValueError(f"setup_kept: seat {q} did not keep {len(kept)} tickets at setup")
            for t in kept:
                pool = long_pool if t in long_pool else regular_pool
                if t not in pool:
                    raise ValueError(f"setup_kept: ticket {t} for seat {q} is not hidden, or given twice")
                pool.remove(t)
            out[q] = list(kept)
        return out


def _draw_index(odds: Sequence[float], rng: random.Random) -> int:
    """An index of `odds` drawn with chances in proportion to its values (`ValueError` if none is positive)."""
    total = sum(odds)
    if not total > 0:
        raise ValueError(f"long_held: odds {list(odds)} give no count a chance")
    x = rng.random() * total
    for j, p in enumerate(odds):
        x -= p
        if x < 0:
            return j
    return max(j for j, p in enumerate(odds) if p > 0)


def _fill(slots: list[int], pool: list[int]) -> list[int]:
    """`slots` with every unknown one (-1) replaced by a ticket taken from the end of the shuffled pool."""
    out = slots[:]
    for i, t in enumerate(out):
        if t < 0:
            if not pool:
                raise ValueError("the view's ticket counts do not add up")
            out[i] = pool.pop()
    return out


def draw_weighted(pool: Sequence[int], k: int, weights: Sequence[float], rng: random.Random) -> list[int]:
    """`k` items of `pool` drawn without replacement, with chances in proportion to `weights[item]`: each
    draw picks one of the items left with chance weight / weight left (successive sampling, the order
    drawn kept); `pool` is left as it is."""
    if k <= 0:
        return []
    items = list(pool)
    k = min(k, len(items))
    left = [weights[t] for t in items]
    rand = rng.random
    out: list[int] = []
    for _ in range(k):
        cumulative = list(accumulate(left))
        i = bisect_right(cumulative, rand() * cumulative[-1])
        if i >= len(items):  # rounding at the very top
            i = len(items) - 1
        out.append(items.pop(i))
        left.pop(i)
    return out


def _take_weighted(pool: list[int], k: int, weights: Sequence[float], rng: random.Random) -> list[int]:
    """`k` tickets removed from `pool`, drawn as `draw_weighted` draws them."""
    if k > len(pool):
        raise ValueError("the view's ticket counts do not add up")
    if k <= 0:
        return []
    out = draw_weighted(pool, k, weights, rng)
    chosen = set(out)
    pool[:] = [t for t in pool if t not in chosen]
    return out


def _take_random(pool: list[int], k: int, rng: random.Random) -> list[int]:
    """`k` tickets removed from `pool` at random (every ordered choice alike)."""
    if k > len(pool):
        raise ValueError("the view's ticket counts do not add up")
    return [pool.pop(rng.randrange(len(pool))) for _ in range(k)]


def _take(pool: list[int], k: int) -> list[int]:
    """The last `k` tickets of a shuffled pool, removed from it."""
    if k > len(pool):
        raise ValueError("the view's ticket counts do not add up")
    if k <= 0:
        return []
    out = pool[-k:]
    del pool[-k:]
    return out


def determinize(game_map: GameMap, view: dict[str, Any], rng: random.Random) -> Game:
    """A full `Game` consistent with `view` (what one seat has seen), the hidden parts sampled by `rng`."""
    return InfoSet(game_map, view).sample(rng)
