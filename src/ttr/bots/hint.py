"""Hints for a human seat: the move the strongest level would make, with a short reason in words.

`hint(view, legal)` asks the search of the `expert` level (`ttr.bots.mcts.MctsExpert`: the guide's move
against a few alternatives, played out on sampled hidden cards and tickets) for its move, with a budget of
playouts rather than time (`HINT_PLAYOUTS`, more on New York's shorter games), so the same position always
gets the same hint, on any machine and under any load (measured: at most about 0.5 s in two-player Europe,
1.4 s with five seats, under 1 s in New York). It then explains the move from the seat's own plan: the
routes that join its unfinished tickets by the cheapest paths (the greedy bot's path costs), or, for a
claim off that plan, the other seats' likely paths it lies on (the search's belief about their tickets).
The reason is a sentence for people, not a proof; it also comes as data (`explain_reason`: a key of
`REASONS` and its values) so that a page can translate it. `bot=` names another bot to ask instead (any
name `make_bot` takes).
"""

from __future__ import annotations

import threading
from typing import Any

from ttr.bots import make_bot
from ttr.bots.base import Bot
from ttr.bots.inference import TicketBelief
from ttr.bots.mcts import MctsBot, MctsExpert
from ttr.bots.params import PRESETS
from ttr.bots.planning import (
    Board,
    Plan,
    colour_needs,
    completed,
    map_index,
    network,
    plan_tickets,
    route_costs,
    shortest_path,
    station_completion,
)
from ttr.bots.profiles import profile
from ttr.engine import Action, SeatView
from ttr.maps import GameMap, load_map

LONG_ROUTE = 4  # the shortest route a hint calls long (4 spaces: 7 points)
BLOCK_MIN = 1.0  # trains a claim must add to another seat's likely paths (on average) for the hint to call it a block
HINT_PLAYOUTS = 32  # the search's playouts per hint (a reproducible budget; see the module docstring) ...

_MAPS: dict[str, GameMap] = {}


def _map_of(view: SeatView) -> GameMap:
    name = view.map
    game_map = _MAPS.get(name)
    if game_map is None:
        game_map = _MAPS[name] = load_map(name)
    return game_map


# Every reason a hint can give: its key (the page translates it from src/ttr/web/i18n/*.json, where each key
# has the same placeholders) and the English sentence. Placeholders: `route` (a route's record name),
# `routes` and `tickets` (lists of record names), `city`, `card` (a card name), `pieces` (the map's piece
# word, singular for one: train, trains, taxi, taxis), and numbers `n`, `length`, `points`.
REASONS: dict[str, str] = {
    "hint.keep_all": "Keep them all, {tickets}: {points} pts, about {n} {pieces} of routes join them.",
    "hint.keep_some": "Keep {tickets}: {points} pts for about {n} {pieces} of routes; the others would cost too much.",
    "hint.draw_tickets_done": "All your tickets are complete: draw new ones to score more.",
    "hint.draw_tickets_more": "Your tickets are nearly done and you have plenty left to build with: draw new tickets.",
    "hint.claim_completes": "Claim {route} ({length} {pieces}, +{points} pts): it completes {tickets}.",
    "hint.claim_for_ticket": "Claim {route} ({length} {pieces}, +{points} pts): it is on the way for {tickets}.",
    "hint.claim_last_turn": "Claim {route} ({length} {pieces}, +{points} pts): the most points you can take in your "
                            "last turn.",
    "hint.claim_long": "Claim {route} ({length} {pieces}, +{points} pts): points for a long route while you have "
                       "the cards.",
    "hint.claim_points": "Claim {route} ({length} {pieces}, +{points} pts): points while you have the cards.",
    "hint.claim_block": "Claim {route} ({length} {pieces}, +{points} pts): another player's tickets likely need it.",
    "hint.station_completes": "A station in {city} borrows a route of another player to complete {tickets}.",
    "hint.station": "A station in {city} keeps your tickets within reach.",
    "hint.take_wild": "Take the face-up {card}: it stands in for any colour your routes need.",
    "hint.take_needed": "Take the face-up {card}: you need {n} more for {routes}.",
    "hint.take_for_ticket": "Take the face-up {card}: for {tickets} you need {n} more for {routes}.",
    "hint.take_colour": "Take the face-up {card}: it is the colour you can use most.",
    "hint.deck_for_wild": "Draw from the deck: a blind card may be a {card}, and you can still take a face-up card.",
    "hint.deck": "Draw from the deck: no face-up card is a colour your routes need.",
    "hint.pay_tunnel": "Pay the {n} extra card(s): {route} is worth it.",
    "hint.abandon_tunnel": "Abandon {route}: the extra cards cost more than it is worth (you keep your cards).",
    "hint.pass": "No other action is possible: pass.",
}
LIST_PARAMS = ("tickets", "routes")  # placeholders that hold a list of names


def hint(view: SeatView, legal: list[Action], game_map: GameMap | None = None, bot: str | None = None,
         seed: int = 0) -> tuple[Action, str]:
    """The action the hint's search (or the bot named `bot`) would play for the seat of `view` (a `SeatView`)
    among `legal`, and why, in words."""
    action, text, _ = hint_explained(view, legal, game_map, bot, seed)
    return action, text


def hint_explained(view: SeatView, legal: list[Action], game_map: GameMap | None = None,
                   bot: str | None = None, seed: int = 0) -> tuple[Action, str, dict[str, Any]]:
    """As `hint`, with the reason also as data to translate: `{"key": "hint.claim_completes", "route": ...}`."""
    game_map = game_map or _map_of(view)
    seat = view.seat
    if seat is None:
        raise ValueError("a hint is for a seat: a spectator's view has none")
    seats = len(view.players)
    player = hint_bot(game_map, seat, seed, seats) if bot is None else make_bot(bot, game_map, seat, seed)
    try:
        action = player.choose(view, legal)
    finally:
        close = getattr(player, "close", None)  # a `cmd:` bot's program: one question, then it is closed
        if callable(close):
            close()
    reason = explain_reason(game_map, view, action)
    return action, reason_text(reason), reason


def hint_bot(game_map: GameMap, seat: int, seed: int = 0, seats: int = 2) -> Bot:
    """The bot that gives the hints in a game of `seats` seats: the `expert` level's search with the profile's
    `hint_playouts` playouts (`ttr.bots.profiles`: `HINT_PLAYOUTS`, 160 in New York, whose playouts are about
    6 times shorter) and no time limit."""
    return MctsExpert(game_map, seat, seed, iterations=profile(game_map, seats).search.hint_playouts)


def explain(game_map: GameMap, view: SeatView, action: Action) -> str:
    """A short reason for `action` in the position of `view`, from the seat's ticket plan, in English."""
    return reason_text(explain_reason(game_map, view, action))


def reason_text(reason: dict[str, Any]) -> str:
    """The English sentence of a reason from `explain_reason` (lists read "A, B and C")."""
    params = {k: _names([str(x) for x in v]) if k in LIST_PARAMS else str(v) for k, v in reason.items() if k != "key"}
    return REASONS[reason["key"]].format(**params)


def explain_reason(game_map: GameMap, view: SeatView, action: Action) -> dict[str, Any]:
    """Why `action`, as data: `key` (one of `REASONS`) and the values of its placeholders."""
    ix = map_index(game_map)
    board = Board.from_view(ix, view)
    todo = [t for t, ok in zip(board.tickets, completed(board, board.tickets), strict=True) if not ok]
    plan = _plan(board, todo)
    kind = action.kind
    if kind == "keep_tickets":
        return _keep_reason(board, action)
    if kind == "draw_tickets":
        if not todo:
            return {"key": "hint.draw_tickets_done"}
        return {"key": "hint.draw_tickets_more"}
    if kind == "claim_route":
        return _claim_reason(view, board, plan, todo, action)
    if kind == "build_station":
        city = action.city or ""
        _, before = station_completion(board, board.tickets)
        _, after = station_completion(board, board.tickets, game_map.city_index[city])
        gained = [ix.ticket_name(t) for t, a, b in zip(board.tickets, before, after, strict=True) if b and not a]
        if gained:
            return {"key": "hint.station_completes", "city": city, "tickets": gained}
        return {"key": "hint.station", "city": city}
    if kind == "draw_card":
        return _draw_reason(board, plan, action)
    route = ix.route_name(board.tunnel_route) if board.tunnel_route >= 0 else ""
    if kind == "pay_tunnel":
        return {"key": "hint.pay_tunnel", "n": board.tunnel_extra, "route": route}
    if kind == "abandon_tunnel":
        return {"key": "hint.abandon_tunnel", "route": route}
    return {"key": "hint.pass"}


def _greedy_costs(board: Board) -> list[float]:
    """Route costs as greedy prices them with its preset's parameters (`ttr.bots.params.PRESETS`)."""
    params = PRESETS["greedy"]
    return route_costs(board, params.overhead, params.tunnel_penalty, params.ferry_penalty)


def _plan(board: Board, tickets: list[int]) -> Plan:
    costs = _greedy_costs(board)
    return plan_tickets(board, tickets, costs) if tickets else Plan()


def _names(names: list[str]) -> str:
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pieces(game_map: GameMap, n: int) -> str:
    """The map's word for its pieces ("trains", "taxis"), singular for one."""
    word = game_map.rules.piece_name
    return word[:-1] if n == 1 and word.endswith("s") else word


def _keep_reason(board: Board, action: Action) -> dict[str, Any]:
    ix = board.ix
    kept = [ix.game_map.ticket_index[t] for t in action.tickets]
    points = sum(ix.ticket_points[t] for t in kept)
    plan = _plan(board, kept + [t for t in board.tickets if t not in kept])
    offered = len(board.offered) or len(kept)
    key = "hint.keep_all" if len(kept) == offered else "hint.keep_some"
    return {"key": key, "tickets": [ix.ticket_name(t) for t in kept], "points": points, "n": plan.trains,
            "pieces": _pieces(ix.game_map, plan.trains)}


def _claim_reason(view: SeatView, board: Board, plan: Plan, todo: list[int], action: Action) -> dict[str, Any]:
    ix = board.ix
    r = ix.game_map.route_index[action.route or ""]
    head = {"route": ix.route_name(r), "length": ix.length[r], "pieces": _pieces(ix.game_map, ix.length[r]),
            "points": ix.points[r]}
    uf = network(board, extra=(r,))
    done = [ix.ticket_name(t) for t, ok in zip(todo, completed(board, todo, uf), strict=True) if ok]
    if done:
        return {"key": "hint.claim_completes", **head, "tickets": done}
    if ix.link[r] in {ix.link[x] for x in plan.routes}:
        tickets = [ix.ticket_name(t) for t in _served(board, plan, [r])[:2]]
        return {"key": "hint.claim_for_ticket", **head, "tickets": tickets}
    if board.final_round:
        return {"key": "hint.claim_last_turn", **head}
    if _others_need(view, board, r):
        return {"key": "hint.claim_block", **head}
    return {"key": "hint.claim_long" if ix.length[r] >= LONG_ROUTE else "hint.claim_points", **head}


def _served(board: Board, plan: Plan, routes: list[int]) -> list[int]:
    """The plan's tickets whose cheapest path uses one of `routes` (or its twin); all of them if none does."""
    ix = board.ix
    costs = _greedy_costs(board)
    links = {ix.link[r] for r in routes}
    served = [t for t in plan.tickets
              if links & {ix.link[x] for x in shortest_path(ix, costs, ix.ticket_a[t], ix.ticket_b[t])[1]}]
    return served or list(plan.tickets)


def _others_need(view: SeatView, board: Board, r: int) -> bool:
    """Whether claiming route r would lengthen the likely paths of another seat's tickets by `BLOCK_MIN`
    trains or more, by the search's belief about those tickets (`MctsBot.belief_of`: the tickets their
    claims and face-up picks point to; `TicketBelief.block_damage`)."""
    belief = _belief(view, board)
    mine = set(board.tickets)
    return any(belief.block_damage(q, [r], mine).get(r, 0.0) >= BLOCK_MIN for q in range(board.n) if q != board.seat)


_BELIEF_BOTS: dict[tuple[int, int, int], tuple[MctsBot, tuple[Any, ...]]] = {}  # (map id, seat, seats) -> the
# search reading the claims for the belief, and the log it has read (its claim replay reads only new entries)
_BELIEF_BOTS_KEPT = 32  # games' worth kept (the oldest dropped first)
_BELIEF_LOCK = threading.Lock()


def _belief(view: SeatView, board: Board) -> TicketBelief:
    """The search's belief about the other seats' tickets in the position of `view` (`MctsBot.belief_of`).
    The search that read an earlier position of the same game goes on from there: asking about every claim
    of a position, or about each position of a game in turn, replays each claim once."""
    game_map = board.ix.game_map
    key = (id(game_map), board.seat, board.n)
    log = view.log
    with _BELIEF_LOCK:
        kept = _BELIEF_BOTS.pop(key, None)
        if kept is None or kept[0].game_map is not game_map or len(kept[1]) > len(log) or log[:len(kept[1])] != kept[1]:
            kept = (MctsBot(game_map, board.seat, 0, iterations=1), ())
        bot = kept[0]
        belief = bot.belief_of(view, board)
        _BELIEF_BOTS[key] = (bot, log)
        while len(_BELIEF_BOTS) > _BELIEF_BOTS_KEPT:
            del _BELIEF_BOTS[next(iter(_BELIEF_BOTS))]
    return belief


def _draw_reason(board: Board, plan: Plan, action: Action) -> dict[str, Any]:
    ix = board.ix
    names = ix.game_map.card_names
    need, chosen = colour_needs(ix, plan.routes, board.hand)
    if action.source == "face_up":
        card = ix.game_map.card_index[action.card or ""]
        if card == ix.wild:
            return {"key": "hint.take_wild", "card": names[card]}
        short = need[card] - board.hand[card]
        using = [r for r in plan.routes if ix.colour[r] == card or chosen.get(r) == card][:2]
        uses = [ix.route_name(r) for r in using]
        if short > 0 and uses:
            tickets = [ix.ticket_name(t) for t in _served(board, plan, using)[:2]]
            if tickets:  # the ticket it serves first: that is what the player chose
                return {"key": "hint.take_for_ticket", "card": names[card], "n": short, "routes": uses,
                        "tickets": tickets}
            return {"key": "hint.take_needed", "card": names[card], "n": short, "routes": uses}
        return {"key": "hint.take_colour", "card": names[card]}
    useful = [names[c] for c in board.face_up if 0 <= c < ix.ncol and need[c] > board.hand[c]]
    if useful:
        return {"key": "hint.deck_for_wild", "card": names[ix.wild]}
    return {"key": "hint.deck"}


__all__ = ["HINT_PLAYOUTS", "LIST_PARAMS", "LONG_ROUTE", "REASONS", "explain", "explain_reason",
           "hint", "hint_bot", "hint_explained", "reason_text"]
