"""A whole game reviewed for one seat: every decision it made rated, the costliest, its standing move by move,
and a summary of how its game ended (the `ttr-review/1` document of docs/review.md).

The work comes in three steps, so that a server can spread it over workers and report progress:
`decisions(record, seat)` replays the record and gives, for each decision of the seat (a position with more
than one legal action), what a live bot would have been given then: the seat's `SeatView` and the legal
actions, with the move it played; `rate_decision` rates one of them (plain data in and out, for a worker
process); `assemble` puts the ratings and the record's summary together. `review_record` does all three.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ttr.bots.base import legal_actions
from ttr.bots.hint import explain_reason, reason_text
from ttr.engine import Action, Game, SeatView, final_score
from ttr.errors import RecordError
from ttr.maps import GameMap, load_map
from ttr.records import Record
from ttr.review.search import Rating, ReviewSearch

REVIEW_FORMAT = "ttr-review/1"
REVIEW_PLAYOUTS = 96  # playouts per decision (a budget counted in playouts: the same review on every machine) ...
REVIEW_PLAYOUTS_BY_MAP = {"new_york": 320}  # ... or on these maps, whose playouts are about 6 times shorter
COSTLIEST = 5  # decisions listed as the costliest
DIGITS = 2  # decimals of the figures in the document


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of the reviewed seat: the record's action index, the seat's view and legal actions then,
    and the move it played."""

    index: int
    view: SeatView
    legal: list[Action]
    played: Action


def default_playouts(game_map: GameMap) -> int:
    """The review's playouts per decision on this map (`REVIEW_PLAYOUTS_BY_MAP`, else `REVIEW_PLAYOUTS`)."""
    return REVIEW_PLAYOUTS_BY_MAP.get(game_map.name, REVIEW_PLAYOUTS)


def decision_seed(game_seed: int, index: int) -> int:
    """The search's seed for the decision at action `index` of a game of seed `game_seed` (the seed the
    server's bot of that seat is given at that version)."""
    return (game_seed * 1_000_003 + index) % 2**63


def decisions(record: Record, seat: int) -> tuple[list[Decision], Game]:
    """The decisions of `seat` in `record` (positions with more than one legal action) and the finished game;
    `RecordError` when the seat is not in the game or the record does not replay to its end."""
    if not 0 <= seat < len(record.players):
        raise RecordError(f"seat: expected a seat number 0-{len(record.players) - 1}, got {seat}")
    game = record.new_game()
    out = []
    for index, (who, action, _raw) in enumerate(record.actions):
        if game.is_over or who != game.current:
            raise RecordError(f"actions[{index}]: not the move of the seat to play; replay the record for why")
        ids, legal = legal_actions(game)
        if action not in legal:
            raise RecordError(f"actions[{index}]: {action} is not legal here; replay the record for why")
        if who == seat and len(legal) > 1:
            out.append(Decision(index, SeatView.of(game, seat), legal, action))
        game.apply_id(ids[legal.index(action)])
    if not game.is_over:
        raise RecordError("the record ends before the game does: only finished games are reviewed")
    return out, game


def rate_decision(map_name: str, seat: int, seed: int, playouts: int, view: SeatView, legal: list[Action],
                  played: Action) -> dict[str, Any]:
    """One decision rated, as the `decisions[]` entry of the review (without `index` and `move`)."""
    game_map = load_map(map_name)
    rating = ReviewSearch(game_map, seat, seed, playouts).rate(view, legal, played)
    return _decision_json(game_map, view, rating)


def _r(x: float) -> float:
    return round(x, DIGITS) + 0.0  # + 0.0: never "-0.0"


def _decision_json(game_map: GameMap, view: SeatView, rating: Rating) -> dict[str, Any]:
    lo, hi = rating.interval
    reason = explain_reason(game_map, view, rating.best)  # why the better move (the played one, when it was best)
    return {
        "phase": view.turn.phase if view.turn is not None else "game_over",
        "played": rating.played.to_json(), "played_text": str(rating.played),
        "best": rating.best.to_json(), "best_text": str(rating.best),
        "guide": rating.guide.to_json(),
        "loss": _r(rating.loss), "interval": [_r(lo), _r(hi)],
        "value": _r(rating.value), "win_chance": _r(rating.win_chance),
        "reason": reason, "reason_text": reason_text(reason),
        "playouts": rating.playouts,
        "candidates": [{"action": c.action.to_json(), "text": str(c.action), "mean": _r(c.mean), "error": _r(c.error),
                        "worlds": c.worlds} for c in rating.candidates],
    }


def summary(game: Game, seat: int, record: Record) -> dict[str, Any]:
    """How the seat's game ended, read from the finished game: score and rank, tickets kept that were never
    finished, cards held at the end, tunnels abandoned, pieces and stations unused."""
    fs = final_score(game)
    me = fs.players[seat]
    totals = sorted((p.total for p in fs.players), reverse=True)
    names = game.map.card_names
    hand = {names[c]: k for c, k in enumerate(game.hands[seat]) if k}
    tunnels = []
    replayed = record.new_game()
    for who, action, _raw in record.actions:
        if who == seat and action.kind == "abandon_tunnel":
            tunnels.append(game.map.routes[replayed.t_route].name)
        replayed.apply(action)
    return {
        "score": me.total, "rank": 1 + totals.index(me.total), "won": seat in fs.winner_seats,
        "winners": list(fs.winners),
        "tickets_completed": list(me.tickets_completed), "tickets_unfinished": list(me.tickets_failed),
        "ticket_points": me.ticket_points,
        "cards_held": hand, "cards_held_count": sum(hand.values()),
        "tunnels_abandoned": tunnels,
        "pieces_unused": game.trains[seat], "piece_name": game.map.rules.piece_name,
        "stations_unbuilt": me.stations_unbuilt,
    }


def assemble(record: Record, seat: int, playouts: int, made: list[Decision], ratings: list[dict[str, Any]],
             game: Game) -> dict[str, Any]:
    """The review document from the seat's decisions, their ratings (in the same order) and the finished game."""
    rows = [{"index": d.index, "move": d.index + 1, **r} for d, r in zip(made, ratings, strict=True)]
    costliest = sorted((r for r in rows if r["loss"] > 0), key=lambda r: (-r["loss"], r["index"]))[:COSTLIEST]
    return {
        "format": REVIEW_FORMAT,
        "map": record.map.origin or record.map.name,
        "players": list(record.players),
        "seat": seat,
        "seed": record.seed,
        "playouts": playouts,
        "actions": len(record.actions),
        "decisions": rows,
        "costliest": [r["index"] for r in costliest],
        "total_loss": _r(sum(r["loss"] for r in rows)),
        "standing": [{"index": r["index"], "value": r["value"], "win_chance": r["win_chance"]} for r in rows],
        "summary": summary(game, seat, record),
    }


def review_record(record: Record, seat: int, playouts: int | None = None,
                  progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The review of `seat`'s game in `record` (a finished game), `playouts` per decision (default: the map's,
    `default_playouts`); `progress(done, total)` is called after each decision."""
    made, game = decisions(record, seat)
    budget = playouts if playouts is not None else default_playouts(record.map)
    if budget < 1:
        raise RecordError(f"budget: expected at least 1 playout per decision, got {budget}")
    name = record.map.origin or record.map.name
    ratings = []
    for k, d in enumerate(made):
        ratings.append(rate_decision(name, seat, decision_seed(record.seed, d.index), budget, d.view, d.legal,
                                     d.played))
        if progress is not None:
            progress(k + 1, len(made))
    return assemble(record, seat, budget, made, ratings, game)
