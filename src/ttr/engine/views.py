"""What each seat may see: the one place that turns a game into JSON for anyone outside the engine.

`seat_view(game, seat)` for a player, `public_view(game)` for spectators, `full_state(game)` for
tools that read a whole record anyway (`ttr replay`). Views never hold the deck order, the
discard order or the RNG state; a seat view holds no other seat's hand or tickets.
"""

from __future__ import annotations

from typing import Any

from ttr.engine import actions as A
from ttr.engine.game import Game, final_score
from ttr.engine.phases import CHOOSE_SETUP, CHOOSE_TICKETS, OVER, TUNNEL

EVERYONE = -1
NOBODY = -2


def full_state(game: Game, error: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole state, as `ttr replay --json` prints it (spec/records.md)."""
    return _state(game, EVERYONE, error, with_log=False)


def seat_view(game: Game, seat: int) -> dict[str, Any]:
    """What `seat` may see: its own hand, tickets and offer; counts for everyone else; the public log."""
    if not 0 <= seat < game.n:
        raise ValueError(f"no seat {seat} in a {game.n}-player game")
    view = _state(game, seat, None, with_log=True)
    view["seat"] = seat
    return view


def public_view(game: Game) -> dict[str, Any]:
    """What a spectator may see: no hand, no ticket, no offer."""
    return _state(game, NOBODY, None, with_log=True)


def _visible(viewer: int, seat: int) -> bool:
    return viewer in (EVERYONE, seat)


def _state(game: Game, viewer: int, error: dict[str, Any] | None, with_log: bool) -> dict[str, Any]:
    m = game.map
    names = m.card_names
    over = game.phase == OVER
    turn: dict[str, Any] | None = None
    if not over:
        turn = {"player": game.current, "phase": game.phase_name}
        if game.phase == TUNNEL:
            turn["tunnel_reveal"] = [names[c] for c in game.t_revealed]
            if with_log:
                turn["tunnel_route"] = m.routes[game.t_route].name
                turn["tunnel_extra"] = game.t_extra
        if game.phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and _visible(viewer, game.current):
            turn["tickets_offered"] = [m.tickets[t].name for t in game.offered]
        elif game.phase in (CHOOSE_SETUP, CHOOSE_TICKETS) and with_log:
            turn["tickets_offered_count"] = len(game.offered)
    players = []
    routes_of: list[list[str]] = [[] for _ in range(game.n)]
    for r, owner in enumerate(game.owner):
        if owner >= 0:
            routes_of[owner].append(m.routes[r].name)
    stations_of: list[list[str]] = [[] for _ in range(game.n)]
    for city, owner in enumerate(game.station_owner):
        if owner >= 0:
            stations_of[owner].append(m.cities[city].name)
    for p in range(game.n):
        entry: dict[str, Any] = {
            "name": game.players[p], "score": game.scores[p], "trains": game.trains[p],
            "stations": game.stations_left[p],
        }
        hand = game.hands[p]
        if _visible(viewer, p):
            entry["hand"] = {names[c]: hand[c] for c in range(len(hand)) if hand[c]}
            entry["tickets"] = [m.tickets[t].name for t in game.tickets[p]]
        else:
            entry["hand_size"] = sum(hand)
            entry["ticket_count"] = len(game.tickets[p])
        entry["routes"] = routes_of[p]
        entry["station_cities"] = stations_of[p]
        players.append(entry)
    out: dict[str, Any] = {
        "status": "finished" if over else "in_progress",
        "error": error,
        "turn": turn,
        "face_up": [names[c] if c >= 0 else None for c in game.face_up],
        "deck_size": len(game.deck),
        "discard_size": len(game.discard),
        "ticket_deck_size": len(game.ticket_deck),
        "players": players,
        "final": final_score(game).to_json() if over else None,
    }
    if with_log:  # views carry more than the record format's state: the map, public discards, the log
        out["map"] = m.name
        out["final_turns"] = game.turns_left  # the final round's turns left, this one included (E-END-1)
        discard = [0] * len(names)
        for card in game.discard:
            discard[card] += 1
        out["discard_pile"] = {names[c]: n for c, n in enumerate(discard) if n}
        out["log"] = public_log(game, viewer)
    return out


def public_log(game: Game, viewer: int = NOBODY) -> list[dict[str, Any]]:
    """The actions so far, as `viewer` may see them: others' blind draws and ticket choices carry no names.

    Entries are worked out once per action and kept with the game (its history only grows); each call
    returns fresh dicts, so callers may change them.
    """
    cache: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = game.view_cache.setdefault("log", [])
    if len(cache) > len(game.history):  # a history rewound by hand: start again
        cache.clear()
    if len(cache) < len(game.history):
        _extend_log(game, cache)
    return [dict(own if own is not None and _visible(viewer, p) else public) for p, public, own in cache]


def _extend_log(game: Game, cache: list[tuple[int, dict[str, Any], dict[str, Any] | None]]) -> None:
    """Add the log entries of the actions not in `cache` yet: (seat, what all see, what the seat sees)."""
    m = game.map
    names = m.card_names
    cat = game.cat
    tunnel_colour: int = game.view_cache.get("tunnel_colour", -1)
    for p, aid, detail in game.history[len(cache):]:
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
    game.view_cache["tunnel_colour"] = tunnel_colour


def _pay_cards(game: Game, aid: int, colour: int) -> dict[str, int]:
    names = game.map.card_names
    x, w = game.cat.a[aid], game.cat.c[aid]
    cards: dict[str, int] = {}
    if x - w:
        cards[names[colour]] = x - w
    if w:
        cards[names[game.wild]] = w
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
