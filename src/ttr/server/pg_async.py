"""The PostgreSQL calls of an action's path, made on the server's event loop (psycopg 3's async connections).

An append, a read of a game's newer actions and a NOTIFY each take one of a few kept connections in
autocommit, send one statement (prepared by psycopg after its first uses) and give the connection back: no
worker thread, no hand-off of the GIL, no SQLAlchemy statement compiling. `listen` LISTENs on one more
connection and hands each notification to a callback on the loop. The statements are those of
`ttr.server.sql_store` (the append is its `_PG_APPEND`: the version's compare-and-set, the insert and the
NOTIFY in one statement), so both paths store the same rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from ttr.server.store import StaleVersionError, StoredAction, UnknownGameError

log = logging.getLogger("ttr.server")

SIZE = 8  # connections kept for the statements (an append waits for a free one when all are busy)

_APPEND = """
WITH advanced AS (
    UPDATE ttr_games SET version = %(next_v)s, updated = %(now)s{finish}
    WHERE id = %(gid)s AND version = %(v)s AND status = 'running' RETURNING id
), inserted AS (
    INSERT INTO ttr_actions (game_id, version, seat, action_id)
    SELECT id, %(v)s, %(seat)s, %(action_id)s FROM advanced RETURNING game_id
)
SELECT pg_notify(%(channel)s, %(payload)s) FROM inserted
"""
APPEND = _APPEND.format(finish="")
APPEND_AND_FINISH = _APPEND.format(finish=", status = 'finished', winners = %(winners)s")
WHY_NOT = "SELECT version, status FROM ttr_games WHERE id = %s"
ACTIONS = "SELECT version, seat, action_id FROM ttr_actions WHERE game_id = %s AND version >= %s ORDER BY version"
NOTIFY = "SELECT pg_notify(%s, %s)"


class AsyncPostgres:
    """A few async connections to one PostgreSQL database, opened on first use, for the event loop's calls."""

    def __init__(self, url: str, size: int = SIZE) -> None:
        self.url = url  # as libpq takes it
        self.size = size
        self._slots: asyncio.Semaphore | None = None  # made on the loop, at first use
        self._idle: list[Any] = []
        self._closed = False

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        import psycopg

        if self._closed:
            raise RuntimeError("the store is closed")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        async with self._slots:
            conn = self._idle.pop() if self._idle else await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                yield conn
            except BaseException:
                if conn.closed or conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                    with contextlib.suppress(Exception):  # broken, or cancelled mid-statement: a new one next time
                        await conn.close()
                else:
                    self._idle.append(conn)
                raise
            self._idle.append(conn)

    async def append(self, channel: str, game_id: str, version: int, seat: int, action_id: int,
                     winners: list[int] | None, payload: str) -> None:
        """Store the action applied at `version` (compare-and-set on the version) and NOTIFY `payload`, in one
        statement; with `winners`, the game's end too. `StaleVersionError` or `UnknownGameError` if not stored."""
        import psycopg

        values: dict[str, Any] = {"gid": game_id, "v": version, "next_v": version + 1, "now": time.time(),
                                  "seat": seat, "action_id": action_id, "channel": channel, "payload": payload}
        statement = APPEND
        if winners is not None:
            statement, values["winners"] = APPEND_AND_FINISH, json.dumps(list(winners))
        async with self._connection() as conn:
            try:
                cursor = await conn.execute(statement, values)
                stored = await cursor.fetchone() is not None
            except psycopg.errors.UniqueViolation:  # a concurrent writer inserted this version first
                raise StaleVersionError(f"game {game_id} has an action at version {version} already") from None
            if stored:
                return
            row = await (await conn.execute(WHY_NOT, (game_id,))).fetchone()
        if row is None:
            raise UnknownGameError(f"no game {game_id!r}")
        if row[1] != "running":
            raise StaleVersionError(f"game {game_id} is over")
        raise StaleVersionError(f"game {game_id} is at version {row[0]}, not {version}")

    async def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        """The stored actions of the game from version `since` on, in order (none for an unknown game)."""
        async with self._connection() as conn:
            rows = await (await conn.execute(ACTIONS, (game_id, since))).fetchall()
        return [StoredAction(int(v), int(s), int(a)) for v, s, a in rows]

    async def rows(self, statement: str, params: Any = None) -> list[tuple[Any, ...]]:
        """Run one statement (its own transaction); the rows it returns."""
        async with self._connection() as conn:
            cursor = await conn.execute(statement, params)
            return list(await cursor.fetchall()) if cursor.description is not None else []

    async def notify(self, channel: str, payload: str) -> None:
        """NOTIFY `channel` with `payload`."""
        async with self._connection() as conn:
            await conn.execute(NOTIFY, (channel, payload))

    async def listen(self, channel: str, received: Callable[[str], None], listening: Callable[[], None]) -> None:
        """LISTEN on `channel` until cancelled: `received(payload)` for each notification, `listening()` each
        time the LISTEN is in place (a broken connection is opened again a second later: notifications sent
        meanwhile are missed, which `listening()` then makes good)."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {channel}")
                    listening()
                    async for note in conn.notifies():
                        received(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._closed:
                    return
                log.exception("the notification listener failed; reconnecting")
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Close the kept connections."""
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            with contextlib.suppress(Exception):
                await conn.close()
