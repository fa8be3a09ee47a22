"""Actions as values and as catalogue ids: `decode(game, aid)` and `encode(game, action)`.

Ids index the map's fixed action catalogue (`ttr.engine.actions.Catalogue`); a ticket choice's id names
positions in the offer, so both directions read the state. `encode` checks the names against the map and
the card set against the route, station or tunnel, and raises with the rule broken.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ttr.engine import actions as A
from ttr.engine.actions import Action
from ttr.engine.legality import new_york_rule
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, TUNNEL
from ttr.errors import IllegalActionError, InvalidActionError, MapError

if TYPE_CHECKING:
    from ttr.engine.game import Game


def decode(game: Game, aid: int) -> Action:
    """The `Action` of id `aid` in the current state (ticket choices refer to the tickets on offer); an id
    whose action does not depend on the state is decoded once per map (the catalogue keeps it)."""
    cat = game._cat
    action = cat.decoded.get(aid)
    if action is None:
        action = _decode(game, aid)
        if cat.kind[aid] in A.STATIC_KINDS:
            cat.decoded[aid] = action
    return action


def _decode(game: Game, aid: int) -> Action:
    """`decode` without the catalogue's cache."""
    cat = game._cat
    kind = cat.kind[aid]
    names = game._map.card_names
    if kind == A.DRAW_DECK:
        return Action("draw_card", source="deck")
    if kind == A.DRAW_FACE_UP:
        return Action("draw_card", source="face_up", card=names[cat.b[aid]])
    if kind == A.DRAW_TICKETS:
        return Action("draw_tickets")
    if kind == A.KEEP_TICKETS:
        mask = cat.a[aid]
        tickets = game._map.tickets
        return Action("keep_tickets", tickets=tuple(
            tickets[t].name for i, t in enumerate(game._offered) if (mask >> i) & 1))
    if kind == A.CLAIM:
        r, colour, w = cat.a[aid], cat.b[aid], cat.c[aid]
        route = game._map.routes[r]
        return Action("claim_route", route=route.name,
                      cards=_card_tuple(game, colour, route.length - w, w))
    if kind == A.PAY_TUNNEL:
        x, w = cat.a[aid], cat.c[aid]
        colour = game._t_color if game._t_color >= 0 else game._wild
        return Action("pay_tunnel", cards=_card_tuple(game, colour, x - w, w))
    if kind == A.ABANDON_TUNNEL:
        return Action("abandon_tunnel")
    if kind == A.BUILD_STATION:
        city, colour, w, cost = cat.a[aid], cat.b[aid], cat.c[aid], cat.d[aid]
        return Action("build_station", city=game._map.cities[city].name,
                      cards=_card_tuple(game, colour, cost - w, w))
    return Action("pass")


def _card_tuple(game: Game, colour: int, colour_count: int, wilds: int) -> tuple[tuple[str, int], ...]:
    """The `Action` card set of `colour_count` cards of `colour` and `wilds` wild cards."""
    names = game._map.card_names
    counts: dict[str, int] = {}
    if colour_count and colour != game._wild:
        counts[names[colour]] = colour_count
    if wilds or colour == game._wild:
        counts[names[game._wild]] = wilds + (colour_count if colour == game._wild else 0)
    return Action.make_cards(counts)


def encode(game: Game, action: Action) -> int:
    """The catalogue id of `action` in the current state.

    Raises `InvalidActionError` for names the map does not know and `IllegalActionError` for a
    card set the rules never allow for that route, station or tunnel (mixed colours, wrong count).
    """
    try:
        return _encode(game, action)
    except IllegalActionError as exc:
        if game._map.rule_ids != "N" or new_york_rule(exc.rule) == exc.rule:
            raise
        message = str(exc).removeprefix(f"{exc.rule}: ")
        raise IllegalActionError(message, new_york_rule(exc.rule)) from None


def _encode(game: Game, action: Action) -> int:
    """`encode` with Europe's rule IDs, by kind of action."""
    cat = game._cat
    kind = action.kind
    if kind == "draw_card":
        if action.source == "deck":
            return cat.draw_deck
        return cat.draw_face_up[_card_index(game, action.card)]
    if kind == "draw_tickets":
        return cat.draw_tickets
    if kind == "abandon_tunnel":
        return cat.abandon
    if kind == "pass":
        return cat.pass_
    if kind == "keep_tickets":
        return cat.keep_base + _keep_mask(game, action.tickets)
    if kind == "claim_route":
        return _encode_claim(game, action)
    if kind == "build_station":
        return _encode_station(game, action)
    if kind == "pay_tunnel":
        return _encode_pay(game, action)
    raise InvalidActionError(f"unknown action {kind!r}")


def _card_index(game: Game, name: str | None) -> int:
    """The card index of a card name (`InvalidActionError` if the map has no such card)."""
    try:
        return game._map.card(name or "")
    except MapError as exc:
        raise InvalidActionError(str(exc)) from None


def _split_cards(game: Game, action: Action, rule: str) -> tuple[int, int, int]:
    """(colour, colour count, wild count) of a card set that is one colour plus wilds."""
    colour = -1
    colour_count = 0
    wilds = 0
    for name, count in action.cards:
        card = _card_index(game, name)
        if card == game._wild:
            wilds += count
        elif colour >= 0 and count:
            raise IllegalActionError(
                f"the cards must be of one colour (plus {game._map.wild_name}s), got {dict(action.cards)}", rule)
        elif count:
            colour, colour_count = card, count
    return colour, colour_count, wilds


def _encode_claim(game: Game, action: Action) -> int:
    """The id of a claim: the route by name, paid in one colour plus wilds, as many cards as spaces."""
    try:
        route = game._map.route(action.route or "")
    except MapError as exc:
        raise InvalidActionError(str(exc)) from None
    colour, colour_count, wilds = _split_cards(game, action, "E-CLAIM-1")
    total = colour_count + wilds
    if total != route.length:
        raise IllegalActionError(f"{route.name} has {route.length} spaces: play {route.length} cards, not {total}",
                                 "E-CLAIM-1")
    base = game._cat.claim_base[route.index]
    if colour < 0:
        return game._cat.claim_all_wild[route.index]
    if route.color == "gray":
        return base + colour * route.length + wilds
    if game._map.colors[colour] != route.color:
        raise IllegalActionError(f"{route.name} is {route.color}: pay it with {route.color} cards "
                                 f"(or {game._map.wild_name}s), not {game._map.colors[colour]}", "E-CLAIM-2")
    return base + wilds


def _encode_station(game: Game, action: Action) -> int:
    """The id of a station: the city by name, paid with the seat's next station's cost."""
    try:
        city = game._map.city(action.city or "")
    except MapError as exc:
        raise InvalidActionError(str(exc)) from None
    rules = game._map.rules
    if not rules.stations:
        raise IllegalActionError(f"there are no stations on {game._map.name}", "N-TURN-1")
    colour, colour_count, wilds = _split_cards(game, action, "E-STAT-3")
    cost = colour_count + wilds
    built = min(rules.stations - game._stations_left[game._current], rules.stations - 1)
    if cost != rules.station_costs[built]:
        raise IllegalActionError(f"your station number {built + 1} costs {rules.station_costs[built]} card(s), "
                                 f"not {cost}", "E-STAT-3")
    base = game._cat.station_base[city.index][built]
    if colour < 0:
        return base + game._ncol * cost
    return base + colour * cost + wilds


def _encode_pay(game: Game, action: Action) -> int:
    """The id of a tunnel payment: the extra cards in the colour played (or wilds)."""
    colour, colour_count, wilds = _split_cards(game, action, "E-TUN-2")
    if game._phase != TUNNEL:
        raise IllegalActionError("no tunnel payment is due", "E-TUN-2")
    x = colour_count + wilds
    if colour >= 0 and colour != game._t_color:
        if game._t_color == game._wild:
            raise IllegalActionError(f"the route was paid with {game._map.wild_name}s only: the extra cards "
                                     f"must be {game._map.wild_name}s", "E-TUN-3")
        raise IllegalActionError(f"pay the extra cards in {game._map.card_names[game._t_color]} (or "
                                 f"{game._map.wild_name}s), the colour played", "E-TUN-2")
    key = (x, wilds)
    if key not in game._cat.pay:
        raise IllegalActionError(f"the tunnel needs {game._t_extra} extra card(s), not {x}", "E-TUN-2")
    return game._cat.pay[key]


def _keep_mask(game: Game, names: Sequence[str]) -> int:
    """The offer positions of the tickets named, as a bit mask (each on offer, none twice)."""
    rule = "E-SETUP-5" if game._phase == CHOOSE_SETUP else "E-TICK-1"
    if game._phase not in (CHOOSE_SETUP, CHOOSE_TICKETS):
        raise IllegalActionError("no tickets are on offer: draw tickets first", "E-TICK-1")
    mask = 0
    for name in names:
        try:
            ticket = game._map.ticket(name).index
        except MapError as exc:
            raise InvalidActionError(str(exc)) from None
        if ticket not in game._offered:
            raise IllegalActionError(f"ticket {name} is not on offer", rule)
        bit = 1 << game._offered.index(ticket)
        if mask & bit:
            raise IllegalActionError(f"ticket {name} is named twice", rule)
        mask |= bit
    return mask
