"""Finding a game: quick-play queues per map and table size (`QUEUES`) that seat people of close rating
together, and, after the wait each player chose, a game against bots of a level near their rating.

Matching runs once a second while anyone waits. The longest-waiting player who can be seated gets a game when enough
others are close enough: within `BASE_WINDOW` of each other's mu, widened by `WIDEN_PER_S` per second waited; a
queue of several table sizes makes the largest game it can at once, and a smaller one (at least its
smallest size) once the longest wait passes `GATHER_S`. A quick-play game is a real-time game with the
server's default clock, its seed the server's: a game between accounts, so it is rated. Queues are kept in
the server's memory (a restart empties them).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request

from ttr.server.config import ApiError
from ttr.server.online import Online, fields, read_json
from ttr.server.online_store import Account
from ttr.server.ratings import MODEL, like_level

QUEUES = {  # name: (map, fewest seats, most seats)
    "europe-2": ("europe", 2, 2),
    "europe-3-5": ("europe", 3, 5),
    "new_york-2": ("new_york", 2, 2),
    "new_york-3-4": ("new_york", 3, 4),
}
WAIT_DEFAULT, WAIT_MIN, WAIT_MAX = 60.0, 5.0, 600.0  # seconds before a player may fill the table with bots
BASE_WINDOW = 4.0  # mu points
WIDEN_PER_S = 0.25
GATHER_S = 20.0
QUICK_CLOCK = {"mode": "realtime", "move": 90, "reserve": 300}


@dataclass
class Waiting:
    """A player in a queue."""

    account: Account
    queue: str
    mu: float
    since: float
    wait: float  # seconds after which they may fill the table with bots


class Matchmaker:
    """The queues of one server and the games they made (until their players pick them up)."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.waiting: dict[str, Waiting] = {}  # account id -> their place in a queue
        self.matched: dict[str, dict[str, Any]] = {}  # account id -> {game, seat, queue, bots}
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def join(self, account: Account, body: Any) -> dict[str, Any]:
        """Queue the account; 409 `already_queued` if it waits already."""
        data = fields(body, ("queue", "wait"))
        queue = data.get("queue")
        if queue not in QUEUES:
            raise ApiError(400, "unknown_queue", f"unknown queue {str(queue)[:30]!r} (queues: {', '.join(QUEUES)})")
        wait = data.get("wait", WAIT_DEFAULT)
        if not isinstance(wait, int | float) or isinstance(wait, bool) or not WAIT_MIN <= wait <= WAIT_MAX:
            raise ApiError(400, "bad_wait", f"'wait' is {WAIT_MIN:g} to {WAIT_MAX:g} seconds")
        if account.id in self.waiting:
            raise ApiError(409, "already_queued", f"you wait in the {self.waiting[account.id].queue} queue already: "
                                                  "leave it first")
        map_name, low, _high = QUEUES[queue]
        found = await self.online.db(self.online.store.rating, account.id, map_name, low)
        self.matched.pop(account.id, None)
        self.waiting[account.id] = Waiting(account, queue, found[0] if found else MODEL.mu, time.time(), float(wait))
        await self.match()
        self._ensure_task()
        return self.status(account)

    def leave(self, account: Account) -> dict[str, Any]:
        """Leave the queue; 409 `not_queued` if the account is in none."""
        if self.waiting.pop(account.id, None) is None:
            raise ApiError(409, "not_queued", "you are in no queue")
        return self.status(account)

    def status(self, account: Account) -> dict[str, Any]:
        """Where the account stands: waiting (how long, whether it may fill with bots) or matched (the game)."""
        entry = self.waiting.get(account.id)
        queued = None
        if entry is not None:
            waited = time.time() - entry.since
            map_name, low, _high = QUEUES[entry.queue]
            queued = {"queue": entry.queue, "waited": round(waited, 1), "wait": entry.wait,
                      "can_fill": waited >= entry.wait, "bot_level": like_level(map_name, low, entry.mu),
                      "others": sum(1 for w in self.waiting.values() if w.queue == entry.queue) - 1}
        return {"queued": queued, "match": self.matched.get(account.id), "queues": list(QUEUES)}

    async def fill(self, account: Account) -> dict[str, Any]:
        """A game against bots for a player who waited long enough: 409 `not_queued` or `not_yet` otherwise."""
        entry = self.waiting.get(account.id)
        if entry is None:
            raise ApiError(409, "not_queued", "you are in no queue")
        waited = time.time() - entry.since
        if waited < entry.wait:
            raise ApiError(409, "not_yet", f"you may fill the table with bots after {entry.wait:g} s "
                                           f"({waited:.0f} s so far)")
        map_name, low, _high = QUEUES[entry.queue]
        level = like_level(map_name, low, entry.mu) or "medium"
        async with self._lock:
            if self.waiting.get(account.id) is not entry:
                return self.status(account)  # matched meanwhile
            del self.waiting[account.id]
            await self._make(entry.queue, [entry], bots=[level] * (low - 1))
        return self.status(account)

    async def match(self) -> None:
        """Make every game the queues can make now."""
        async with self._lock:
            now = time.time()
            for queue, (_map, low, high) in QUEUES.items():
                while (table := self._table(queue, low, high, now)) is not None:
                    for w in table:
                        del self.waiting[w.account.id]
                    await self._make(queue, table, bots=[])

    def _table(self, queue: str, low: int, high: int, now: float) -> list[Waiting] | None:
        """The players of the next game the queue can make (the longest-waiting player who can be seated,
        with the closest others within their window), or None."""
        people = sorted((w for w in self.waiting.values() if w.queue == queue), key=lambda w: w.since)
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

    async def _make(self, queue: str, people: list[Waiting], bots: list[str]) -> None:
        map_name = QUEUES[queue][0]
        seats: list[dict[str, Any]] = [{"type": "human", "name": w.account.name} for w in people]
        seats += [{"type": "bot", "level": level} for level in bots]
        manager = self.online.manager
        game = await manager.create({"map": map_name, "seats": seats, "when_people_leave": "finish",
                                     "clock": QUICK_CLOCK})
        now = time.time()
        for seat, w in enumerate(people):
            await self.online.db(self.online.store.claim_seat, game["id"], seat, w.account.id, now)
            self.matched[w.account.id] = {"game": game["id"], "seat": seat, "map": map_name, "queue": queue,
                                          "players": [s["name"] for s in game["seats"]], "bots": bool(bots)}

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
        while self.waiting and not self.online.manager.stopping:
            await asyncio.sleep(1.0)
            with contextlib.suppress(Exception):
                await self.match()


def router(online: Online) -> APIRouter:
    """`/api/queue`: join, leave, status, fill with bots."""
    api = APIRouter(prefix="/api/queue")
    maker = Matchmaker(online)
    online.matchmaker = maker

    @api.get("")
    async def status(request: Request) -> dict[str, Any]:
        session = await online.require(request, write=False)
        return maker.status(session.account)

    @api.post("")
    async def join(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return await maker.join(session.account, await read_json(request))

    @api.post("/leave")
    async def leave(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return maker.leave(session.account)

    @api.post("/fill")
    async def fill(request: Request) -> dict[str, Any]:
        session = await online.require(request)
        return await maker.fill(session.account)

    return api
