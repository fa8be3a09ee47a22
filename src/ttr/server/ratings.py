"""Ratings: every finished game between accounts, with a seed the server chose and no bot seat, is rated
with openskill's Weng-Lin PlackettLuce model, per map and table size; the leaderboards; the bots' reference
ratings (`data/bot_ratings.json`, fitted by `scripts/calibrate_bot_ratings.py`), so a rating reads as
"about as strong as hard".

A rating is shown as openskill's ordinal, mu - 3 sigma (a new player: 25 - 3 x 8.33 = 0). Placement: the
winners (the tie-breaks included) share first place; the others are placed by total score, equal totals
sharing a place. Every account seat of a finished game also gets a result row (rated or not), which the
profiles read.

A seat its person abandoned, that is, one whose last `IN_A_ROW` moves or more a bot made (after three
timeouts a bot plays the seat for the rest of the game; the stand-in plays for a person who left and did
not come back), is rated last, below every seat played to the end, whatever its score: leaving a game one
is losing, or letting its clock run out, costs what losing it would, and the others keep the rating they
played for (as Board Game Arena ranks a player who quits or runs out of time last). The game's own places
are kept in the result rows.
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from openskill.models import PlackettLuce

from ttr.engine import FinalScore, final_score
from ttr.maps import BUILTIN_MAPS, load_map
from ttr.server.clocks import IN_A_ROW
from ttr.server.config import ApiError
from ttr.server.online import Online
from ttr.server.room import Room

BOT_RATINGS = Path(__file__).resolve().parent / "data" / "bot_ratings.json"
MODEL = PlackettLuce()


def placements(fs: FinalScore) -> list[int]:
    """Each seat's place (1 = first): the winners share 1, the others by total, equal totals sharing."""
    winners = set(fs.winner_seats)
    others = sorted({p.total for s, p in enumerate(fs.players) if s not in winners}, reverse=True)
    first = 1 if winners else 0
    return [1 if s in winners else first + 1 + others.index(p.total) for s, p in enumerate(fs.players)]


def rating_ranks(places: list[int], abandoned: set[int]) -> list[int]:
    """Each seat's rank for the ratings: its place, but the abandoned seats share the place after all others."""
    last = max((p for s, p in enumerate(places) if s not in abandoned), default=0) + 1
    return [last if s in abandoned else p for s, p in enumerate(places)]


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating: mu - 3 sigma, rounded to a tenth."""
    return round(mu - 3 * sigma, 1)


@cache
def bot_ratings() -> dict[str, Any]:
    """The bots' reference ratings as the calibration wrote them."""
    data: dict[str, Any] = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    return data


def bot_table(map_name: str, seats: int) -> dict[str, dict[str, float]]:
    """{level: {mu, sigma}} for a map and table size (empty when the calibration did not cover it)."""
    table: dict[str, dict[str, float]] = bot_ratings()["ratings"].get(map_name, {}).get(str(seats), {})
    return table


def like_level(map_name: str, seats: int, mu: float) -> str | None:
    """The bot level whose reference mu is nearest `mu` (None without a calibration)."""
    table = bot_table(map_name, seats)
    if not table:
        return None
    return min(table, key=lambda lv: abs(table[lv]["mu"] - mu))


def rated_game_reason(room: Room, owners: dict[int, Any]) -> str | None:
    """Why a finished game is not rated (None: it is): a seed the creator chose, a bot seat, a seat without
    an account, or one account in two seats."""
    info = room.info
    if info.extra.get("seed_chosen"):
        return "the creator chose the seed"
    if any(s.type != "human" for s in info.seats):
        return "a bot plays a seat"
    if len(owners) != len(info.seats):
        return "a seat has no account"
    if len({a.id for a in owners.values()}) != len(owners):
        return "one account holds two seats"
    return None


async def game_finished(online: Online, room: Room) -> None:
    """A game just finished: store each account seat's result, and rate the game when it counts."""
    store = online.store
    info = room.info
    owners = await online.db(store.game_accounts, info.id)
    if not owners:
        return
    fs = final_score(room.game)
    places = placements(fs)
    seats = len(info.seats)
    rated = rated_game_reason(room, owners) is None
    before: dict[int, tuple[float, float]] = {}
    after: dict[int, tuple[float, float]] = {}
    runs = await online.clocks.bot_runs(info.id) if online.clocks is not None else None
    abandoned = {s for s, k in enumerate(runs or []) if k >= IN_A_ROW and info.seats[s].type == "human"}
    ranks = rating_ranks(places, abandoned)
    if rated:
        for seat, account in owners.items():
            found = await online.db(store.rating, account.id, info.map, seats)
            before[seat] = (found[0], found[1]) if found else (MODEL.mu, MODEL.sigma)
        order = sorted(owners)
        teams = [[MODEL.rating(mu=before[s][0], sigma=before[s][1])] for s in order]
        new = MODEL.rate(teams, ranks=[ranks[s] for s in order])
        after = {s: (team[0].mu, team[0].sigma) for s, team in zip(order, new, strict=True)}
    now = time.time()
    rows = []
    for seat, account in owners.items():
        p = fs.players[seat]
        rows.append({"game_id": info.id, "seat": seat, "account_id": account.id, "map": info.map, "seats": seats,
                     "score": p.total, "tickets_done": len(p.tickets_completed),
                     "tickets_failed": len(p.tickets_failed), "won": int(seat in fs.winner_seats),
                     "place": places[seat], "rated": int(rated),
                     "mu_before": before[seat][0] if rated else None, "mu_after": after[seat][0] if rated else None,
                     "finished": now})
    new_ratings = {owners[s].id: after[s] for s in after}
    await online.db(store.save_results, rows, new_ratings, info.map, seats, now)


def rating_json(map_name: str, seats: int, mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the page shows it: ordinal, mu, sigma, games, and the bot level it is nearest."""
    return {"map": map_name, "seats": seats, "rating": ordinal(mu, sigma), "mu": round(mu, 2),
            "sigma": round(sigma, 2), "games": games, "like": like_level(map_name, seats, mu)}


def check_table(map_name: str, seats_text: str) -> tuple[str, int]:
    """A map and table size from a query, or 400 naming the problem."""
    if map_name not in BUILTIN_MAPS:
        raise ApiError(400, "unknown_map", f"unknown map {map_name[:40]!r} (maps: {', '.join(BUILTIN_MAPS)})")
    rules = load_map(map_name).rules
    if not (seats_text.isascii() and seats_text.isdigit() and len(seats_text) <= 2
            and rules.players_min <= int(seats_text) <= rules.players_max):
        raise ApiError(400, "bad_seats", f"'seats' must be {rules.players_min} to {rules.players_max} for {map_name}")
    return map_name, int(seats_text)


def router(online: Online) -> APIRouter:
    """`GET /api/leaderboard` and `GET /api/ratings/bots`."""
    api = APIRouter(prefix="/api")

    @api.get("/leaderboard")
    async def leaderboard(map: str = "europe", seats: str = "2", limit: str = "50") -> dict[str, Any]:
        map_name, n = check_table(map, seats)
        if not (limit.isascii() and limit.isdigit() and len(limit) <= 3 and 1 <= int(limit) <= 200):
            raise ApiError(400, "malformed", "'limit' must be a whole number from 1 to 200")
        rows = await online.db(online.store.leaderboard, map_name, n, int(limit))
        players = [{"rank": i + 1, "name": r["name"], **rating_json(map_name, n, r["mu"], r["sigma"], r["games"])}
                   for i, r in enumerate(rows)]
        bots = [{"level": lv, "rating": ordinal(r["mu"], r["sigma"]), "mu": r["mu"], "sigma": r["sigma"]}
                for lv, r in bot_table(map_name, n).items()]
        return {"map": map_name, "seats": n, "players": players, "bots": bots}

    @api.get("/ratings/bots")
    async def bots() -> dict[str, Any]:
        return bot_ratings()

    return api
