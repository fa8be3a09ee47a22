"""Setting up a position by hand: cards, tickets, routes and pieces moved where a test or a tutorial wants them.

A position is set up from a dealt game (`Game.new`) by moving things one at a time, each move naming where
it takes from and where it puts: a card between the train deck, the discard pile, the face-up row and the
hands; a ticket between the ticket deck and the seats' kept tickets. A move keeps every card and ticket in
one place, so the game still passes the engine's invariant checks (`tests/engine/test_properties.py`),
except the moves that say they do not: `OUT` (a card or ticket taken out of the game, to empty the piles)
and `set_trains` (pieces left without the routes that used them, for the end of the game). A move that
cannot be made raises `ValueError` and changes nothing. These functions do not check the rules beyond
that: a position set up by hand is one the rules may never reach (a hand of 40 cards).

    from ttr.engine import Game, positions
    from ttr.maps import load_map
    game = Game.new(load_map("europe"), 2, seed=1)
    black = game.map.card("black")
    positions.move_card(game, black, (positions.DECK, positions.DISCARD), positions.hand(0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ttr.engine.game import Game


@dataclass(frozen=True)
class Place:
    """Where a card or ticket is: `kind` is deck, deck_bottom, discard, hand, row, tickets or out; `index` the
    seat (hand, tickets) or the face-up slot (row)."""

    kind: str
    index: int = -1


DECK = Place("deck")  # the train deck: take the card nearest its bottom, put on its top
DECK_BOTTOM = Place("deck_bottom")  # put under the train deck
DISCARD = Place("discard")  # the discard pile: take the first one, put on it
ROW = Place("row")  # the whole face-up row (`move_cards`); one slot is `row(slot)`
TICKET_DECK = Place("ticket_deck")  # the ticket deck: take the ticket wherever it is, put at its bottom
OUT = Place("out")  # out of the game (cards and tickets no longer counted anywhere)


def hand(seat: int) -> Place:
    """A seat's hand of train cards."""
    return Place("hand", seat)


def row(slot: int) -> Place:
    """A slot of the face-up row."""
    return Place("row", slot)


def held(seat: int) -> Place:
    """A seat's kept tickets (put: at the end)."""
    return Place("tickets", seat)


def move_card(game: Game, card: int, sources: Place | Sequence[Place], dest: Place) -> Place:
    """Move one `card` (a card index) from the first of `sources` that holds one to `dest`; the place it
    came from. `ValueError`, and no change, if none holds it or `dest` cannot take it (a face-up slot that
    is not empty)."""
    if not 0 <= card <= game._wild:
        raise ValueError(f"no card type {card} on {game._map.name}")
    _check_card_dest(game, dest)
    for source in (sources,) if isinstance(sources, Place) else sources:
        if _take_card(game, card, source):
            _put_card(game, card, dest)
            return source
    raise ValueError(f"no {game._map.card_names[card]} card in {_names(sources)}")


def stack_deck(game: Game, cards: Sequence[int], sources: Sequence[Place]) -> None:
    """Put `cards` on top of the train deck, the first on the very top, each taken first from the first of
    `sources` that holds one (the deck's own cards are taken nearest its bottom, before any is put on top).
    `ValueError`, and no change, if the sources lack one."""
    before = game._deck[:], game._discard[:], [h[:] for h in game._hands], game._face_up[:]
    for card in cards:
        if not 0 <= card <= game._wild or not any(_take_card(game, card, source) for source in sources):
            game._deck, game._discard, game._hands, game._face_up = before
            name = game._map.card_names[card] if 0 <= card <= game._wild else str(card)
            raise ValueError(f"no {name} card in {_names(sources)}")
    game._deck.extend(reversed(cards))


def move_cards(game: Game, source: Place, dest: Place, leave: int = 0) -> list[int]:
    """Move every card of `source` (the deck: all but its top `leave` cards) to `dest`, in order (the deck
    from the bottom up, a hand by card type, the row by slot); the cards moved. `ValueError`, and no change,
    for a destination in the row (one card at a time there)."""
    if dest.kind == "row":
        raise ValueError("the face-up row takes one card at a time (move_card)")
    _check_card_dest(game, dest)
    if source.kind == "deck":
        deck = game._deck
        keep = max(0, len(deck) - leave)
        cards = deck[:keep]
        del deck[:keep]
    elif source.kind == "discard":
        cards = game._discard[:]
        game._discard.clear()
    elif source.kind == "hand":
        counts = game._hands[_seat(game, source.index)]
        cards = [c for c, k in enumerate(counts) for _ in range(k)]
        counts[:] = [0] * len(counts)
    elif source.kind == "row":
        cards = [c for c in game._face_up if c >= 0]
        game._face_up[:] = [-1] * len(game._face_up)
    else:
        raise ValueError(f"cannot take cards from {source.kind}")
    for c in cards:
        _put_card(game, c, dest)
    return cards


def move_ticket(game: Game, ticket: int, dest: Place) -> None:
    """Move `ticket` (a ticket index) from the ticket deck or the seat that keeps it to `dest`: `TICKET_DECK`
    (its bottom), `held(seat)` or `OUT`. `ValueError`, and no change, if no one keeps it and the ticket deck
    lacks it (on offer, or out of the game)."""
    if dest.kind not in ("ticket_deck", "tickets", "out"):
        raise ValueError(f"a ticket cannot go to {dest.kind}")
    if dest.kind == "tickets":
        _seat(game, dest.index)
    holders = [game._ticket_deck, *game._tickets]
    source = next((h for h in holders if ticket in h), None)
    if source is None:
        raise ValueError(f"ticket {ticket} is neither in the ticket deck nor kept by a seat")
    source.remove(ticket)
    if dest.kind == "ticket_deck":
        game._ticket_deck.append(ticket)
    elif dest.kind == "tickets":
        game._tickets[dest.index].append(ticket)


def give_route(game: Game, seat: int, route: int) -> None:
    """`seat` holds `route` (a route index), its pieces placed and points scored as a claim would, without
    cards; the double-route rule closes its other track as a claim would. `ValueError`, and no change, if
    the route is not open to that seat or the seat lacks the pieces."""
    _seat(game, seat)
    if not 0 <= route < len(game._owner):
        raise ValueError(f"no route {route} on {game._map.name}")
    if not game.open_to(seat)[route]:
        raise ValueError(f"{game._map.routes[route].name} is not open to seat {seat}")
    if game._trains[seat] < game._route_len[route]:
        raise ValueError(f"seat {seat} has {game._trains[seat]} pieces, not {game._route_len[route]}")
    game._claim(seat, route)


def set_trains(game: Game, seat: int, trains: int) -> None:
    """Leave `seat` with `trains` pieces, whatever routes it holds (to set up the end of a game: the pieces
    no longer match its routes). `ValueError` outside 0..the map's pieces."""
    _seat(game, seat)
    if not 0 <= trains <= game._map.rules.pieces:
        raise ValueError(f"a seat has 0-{game._map.rules.pieces} pieces, not {trains}")
    game._trains[seat] = trains


def _seat(game: Game, seat: int) -> int:
    if not 0 <= seat < game._n:
        raise ValueError(f"no seat {seat} in a {game._n}-seat game")
    return seat


def _check_card_dest(game: Game, dest: Place) -> None:
    if dest.kind == "hand":
        _seat(game, dest.index)
    elif dest.kind == "row":
        if not 0 <= dest.index < len(game._face_up):
            raise ValueError(f"no face-up slot {dest.index}")
        if game._face_up[dest.index] >= 0:
            raise ValueError(f"face-up slot {dest.index} is not empty")
    elif dest.kind not in ("deck", "deck_bottom", "discard", "out"):
        raise ValueError(f"a card cannot go to {dest.kind}")


def _take_card(game: Game, card: int, source: Place) -> bool:
    if source.kind == "deck":
        if card in game._deck:
            game._deck.remove(card)
            return True
    elif source.kind == "discard":
        if card in game._discard:
            game._discard.remove(card)
            return True
    elif source.kind == "hand":
        counts = game._hands[_seat(game, source.index)]
        if counts[card] > 0:
            counts[card] -= 1
            return True
    elif source.kind == "row":
        if 0 <= source.index < len(game._face_up) and game._face_up[source.index] == card:
            game._face_up[source.index] = -1
            return True
    else:
        raise ValueError(f"cannot take a card from {source.kind}")
    return False


def _put_card(game: Game, card: int, dest: Place) -> None:
    if dest.kind == "deck":
        game._deck.append(card)
    elif dest.kind == "deck_bottom":
        game._deck.insert(0, card)
    elif dest.kind == "discard":
        game._discard.append(card)
    elif dest.kind == "hand":
        game._hands[dest.index][card] += 1
    elif dest.kind == "row":
        game._face_up[dest.index] = card


def _names(sources: Place | Sequence[Place]) -> str:
    places = (sources,) if isinstance(sources, Place) else sources
    return ", ".join(p.kind if p.index < 0 else f"{p.kind} {p.index}" for p in places)
