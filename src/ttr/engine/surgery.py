"""World surgery: changes to the hidden parts of a game that keep it a game the rules could have reached.

Information-set search plays on sampled worlds (`ttr.engine.sample`) and keeps them in step with what a
seat sees: the next draws forced to the cards it saw, another seat's hidden cards dealt again, tickets
swapped between a hand and the ticket deck. These functions are the only way code outside the engine
changes a game's state other than by playing actions. Each keeps every card and ticket where the rules
can put it (a card moves between the deck and a hand, a ticket between a hand or an offer still to be
made and the ticket deck), so a changed world passes every check of the engine's invariants
(`tests/engine/test_surgery.py`); none changes what any seat's view shows except the hands and tickets
of the seats it names. A function that cannot do what it is asked returns False or raises `ValueError`
and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ttr.engine import actions as A
from ttr.engine.game import Game
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS
from ttr.engine.rng import Rng


def hidden_deck(game: Game) -> Sequence[int]:
    """The train deck of a sampled world, its top last: what the search arranges (`force_draws`) and looks
    up on its own worlds. Hidden information: never for a real game a seat plays, or for a seat's view."""
    return game._deck


def hidden_ticket_deck(game: Game) -> Sequence[int]:
    """The ticket deck of a sampled world, its next draw first (see `hidden_deck`)."""
    return game._ticket_deck


def offer_setup_tickets(game: Game, offer: Sequence[int]) -> None:
    """Put `offer` (ticket indexes, as many as are on offer now) on offer to the seat choosing its setup
    tickets, in this order. Each ticket that joins the offer trades every place with one that leaves it (the
    ticket deck, the other seats' offers, the tickets out of the game, the starting orders and the history),
    so the game stays one the rules could have dealt. `ValueError`, and no change, if no seat is choosing
    its setup tickets or `offer` is not that many different tickets of the map."""
    if game._phase != CHOOSE_SETUP:
        raise ValueError("no seat is choosing its setup tickets")
    now = game._offered
    offer = list(offer)
    if len(offer) != len(now) or len(set(offer)) != len(offer):
        raise ValueError(f"an offer is {len(now)} different tickets, got {offer}")
    if any(not 0 <= t < len(game._map.tickets) for t in offer):
        raise ValueError(f"the map has no ticket {next(t for t in offer if not 0 <= t < len(game._map.tickets))}")
    joining = [t for t in offer if t not in now]
    leaving = [t for t in now if t not in offer]
    trade = dict(zip(joining, leaving, strict=True)) | dict(zip(leaving, joining, strict=True))
    if trade:
        _relabel_tickets(game, trade)
    game._offered = offer


def trade_tickets(game: Game, a: int, b: int) -> None:
    """Tickets `a` and `b` trade every place: where one was held, offered, in the ticket deck, out of the
    game, in the starting orders and in the history's keeps, the other is now (a world where the two were
    dealt the other way round). `ValueError` for a ticket the map lacks."""
    count = len(game._map.tickets)
    for t in (a, b):
        if not 0 <= t < count:
            raise ValueError(f"the map has no ticket {t}")
    if a != b:
        _relabel_tickets(game, {a: b, b: a})


def _relabel_tickets(game: Game, trade: dict[int, int]) -> None:
    """Rename tickets everywhere in the game at once (`trade` maps each to its new name: a permutation)."""

    def renamed(order: Sequence[int]) -> list[int]:
        return [trade.get(t, t) for t in order]

    game._ticket_deck[:] = renamed(game._ticket_deck)
    game._offered = renamed(game._offered)
    game._tickets = [renamed(held) for held in game._tickets]
    # The past agrees: the setup offers and the starting orders (shared by copies of a game: new lists).
    game._setup_offers = [renamed(o) for o in game._setup_offers]
    game._initial_tickets = renamed(game._initial_tickets)
    game._initial_long = renamed(game._initial_long)
    kind = game._cat.kind
    history = game._history
    for j, (p, aid, detail) in enumerate(history):
        if kind[aid] == A.KEEP_TICKETS:
            history[j] = (p, aid, tuple(renamed(detail)))
    game._view_cache = {}


def undealt(game: Game) -> Game:
    """A copy of `game` as it was before its deal: every train card in the deck (sorted by type), no hand,
    an empty face-up row, no offer, the regular tickets in the ticket deck (sorted); the seat to choose
    first, choosing from nothing. What an environment shows while the deal is made of chance nodes."""
    g = game.copy()
    n = g._n
    deck = g._deck
    for hand in g._hands:
        for c, k in enumerate(hand):
            deck.extend([c] * k)
            hand[c] = 0
    deck.extend(c for c in g._face_up if c >= 0)
    deck.extend(g._discard)
    g._discard.clear()
    deck.sort()
    g._face_up = [-1] * len(g._face_up)
    g._ticket_deck = sorted(t.index for t in g._map.tickets if not t.long)
    g._tickets = [[] for _ in range(n)]
    g._setup_offers = [[] for _ in range(n)]
    g._offered = []
    g._history = []
    g._view_cache = {}
    g._phase = CHOOSE_SETUP
    g._current = 0
    return g


def reseed(game: Game, rng: random.Random) -> None:
    """Shuffle the train deck with `rng` and give the game a new RNG drawn from it (for later reshuffles):
    a world whose hidden order is dealt anew."""
    rng.shuffle(game._deck)
    game._rng = Rng(rng.getrandbits(64))


def shuffle_deck(game: Game, rng: random.Random) -> None:
    """Shuffle the train deck with `rng` (its cards stay; the RNG of later reshuffles stays)."""
    rng.shuffle(game._deck)


def reshuffle_under(game: Game) -> None:
    """Shuffle the discard pile into the deck now, under the cards the deck still holds, as the game does
    once the deck runs out (E-DRAW-7, the game's RNG or forced orders): so that draws about to run the deck
    out can be arranged in advance (`force_draws`). Nothing happens if the discard pile is empty."""
    if not game._discard:
        return
    left = game._deck[:]
    game._deck.clear()
    game._reshuffle()
    game._deck.extend(left)


def force_draws(game: Game, cards: Sequence[int], may_give: Callable[[int, int], bool] | None = None) -> bool:
    """Arrange the train deck so that the next draws take `cards` in this order: the deck's cards trade
    places (if the draws run past the deck, the discard pile is first shuffled in under it). A card the
    deck lacks comes from the hand of the first seat for which `may_give(seat, card)` is true, which gets
    the deck's card in that place. False, with the deck and hands as they were (bar that reshuffle), when
    no one can give a card that is needed."""
    deck = game._deck
    if len(cards) > len(deck):
        reshuffle_under(game)
    if len(cards) > len(deck):
        return False
    before = deck[:], [hand[:] for hand in game._hands]
    for i, card in enumerate(cards):
        top = len(deck) - 1 - i
        if deck[top] == card:
            continue
        try:
            j = deck.index(card, 0, top)
        except ValueError:
            giver = -1 if may_give is None else next(
                (q for q in range(game._n) if game._hands[q][card] > 0 and may_give(q, card)), -1)
            if giver < 0:
                deck[:] = before[0]
                for hand, kept in zip(game._hands, before[1], strict=True):
                    hand[:] = kept
                return False
            swap_with_deck(game, giver, card, i)
            continue
        deck[j], deck[top] = deck[top], deck[j]
    return True


def swap_with_deck(game: Game, seat: int, card: int, depth: int) -> None:
    """Seat `seat` gives one `card` of its hand for the deck's card `depth` places below the top (0: the
    top), which takes its place in the deck. `ValueError` if the seat holds no such card or the deck is
    not that deep."""
    hand = game._hands[seat]
    deck = game._deck
    if hand[card] <= 0:
        raise ValueError(f"seat {seat} holds no card {card}")
    if not 0 <= depth < len(deck):
        raise ValueError(f"the deck holds {len(deck)} cards, not {depth + 1}")
    pos = len(deck) - 1 - depth
    hand[card] -= 1
    hand[deck[pos]] += 1
    deck[pos] = card


def exchange_with_deck(game: Game, seat: int, give: int, take: int) -> bool:
    """Seat `seat` puts one `give` card of its hand on top of the deck and takes one `take` card out of it
    (the deck's first one of that type from the bottom). False, and no change, if it cannot."""
    hand = game._hands[seat]
    deck = game._deck
    if hand[give] <= 0 or take not in deck:
        return False
    deck.remove(take)
    deck.append(give)
    hand[take] += 1
    hand[give] -= 1
    return True


def return_to_deck(game: Game, seat: int, counts: Sequence[int]) -> None:
    """Seat `seat` puts `counts[c]` cards of each type `c` of its hand on top of the deck. `ValueError`, and
    no change, if it holds fewer."""
    hand = game._hands[seat]
    if len(counts) != len(hand) or any(k < 0 or k > h for k, h in zip(counts, hand, strict=True)):
        raise ValueError(f"seat {seat} does not hold the cards {list(counts)}")
    for c, k in enumerate(counts):
        if k:
            hand[c] -= k
            game._deck.extend([c] * k)


def deal_from_deck(game: Game, seat: int, count: int) -> None:
    """Seat `seat` takes the `count` top cards of the deck into its hand. `ValueError` if the deck holds fewer."""
    deck = game._deck
    if not 0 <= count <= len(deck):
        raise ValueError(f"the deck holds {len(deck)} cards, not {count}")
    hand = game._hands[seat]
    for c in deck[len(deck) - count:]:
        hand[c] += 1
    del deck[len(deck) - count:]


def set_hand(game: Game, seat: int, hand: Sequence[int]) -> None:
    """Give seat `seat` exactly `hand` (counts per card type): the deck takes the cards it no longer holds
    (on top) and gives the ones it gains. `ValueError`, and no change, if the deck lacks a card."""
    current = game._hands[seat]
    deck = game._deck
    if len(hand) != len(current) or min(hand, default=0) < 0:
        raise ValueError(f"a hand is {len(current)} counts >= 0, got {list(hand)}")
    for c, (have, want) in enumerate(zip(current, hand, strict=True)):
        if want - have > deck.count(c):
            raise ValueError(f"the deck holds {deck.count(c)} cards {c}, not {want - have}")
    for c, (have, want) in enumerate(zip(current, hand, strict=True)):
        if have > want:
            deck.extend([c] * (have - want))
        elif want > have:
            for _ in range(want - have):
                deck.remove(c)
    game._hands[seat] = list(hand)


def force_tickets(game: Game, tickets: Sequence[int]) -> bool:
    """Put `tickets` at the front of the ticket deck, in this order (the next ticket draw takes them; the
    others keep their order behind them). False, and no change, if the ticket deck does not hold them all."""
    deck = game._ticket_deck
    if any(t not in deck for t in tickets):
        return False
    deck[:] = [*tickets, *(t for t in deck if t not in tickets)]
    return True


def setup_offer(game: Game, seat: int) -> list[int]:
    """The tickets `seat` is offered at setup, while it chooses or before (empty once it has chosen). A fresh list."""
    if game._phase != CHOOSE_SETUP or seat < game._current:
        return []
    if seat == game._current:
        return game._offered[:]
    return game._setup_offers[seat][:]


def swap_hidden_ticket(game: Game, seat: int, held: int, other: int) -> None:
    """Swap ticket `held` of seat `seat` (in its hand, or on offer to it now or at setup) with ticket `other`
    of the ticket deck, which takes its place there; the past agrees (the seat's keeps in the history, the
    setup offers and the starting orders name what it holds now, the deck what it gave). `ValueError`, and no
    change, if the seat does not hold `held` or the deck not `other`."""
    deck = game._ticket_deck
    if other not in deck:
        raise ValueError(f"ticket {other} is not in the ticket deck")
    if held in game._tickets[seat]:
        holding = game._tickets[seat]
    elif seat == game._current and game._phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and held in game._offered:
        holding = game._offered
    elif held in setup_offer(game, seat):
        holding = []
    else:
        raise ValueError(f"seat {seat} does not hold ticket {held}")
    deck[deck.index(other)] = held
    if holding:
        holding[holding.index(held)] = other

    def swapped(order: list[int]) -> list[int]:
        return [other if t == held else held if t == other else t for t in order]

    # The past agrees: the setup offers and the starting orders (shared by copies of a game: new lists).
    game._setup_offers = [swapped(offer) for offer in game._setup_offers]
    game._initial_tickets = swapped(game._initial_tickets)
    game._initial_long = swapped(game._initial_long)
    kind = game._cat.kind
    history = game._history
    for j, (p, aid, detail) in enumerate(history):
        if p == seat and kind[aid] == A.KEEP_TICKETS and held in detail:
            history[j] = (p, aid, tuple(other if t == held else t for t in detail))
    game._view_cache = {}  # the public log worked out from the history before
