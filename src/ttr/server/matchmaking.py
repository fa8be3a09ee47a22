"""Finding a game: quick-play queues per map and table size (`QUEUES`) that seat people of close rating
together, and, after the wait each player chose, a game against bots of a level near their rating.

Matching runs once a second on each server while anyone waits. The longest-waiting player who can be seated
gets a game when enough others are close enough: within `BASE_WINDOW` of each other's mu, widened by
`WIDEN_PER_S` per second waited; a queue of several table sizes makes the largest game it can at once, and
a smaller one (at least its smallest size) once the longest wait passes `GATHER_S`. A quick-play game is a
real-time game with the server's default clock, its seed the server's: a game between accounts, so it is
rated.

The queues are kept in the database (`ttr_queue`, the games made in `ttr_matches`), so players queued on
different servers sharing it are seated together, and a restart keeps them. The servers match one at a
time: the rows one reads are locked and then held for it while it makes the game
(`ttr.server.shared_state.SharedState.hold_tables`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, Request

from ttr.server.config import ApiError
from ttr.server.online import Online, fields, read_json
from ttr.server.online_store import Account
from ttr.server.ratings import MODEL, like_level
from ttr.server.shared_state import Queued

log = logging.getLogger("ttr.server")

QUEUES = {  # name: (map, fewest seats, most seats)
    "europe-2": ("europe", 2, 2),
    "europe-3-5": ("europe", 3, 5),
    "new_york-2": ("new_york", 2, 2),
    "new_york-3-4": ("new_york", 3, 4),
}
WAIT_MIN, WAIT_MAX = 5.0, 600.0  # seconds before a player may fill the table with bots (default: OnlineSettings)
BASE_WINDOW = 4.0  # mu points
WIDEN_PER_S = 0.25
GATHER_S = 20.0
HOLD_S = 30.0  # seconds a server holds the players it is seating (another seats them if it dies meanwhile)


class Matchmaker:
    """Seats the players of the queues (kept in the database) in the games it makes."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.shared = online.store.shared
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def join(self, account: Account, body: Any) -> dict[str, Any]:
        """Queue the account; 409 `already_queued` if it waits already (on any server)."""
        data = fields(body, ("queue", "wait"))
        queue = data.get("queue")
        if queue not in QUEUES:
            raise ApiError(400, "unknown_queue", f"unknown queue {str(queue)[:30]!r} (queues: {', '.join(QUEUES)})")
        wait = data.get("wait", self.online.settings.queue_wait)
        if not isinstance(wait, int | float) or isinstance(wait, bool) or not WAIT_MIN <= wait <= WAIT_MAX:
            raise ApiError(400, "bad_wait", f"'wait' is {WAIT_MIN:g} to {WAIT_MAX:g} seconds")
        map_name, low, _high = QUEUES[queue]
        found = await self.online.db(self.online.store.rating, account.id, map_name, low)
        entry = Queued(account.id, account.name, queue, found[0] if found else MODEL.mu, time.time(), float(wait))
        if not await self.online.db(self.shared.enqueue, entry):
            there = await self.online.db(self.shared.queued, account.id)
            raise ApiError(409, "already_queued", f"you wait in the {there.queue if there else ''} queue already: "
                                                  "leave it first")
        await self.match()
        self._ensure_task()
        return await self.status(account)

    async def leave(self, account: Account) -> dict[str, Any]:
        """Leave the queue; 409 `not_queued` if the account is in none (a player being seated this very
        moment stays: the answer then shows the game once made)."""
        if await self.online.db(self.shared.dequeue, account.id, time.time()) is None:
            raise ApiError(409, "not_queued", "you are in no queue")
        return await self.status(account)

    async def status(self, account: Account) -> dict[str, Any]:
        """Where the account stands: waiting (how long, whether it may fill with bots) or matched (the game)."""
        entry = await self.online.db(self.shared.queued, account.id)
        queued = None
        if entry is not None:
            waited = time.time() - entry.since
            map_name, low, _high = QUEUES[entry.queue]
            others = await self.online.db(self.shared.queue_size, entry.queue) - 1
            queued = {"queue": entry.queue, "waited": round(waited, 1), "wait": entry.wait,
                      "can_fill": waited >= entry.wait, "bot_level": like_level(map_name, low, entry.mu),
                      "others": max(0, others)}
            self._ensure_task()  # whichever server the player asks goes on matching
        match = await self.online.db(self.shared.match, account.id)
        return {"queued": queued, "match": match, "queues": list(QUEUES)}

    async def fill(self, account: Account) -> dict[str, Any]:
        """A game against bots for a player who waited long enough: 409 `not_queued` or `not_yet` otherwise."""
        entry = await self.online.db(self.shared.queued, account.id)
        if entry is None:
            raise ApiError(409, "not_queued", "you are in no queue")
        waited = time.time() - entry.since
        if waited < entry.wait:
            raise ApiError(409, "not_yet", f"you may fill the table with bots after {entry.wait:g} s "
                                           f"({waited:.0f} s so far)")
        map_name, low, _high = QUEUES[entry.queue]
        level = like_level(map_name, low, entry.mu) or "medium"
        if await self.online.db(self.shared.dequeue, account.id, time.time()):  # not being seated meanwhile
            await self._make(entry.queue, [entry], bots=[level] * (low - 1), held=False)
        return await self.status(account)

    async def match(self) -> int:
        """Make every game the queues can make now; how many players still wait."""
        async with self._lock:
            cluster = self.online.manager.cluster
            tables = await self.online.db(self.shared.hold_tables, time.time(), cluster.server_id, HOLD_S, pick_tables)
            for table in tables:
                try:
                    await self._make(table[0].queue, table, bots=[], held=True)
                except Exception:  # the hold lapses: they are seated again
                    log.exception("cannot make a quick-play game for %d players", len(table))
            return await self.online.db(self.shared.waiting_count)

    async def _make(self, queue: str, people: list[Queued], bots: list[str], held: bool) -> None:
        map_name = QUEUES[queue][0]
        seats: list[dict[str, Any]] = [{"type": "human", "name": w.name} for w in people]
        seats += [{"type": "bot", "level": level} for level in bots]
        settings = self.online.settings
        manager = self.online.manager
        game = await manager.create({"map": map_name, "seats": seats, "when_people_leave": "finish",
                                     "clock": {"mode": "realtime", "move": settings.clock_move,
                                               "reserve": settings.clock_reserve}})
        now = time.time()
        for seat, w in enumerate(people):
            await self.online.db(self.online.store.claim_seat, game["id"], seat, w.account_id, now)
        players = [s["name"] for s in game["seats"]]
        found = [{"game": game["id"], "seat": seat, "map": map_name, "queue": queue, "players": players,
                  "bots": bool(bots)} for seat in range(len(people))]
        await self.online.db(self.shared.record_match, [w.account_id for w in people], found,
                             manager.cluster.server_id if held else None, now)

    async def close(self) -> None:
        """Stop matching (the server is stopping)."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while not self.online.manager.stopping:
            await asyncio.sleep(1.0)
            try:
                if await self.match() == 0:
                    return
            except Exception:
                log.exception("quick-play matching failed; trying again")


def pick_tables(people: list[Queued]) -> list[list[Queued]]:
    """The games to make now from the players waiting (and not being seated), each a list of players."""
    now = time.time()
    left = list(people)
    tables: list[list[Queued]] = []
    for queue, (_map, low, high) in QUEUES.items():
        while (table := _table([w for w in left if w.queue == queue], low, high, now)) is not None:
            tables.append(table)
            chosen = {w.account_id for w in table}
            left = [w for w in left if w.account_id not in chosen]
    return tables


def _table(waiting: list[Queued], low: int, high: int, now: float) -> list[Queued] | None:
    """The players of the next game a queue can make (the longest-waiting player who can be seated, with the
    closest others within their window), or None."""
    people = sorted(waiting, key=lambda w: w.since)
    if len(people) < low:
        return None
    for anchor in people:
        window = BASE_WINDOW + WIDEN_PER_S * (now - anchor.since)
        close = sorted((w for w in people if w is not anchor and abs(w.mu - anchor.mu) <= window
                        and abs(w.mu - anchor.mu) <= BASE_WINDOW + WIDEN_PER_S * (now - w.since)),
                       key=lambda w: abs(w.mu - anchor.mu))
        size = min(high, 1 + len(close))
        if size >= low and (size == high or now - anchor.since >= GATHER_S):
            return [anchor, *close[:size - 1]]
    return None


def router(online: Online) -> APIRouter:
    """`/api/queue`: join, leave, status, fill with bots."""
    api = APIRouter(prefix="/api/queue")
    maker = Matchmaker(online)
    online.matchmaker = maker

    @api.get("")
    async def status(request: Request) -> dict[str, Any]:
        session = await online.require(request, write=False)
        return await maker.status(session.account)

    @api.post("")
    async def join(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return await maker.join(session.account, await read_json(request))

    @api.post("/leave")
    async def leave(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return await maker.leave(session.account)

    @api.post("/fill")
    async def fill(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return await maker.fill(session.account)

    return api
