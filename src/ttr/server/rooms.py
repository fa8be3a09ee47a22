"""The live games: the `GameManager` creates, loads (replaying the store), plays and broadcasts the games,
one `Room` each (`ttr.server.room`), and drives their bots.

Order of checks for an action (docs/web-protocol.md): the connection's seat (its token was checked at
`join`), the game not over, the version (compare-and-set: an action sent from an older state is stale
whoever is to move now), the seat to move, then the rules. An accepted
action is stored (append-only, compare-and-set on the version) before it is applied and broadcast; all of
it happens under the game's lock, so of two simultaneous actions one applies and the other is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ttr.bots import BOTS
from ttr.engine import Game, SeatView
from ttr.maps import BUILTIN_MAPS
from ttr.server import custom_maps
from ttr.server.bot_pool import BotPool
from ttr.server.clocks import parse_clock
from ttr.server.cluster import CHANNEL, Cluster, make_cluster
from ttr.server.config import LEVEL_TEXT, LEVELS, ApiError, ServerConfig
from ttr.server.connection import Connection
from ttr.server.metrics import Metrics
from ttr.server.programs import PREFIX, ProgramSeats, program_label
from ttr.server.protocol import ProtocolError
from ttr.server.rate_limits import RateLimits
from ttr.server.room import Room
from ttr.server.stats import ActionTimes
from ttr.server.store import (
    ABANDONED,
    FINISHED,
    RUNNING,
    GameInfo,
    GameStore,
    SeatInfo,
    StaleVersionError,
    StoredAction,
    StoreError,
)
from ttr.server.views import seats_json, summary_json, winner_seats

log = logging.getLogger("ttr.server")
T = TypeVar("T")

MAX_NAME = 40
DB_THREADS = 16  # threads calling a networked store (ttr.server.sql_store.POOL_SIZE connections)
CREATE_FIELDS = ("map", "seats", "when_people_leave", "seed", "bot_delay", "clock")  # what a create-game body may hold
SEAT_FIELDS = ("type", "name", "level")  # ... and each of its seats


def hash_token(token: str) -> str:
    """The stored form of a seat token. Any text hashes (a lone surrogate such as the JSON `"\\ud800"` is
    encoded as it stands), so a token that matches no seat is `bad_token`, never a server fault."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class GameManager:
    """Creates, loads, plays and broadcasts games; the transport (FastAPI) calls it."""

    KEEP_FINISHED = 32  # finished games kept in memory without connections (for replays)

    def __init__(self, store: GameStore, pool: BotPool, config: ServerConfig, cluster: Cluster | None = None) -> None:
        self.store = store
        self.cluster: Cluster = cluster if cluster is not None else make_cluster(store)
        self.pool = pool
        self.config = config
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        # A local store (in memory, or a SQLite file in WAL mode: a commit takes well under a millisecond) is
        # called on the event loop: a hop to a thread costs more than the call under load (the GIL's switch
        # interval). A networked database is called from worker threads, as many as the store keeps connections
        # (`DB_THREADS`); on PostgreSQL an action's own calls (the append, reading newer actions) are made on
        # the event loop through the store's async connections instead (`store.aio`: no thread hand-off).
        self._inline = bool(getattr(store, "inline_ok", False))
        self._db = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="ttr-db")
        self._aio: Any = getattr(store, "aio", None)  # PostgreSQL: the action path's calls on the loop (pg_async)
        self.times = ActionTimes()
        self._timers: set[asyncio.TimerHandle] = set()
        self._resumer: asyncio.Task[None] | None = None
        self.stopping = False
        self.programs = ProgramSeats(config.program_time, config.program_idle)  # seats played by programs (`cmd:` bots)
        self._endings: set[asyncio.Task[None]] = set()  # programs being sent the end of their game
        self.limits = RateLimits(config)
        self.metrics = Metrics(
            sockets=lambda: sum(len(r.conns) for r in self.rooms.values()),
            running=lambda: sum(1 for r in self.rooms.values() if not r.game.is_over and r.info.status == RUNNING),
            in_memory=lambda: len(self.rooms),
            bot_queue=lambda: sum(1 for r in self.rooms.values() if r.bot_task is not None and not r.bot_task.done()))
        self.ready = False  # set once the store answered and the cluster started (`/readyz`)
        self._sweeper: asyncio.Task[None] | None = None
        self.finish_hooks: list[Callable[[Room], Awaitable[None]]] = []  # run (as tasks) when a game finishes
        self.action_hooks: list[Callable[[Room, int], None]] = []  # run after each applied action (room, seat)
        self.bot_hooks: list[Callable[[Room], str | None]] = []  # a bot level for the seat to move (clocks), or None
        self.parse_clock: Callable[[Any], dict[str, Any] | None] = parse_clock  # a body's clock (set by online)
        self.owner_hooks: list[Callable[[Room], None]] = []  # run when this server takes a game up (created, adopted)
        self.notice_hooks: dict[str, Callable[[list[str]], None]] = {}  # other servers' notices by kind (clocks)
        self.forget_hooks: list[Callable[[str], None]] = []  # a game's id, ended as abandoned or dropped from memory

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call: inline for a local store, else in a worker thread."""
        if self._inline:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def _append(self, room: Room, version: int, seat: int, action_id: int, winners: list[int] | None) -> None:
        """Store an action (and the game's end with it); on PostgreSQL from the event loop, NOTIFYing the
        other servers with this server's id (it skips its own notifications)."""
        game_id = room.info.id
        if self._aio is None:
            await self.db(self.store.append_action, game_id, version, seat, action_id, winners)
            return
        payload = f"a|{game_id}|{version + 1}|{seat}|{action_id}|{self.cluster.server_id}"
        await self._aio.append(CHANNEL, game_id, version, seat, action_id, winners, payload)

    async def _stored_actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        """The game's stored actions from version `since` on."""
        if self._aio is None:
            return await self.db(self.store.actions, game_id, since)
        found: list[StoredAction] = await self._aio.actions(game_id, since)
        return found

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Start loading every running game in the background and let its bots go on (after a restart,
        games resume where they were); requests for a game not loaded yet load it at once. With servers
        sharing the database, this one takes the games whose lease has lapsed (`ttr.server.cluster`)."""
        await self.cluster.start(self)
        self.ready = True
        self._resumer = asyncio.get_running_loop().create_task(self._resume_all())

    async def _resume_all(self) -> None:
        try:
            await self.sweep()  # games idle too long are abandoned, not loaded
        except Exception:
            log.exception("cannot look for idle games to abandon")
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        if self.cluster.shared:  # the lease renewals take the running games nobody serves
            return
        infos = await self.db(self.store.list_games, 0, RUNNING)
        for info in infos:
            if self.stopping:
                return
            await self.adopt(info.id)
            await asyncio.sleep(0)

    async def adopt(self, game_id: str) -> None:
        """Take up a running game this server now owns (at start, or from a server that died): load it, count
        the people who had played in it as gone (they were connected before), and let its bots go on."""
        fresh = game_id not in self.rooms
        try:
            room = await self.room(game_id)
        except Exception:
            log.exception("cannot load game %s", game_id)
            return
        if room is None:
            return
        seats = room.info.seats
        came = any(seats[p].type == "human" for p, _aid, _detail in room.game.history)
        if fresh and came and not room.people_here():  # its people were here before the restart
            room.people_left_at = time.time()
            for seat in {p for p, _aid, _detail in room.game.history if seats[p].type == "human"}:
                room.seat_left_at[seat] = room.people_left_at
            self._arm_leave_timer(room)
        for hook in self.owner_hooks:
            hook(room)
        self._schedule(room)

    async def sweep(self) -> list[str]:
        """Abandon the running games idle too long (`unstarted_expiry`, `idle_expiry`): their status becomes
        `abandoned`, their bots stop, the pages watching them get a snapshot saying so. Their ids."""
        now = time.time()
        ids = await self.db(self.store.abandon_idle, now - self.config.unstarted_expiry, now - self.config.idle_expiry)
        for game_id in ids:
            room = self.rooms.get(game_id)
            if room is None:
                continue
            room.info.status = ABANDONED
            if room.bot_task is not None:
                room.bot_task.cancel()
            room.forget_messages()
            for c in room.conns:
                room.send(c, "snapshot")
            for hook in self.forget_hooks:
                hook(game_id)
        if ids:
            log.info("abandoned %d idle games", len(ids))
        return ids

    async def _sweep_loop(self) -> None:
        while not self.stopping:
            await asyncio.sleep(self.config.expiry_sweep)
            try:
                await self.sweep()
            except Exception:
                log.exception("cannot look for idle games to abandon")
            self._forget_unowned()

    def _forget_unowned(self) -> None:
        """Forget the games another server runs that nobody watches here (loaded again when asked for)."""
        cutoff = time.monotonic() - 60
        for room in list(self.rooms.values()):
            if not room.conns and room.last_used < cutoff and not self.cluster.owns(room.info.id):
                del self.rooms[room.info.id]
                for hook in self.forget_hooks:
                    hook(room.info.id)

    async def stop(self) -> None:
        """Stop the bot tasks and close the store."""
        self.stopping = True
        for task in (self._resumer, self._sweeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        for timer in self._timers:
            timer.cancel()
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task is not None and not r.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for room in self.rooms.values():
            for conn in room.conns:
                conn.close()
        for ending in list(self._endings):
            with contextlib.suppress(BaseException):
                await ending
        await self.programs.close()
        await self.cluster.stop()
        self._db.shutdown(wait=True)
        if self._aio is not None:
            await self._aio.close()
        self.store.close()

    # ------------------------------------------------------------------ games

    async def room(self, game_id: str) -> Room | None:
        """The live room of a game, loaded from the store (and replayed) on first use; None if unknown."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.last_used = time.monotonic()
            return room
        task = self._loading.get(game_id)
        if task is None:  # one load per game however many ask at once
            task = self._loading[game_id] = asyncio.ensure_future(self._load(game_id))
            task.add_done_callback(lambda _done: self._loading.pop(game_id, None))
        return await asyncio.shield(task)

    async def _load(self, game_id: str) -> Room | None:
        info = await self.db(self.store.get_game, game_id)
        if info is None:
            return None
        stored = await self._stored_actions(game_id)
        game = Game.new(custom_maps.game_map_for(info), [s.name for s in info.seats], seed=info.seed)
        for action in stored:
            if action.seat != game.current:
                raise StoreError(f"game {game_id}: stored action {action.version} is by seat {action.seat}, "
                                 f"but seat {game.current} was to move")
            game.apply_id(action.action_id)
        info.version = len(game.history)
        if game.is_over and info.status == RUNNING:  # its last action was stored but not its end
            info.status, info.winners = FINISHED, winner_seats(game)
            log.warning("game %s: its stored actions end it; marked finished", game_id)
            with contextlib.suppress(StaleVersionError):  # another server did it first
                await self.db(self.store.finish, game_id, info.version, info.winners)
        room = self.rooms[game_id] = Room(info, game)
        self._trim()
        if self.cluster.shared:
            self.cluster.ask_presence(game_id)  # who is connected to it on the other servers
            self._spawn(self.catch_up(room))  # an action stored while it was loading
        return room

    def spawn(self, work: Any) -> None:
        """Run `work` as a task the manager waits for when it stops."""
        self._spawn(work)

    def _spawn(self, work: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(work)
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    # ------------------------------------------------------------------ other servers (ttr.server.cluster)

    def remote_action(self, game_id: str, version: int, seat: int, action_id: int) -> None:
        """Another server stored the game's action `action_id` of `seat`, making it `version`: apply it if this
        server has the game one version behind, read the log if further behind."""
        room = self.rooms.get(game_id)
        if room is not None and room.version < version:
            self._spawn(self.catch_up(room, (version - 1, seat, action_id)))

    def catch_up_all(self) -> None:
        """Catch every game in memory up with the log (notifications may have been missed)."""
        for room in list(self.rooms.values()):
            self._spawn(self.catch_up(room))

    async def catch_up(self, room: Room, known: tuple[int, int, int] | None = None) -> None:
        """Apply the actions other servers stored since this room's version, and broadcast them; `known` is
        one of them (version, seat, action id), applied without reading the log when it is the next one."""
        try:
            async with room.lock:
                await self._catch_up_locked(room, known)
        except Exception:
            log.exception("cannot catch game %s up with the log", room.info.id)
        self._schedule(room)

    async def _catch_up_locked(self, room: Room, known: tuple[int, int, int] | None = None) -> bool:
        """Under the room's lock: read and apply the newer stored actions; whether there were any."""
        if room.game.is_over or (known is not None and known[0] < room.version):  # nothing new (applied already)
            return False
        if known is not None and known[0] == room.version:
            stored = [StoredAction(*known)]
        else:
            stored = await self._stored_actions(room.info.id, room.version)
        if not stored:
            return False
        game = room.game
        for action in stored:
            if action.version != room.version or action.seat != game.current:
                raise StoreError(f"game {room.info.id}: stored action {action.version} does not follow "
                                 f"version {room.version}")
            game.apply_id(action.action_id)
        room.info.version = room.version
        if game.is_over:
            room.info.status, room.info.winners = FINISHED, winner_seats(game)
            room.last_used = time.monotonic()
        self._broadcast(room)
        for action_hook in self.action_hooks:  # the clock of the decision now to be made (its owner runs it)
            action_hook(room, stored[-1].seat)
        if game.is_over:
            self._trim()
            self._end_programs(room)
            await self.cluster.release(room.info.id)
        return True

    def local_seats(self, game_id: str) -> set[int]:
        """The seats of the game with sockets on this server."""
        room = self.rooms.get(game_id)
        return room.local_seats() if room is not None else set()

    def remote_presence(self, game_id: str, server: str, seats: set[int]) -> None:
        """Another server says which seats of the game have sockets there."""
        room = self.rooms.get(game_id)
        if room is None:
            return
        before = room.connected_seats()
        if seats:
            room.remote[server] = seats
        else:
            room.remote.pop(server, None)
        self._presence_changed(room, before)

    def notice(self, parts: list[str]) -> None:
        """Another server's notice for a feature beside the games (`notice_hooks`, by its first part)."""
        hook = self.notice_hooks.get(parts[0]) if parts else None
        if hook is not None:
            hook(parts[1:])

    def server_gone(self, server: str) -> None:
        """A server has not been heard from for a lease's length: its sockets count as gone."""
        for room in list(self.rooms.values()):
            if server in room.remote:
                before = room.connected_seats()
                del room.remote[server]
                self._presence_changed(room, before)

    def _presence_changed(self, room: Room, before: set[int]) -> None:
        after = room.connected_seats()
        if after == before:
            return
        self._seats_changed(room)
        now = time.time()
        for seat in before - after:
            if room.info.seats[seat].type == "human":
                room.seat_left_at[seat] = now
                self._arm_leave_timer(room)
        for seat in after - before:
            room.seat_left_at.pop(seat, None)
        if room.people_here():
            room.people_left_at = None
        elif room.people_left_at is None and before - after:
            room.people_left_at = now
        self._schedule(room)

    def _trim(self) -> None:
        """Forget the least recently used finished games nobody watches, past `KEEP_FINISHED` (they are
        loaded again from the store when asked for)."""
        idle = [r for r in self.rooms.values() if r.game.is_over and not r.conns]
        if len(idle) <= self.KEEP_FINISHED:
            return
        idle.sort(key=lambda r: r.last_used)
        for room in idle[:len(idle) - self.KEEP_FINISHED]:
            del self.rooms[room.info.id]

    async def create(self, body: Any, creator: str | None = None,
                     token_hashes: dict[int, str] | None = None) -> dict[str, Any]:
        """Create a game from a `POST /api/games` body for the client `creator` (`client_key`), within its cap
        of running games; the answer holds each human seat's token, once (but for the seats of
        `token_hashes`, whose tokens the caller made: their hashes are stored)."""
        info, tokens = self._parse_create(body, token_hashes or {})
        if creator is not None:
            running = await self.db(self.store.running_by, creator)
            cap = self.config.max_running_per_client
            if running >= cap:
                raise ApiError(429, "too_many_games", f"you have {running} running games, the most this server "
                               f"lets one client have ({cap}): finish one, or let it expire")
            info.creator = creator
        await self.db(self.store.create_game, info)
        await self.cluster.claim(info.id)
        game = Game.new(custom_maps.game_map_for(info), [s.name for s in info.seats], seed=info.seed)
        room = self.rooms[info.id] = Room(info, game)
        if self.cluster.owns(info.id):
            for hook in self.owner_hooks:
                hook(room)
        self._schedule(room)
        seats = []
        for i, s in enumerate(info.seats):
            entry: dict[str, Any] = {"seat": i, "name": s.name, "type": s.type, "level": s.level}
            if i in tokens:
                entry["token"] = tokens[i]
            seats.append(entry)
        return {"id": info.id, "map": info.map, "seats": seats}

    def _parse_create(self, body: Any, token_hashes: dict[int, str]) -> tuple[GameInfo, dict[int, str]]:
        def bad(message: str, code: str = "malformed") -> ApiError:
            return ApiError(400, code, message)

        if not isinstance(body, dict):
            raise bad(f"the body is a JSON object (fields: {', '.join(CREATE_FIELDS)})")
        def refuse_unknown(obj: dict[Any, Any], allowed: tuple[str, ...], where: str = "") -> None:
            unknown = sorted(str(k)[:40] for k in obj if k not in allowed)
            if unknown:
                raise bad(f"{where}unknown field {unknown[0]!r} (fields: {', '.join(allowed)})")

        refuse_unknown(body, CREATE_FIELDS)
        map_name = body.get("map", "europe")
        if not isinstance(map_name, str) or not custom_maps.known(map_name):
            raise bad(f"unknown map {str(map_name)[:40]!r} (maps: {', '.join(BUILTIN_MAPS)}, or a custom map sent "
                      "to POST /api/maps/custom)", "unknown_map")
        rules = custom_maps.resolve(map_name).rules
        raw_seats = body.get("seats")
        if not isinstance(raw_seats, list):
            raise bad("'seats' must be a list of {type: 'human', name} or {type: 'bot', level, name?}")
        if not rules.players_min <= len(raw_seats) <= rules.players_max:
            raise bad(f"{map_name} is for {rules.players_min}-{rules.players_max} players, got {len(raw_seats)} seats",
                      "bad_seats")
        seats: list[SeatInfo] = []
        tokens: dict[int, str] = {}
        names: set[str] = set()
        for i, raw in enumerate(raw_seats):
            if not isinstance(raw, dict):
                raise bad(f"seat {i} must be an object")
            refuse_unknown(raw, SEAT_FIELDS, f"seat {i}: ")
            kind = raw.get("type")
            name = raw.get("name")
            if name is not None and not isinstance(name, str):
                raise bad(f"seat {i}: 'name' must be a string")
            name = " ".join("".join(ch for ch in (name or "") if ch.isprintable() or ch == " ").split())[:MAX_NAME]
            if kind == "human":
                level = None
                name = name or f"Player {i + 1}"
            elif kind == "bot":
                level = raw.get("level", "medium")
                if not isinstance(level, str) or not (level in BOTS or level in self.config.programs):
                    offered = ", ".join([*LEVELS, *self.config.programs])
                    cmd = (" (a program is offered only when the server was started with --bot-program)"
                           if isinstance(level, str) and level.startswith(PREFIX) else "")
                    raise bad(f"seat {i}: unknown bot level {str(level)[:40]!r} (levels: {offered}){cmd}",
                              "unknown_level")
                label = program_label(level) if level.startswith(PREFIX) else level
                name = name or f"Bot {i + 1} ({label})"[:MAX_NAME]
            else:
                raise bad(f"seat {i}: 'type' must be 'human' or 'bot', got {str(kind)[:20]!r}")
            base, n = name, 2
            while name in names:
                name = f"{base} ({n})"
                n += 1
            names.add(name)
            token_hash = None
            if kind == "human" and i in token_hashes:
                token_hash = token_hashes[i]
            elif kind == "human":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                token_hash = hash_token(token)
            seats.append(SeatInfo(name, kind, level, token_hash))
        when = body.get("when_people_leave", "finish")
        if when not in ("finish", "wait"):
            raise bad(f"'when_people_leave' must be 'finish' or 'wait', got {str(when)[:20]!r}")
        seed = body.get("seed")
        extra: dict[str, Any] = {}
        if seed is None:
            seed = secrets.randbits(53)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise bad("'seed' must be an integer from 0 to 2**63 - 1")
        elif len(tokens) > 1 and not self.config.chosen_seeds:  # its chooser would know the others' hands
            raise bad(f"'seed': a game with {len(tokens)} people gets its seed from the server; a chosen seed is "
                      "only for a game with at most one person (leave 'seed' out)")
        else:
            extra["seed_chosen"] = True
        delay = body.get("bot_delay", self.config.bot_delay)
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not 0 <= delay <= 10:
            raise bad("'bot_delay' must be a number of seconds from 0 to 10")
        info = GameInfo(id=secrets.token_hex(6), map=map_name, seed=seed, seats=seats, when_people_leave=when,
                        bot_delay=float(delay), created=time.time(), extra={**extra, **custom_maps.extra_for(map_name)})
        clock = self.parse_clock(body.get("clock"))  # ttr.server.clocks, with the server's defaults
        if clock is not None:
            info.extra["clock"] = clock
        return info, tokens

    async def summary(self, game_id: str) -> dict[str, Any] | None:
        """A game's summary, or None."""
        room = self.rooms.get(game_id)
        if room is not None:
            return summary_json(room.info, room.connected_seats(), room.bots_stopped)
        info = await self.db(self.store.get_game, game_id)
        return summary_json(info, set()) if info is not None else None

    async def list_summaries(self, limit: int) -> list[dict[str, Any]]:
        """Recent games, newest first."""
        infos = await self.db(self.store.list_games, limit, None)
        out = []
        for info in infos:
            room = self.rooms.get(info.id)
            out.append(summary_json(room.info, room.connected_seats(), room.bots_stopped) if room
                       else summary_json(info, set()))
        return out

    # ------------------------------------------------------------------ connections

    async def join(self, conn: Connection, room: Room, token: str | None, seat: int | None = None) -> None:
        """Attach `conn` to its seat (by token, or `seat` when the caller has checked it is the connection's
        account's) or as a spectator, and send it the snapshot."""
        if token is not None:
            digest = hash_token(token)
            for i, s in enumerate(room.info.seats):
                if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                    seat = i
                    break
            else:
                raise ProtocolError("bad_token", "no seat of this game has that token")
        if conn.room is not None and conn.room is not room:
            self.leave(conn)
        before = room.connected_seats()
        conn.seat, conn.joined, conn.room = seat, True, room
        room.conns.add(conn)
        if seat is not None and room.info.seats[seat].type == "human":
            room.people_left_at = None
            room.seat_left_at.pop(seat, None)
        changed = room.connected_seats() != before
        if changed:
            room.forget_messages()
        room.send(conn, "snapshot")
        if changed:
            self._seats_changed(room, skip=conn)
            self.cluster.presence(room.info.id, room.local_seats())

    def leave(self, conn: Connection) -> None:
        """Detach a closed connection; a person who left a "finish" game has a bot play their turns after the
        grace (whether or not others are still here), until they come back."""
        room = conn.room
        conn.close()
        if room is None or conn not in room.conns:
            return
        before = room.connected_seats()
        room.conns.discard(conn)
        conn.room = None
        if room.connected_seats() != before:
            self._seats_changed(room)
        if conn.seat is not None and conn.seat not in room.local_seats():
            self.cluster.presence(room.info.id, room.local_seats())
        seat = conn.seat
        if seat is not None and room.info.seats[seat].type == "human" and seat not in room.connected_seats():
            room.seat_left_at[seat] = time.time()  # a person gone: after the grace, a bot plays their turns
            self._arm_leave_timer(room)
        if not room.people_here() and room.people_left_at is None and conn.seat is not None:
            room.people_left_at = time.time()
        if room.game.is_over and not room.conns:
            self._trim()

    def _arm_leave_timer(self, room: Room) -> None:
        if room.info.when_people_leave != "finish" or room.game.is_over or self.stopping:
            return
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)
            self._schedule(room)

        handle = loop.call_later(self.config.leave_grace, fire)
        self._timers.add(handle)

    def _seats_changed(self, room: Room, skip: Connection | None = None) -> None:
        room.forget_messages()
        msg = json.dumps({"type": "seats", "seats": seats_json(room.info, room.connected_seats())})
        for c in room.conns:
            if c is not skip:
                c.push(msg)

    # ------------------------------------------------------------------ actions

    async def act(self, conn: Connection, version: int, action_id: int) -> None:
        """A seat's action from its connection; `ProtocolError` (and no change) if refused."""
        room = conn.room
        if room is None or not conn.joined:
            raise ProtocolError("join_first", "send 'join' first")
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators cannot act: join with a seat's token to play")
        await self.apply(room, conn.seat, version, action_id)
        self.metrics.actions.labels(by="person").inc()

    async def apply(self, room: Room, seat: int, version: int, action_id: int) -> None:
        """Check, store, apply and broadcast one action of `seat` (people and bots alike)."""
        async with room.lock:
            game = room.game
            if game.is_over:
                raise ProtocolError("game_over", "the game is over")
            if room.info.status != RUNNING:
                raise ProtocolError("game_over", f"the game is {room.info.status} (no action for too long)")
            if version > room.version and self.cluster.shared and await self._catch_up_locked(room):
                game = room.game  # another server's actions came first: this one is judged after them
                if game.is_over:
                    raise ProtocolError("game_over", "the game is over")
            if version != room.version:
                raise ProtocolError("stale_version", f"the game is at version {room.version}, not {version}: "
                                                     "another action came first")
            if seat != game.current:
                raise ProtocolError("not_your_turn", f"it is seat {game.current}'s turn ({game.players[game.current]})")
            why = game.why_illegal(action_id)
            if why is not None:
                rule, reason = why
                raise ProtocolError("illegal", f"{rule}: {reason}" if rule else reason, rule or None)
            # Played on a copy first, to know whether the action ends the game: its end is stored with it, in
            # one transaction, so a server stopped between the two cannot leave a finished game "running".
            trial = game.copy()
            trial.apply_id(action_id)
            winners = winner_seats(trial) if trial.is_over else None
            try:
                await self._append(room, version, seat, action_id, winners)
            except StaleVersionError as exc:
                if self.cluster.shared:  # another server stored an action first: take it up
                    await self._catch_up_locked(room)
                raise ProtocolError("stale_version", str(exc)) from None
            game.apply_id(action_id)
            room.info.version = room.version
            if winners is not None:
                room.info.status, room.info.winners = FINISHED, winners
                room.last_used = time.monotonic()
            self._broadcast(room)
            for action_hook in self.action_hooks:
                action_hook(room, seat)
            if game.is_over:
                self._trim()
                self._end_programs(room)
                self._run_hook(self.pool.forget(room.info.id))  # the bots kept for the game
                await self.cluster.release(room.info.id)
                for hook in self.finish_hooks:
                    self._run_hook(hook(room))
        self._schedule(room)

    def _end_programs(self, room: Room) -> None:
        """Send the end of the game to its programs, off the lock (each may take a second to close)."""
        ending = asyncio.get_running_loop().create_task(self.programs.end(room.info.id, room.game))
        self._endings.add(ending)
        ending.add_done_callback(self._endings.discard)

    def _run_hook(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("a finish hook failed")

        task = asyncio.get_running_loop().create_task(run())
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    def _broadcast(self, room: Room) -> None:
        for c in room.conns:
            room.send(c, "update")

    def check_hint(self, conn: Connection) -> int:
        """The seat a hint may be worked out for (joined with a seat, the game running, that seat to move);
        else `ProtocolError`."""
        room = conn.room
        if room is None or not conn.joined:
            raise ProtocolError("join_first", "send 'join' first")
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators get no hints: join with a seat's token")
        game = room.game
        if game.is_over or room.info.status != RUNNING:
            raise ProtocolError("game_over", f"the game is {room.info.status}")
        if conn.seat != game.current:
            raise ProtocolError("not_your_turn", f"it is seat {game.current}'s turn: hints are for your turn")
        return conn.seat

    async def hint(self, conn: Connection) -> dict[str, Any]:
        """The `hint` message for the connection's seat (it must be that seat's turn); worked out once per
        version of the game (the hint's search is reproducible, so asking again gets the same answer)."""
        self.check_hint(conn)
        room = conn.room
        assert room is not None and conn.seat is not None
        game = room.game
        version = room.version
        if room.hint is not None and room.hint[0] == version:  # asked again: the search gives the same answer
            return dict(room.hint[1])
        ids, actions, _ = room.legal()
        view = SeatView.of(game, conn.seat)
        index, reason, reason_i18n = await self.pool.hint(custom_maps.worker_ref(room.info.map), view, list(actions))
        message = {"type": "hint", "id": ids[index], "text": str(actions[index]), "reason": reason,
                   "reason_i18n": reason_i18n, "version": version}
        room.hint = (version, message)
        self.metrics.hints.inc()
        return dict(message)

    # ------------------------------------------------------------------ bots

    def _bot_level(self, room: Room) -> str | None:
        """The bot that plays the seat to move, if any: its own, or the stand-in for people who left."""
        game = room.game
        if game.is_over or self.stopping or room.info.status != RUNNING or not self.cluster.owns(room.info.id):
            return None
        if room.version >= self.config.bot_action_limit:
            if not room.bots_stopped:
                room.bots_stopped = True
                log.error("game %s has %d actions, the most bots play in a game (bot_action_limit): the bots "
                          "stop moving in it", room.info.id, room.version)
                room.forget_messages()
                for c in room.conns:  # the whole state again, now with `bots_stopped`: the pages say so
                    room.send(c, "snapshot")
            return None
        for hook in self.bot_hooks:
            level = hook(room)
            if level is not None:
                return level
        seat = room.info.seats[game.current]
        if seat.type == "bot":
            if seat.level is not None and seat.level.startswith(PREFIX) and seat.level not in self.config.programs:
                return self.config.standin_level  # a program this server no longer offers: never run it
            return seat.level
        left_at = room.seat_left_at.get(game.current)
        if (room.info.when_people_leave == "finish" and left_at is not None
                and game.current not in room.connected_seats()
                and time.time() - left_at >= self.config.leave_grace - 1e-3):
            return self.config.standin_level  # a person who left: the others need not wait for them
        return None

    def schedule(self, room: Room) -> None:
        """Start the game's bot task if a bot is to move (after a hook's answer changed)."""
        self._schedule(room)

    def _schedule(self, room: Room) -> None:
        if room.bot_task is not None and not room.bot_task.done():
            return
        if self._bot_level(room) is None:
            return
        room.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(room))

    async def _bot_loop(self, room: Room) -> None:
        """Play bot moves while a bot is to move (a move whose version went stale is thought again)."""
        while True:
            level = self._bot_level(room)
            if level is None:
                return
            game, version = room.game, room.version
            seat = game.current
            if room.info.bot_delay > 0:
                await asyncio.sleep(room.info.bot_delay)
                if room.version != version:
                    continue
            ids, actions, _ = room.legal()
            try:
                if level.startswith(PREFIX):
                    index = await self.programs.choose(room.info.id, game, seat, level, list(actions),
                                                       (room.info.seed * 1_000_003 + seat) % 2**63)
                else:  # the bot kept for the game and seat, built as a tournament builds it (the game's seed)
                    index = await self.pool.choose(room.info.id, level, custom_maps.worker_ref(room.info.map), seat,
                                                   room.info.seed, SeatView.of(game, seat), list(actions))
            except Exception:
                log.exception("bot %s failed in game %s at version %d; it plays its first legal action",
                              level, room.info.id, version)
                index = 0
            if room.version != version:
                continue
            try:
                await self.apply(room, seat, version, ids[index])
                self.metrics.actions.labels(by="bot").inc()
            except ProtocolError as exc:
                log.warning("bot move refused in game %s: %s", room.info.id, exc.message)
                await asyncio.sleep(0.05)


__all__ = ["LEVELS", "LEVEL_TEXT", "ApiError", "Connection", "GameManager", "Room", "ServerConfig", "hash_token"]
