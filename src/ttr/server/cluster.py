"""Several `ttr serve` on one PostgreSQL database: who runs a game's bots, and how an action stored by one
server reaches the sockets of the others.

- Every accepted append NOTIFYs the channel `ttr` with `a|GAME|VERSION|SEAT|ACTION|SERVER`, in the append's
  own statement (delivered at its commit; `ttr.server.pg_async`, on the event loop). The server that stored
  it skips its own notification; another with that game in memory one version behind applies the action
  and sends its own sockets the update; one further behind reads the missing actions from the log
  (`GameManager.catch_up`). The LISTEN is an async connection on the event loop (`AsyncPostgres.listen`);
  when it breaks, every game in memory reads the log once it is back.
- Presence: a server tells the others which seats of a game have sockets on it (`p|GAME|SERVER|SEATS`) when
  that changes, and when asked (`q|GAME`, sent by a server that has just loaded the game); each server
  sends `h|SERVER` every `RENEW` seconds, and the presence of a server not heard for `LEASE` seconds is
  dropped. The seat list of every page counts the seats connected anywhere.
- Notices of the features beside the games (`o|KIND|...`: a game's clock changed) go to
  `GameManager.notice`.
- Leases (`ttr_leases`: game, owner, expiry): exactly one server at a time runs a game's bots and timers.
  The creator takes the lease of a new game (one `INSERT ... ON CONFLICT`); every `RENEW` seconds a thread
  of each server, on a connection of its own (so neither a busy event loop nor queued appends make it
  late), renews all its leases in one `UPDATE` (expiry `LEASE` seconds ahead), sends the heartbeat, and
  finds the running games whose lease lapsed (their server died); the event loop then takes them over
  (within `LEASE + RENEW` seconds) and loads them beside the renewals. A finished game's lease is deleted.
  Appends stay compare-and-set on the version, so even two owners for a moment never store two actions at
  one version.

`LocalCluster` is the single-server case (SQLite, the in-memory store): this server owns every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from typing import TYPE_CHECKING, Any, Protocol

from ttr.server.pg_async import AsyncPostgres

if TYPE_CHECKING:
    from ttr.server.rooms import GameManager
    from ttr.server.sql_store import SqlStore

log = logging.getLogger("ttr.server")

CHANNEL = "ttr"
RENEW = 2.0  # seconds between lease renewals, takeovers and heartbeats
LEASE = 6.0  # seconds a lease lasts unrenewed (a dead server's games are taken over within LEASE + RENEW)
TAKE_AT_ONCE = 200  # lapsed leases taken in one round

# The leases' statements (psycopg parameters), each one round trip in autocommit.
CLAIM = """
INSERT INTO ttr_leases (game_id, owner, expires) VALUES (%(gid)s, %(me)s, %(until)s)
ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires
WHERE ttr_leases.expires < %(now)s OR ttr_leases.owner = EXCLUDED.owner
RETURNING game_id
"""
RENEW_ALL = "UPDATE ttr_leases SET expires = %s WHERE owner = %s RETURNING game_id"
LAPSED = """
SELECT g.id FROM ttr_games g LEFT JOIN ttr_leases l ON l.game_id = g.id
WHERE g.status = 'running' AND ((l.game_id IS NULL AND g.created < %(born)s) OR l.expires < %(now)s)
LIMIT %(limit)s
"""
RELEASE = "DELETE FROM ttr_leases WHERE game_id = %s AND owner = %s"  # a finished game needs no lease
RELEASE_ALL = "UPDATE ttr_leases SET expires = 0 WHERE game_id = ANY(%s) AND owner = %s"


class Cluster(Protocol):
    """How this server shares its games with other servers on the same database."""

    server_id: str
    shared: bool  # whether other servers may serve the same games

    def owns(self, game_id: str) -> bool:
        """Whether this server runs the game's bots and timers."""
        ...

    async def claim(self, game_id: str) -> bool:
        """Take the game's lease if it is free or lapsed; whether this server owns it now."""
        ...

    async def release(self, game_id: str) -> None:
        """Give up the game's lease (it is over)."""
        ...

    def presence(self, game_id: str, seats: set[int]) -> None:
        """Tell the other servers which seats of the game have sockets here."""
        ...

    def ask_presence(self, game_id: str) -> None:
        """Ask the other servers which seats of the game have sockets there."""
        ...

    def notify(self, notice: str) -> None:
        """Send the other servers a notice of a feature beside the games (`GameManager.notice`)."""
        ...

    async def start(self, manager: GameManager) -> None:
        """Begin (listening, renewing)."""
        ...

    async def stop(self) -> None:
        """End: leases are let lapse by being given up."""
        ...


class LocalCluster:
    """One server alone on its database: it owns every game, and there is nobody to tell."""

    shared = False

    def __init__(self) -> None:
        self.server_id = "local"

    def owns(self, game_id: str) -> bool:
        """Always."""
        return True

    async def claim(self, game_id: str) -> bool:
        """Always owned."""
        return True

    async def release(self, game_id: str) -> None:
        """Nothing to give up."""

    def presence(self, game_id: str, seats: set[int]) -> None:
        """Nobody to tell."""

    def ask_presence(self, game_id: str) -> None:
        """Nobody to ask."""

    def notify(self, notice: str) -> None:
        """Nobody to tell."""

    async def start(self, manager: GameManager) -> None:
        """Nothing to start."""

    async def stop(self) -> None:
        """Nothing to stop."""


class PostgresCluster:
    """Servers sharing one PostgreSQL database: LISTEN/NOTIFY for actions and presence, lease rows for bots."""

    shared = True

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.server_id = secrets.token_hex(6)
        self.owned: set[str] = set()
        self.heard: dict[str, float] = {}  # server -> when it was last heard (monotonic)
        self._manager: GameManager | None = None
        self._listener: asyncio.Task[None] | None = None
        self._renewer: threading.Thread | None = None
        self._stop = threading.Event()
        self._sending: set[asyncio.Task[None]] = set()
        # the leases' statements on a connection of their own, so that renewals never wait behind the appends
        self.leases = AsyncPostgres(store.libpq_url(), size=1)

    # ------------------------------------------------------------------ leases

    def owns(self, game_id: str) -> bool:
        """Whether this server holds the game's lease (as of its last renewal or claim)."""
        return game_id in self.owned

    async def claim(self, game_id: str) -> bool:
        """Take the game's lease if free or lapsed (one statement)."""
        if await self.leases.rows(CLAIM, {"gid": game_id, "me": self.server_id, "now": time.time(),
                                          "until": time.time() + LEASE}):
            self.owned.add(game_id)
            return True
        return False

    async def release(self, game_id: str) -> None:
        """Give up a finished game's lease."""
        if game_id in self.owned:
            self.owned.discard(game_id)
            with contextlib.suppress(Exception):
                await self.leases.rows(RELEASE, (game_id, self.server_id))

    def _renew_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        """In a thread of its own, on a connection of its own, every `RENEW` seconds: renew this server's
        leases, find the running games whose lease lapsed (or that have none, but for those just created: their
        creator is taking their lease) and send the heartbeat. However busy the event loop, a live server's
        leases and heartbeats stay on time; the loop is then handed what was found (`_renewed`)."""
        import psycopg

        conn: Any = None
        while not self._stop.is_set():
            began = time.monotonic()
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.store.libpq_url(), autocommit=True)
                now = time.time()
                held = set(self.owned)  # a lease claimed during the renewal is not lost
                mine = {row[0] for row in conn.execute(RENEW_ALL, (now + LEASE, self.server_id))}
                lapsed = [row[0] for row in conn.execute(LAPSED, {"now": now, "born": now - LEASE,
                                                                  "limit": TAKE_AT_ONCE})]
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"h|{self.server_id}"))
                loop.call_soon_threadsafe(self._renewed, held, mine, lapsed)
            except RuntimeError:  # the loop closed
                break
            except Exception:
                log.exception("lease renewal failed; trying again")
                with contextlib.suppress(Exception):
                    if conn is not None:
                        conn.close()
                conn = None
            self._stop.wait(max(0.0, RENEW - (time.monotonic() - began)))
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _renewed(self, held: set[str], mine: set[str], lapsed: list[str]) -> None:
        """On the loop, after a renewal: forget the leases lost, take the lapsed ones, drop the sockets of
        servers not heard from."""
        manager = self._manager
        if manager is None or manager.stopping:
            return
        lost = held - mine
        self.owned -= lost
        for game_id in lost:
            log.warning("lost the lease of game %s to another server", game_id)
        if lapsed:
            manager.spawn(self._take(manager, lapsed))
        cutoff = time.monotonic() - LEASE
        for server in [s for s, at in self.heard.items() if at < cutoff]:
            del self.heard[server]
            manager.server_gone(server)

    async def _take(self, manager: GameManager, lapsed: list[str]) -> None:
        """Claim lapsed leases, and load their games (a dead server's thousand games take a while)."""
        for game_id in lapsed:
            if manager.stopping:
                return
            if await self.claim(game_id):
                await manager.adopt(game_id)

    # ------------------------------------------------------------------ notifications

    def _send(self, payload: str) -> None:
        manager = self._manager
        aio = self.store.aio
        if manager is None or manager.stopping or aio is None:
            return
        task = asyncio.get_running_loop().create_task(aio.notify(CHANNEL, payload))
        self._sending.add(task)
        task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("notify failed: %s", task.exception())

    def presence(self, game_id: str, seats: set[int]) -> None:
        """Tell the others the seats of `game_id` with sockets here."""
        self._send(f"p|{game_id}|{self.server_id}|{','.join(str(s) for s in sorted(seats))}")

    def ask_presence(self, game_id: str) -> None:
        """Ask the others for their seats of `game_id`."""
        self._send(f"q|{game_id}")

    def notify(self, notice: str) -> None:
        """Send the others `o|NOTICE` (`GameManager.notice` reads it there)."""
        self._send(f"o|{notice}")

    def _listening(self, first: asyncio.Event) -> None:
        """The LISTEN is in place: the first time, the server may start; after its connection broke (and
        notifications may have been missed), every game in memory reads the log, now that no notification
        of a later action can be missed."""
        if not first.is_set():
            first.set()
            return
        manager = self._manager
        if manager is not None and not manager.stopping:
            manager.catch_up_all()

    def _received(self, payload: str) -> None:
        manager = self._manager
        if manager is None or manager.stopping:
            return
        parts = payload.split("|")
        try:
            kind = parts[0]
            if kind == "a":
                if len(parts) > 5 and parts[5] == self.server_id:
                    return  # this server's own action, applied already
                manager.remote_action(parts[1], int(parts[2]), int(parts[3]), int(parts[4]))
            elif kind == "p" and parts[2] != self.server_id:
                self.heard[parts[2]] = time.monotonic()
                seats = {int(s) for s in parts[3].split(",") if s}
                manager.remote_presence(parts[1], parts[2], seats)
            elif kind == "q":
                seats = manager.local_seats(parts[1])
                if seats:
                    self.presence(parts[1], seats)
            elif kind == "h" and parts[1] != self.server_id:
                self.heard[parts[1]] = time.monotonic()
            elif kind == "o":
                manager.notice(parts[1:])
        except (IndexError, ValueError):
            log.warning("unreadable notification %r", payload[:100])

    async def start(self, manager: GameManager) -> None:
        """Start listening (waits until the LISTEN is in place) and renewing leases."""
        self._manager = manager
        aio = self.store.aio
        assert aio is not None
        listening = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(aio.listen(CHANNEL, self._received, lambda: self._listening(listening)))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(listening.wait(), 30.0)
        self._renewer = threading.Thread(target=self._renew_thread, args=(loop,), name="ttr-leases", daemon=True)
        self._renewer.start()

    async def stop(self) -> None:
        """Stop renewing, give up every lease (another server takes the games at once), stop listening."""
        self._stop.set()
        if self._renewer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._renewer.join, 10.0)
        owned, self.owned = list(self.owned), set()
        if owned:
            with contextlib.suppress(Exception):
                await self.leases.rows(RELEASE_ALL, (owned, self.server_id))
        for task in [self._listener, *self._sending]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await self.leases.close()


def make_cluster(store: Any) -> Cluster:
    """The cluster of a store: PostgreSQL is shared by any number of servers; anything else is one server's."""
    if getattr(store, "dialect", None) == "postgresql":
        return PostgresCluster(store)
    return LocalCluster()
