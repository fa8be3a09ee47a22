"""Which tickets a seat's routes (and stations) join: union-find over its network."""

from __future__ import annotations

import itertools

from ttr.bots.planning.board import Board
from ttr.bots.planning.index import INF
from ttr.engine.scoring import UnionFind


def network(board: Board, seat: int | None = None, extra: tuple[int, ...] = ()) -> UnionFind:
    """The cities joined by `seat`'s own routes (default: this seat), plus the routes in `extra`."""
    ix = board.ix
    who = board.seat if seat is None else seat
    uf = UnionFind(ix.ncity)
    for r, o in enumerate(board.owner):
        if o == who:
            uf.union(ix.route_a[r], ix.route_b[r])
    for r in extra:
        uf.union(ix.route_a[r], ix.route_b[r])
    return uf


def completed(board: Board, tickets: list[int], uf: UnionFind | None = None) -> list[bool]:
    """Per ticket: are its cities joined by the seat's own routes (stations not counted)?"""
    ix = board.ix
    uf = uf or network(board)
    return [uf.find(ix.ticket_a[t]) == uf.find(ix.ticket_b[t]) for t in tickets]


def borrowable(board: Board, city: int) -> list[int]:
    """Other seats' routes a station of this seat in `city` could borrow (E-STAT-5)."""
    seat = board.seat
    return [r for r, _ in board.ix.adj[city] if board.owner[r] >= 0 and board.owner[r] != seat]


def station_completion(board: Board, tickets: list[int], extra_city: int = -1) -> tuple[int, list[bool]]:
    """The best ticket result with the seat's stations (plus one more in `extra_city`, if given).

    Returns (ticket points: completed minus failed, completion per ticket), trying every choice of
    borrowed route per station as final scoring does (E-STAT-5).
    """
    ix = board.ix
    cities = [c for c, o in enumerate(board.station_at) if o == board.seat]
    if extra_city >= 0:
        cities.append(extra_city)
    base = network(board)
    choices = [[-1, *borrowable(board, c)] for c in cities]
    best_points = -INF
    best: list[bool] = []
    for combo in itertools.product(*choices):
        uf = base.copy()
        for r in combo:
            if r >= 0:
                uf.union(ix.route_a[r], ix.route_b[r])
        done = completed(board, tickets, uf)
        points = sum(ix.ticket_points[t] if ok else -ix.ticket_points[t] for t, ok in zip(tickets, done, strict=True))
        if points > best_points:
            best_points, best = float(points), done
    return int(best_points), best
