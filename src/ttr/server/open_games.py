"""Open games: a player opens a table (map, number of seats, clock) and anyone logged in, or a guest with a
name, takes a free seat; when the last seat is taken the server creates the game and gives each player
their seat (a guest its seat token, an account its seat as well). A seat at a table is held by a `ticket`,
a secret its holder sends in the body (never in a URL).

Tables are kept in the database (`ttr_open_tables`, `ttr_open_seats`: `ttr.server.shared_state`), so every
server sharing it lists them and takes their seats: taking a seat locks the table's row, and the server
that takes the last seat makes the game (held for it for `HOLD_S` seconds; if it dies meanwhile, the next
server a player of the table asks makes it). A seat's token is worked out from its ticket
(`seat_token`): the database keeps the hashes of both, never either. A table opened more than
`OnlineSettings.open_table_expiry` seconds ago goes.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request

from ttr.maps import BUILTIN_MAPS, load_map
from ttr.server.clocks import parse_clock
from ttr.server.config import ApiError
from ttr.server.online import Online, fields, read_json
from ttr.server.online_store import Session
from ttr.server.rooms import hash_token
from ttr.server.shared_state import TableRefusal, seat_token, secret_hash

MAX_TABLES = 200
NAME_MAX = 24
HOLD_S = 30.0  # seconds the server that filled a table has to make its game before another may


def guest_name(raw: Any) -> str:
    """A guest's name at a table: 1-24 printable characters, or 400 `bad_name`."""
    if not isinstance(raw, str):
        raise ApiError(400, "bad_name", "a guest takes a seat with a 'name'")
    name = " ".join("".join(ch for ch in raw if ch.isprintable()).split())
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(400, "bad_name", f"a name is 1 to {NAME_MAX} characters")
    return name


def _name_key(name: str) -> str:
    return name.casefold()[:96]


class OpenGames:
    """The open tables, in the database every server shares."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.shared = online.store.shared

    async def listing(self) -> list[dict[str, Any]]:
        """The tables with a free seat, newest first (tables past their expiry go first)."""
        await self.online.db(self.shared.expire_tables, time.time() - self.online.settings.open_table_expiry)
        tables = await self.online.db(self.shared.listing, MAX_TABLES)
        return [{"id": t["id"], "map": t["map"], "seats": t["seats"], "players": t["players"], "clock": t["clock"],
                 "created": t["created"]} for t in tables]

    def _who(self, session: Session | None, raw_name: Any) -> tuple[str, str | None]:
        if session is not None:
            return session.account.name, session.account.id
        return guest_name(raw_name), None

    async def open(self, session: Session | None, body: Any) -> dict[str, Any]:
        """Open a table and take its first seat."""
        data = fields(body, ("map", "seats", "clock", "name"))
        map_name = data.get("map", "europe")
        if map_name not in BUILTIN_MAPS:
            raise ApiError(400, "unknown_map", f"unknown map {str(map_name)[:40]!r} (maps: {', '.join(BUILTIN_MAPS)})")
        rules = load_map(map_name).rules
        seats = data.get("seats")
        if not isinstance(seats, int) or isinstance(seats, bool) or not rules.players_min <= seats <= rules.players_max:
            raise ApiError(400, "bad_seats", f"{map_name} is for {rules.players_min}-{rules.players_max} players")
        clock = parse_clock(data.get("clock"), self.online.settings)
        name, account_id = self._who(session, data.get("name"))
        if await self.online.db(self.shared.open_count) >= MAX_TABLES:
            raise ApiError(409, "too_many_tables", "too many open tables: take a seat at one")
        ticket = secrets.token_urlsafe(18)
        table = {"id": secrets.token_hex(5), "map": map_name, "seats": seats, "clock": clock, "created": time.time()}
        await self.online.db(self.shared.open_table, table, secret_hash(ticket), hash_token(seat_token(ticket)), name,
                             _name_key(name), account_id)
        return await self.status(ticket)

    async def take(self, table_id: str, session: Session | None, body: Any) -> dict[str, Any]:
        """Take a free seat; when it was the last, the game is made."""
        data = fields(body, ("name",))
        name, account_id = self._who(session, data.get("name"))
        ticket = secrets.token_urlsafe(18)
        try:
            full = await self.online.db(self.shared.take_seat, table_id[:16], secret_hash(ticket),
                                        hash_token(seat_token(ticket)), name, _name_key(name), account_id, time.time(),
                                        self.online.manager.cluster.server_id, HOLD_S)
        except TableRefusal as exc:
            raise ApiError(404 if exc.code == "not_found" else 409, exc.code, exc.message) from None
        if full:
            await self._start(table_id[:16])
        return await self.status(ticket)

    async def leave(self, ticket: Any) -> dict[str, Any]:
        """Give a seat back (before the game is made); an empty table goes."""
        if not isinstance(ticket, str):
            raise ApiError(404, "not_found", "no seat at an open table has that ticket")
        try:
            await self.online.db(self.shared.leave_table, secret_hash(ticket))
        except TableRefusal as exc:
            raise ApiError(404 if exc.code == "not_found" else 409, exc.code, exc.message) from None
        return {"table": None}

    async def status(self, ticket: Any) -> dict[str, Any]:
        """A taker's table: the players so far and, once made, their seat of the game (a table whose maker's
        hold lapsed is made here)."""
        found = await self._found(ticket)
        table, seats = found
        if table["game"] is None and table["starting_by"] is not None and table["starting_until"] < time.time():
            cluster = self.online.manager.cluster
            if await self.online.db(self.shared.hold_start, table["id"], time.time(), cluster.server_id, HOLD_S):
                await self._start(table["id"])
                table, seats = await self._found(ticket)
        digest = secret_hash(ticket)
        mine = next(s for s in seats if s["ticket_hash"] == digest)
        match = None
        if table["game"] is not None and mine["seat"] is not None:
            match = {"game": table["game"], "seat": mine["seat"], "token": seat_token(ticket),
                     "map": table["map"], "name": mine["name"]}
        return {"ticket": ticket, "table": {"id": table["id"], "map": table["map"], "seats": table["seats"],
                                            "players": [s["name"] for s in seats]},
                "name": mine["name"], "match": match}

    async def _found(self, ticket: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        table_id = await self.online.db(self.shared.table_of, secret_hash(ticket)) if isinstance(ticket, str) else None
        found = await self.online.db(self.shared.table, table_id) if table_id is not None else None
        if found is None:
            raise ApiError(404, "not_found", "no seat at an open table has that ticket")
        return found

    async def _start(self, table_id: str) -> None:
        found = await self.online.db(self.shared.table, table_id)
        if found is None:
            return
        table, takers = found
        manager = self.online.manager
        body: dict[str, Any] = {"map": table["map"], "seats": [{"type": "human", "name": k["name"]} for k in takers]}
        if table["clock"] is not None:
            body["clock"] = table["clock"]
        game = await manager.create(body, token_hashes={i: k["token_hash"] for i, k in enumerate(takers)})
        now = time.time()
        for seat, taker in enumerate(takers):
            if taker["account_id"] is not None:
                await self.online.db(self.online.store.claim_seat, game["id"], seat, taker["account_id"], now)
        await self.online.db(self.shared.table_started, table_id, game["id"],
                             {k["ticket_hash"]: seat for seat, k in enumerate(takers)})


def router(online: Online) -> APIRouter:
    """`/api/open-games`."""
    api = APIRouter(prefix="/api/open-games")
    tables = OpenGames(online)

    @api.get("")
    async def listing() -> list[dict[str, Any]]:
        return await tables.listing()

    @api.post("", status_code=201)
    async def open_table(request: Request) -> dict[str, Any]:
        session = await online.session(request, write=True)
        return await tables.open(session, await read_json(request))

    @api.post("/{table_id}/take")
    async def take(table_id: str, request: Request) -> dict[str, Any]:
        session = await online.session(request, write=True)
        return await tables.take(table_id, session, await read_json(request))

    @api.post("/status")
    async def status(request: Request) -> dict[str, Any]:
        await online.session(request, write=True)
        return await tables.status(fields(await read_json(request), ("ticket",)).get("ticket"))

    @api.post("/leave")
    async def leave(request: Request) -> dict[str, Any]:
        await online.session(request, write=True)
        return await tables.leave(fields(await read_json(request), ("ticket",)).get("ticket"))

    return api
