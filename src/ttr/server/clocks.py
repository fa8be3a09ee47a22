"""Clocks: a game chooses at creation real time (a time per move, default 90 s, plus a reserve) or turn-based
(a time per move, default 24 h), or none. The clock of the seat to move runs for each of its decisions;
a decision that takes longer than the time per move eats into the seat's reserve. When both are gone, the
stand-in bot (`medium`) plays that decision and the game's chat log says so; after three in a row, a bot
plays the seat for the rest of the game. The page gets a `clock` message whenever the seat to move changes.

A clock is kept with its game (`ttr_clocks`: the decision it runs for, its deadline as a moment in time,
each seat's reserve and timeouts in a row, the seats a bot plays for), so it goes on across servers and
restarts: the server holding the game's lease (`ttr.server.cluster`) runs the timer, and a server that
takes the lease over, or starts again, runs it to the stored deadline. A deadline that passed while no
server ran the game gets `RESUME_GRACE` seconds from the resumption (nobody could move meanwhile). Other
servers are told when a clock changes and send it to their sockets.

Beside the clock, the same row counts, for every person's seat, the moves a bot made for it in a row (a
timeout, or the stand-in for a person who left), which the ratings read (`ttr.server.ratings`). A game
without a clock keeps only those counts.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr.server.chat import SEATS, deliver
from ttr.server.config import ApiError
from ttr.server.room import Room

if TYPE_CHECKING:
    from ttr.server.config import OnlineSettings
    from ttr.server.online import Online

LIMITS = {  # mode: (min time per move, max time per move, max reserve), in seconds
    "realtime": (1.0, 600.0, 3600.0),
    "turn": (3600.0, 7 * 86400.0, 7 * 86400.0),
}
CLOCK_FIELDS = ("mode", "move", "reserve")
IN_A_ROW = 3  # timeouts in a row after which a bot plays the seat for the rest of the game
TIMEOUT_MARK = "\x01timeout:"  # a chat line the server writes: MARK "timeout:SEAT:LEVEL" or "...:SEAT:autoplay"
RESUME_GRACE = 5.0  # seconds a seat gets when its deadline passed while no server ran the game's clock
NOTICE = "clock"  # the kind of the notice other servers get when a game's clock changed


def clock_defaults(settings: OnlineSettings | None) -> dict[str, tuple[float, float]]:
    """{mode: (default time per move, default reserve)} of the server's settings."""
    if settings is None:
        return {"realtime": (90.0, 300.0), "turn": (86400.0, 0.0)}
    return {"realtime": (settings.clock_move, settings.clock_reserve), "turn": (settings.turn_move, 0.0)}


def parse_clock(raw: Any, settings: OnlineSettings | None = None) -> dict[str, Any] | None:
    """A create-game body's `clock` (`{mode, move?, reserve?}` or null) as stored, or 400 `bad_clock`; a
    missing `move` or `reserve` is the server's default (`OnlineSettings`)."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or any(k not in CLOCK_FIELDS for k in raw):
        raise ApiError(400, "bad_clock", f"'clock' is {{mode: 'realtime' or 'turn', move?, reserve?}} "
                                         f"(fields: {', '.join(CLOCK_FIELDS)})")
    mode = raw.get("mode")
    if mode not in LIMITS:
        raise ApiError(400, "bad_clock", f"the clock's 'mode' is 'realtime' or 'turn', got {str(mode)[:20]!r}")
    low, high, max_reserve = LIMITS[mode]
    default_move, default_reserve = clock_defaults(settings)[mode]
    move, reserve = raw.get("move", default_move), raw.get("reserve", default_reserve)
    for name, value, top, bottom in (("move", move, high, low), ("reserve", reserve, max_reserve, 0.0)):
        if not isinstance(value, int | float) or isinstance(value, bool) or not bottom <= value <= top:
            raise ApiError(400, "bad_clock", f"a {mode} clock's '{name}' is {bottom:g} to {top:g} seconds")
    return {"mode": mode, "move": float(move), "reserve": float(reserve)}


def check_clock_defaults(settings: OnlineSettings) -> str | None:
    """Why the settings' clock defaults are out of range (None: they are fine)."""
    for mode, (move, reserve) in clock_defaults(settings).items():
        try:
            parse_clock({"mode": mode, "move": move, "reserve": reserve})
        except ApiError as exc:
            return exc.message
    return None


@dataclass
class RoomClock:
    """The clock of one game, as stored (`state`), with its timer on the server that runs it."""

    mode: str | None  # None: the game has no clock (only `bot_run` is kept)
    move: float
    reserves: list[float]
    in_a_row: list[int]
    bot_run: list[int]  # per seat: its latest moves a bot made in a row (0 once its person moves)
    version: int = -1  # the decision the clock runs for (the game's version)
    seat: int | None = None  # the seat whose clock runs (None: a bot's decision, or the game is over)
    started: float = 0.0
    deadline: float = 0.0
    autoplay: set[int] = field(default_factory=set)  # seats a bot plays for the rest of the game
    timed_out: int | None = None  # the version at which a bot plays the timed-out seat's decision
    timer: asyncio.TimerHandle | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one write at a time, in order

    @classmethod
    def new(cls, room: Room) -> RoomClock:
        """A game's clock before its first decision, from its settings (none: `mode` None)."""
        n = len(room.info.seats)
        settings = room.info.extra.get("clock")
        if isinstance(settings, dict):
            return cls(settings["mode"], float(settings["move"]), [float(settings["reserve"])] * n, [0] * n, [0] * n)
        return cls(None, 0.0, [0.0] * n, [0] * n, [0] * n)

    def state(self) -> dict[str, Any]:
        """What is stored (`ttr_clocks.state`)."""
        return {"mode": self.mode, "move": self.move, "reserves": self.reserves, "in_a_row": self.in_a_row,
                "bot_run": self.bot_run, "version": self.version, "seat": self.seat, "started": self.started,
                "deadline": self.deadline, "autoplay": sorted(self.autoplay), "timed_out": self.timed_out}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RoomClock:
        """The clock `state()` stored."""
        return cls(state["mode"], float(state["move"]), [float(r) for r in state["reserves"]],
                   [int(k) for k in state["in_a_row"]], [int(k) for k in state["bot_run"]], int(state["version"]),
                   state["seat"], float(state["started"]), float(state["deadline"]), set(state["autoplay"]),
                   state["timed_out"])

    def message(self) -> dict[str, Any]:
        """The `clock` message: the seat whose clock runs, its time left and deadline, the reserves, the
        bot-played seats."""
        now = time.time()
        running = self.seat is not None
        return {"type": "clock", "mode": self.mode, "move": self.move, "seat": self.seat, "version": self.version,
                "left": round(max(0.0, self.deadline - now), 2) if running else None,
                "move_left": round(max(0.0, self.started + self.move - now), 2) if running else None,
                "deadline": round(self.deadline, 3) if running else None,
                "reserves": [round(r, 1) for r in self.reserves], "autoplay": sorted(self.autoplay)}


class Clocks:
    """The clocks of the games this server has in memory: run (timers, timeouts) for the games whose lease
    it holds, read from the store for the others."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.clocks: dict[str, RoomClock] = {}

    @property
    def _store(self) -> Any:
        return self.online.store.shared

    def _owns(self, room: Room) -> bool:
        return self.online.manager.cluster.owns(room.info.id)

    def close(self) -> None:
        """Stop every timer (the server is stopping; the clocks stay stored)."""
        for clock in self.clocks.values():
            if clock.timer is not None:
                clock.timer.cancel()
        self.clocks.clear()

    # ------------------------------------------------------------------ hooks of the game manager

    def forget(self, game_id: str) -> None:
        """The game ended as abandoned, or this server no longer holds it: stop its timer and drop its clock
        from memory (the stored clock stays; the server holding the game takes it up from there)."""
        clock = self.clocks.pop(game_id, None)
        if clock is not None and clock.timer is not None:
            clock.timer.cancel()

    def taken_up(self, room: Room) -> None:
        """This server now runs the game (created it, started again, or took its lease over): its clock
        from the store, resumed to its deadline."""
        if any(s.type == "human" for s in room.info.seats):
            self.online.spawn(self._take_up(room))

    async def _take_up(self, room: Room) -> None:
        state = await self.online.db(self._store.clock, room.info.id)
        clock = self.clocks.get(room.info.id)
        if clock is None or (state is not None and state["version"] > clock.version):  # the store's is newer
            if clock is not None and clock.timer is not None:
                clock.timer.cancel()
            clock = RoomClock.from_state(state) if state is not None else RoomClock.new(room)
            self.clocks[room.info.id] = clock
        if clock.mode is None or room.game.is_over:
            return
        if clock.version == room.version and clock.seat is not None:
            clock.deadline = max(clock.deadline, time.time() + RESUME_GRACE)
            self._arm(room, clock)
            self._changed(room, clock)
        else:  # not started yet, or an action came while no server ran it: the next decision's clock
            self.run(room)

    def bot_level(self, room: Room) -> str | None:
        """The stand-in bot when the seat to move timed out on this decision or a bot plays it for good."""
        clock = self.clocks.get(room.info.id)
        if clock is None or clock.mode is None or room.game.is_over:
            return None
        seat = room.game.current
        if seat in clock.autoplay or (clock.timed_out == room.version and clock.seat == seat):
            return self.online.manager.config.standin_level
        return None

    def after_action(self, room: Room, seat: int) -> None:
        """An action was applied (here, or by another server and read here): the game's owner charges the
        seat's time, counts its timeouts and the moves a bot made for it, and starts the next decision's clock."""
        if not self._owns(room):
            return
        clock = self.clocks.get(room.info.id)
        if clock is None:
            self.taken_up(room)
            return
        by_bot = room.bot_task is not None and asyncio.current_task() is room.bot_task  # a timeout, a stand-in
        counted = False
        if room.info.seats[seat].type == "human":
            run = clock.bot_run[seat] + 1 if by_bot else 0
            counted, clock.bot_run[seat] = run != clock.bot_run[seat], run
        if clock.mode is None:
            if counted or room.game.is_over:
                self._changed(room, clock)
            return
        if clock.seat == seat and clock.version == room.version - 1:
            if clock.timed_out == clock.version:
                clock.timed_out = None
            else:  # charge the time past the move's allowance to the reserve
                used = time.time() - clock.started
                clock.reserves[seat] = max(0.0, clock.reserves[seat] - max(0.0, used - clock.move))
                if not by_bot:
                    clock.in_a_row[seat] = 0
        self.run(room)

    def run(self, room: Room) -> None:
        """On the game's owner: start the clock of the decision now to be made (if it is a person's), store
        it, and tell the game's sockets and the other servers."""
        clock = self.clocks.get(room.info.id)
        if clock is None or clock.mode is None or not self._owns(room):
            return
        if clock.version == room.version and clock.seat is not None:
            return  # running already
        if clock.timer is not None:
            clock.timer.cancel()
            clock.timer = None
        game = room.game
        clock.version = room.version
        clock.seat = None
        if not game.is_over:
            seat = game.current
            if room.info.seats[seat].type == "human" and seat not in clock.autoplay:
                clock.seat, clock.started = seat, time.time()
                clock.deadline = clock.started + clock.move + clock.reserves[seat]
                self._arm(room, clock)
        self._changed(room, clock)

    def _arm(self, room: Room, clock: RoomClock) -> None:
        if clock.timer is not None:
            clock.timer.cancel()
        clock.timer = asyncio.get_running_loop().call_later(max(0.0, clock.deadline - time.time()), self._fire,
                                                            room, clock.version)

    def _changed(self, room: Room, clock: RoomClock) -> None:
        """Send the clock to the game's sockets here; store it, then tell the other servers."""
        if clock.mode is not None:
            message = json.dumps(clock.message())
            for c in room.conns:
                c.push(message)
        self.online.spawn(self._save(room, clock))

    async def _save(self, room: Room, clock: RoomClock) -> None:
        async with clock.lock:
            await self.online.db(self._store.save_clock, room.info.id, clock.state(), time.time())
        self.online.manager.cluster.notify(f"{NOTICE}|{room.info.id}")
        if room.game.is_over and self.clocks.get(room.info.id) is clock:
            del self.clocks[room.info.id]  # kept in the store (the ratings read it)

    def joined(self, room: Room, conn: Any) -> None:
        """A socket joined: send it the clock (read from the store when another server runs it)."""
        clock = self.clocks.get(room.info.id)
        if clock is not None and self._owns(room):
            if clock.mode is not None and not room.game.is_over:
                conn.push(json.dumps(clock.message()))
            return
        if isinstance(room.info.extra.get("clock"), dict) and not room.game.is_over:
            self.online.spawn(self._send_stored(room, [conn]))

    def noticed(self, parts: list[str]) -> None:
        """Another server changed a game's clock: send it to this server's sockets on that game."""
        room = self.online.manager.rooms.get(parts[0]) if parts else None
        if room is not None and room.conns and not self._owns(room):
            self.online.spawn(self._send_stored(room, list(room.conns)))

    async def _send_stored(self, room: Room, conns: list[Any]) -> None:
        state = await self.online.db(self._store.clock, room.info.id)
        if state is None or state["mode"] is None:
            return
        message = json.dumps(RoomClock.from_state(state).message())
        for c in conns:
            c.push(message)

    async def bot_runs(self, game_id: str) -> list[int] | None:
        """Per seat, the moves a bot made for it in a row at the end (None: nothing recorded)."""
        clock = self.clocks.get(game_id)
        if clock is not None:  # this server runs the game: its count is the newest
            return list(clock.bot_run)
        state = await self.online.db(self._store.clock, game_id)
        return [int(k) for k in state["bot_run"]] if state is not None else None

    def _fire(self, room: Room, version: int) -> None:
        clock = self.clocks.get(room.info.id)
        if (clock is None or clock.version != version or room.version != version or clock.seat is None
                or not self._owns(room)):
            return
        seat = clock.seat
        clock.timer = None
        clock.reserves[seat] = 0.0
        clock.in_a_row[seat] += 1
        clock.timed_out = version
        level = self.online.manager.config.standin_level
        note = f"{TIMEOUT_MARK}{seat}:{level}"
        if clock.in_a_row[seat] >= IN_A_ROW:
            clock.autoplay.add(seat)
            note = f"{TIMEOUT_MARK}{seat}:autoplay"
        self.online.spawn(self._note(room, seat, note))
        self._changed(room, clock)
        self.online.manager.schedule(room)

    async def _note(self, room: Room, seat: int, note: str) -> None:
        name = room.info.seats[seat].name
        now = time.time()
        n = await self.online.db(self.online.store.add_chat, room.info.id, SEATS, None, name, note, room.version, now)
        deliver(self.online, room, {"n": n, "channel": SEATS, "seat": None, "name": name, "text": note,
                                    "version": room.version, "time": now})
