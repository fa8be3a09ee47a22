"""Open games: a player opens a table (map, number of seats, clock) and anyone logged in, or a guest with a
name, takes a free seat; when the last seat is taken the server creates the game and gives each player
their seat (a guest its seat token, an account its seat as well). A seat at a table is held by a `ticket`,
a secret its holder sends in the body (never in a URL). Tables live in the server's memory.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request

from ttr.maps import BUILTIN_MAPS, load_map
from ttr.server.clocks import parse_clock
from ttr.server.config import ApiError
from ttr.server.online import Online, fields, read_json
from ttr.server.online_store import Session

MAX_TABLES = 200
NAME_MAX = 24


@dataclass
class Taker:
    """A seat taken at a table."""

    ticket: str
    name: str
    account_id: str | None
    seat_token: dict[str, Any] | None = None  # {game, seat, token} once the game is made


@dataclass
class Table:
    """An open table waiting for its players."""

    id: str
    map: str
    seats: int
    clock: dict[str, Any] | None
    created: float
    takers: list[Taker] = field(default_factory=list)
    game: str | None = None


def guest_name(raw: Any) -> str:
    """A guest's name at a table: 1-24 printable characters, or 400 `bad_name`."""
    if not isinstance(raw, str):
        raise ApiError(400, "bad_name", "a guest takes a seat with a 'name'")
    name = " ".join("".join(ch for ch in raw if ch.isprintable()).split())
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(400, "bad_name", f"a name is 1 to {NAME_MAX} characters")
    return name


class OpenGames:
    """The open tables of one server."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.tables: dict[str, Table] = {}
        self.by_ticket: dict[str, Table] = {}

    def listing(self) -> list[dict[str, Any]]:
        """The tables with a free seat, newest first."""
        tables = sorted((t for t in self.tables.values() if t.game is None), key=lambda t: -t.created)
        return [{"id": t.id, "map": t.map, "seats": t.seats, "players": [k.name for k in t.takers],
                 "clock": t.clock, "created": t.created} for t in tables]

    def _taker(self, table: Table, session: Session | None, raw_name: Any) -> Taker:
        if session is not None:
            if any(k.account_id == session.account.id for k in table.takers):
                raise ApiError(409, "already_seated", "you have a seat at this table already")
            name = session.account.name
        else:
            name = guest_name(raw_name)
        if any(k.name.casefold() == name.casefold() for k in table.takers):
            raise ApiError(409, "name_taken", f"someone at this table is named {name!r} already")
        taker = Taker(secrets.token_urlsafe(18), name, session.account.id if session else None)
        table.takers.append(taker)
        self.by_ticket[taker.ticket] = table
        return taker

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
        clock = parse_clock(data.get("clock"))
        if len(self.tables) >= MAX_TABLES:
            raise ApiError(409, "too_many_tables", "too many open tables: take a seat at one")
        table = Table(secrets.token_hex(5), map_name, seats, clock, time.time())
        taker = self._taker(table, session, data.get("name"))
        self.tables[table.id] = table
        return self.status(taker.ticket)

    async def take(self, table_id: str, session: Session | None, body: Any) -> dict[str, Any]:
        """Take a free seat; when it was the last, the game is made."""
        data = fields(body, ("name",))
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, "not_found", f"no open table {table_id[:40]!r}")
        if table.game is not None or len(table.takers) >= table.seats:
            raise ApiError(409, "table_full", "every seat at this table is taken")
        taker = self._taker(table, session, data.get("name"))
        if len(table.takers) == table.seats:
            await self._start(table)
        return self.status(taker.ticket)

    def leave(self, ticket: Any) -> dict[str, Any]:
        """Give a seat back (before the game is made); an empty table goes."""
        table = self._table_of(ticket)
        if table.game is not None:
            raise ApiError(409, "started", "the game has started: play it from your seat")
        table.takers = [k for k in table.takers if k.ticket != ticket]
        del self.by_ticket[ticket]
        if not table.takers:
            del self.tables[table.id]
        return {"table": None}

    def _table_of(self, ticket: Any) -> Table:
        table = self.by_ticket.get(ticket) if isinstance(ticket, str) else None
        if table is None:
            raise ApiError(404, "not_found", "no seat at an open table has that ticket")
        return table

    def status(self, ticket: Any) -> dict[str, Any]:
        """A taker's table: the players so far and, once made, their seat of the game."""
        table = self._table_of(ticket)
        mine = next(k for k in table.takers if k.ticket == ticket)
        return {"ticket": ticket, "table": {"id": table.id, "map": table.map, "seats": table.seats,
                                            "players": [k.name for k in table.takers]},
                "name": mine.name, "match": mine.seat_token}

    async def _start(self, table: Table) -> None:
        manager = self.online.manager
        body: dict[str, Any] = {"map": table.map, "seats": [{"type": "human", "name": k.name} for k in table.takers]}
        if table.clock is not None:
            body["clock"] = table.clock
        game = await manager.create(body)
        table.game = game["id"]
        now = time.time()
        for seat, (taker, entry) in enumerate(zip(table.takers, game["seats"], strict=True)):
            taker.seat_token = {"game": game["id"], "seat": seat, "token": entry["token"], "map": table.map,
                                "name": entry["name"]}
            if taker.account_id is not None:
                await self.online.db(self.online.store.claim_seat, game["id"], seat, taker.account_id, now)


def router(online: Online) -> APIRouter:
    """`/api/open-games`."""
    api = APIRouter(prefix="/api/open-games")
    tables = OpenGames(online)

    @api.get("")
    async def listing() -> list[dict[str, Any]]:
        return tables.listing()

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
        return tables.status(fields(await read_json(request), ("ticket",)).get("ticket"))

    @api.post("/leave")
    async def leave(request: Request) -> dict[str, Any]:
        await online.session(request, write=True)
        return tables.leave(fields(await read_json(request), ("ticket",)).get("ticket"))

    return api
