"""Why an action id is illegal now: the rule it breaks and what is wrong, in words for people.

`why_illegal(game, aid)` checks one id against the state without listing the legal actions (`Game.apply_id`
and `Game.why_illegal` call it); the rule IDs are Europe's, restated as New York's on that map
(`new_york_rule`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr.engine import actions as A
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, OVER, SECOND_CARD, TUNNEL

if TYPE_CHECKING:
    from ttr.engine.game import Game


def why_illegal(game: Game, aid: int) -> tuple[str, str] | None:
    """None if `aid` is legal now, else (rule ID, what is wrong), the ID in the map's rulebook part."""
    why = _why_illegal(game, aid)
    if why is None or game._map.rule_ids != "N":
        return why
    return (new_york_rule(why[0]), why[1])


def _why_illegal(game: Game, aid: int) -> tuple[str, str] | None:
    """`why_illegal` with Europe's rule IDs, phase by phase."""
    cat = game._cat
    if not 0 <= aid < len(cat):
        return ("", f"no action has id {aid}")
    phase = game._phase
    kind = cat.kind[aid]
    p = game._current
    hand = game._hands[p]
    wild = game._wild
    names = game._map.card_names
    if phase == OVER:
        return ("E-END-1", "the game is over")
    if phase in (CHOOSE_SETUP, CHOOSE_TICKETS):
        rule = "E-SETUP-5" if phase == CHOOSE_SETUP else "E-TICK-1"
        if kind != A.KEEP_TICKETS:
            return (rule, "choose which of the offered tickets to keep first")
        mask = cat.a[aid]
        if mask >> len(game._offered):
            return (rule, f"only {len(game._offered)} tickets are on offer")
        need = game.keep_min()
        if mask.bit_count() < need:
            return (rule, f"keep at least {need} of the {len(game._offered)} tickets offered")
        return None
    if phase == TUNNEL:
        if kind == A.ABANDON_TUNNEL:
            return None
        if kind != A.PAY_TUNNEL:
            return ("E-TUN-4", "a tunnel's extra cards are due: pay them or abandon the tunnel")
        x, w = cat.a[aid], cat.c[aid]
        if x != game._t_extra:
            return ("E-TUN-2", f"the tunnel needs {game._t_extra} extra card(s), not {x}")
        if game._t_color == wild and w != x:
            wilds = f"{names[wild]}s"
            return ("E-TUN-3", f"the route was paid with {wilds} only: the extra cards must be {wilds}")
        colour_need = x - w
        if hand[wild] < w or (colour_need and hand[game._t_color] < colour_need):
            return ("E-TUN-4", f"you do not hold the extra cards ({_cards_text(game, game._t_color, x - w, w)})")
        return None
    if phase == SECOND_CARD:
        if kind == A.DRAW_DECK:
            return None if game.can_draw_blind() else ("E-DRAW-8", "the deck and the discard pile are empty")
        if kind != A.DRAW_FACE_UP:
            return ("E-DRAW-1", "draw your second card (from the face-up row or the deck)")
        card = cat.b[aid]
        if card == wild:
            return ("E-DRAW-4", f"a face-up {names[wild]} cannot be the second card")
        if card not in game._face_up:
            return ("E-DRAW-1", f"no {names[card]} card is face up")
        return None
    # MAIN
    if kind == A.DRAW_DECK:
        return None if game.can_draw_blind() else ("E-DRAW-8", "the deck and the discard pile are empty")
    if kind == A.DRAW_FACE_UP:
        card = cat.b[aid]
        return None if card in game._face_up else ("E-DRAW-1", f"no {names[card]} card is face up")
    if kind == A.DRAW_TICKETS:
        return None if game._ticket_deck else ("E-TICK-1", "the ticket deck is empty")
    if kind == A.CLAIM:
        return _why_claim_illegal(game, aid)
    if kind == A.BUILD_STATION:
        return _why_station_illegal(game, aid)
    if kind == A.PASS:
        others = game.legal_ids()
        return None if others == [cat.pass_] else ("E-DRAW-8", "you may pass only when no other action is legal")
    if kind == A.KEEP_TICKETS:
        return ("E-TICK-1", "no tickets are on offer: draw tickets first")
    return ("E-TUN-2", "no tunnel payment is due")


def _cards_text(game: Game, colour: int, colour_count: int, wilds: int) -> str:
    """A card set in words: "3 red + 1 locomotive"."""
    names = game._map.card_names
    parts = []
    if colour_count:
        parts.append(f"{colour_count} {names[colour]}")
    if wilds:
        parts.append(f"{wilds} {names[game._wild]}")
    return " + ".join(parts) or "no cards"


def _why_claim_illegal(game: Game, aid: int) -> tuple[str, str] | None:
    """Why a claim id cannot be played now: the route taken, its twin, the trains, a ferry, the cards."""
    cat = game._cat
    r, colour, w = cat.a[aid], cat.b[aid], cat.c[aid]
    p = game._current
    route = game._map.routes[r]
    owner = game._owner[r]
    if owner >= 0:
        return ("E-CLAIM-1", f"{route.name} is already claimed by {game._players[owner]}")
    twin = route.twin
    if twin >= 0 and game._owner[twin] >= 0:
        if game._owner[twin] == p:
            rule = "N-DOUBLE-1" if game._map.rule_ids == "N" else "E-DOUBLE-1"
            return (rule, f"you hold the other track of {route.name}; one player may not claim both")
        if game._small_game:
            rule = "N-DOUBLE-1" if game._map.rule_ids == "N" else "E-DOUBLE-2"
            return (rule, f"the other track of {route.name} is taken; with {game._n} players only one track "
                    "of a double route is used")
    if route.length > game._trains[p]:
        return ("E-CLAIM-4", f"{route.name} needs {route.length} {game._map.rules.piece_name}, you have "
                f"{game._trains[p]}")
    if w < route.ferry_locomotives:
        return ("E-FERRY-1", f"the ferry {route.name} needs at least {route.ferry_locomotives} "
                f"{game._map.wild_name}(s)")
    hand = game._hands[p]
    colour_need = route.length - w
    if hand[game._wild] < w or (colour_need and hand[colour] < colour_need):
        return ("E-CLAIM-1", f"you do not hold the cards ({_cards_text(game, colour, colour_need, w)})")
    return None


def _why_station_illegal(game: Game, aid: int) -> tuple[str, str] | None:
    """Why a station id cannot be played now: none left, the city taken, its cost, the cards."""
    cat = game._cat
    city, colour, w, cost = cat.a[aid], cat.b[aid], cat.c[aid], cat.d[aid]
    p = game._current
    rules = game._map.rules
    name = game._map.cities[city].name
    if not game._stations_left[p]:
        return ("E-STAT-2", f"you have built all {rules.stations} stations")
    if game._station_owner[city] >= 0:
        return ("E-STAT-1", f"{name} already has a station ({game._players[game._station_owner[city]]})")
    built = rules.stations - game._stations_left[p]
    if cat.station_base[city][built] > aid or (built + 1 < len(rules.station_costs)
                                                and cat.station_base[city][built + 1] <= aid):
        need = rules.station_costs[built]
        return ("E-STAT-3", f"your station number {built + 1} costs {need} card(s), not {cost}")
    hand = game._hands[p]
    colour_need = cost - w
    if hand[game._wild] < w or (colour_need and hand[colour] < colour_need):
        return ("E-STAT-3", f"you do not hold the cards ({_cards_text(game, colour, colour_need, w)})")
    return None


_NEW_YORK_RULES = {"SETUP-5": "N-SETUP-2", "DRAW": "N-DRAW-1", "CLAIM": "N-CLAIM-1", "DOUBLE": "N-DOUBLE-1",
                   "TICK": "N-TICK-1", "END": "N-END-1"}


def new_york_rule(rule: str) -> str:
    """The New York rule (N-DRAW-1, ...) that restates a Europe rule ID, or the ID unchanged."""
    if not rule.startswith("E-"):
        return rule
    body = rule[2:]
    for prefix, target in _NEW_YORK_RULES.items():
        if body == prefix or (body.startswith(prefix + "-") and "-" not in prefix):
            return target
    return rule
