"""Hints for a human seat: the move a strong bot would make, with a short reason in words.

`hint(view, legal)` asks the strongest bot that answers at once (`HINT_BOT`, greedy for now) for its
move, then explains it from the seat's own plan: the routes that join its unfinished tickets by the
cheapest paths (the greedy bot's path costs). The reason is a sentence for people, not a proof.
"""

from __future__ import annotations

from typing import Any

from ttr.bots import make_bot
from ttr.bots.greedy import GreedyBot
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
from ttr.engine import Action
from ttr.maps import GameMap, load_map

HINT_BOT = "greedy"

_MAPS: dict[str, GameMap] = {}


def _map_of(view: dict[str, Any]) -> GameMap:
    name = view["map"]
    game_map = _MAPS.get(name)
    if game_map is None:
        game_map = _MAPS[name] = load_map(name)
    return game_map


def hint(view: dict[str, Any], legal: list[Action], game_map: GameMap | None = None, bot: str = HINT_BOT,
         seed: int = 0) -> tuple[Action, str]:
    """The action `bot` would play for the seat of `view` (a `seat_view`) among `legal`, and why, in words."""
    game_map = game_map or _map_of(view)
    player = make_bot(bot, game_map, int(view["seat"]), seed)
    action = player.choose(view, legal)
    return action, explain(game_map, view, action)


def explain(game_map: GameMap, view: dict[str, Any], action: Action) -> str:
    """A short reason for `action` in the position of `view`, from the seat's ticket plan."""
    ix = map_index(game_map)
    board = Board.from_view(ix, view)
    todo = [t for t, ok in zip(board.tickets, completed(board, board.tickets), strict=True) if not ok]
    plan = _plan(board, todo)
    kind = action.kind
    if kind == "keep_tickets":
        return _keep_reason(board, action)
    if kind == "draw_tickets":
        if not todo:
            return "All your tickets are complete: draw new ones to score more."
        return "Your tickets are nearly done and there are trains to spare: draw new tickets."
    if kind == "claim_route":
        return _claim_reason(board, plan, todo, action)
    if kind == "build_station":
        city = action.city or ""
        _, before = station_completion(board, board.tickets)
        _, after = station_completion(board, board.tickets, game_map.city_index[city])
        gained = [ix.ticket_name(t) for t, a, b in zip(board.tickets, before, after, strict=True) if b and not a]
        if gained:
            return f"A station in {city} borrows a route of another player to complete {_names(gained)}."
        return f"A station in {city} keeps your tickets within reach."
    if kind == "draw_card":
        return _draw_reason(board, plan, action)
    if kind == "pay_tunnel":
        route = ix.route_name(board.tunnel_route) if board.tunnel_route >= 0 else "the tunnel"
        return f"Pay the {board.tunnel_extra} extra card(s): {route} is worth it."
    if kind == "abandon_tunnel":
        route = ix.route_name(board.tunnel_route) if board.tunnel_route >= 0 else "the tunnel"
        return f"Abandon {route}: the extra cards cost more than it is worth (you keep your cards)."
    return "No other action is possible: pass."


def _plan(board: Board, tickets: list[int]) -> Plan:
    costs = route_costs(board, GreedyBot.overhead, GreedyBot.tunnel_penalty, GreedyBot.ferry_penalty)
    return plan_tickets(board, tickets, costs) if tickets else Plan()


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _keep_reason(board: Board, action: Action) -> str:
    ix = board.ix
    kept = [ix.game_map.ticket_index[t] for t in action.tickets]
    points = sum(ix.ticket_points[t] for t in kept)
    plan = _plan(board, kept + [t for t in board.tickets if t not in kept])
    names = _names([f"{ix.ticket_name(t)} ({ix.ticket_points[t]})" for t in kept])
    offered = len(board.offered) or len(kept)
    if len(kept) == offered:
        return f"Keep them all, {names}: {points} points, about {plan.trains} trains of routes join them."
    return (f"Keep {names}: {points} points for about {plan.trains} trains of routes; "
            "the others would cost too many trains.")


def _claim_reason(board: Board, plan: Plan, todo: list[int], action: Action) -> str:
    ix = board.ix
    r = ix.game_map.route_index[action.route or ""]
    length, points = ix.length[r], ix.points[r]
    pieces = ix.game_map.rules.piece_name
    pieces = pieces[:-1] if length == 1 and pieces.endswith("s") else pieces
    head = f"Claim {ix.route_name(r)} ({length} {pieces}, +{points} point{'s' if points != 1 else ''})"
    uf = network(board, extra=(r,))
    done = [ix.ticket_name(t) for t, ok in zip(todo, completed(board, todo, uf), strict=True) if ok]
    if done:
        return f"{head}: it completes {_names(done)}."
    if ix.link[r] in {ix.link[x] for x in plan.routes}:
        costs = route_costs(board, GreedyBot.overhead, GreedyBot.tunnel_penalty, GreedyBot.ferry_penalty)
        served = [t for t in plan.tickets
                  if ix.link[r] in {ix.link[x] for x in shortest_path(ix, costs, ix.ticket_a[t], ix.ticket_b[t])[1]}]
        return f"{head}: it is on the way for {_names([ix.ticket_name(t) for t in (served or plan.tickets)[:2]])}."
    if board.final_round:
        return f"{head}: the most points you can take in your last turn."
    return f"{head}: points for a long route while you have the cards."


def _draw_reason(board: Board, plan: Plan, action: Action) -> str:
    ix = board.ix
    names = ix.game_map.card_names
    need, chosen = colour_needs(ix, plan.routes, board.hand)
    if action.source == "face_up":
        card = ix.game_map.card_index[action.card or ""]
        if card == ix.wild:
            return f"Take the face-up {names[card]}: it stands in for any colour your routes need."
        short = need[card] - board.hand[card]
        uses = [ix.route_name(r) for r in plan.routes if ix.colour[r] == card or chosen.get(r) == card][:2]
        if short > 0 and uses:
            return f"Take the face-up {names[card]}: you need {short} more for {_names(uses)}."
        return f"Take the face-up {names[card]}: it is the colour you can use most."
    useful = [names[c] for c in board.face_up if 0 <= c < ix.ncol and need[c] > board.hand[c]]
    if useful:
        return "Draw from the deck: a blind card may be a locomotive, and you can still take a face-up card."
    return "Draw from the deck: no face-up card is a colour your routes need."


__all__ = ["HINT_BOT", "explain", "hint"]
