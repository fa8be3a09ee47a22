"""A position estimate for `mcts` playouts cut short (`MctsBot.depth`): each seat's likely final score.

It works on a sampled `Game` directly (no views). For each seat it finds the cheapest paths that would
complete its unfinished tickets (own routes free, routes closed to it unusable) and adds to the points so
far 4 per unbuilt station, a share of the cards in hand, and each ticket's value weighted by how likely
its remaining path can be built before the game ends. Once the game is over it is the final score.
"""

from __future__ import annotations

import math

from ttr.bots.planning import map_index, shortest_path
from ttr.engine import Game, final_score

INF = math.inf
CARD_VALUE = 0.6  # points a card in hand is worth (a route earns 1-2.6 points per card)
TRAINS_PER_TURN = 2.0  # how fast the seats use their pieces, to guess the turns left


def route_costs(game: Game, seat: int) -> list[float]:
    """Per route: 0 if `seat` holds it, its length if `seat` may still claim it, else infinite."""
    owner = game.owner
    claimable = game.open_to(seat)
    length = map_index(game.map).length
    trains = game.trains[seat]
    out = []
    for r, o in enumerate(owner):
        if o == seat:
            out.append(0.0)
        elif not claimable[r] or length[r] > trains:
            out.append(INF)
        else:
            out.append(float(length[r]))
    return out


def ticket_paths(game: Game, seat: int) -> list[tuple[int, float, list[int]]]:
    """Per ticket of `seat`: (ticket, remaining path cost, routes still to claim)."""
    ix = map_index(game.map)
    costs = route_costs(game, seat)
    out = []
    for ticket in game.tickets[seat]:
        d, path = shortest_path(ix, costs, ix.ticket_a[ticket], ix.ticket_b[ticket])
        out.append((ticket, d, [r for r in path if costs[r] > 0]))
    return out


def turns_left(game: Game) -> float:
    """A guess at how many turns each seat still has."""
    if game.final_turns >= 0:
        return 1.0
    rest = min(game.trains) - game.map.rules.end_trigger_pieces
    return max(1.0, rest / TRAINS_PER_TURN)


def estimate(game: Game) -> list[float]:
    """Each seat's estimated final score (the real breakdown once the game is over)."""
    if game.is_over:
        return [float(p.total) for p in final_score(game).players]
    ix = map_index(game.map)
    turns = turns_left(game)
    station_points = game.map.rules.unbuilt_station_points
    out = []
    for seat in range(game.n):
        hand = sum(game.hands[seat])
        value = game.scores[seat] + station_points * game.stations_left[seat] + CARD_VALUE * hand
        todo: set[int] = set()
        # Cheapest tickets first; each adds its path to what is still to build, which must fit the
        # trains and (roughly) the turns left: a card per train, two cards a turn, a turn per claim.
        for ticket, d, path in sorted(ticket_paths(game, seat), key=lambda x: x[1]):
            points = ix.ticket_points[ticket]
            if d == 0:
                value += points
                continue
            todo.update(path)
            trains = sum(ix.length[r] for r in todo)
            if d == INF or trains > game.trains[seat]:
                value -= points
                continue
            needed = max(0.0, trains - 0.7 * hand) / 2.0 + len(todo)
            chance = 1.0 / (1.0 + math.exp(4.0 * (needed / turns - 1.0)))
            value += points * (2.0 * chance - 1.0)
        out.append(value)
    return out
