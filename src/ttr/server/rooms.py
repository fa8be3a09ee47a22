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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ttr.bots import BOTS
from ttr.engine import Game
from ttr.maps import BUILTIN_MAPS
from ttr.server import custom_maps
from ttr.server.bot_pool import BotPool
from ttr.server.config import LEVEL_TEXT, LEVELS, ApiError, ServerConfig
from ttr.server.connection import Connection
from ttr.server.programs import PREFIX, ProgramSeats, program_label
from ttr.server.protocol import ProtocolError
from ttr.server.room import Room
from ttr.server.stats import ActionTimes
from ttr.server.store import RUNNING, GameInfo, GameStore, SeatInfo, StaleVersionError, StoreError
from ttr.server.views import seats_json, summary_json, view_for, winner_seats

log = logging.getLogger("ttr.server")
T = TypeVar("T")

MAX_NAME = 40
CREATE_FIELDS = ("map", "seats", "when_people_leave", "seed", "bot_delay")  # what a create-game body may hold
SEAT_FIELDS = ("type", "name", "level")  # ... and each of its seats


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class GameManager:
    """Creates, loads, plays and broadcasts games; the transport (FastAPI) calls it."""

    KEEP_FINISHED = 32  # finished games kept in memory without connections (for replays)

    def __init__(self, store: GameStore, pool: BotPool, config: ServerConfig) -> None:
        self.store = store
        self.pool = pool
        self.config = config
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        # A local store (in memory, or a SQLite file in WAL mode: a commit takes well under a millisecond) is
        # called on the event loop: a hop to a thread costs more than the call under load (the GIL's switch
        # interval). A networked database (PostgreSQL, ...) is called from worker threads.
        self._inline = bool(getattr(store, "inline_ok", False))
        self._db = ThreadPoolExecutor(4, thread_name_prefix="ttr-db")
        self.times = ActionTimes()
        self._timers: set[asyncio.TimerHandle] = set()
        self._resumer: asyncio.Task[None] | None = None
        self.stopping = False
        self.programs = ProgramSeats(config.program_time, config.program_idle)  # seats played by programs (`cmd:` bots)
        self._endings: set[asyncio.Task[None]] = set()  # programs being sent the end of their game

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call: inline for a local store, else in a worker thread."""
        if self._inline:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Start loading every running game in the background and let its bots go on (after a restart,
        games resume where they were); requests for a game not loaded yet load it at once."""
        self._resumer = asyncio.get_running_loop().create_task(self._resume_all())

    async def _resume_all(self) -> None:
        infos = await self.db(self.store.list_games, 0, RUNNING)
        for info in infos:
            if self.stopping:
                return
            fresh = info.id not in self.rooms
            try:
                room = await self.room(info.id)
            except Exception:
                log.exception("cannot load game %s", info.id)
                continue
            if room is None:
                continue
            seats = room.info.seats
            came = any(seats[p].type == "human" for p, _aid, _detail in room.game.history)
            if fresh and came and not room.people_here():  # its people were here before the restart
                room.people_left_at = time.time()
                for seat in {p for p, _aid, _detail in room.game.history if seats[p].type == "human"}:
                    room.seat_left_at[seat] = room.people_left_at
                self._arm_leave_timer(room)
            self._schedule(room)
            await asyncio.sleep(0)

    async def stop(self) -> None:
        """Stop the bot tasks and close the store."""
        self.stopping = True
        if self._resumer is not None:
            self._resumer.cancel()
            with contextlib.suppress(BaseException):
                await self._resumer
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
        self._db.shutdown(wait=True)
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
        stored = await self.db(self.store.actions, game_id)
        game = Game.new(custom_maps.game_map_for(info), [s.name for s in info.seats], seed=info.seed)
        for action in stored:
            if action.seat != game.current:
                raise StoreError(f"game {game_id}: stored action {action.version} is by seat {action.seat}, "
                                 f"but seat {game.current} was to move")
            game.apply_id(action.action_id)
        info.version = len(game.history)
        room = self.rooms[game_id] = Room(info, game)
        self._trim()
        return room

    def _trim(self) -> None:
        """Forget the least recently used finished games nobody watches, past `KEEP_FINISHED` (they are
        loaded again from the store when asked for)."""
        idle = [r for r in self.rooms.values() if r.game.is_over and not r.conns]
        if len(idle) <= self.KEEP_FINISHED:
            return
        idle.sort(key=lambda r: r.last_used)
        for room in idle[:len(idle) - self.KEEP_FINISHED]:
            del self.rooms[room.info.id]

    async def create(self, body: Any) -> dict[str, Any]:
        """Create a game from a `POST /api/games` body; the answer holds each human seat's token, once."""
        info, tokens = self._parse_create(body)
        await self.db(self.store.create_game, info)
        game = Game.new(custom_maps.game_map_for(info), [s.name for s in info.seats], seed=info.seed)
        room = self.rooms[info.id] = Room(info, game)
        self._schedule(room)
        seats = []
        for i, s in enumerate(info.seats):
            entry: dict[str, Any] = {"seat": i, "name": s.name, "type": s.type, "level": s.level}
            if i in tokens:
                entry["token"] = tokens[i]
            seats.append(entry)
        return {"id": info.id, "map": info.map, "seats": seats}

    def _parse_create(self, body: Any) -> tuple[GameInfo, dict[int, str]]:
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
            if kind == "human":
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                token_hash = hash_token(token)
            seats.append(SeatInfo(name, kind, level, token_hash))
        when = body.get("when_people_leave", "finish")
        if when not in ("finish", "wait"):
            raise bad(f"'when_people_leave' must be 'finish' or 'wait', got {str(when)[:20]!r}")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(53)
        elif not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise bad("'seed' must be an integer from 0 to 2**63 - 1")
        delay = body.get("bot_delay", self.config.bot_delay)
        if not isinstance(delay, int | float) or isinstance(delay, bool) or not 0 <= delay <= 10:
            raise bad("'bot_delay' must be a number of seconds from 0 to 10")
        info = GameInfo(id=secrets.token_hex(6), map=map_name, seed=seed, seats=seats, when_people_leave=when,
                        bot_delay=float(delay), created=time.time(), extra=custom_maps.extra_for(map_name))
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

    async def join(self, conn: Connection, room: Room, token: str | None) -> None:
        """Attach `conn` to its seat (by token) or as a spectator, and send it the snapshot."""
        seat: int | None = None
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
        conn.push(room.message("snapshot", seat))
        if changed:
            self._seats_changed(room, skip=conn)

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

    async def apply(self, room: Room, seat: int, version: int, action_id: int) -> None:
        """Check, store, apply and broadcast one action of `seat` (people and bots alike)."""
        async with room.lock:
            game = room.game
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
            try:
                await self.db(self.store.append_action, room.info.id, version, seat, action_id)
            except StaleVersionError as exc:
                raise ProtocolError("stale_version", str(exc)) from None
            game.apply_id(action_id)
            room.info.version = room.version
            if game.is_over:
                winners = winner_seats(game)
                await self.db(self.store.finish, room.info.id, room.version, winners)
                room.info.status, room.info.winners = "finished", winners
                room.last_used = time.monotonic()
            self._broadcast(room)
            if game.is_over:
                self._trim()
                self._end_programs(room)
        self._schedule(room)

    def _end_programs(self, room: Room) -> None:
        """Send the end of the game to its programs, off the lock (each may take a second to close)."""
        ending = asyncio.get_running_loop().create_task(self.programs.end(room.info.id, room.game))
        self._endings.add(ending)
        ending.add_done_callback(self._endings.discard)

    def _broadcast(self, room: Room) -> None:
        for c in room.conns:
            c.push(room.message("update", c.seat))

    async def hint(self, conn: Connection) -> dict[str, Any]:
        """The `hint` message for the connection's seat (it must be that seat's turn); worked out once per
        version of the game (the hint's search is reproducible, so asking again gets the same answer)."""
        room = conn.room
        if room is None or not conn.joined:
            raise ProtocolError("join_first", "send 'join' first")
        if conn.seat is None:
            raise ProtocolError("spectator", "spectators get no hints: join with a seat's token")
        game = room.game
        if game.is_over:
            raise ProtocolError("game_over", "the game is over")
        if conn.seat != game.current:
            raise ProtocolError("not_your_turn", f"it is seat {game.current}'s turn: hints are for your turn")
        version = room.version
        if room.hint is not None and room.hint[0] == version:  # asked again: the search gives the same answer
            return dict(room.hint[1])
        ids, actions, _ = room.legal()
        view = view_for(game, conn.seat)
        view["map"] = custom_maps.worker_ref(room.info.map)
        index, reason, reason_i18n = await self.pool.hint(view["map"], view, list(actions))
        message = {"type": "hint", "id": ids[index], "text": str(actions[index]), "reason": reason,
                   "reason_i18n": reason_i18n, "version": version}
        room.hint = (version, message)
        return dict(message)

    # ------------------------------------------------------------------ bots

    def _bot_level(self, room: Room) -> str | None:
        """The bot that plays the seat to move, if any: its own, or the stand-in for people who left."""
        game = room.game
        if game.is_over or self.stopping:
            return None
        if room.version >= self.config.bot_action_limit:
            if not room.bots_stopped:
                room.bots_stopped = True
                log.error("game %s has %d actions, the most bots play in a game (bot_action_limit): the bots "
                          "stop moving in it", room.info.id, room.version)
                room.forget_messages()
                for c in room.conns:  # the whole state again, now with `bots_stopped`: the pages say so
                    c.push(room.message("snapshot", c.seat))
            return None
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
            view = view_for(game, seat)
            view["map"] = custom_maps.worker_ref(room.info.map)
            ids, actions, _ = room.legal()
            seed = (room.info.seed * 1_000_003 + version) % 2**63
            try:
                if level.startswith(PREFIX):
                    index = await self.programs.choose(room.info.id, game, seat, level, list(actions),
                                                       (room.info.seed * 1_000_003 + seat) % 2**63)
                else:
                    index = await self.pool.choose(level, view["map"], seat, seed, view, list(actions))
            except Exception:
                log.exception("bot %s failed in game %s at version %d; it plays its first legal action",
                              level, room.info.id, version)
                index = 0
            if room.version != version:
                continue
            try:
                await self.apply(room, seat, version, ids[index])
            except ProtocolError as exc:
                log.warning("bot move refused in game %s: %s", room.info.id, exc.message)
                await asyncio.sleep(0.05)


__all__ = ["LEVELS", "LEVEL_TEXT", "ApiError", "Connection", "GameManager", "Room", "ServerConfig", "hash_token"]
