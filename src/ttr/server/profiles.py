"""Profiles: `GET /api/players/{name}`, a player's ratings by map and table size, games played and won,
tickets completed, mean score, and the history of their finished games (with the other seats, a deleted
account's shown as deleted)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ttr.server.accounts import name_key
from ttr.server.config import ApiError
from ttr.server.online import Online
from ttr.server.ratings import rating_json

HISTORY = 200  # the most recent games a profile lists


def router(online: Online) -> APIRouter:
    """The profile route."""
    api = APIRouter(prefix="/api")
    store = online.store
    manager = online.manager

    @api.get("/players/{name}")
    async def profile(name: str) -> dict[str, Any]:
        account = await online.db(store.account_by_name, name_key(" ".join(name.split()))[:96])
        if account is None:
            raise ApiError(404, "not_found", f"no player named {name[:40]!r}")
        ratings = [rating_json(r["map"], r["seats"], r["mu"], r["sigma"], r["games"])
                   for r in await online.db(store.account_ratings, account.id)]
        totals = await online.db(store.totals, account.id)
        history = []
        for row in await online.db(store.account_results, account.id, HISTORY):
            info = await manager.db(manager.store.get_game, row["game_id"])
            owners = await online.db(store.game_accounts, row["game_id"])
            seats = []
            for i, s in enumerate(info.seats if info is not None else []):
                owner = owners.get(i)
                seats.append({"seat": i, "name": s.name, "type": s.type, "level": s.level,
                              "account": owner.name if owner is not None and owner.deleted is None else None,
                              "deleted": owner is not None and owner.deleted is not None})
            entry = {"game": row["game_id"], "map": row["map"], "seats": row["seats"], "seat": row["seat"],
                     "score": row["score"], "place": row["place"], "won": bool(row["won"]),
                     "tickets_done": row["tickets_done"], "tickets_failed": row["tickets_failed"],
                     "rated": bool(row["rated"]), "finished": row["finished"], "players": seats,
                     "mu_before": row["mu_before"], "mu_after": row["mu_after"]}
            history.append(entry)
        return {"name": account.name, "created": account.created, "ratings": ratings, **totals,
                "history": history}

    return api
