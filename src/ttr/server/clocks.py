"""Clocks: a game chooses at creation real time (a time per move, default 90 s, plus a reserve) or turn-based
(a time per move, default 24 h), or none. The clock of the seat to move runs for each of its decisions;
a decision that takes longer than the time per move eats into the seat's reserve. When both are gone, the
stand-in bot (`medium`) plays that decision and the game's chat log says so; after three in a row, a bot
plays the seat for the rest of the game. The page gets a `clock` message whenever the seat to move changes.

Clocks run while the server runs: after a restart each decision's clock starts again when the game is next
joined or played.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ttr.server.config import ApiError
from ttr.server.online import Online
from ttr.server.room import Room

MODES = {  # mode: (default time per move, min, max, default reserve, max reserve), in seconds
    "realtime": (90.0, 1.0, 600.0, 300.0, 3600.0),
    "turn": (86400.0, 3600.0, 7 * 86400.0, 0.0, 7 * 86400.0),
}
CLOCK_FIELDS = ("mode", "move", "reserve")
IN_A_ROW = 3  # timeouts in a row after which a bot plays the seat for the rest of the game
TIMEOUT_MARK = "\x00timeout:"  # a chat line the server writes: "\x00timeout:SEAT:LEVEL" or "...:SEAT:autoplay"


def parse_clock(raw: Any) -> dict[str, Any] | None:
    """A create-game body's `clock` (`{mode, move?, reserve?}` or null) as stored, or 400 `bad_clock`."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or any(k not in CLOCK_FIELDS for k in raw):
        raise ApiError(400, "bad_clock", f"'clock' is {{mode: 'realtime' or 'turn', move?, reserve?}} "
                                         f"(fields: {', '.join(CLOCK_FIELDS)})")
    mode = raw.get("mode")
    if mode not in MODES:
        raise ApiError(400, "bad_clock", f"the clock's 'mode' is 'realtime' or 'turn', got {str(mode)[:20]!r}")
    default_move, low, high, default_reserve, max_reserve = MODES[mode]
    move, reserve = raw.get("move", default_move), raw.get("reserve", default_reserve)
    for name, value, top, bottom in (("move", move, high, low), ("reserve", reserve, max_reserve, 0.0)):
        if not isinstance(value, int | float) or isinstance(value, bool) or not bottom <= value <= top:
            raise ApiError(400, "bad_clock", f"a {mode} clock's '{name}' is {bottom:g} to {top:g} seconds")
    return {"mode": mode, "move": float(move), "reserve": float(reserve)}


@dataclass
class RoomClock:
    """The running clock of one game."""

    mode: str
    move: float
    reserves: list[float]
    version: int = -1  # the decision the clock runs for (the game's version)
    seat: int | None = None  # the seat whose clock runs (None: a bot's decision, or the game is over)
    started: float = 0.0
    deadline: float = 0.0
    timer: asyncio.TimerHandle | None = None
    in_a_row: list[int] = field(default_factory=list)
    autoplay: set[int] = field(default_factory=set)  # seats a bot plays for the rest of the game
    timed_out: int | None = None  # the version at which a bot plays the timed-out seat's decision


class Clocks:
    """The clocks of the running games with one."""

    def __init__(self, online: Online) -> None:
        self.online = online
        self.clocks: dict[str, RoomClock] = {}

    def close(self) -> None:
        """Stop every clock (the server is stopping)."""
        for clock in self.clocks.values():
            if clock.timer is not None:
                clock.timer.cancel()
        self.clocks.clear()

    def clock(self, room: Room) -> RoomClock | None:
        """The game's clock (made on first use from its stored settings), or None for a game without one."""
        found = self.clocks.get(room.info.id)
        settings = room.info.extra.get("clock")
        if found is None and isinstance(settings, dict) and not room.game.is_over:
            n = len(room.info.seats)
            found = self.clocks[room.info.id] = RoomClock(settings["mode"], float(settings["move"]),
                                                          [float(settings["reserve"])] * n, in_a_row=[0] * n)
        return found

    # ------------------------------------------------------------------ hooks of the game manager

    def bot_level(self, room: Room) -> str | None:
        """The stand-in bot when the seat to move timed out on this decision or a bot plays it for good."""
        clock = self.clocks.get(room.info.id)
        if clock is None or room.game.is_over:
            return None
        seat = room.game.current
        if seat in clock.autoplay or (clock.timed_out == room.version and clock.seat == seat):
            return self.online.manager.config.standin_level
        return None

    def after_action(self, room: Room, seat: int) -> None:
        """An action was applied: charge the seat's time, count its timeouts, start the next decision's clock."""
        clock = self.clock(room)
        if clock is None:
            return
        if clock.seat == seat and clock.version == room.version - 1:
            if clock.timed_out == clock.version:
                clock.timed_out = None
            else:  # the person moved: charge the time past the move's allowance to the reserve
                used = time.time() - clock.started
                clock.reserves[seat] = max(0.0, clock.reserves[seat] - max(0.0, used - clock.move))
                clock.in_a_row[seat] = 0
        self.run(room)

    def run(self, room: Room) -> None:
        """Start the clock of the decision now to be made (if it is a person's), and tell the game's sockets."""
        clock = self.clock(room)
        if clock is None:
            return
        if clock.version == room.version and clock.seat is not None:
            return  # running already
        if clock.timer is not None:
            clock.timer.cancel()
            clock.timer = None
        game = room.game
        clock.version = room.version
        clock.seat = None
        if game.is_over:
            self.clocks.pop(room.info.id, None)
        else:
            seat = game.current
            if room.info.seats[seat].type == "human" and seat not in clock.autoplay:
                clock.seat, clock.started = seat, time.time()
                clock.deadline = clock.started + clock.move + clock.reserves[seat]
                loop = asyncio.get_running_loop()
                clock.timer = loop.call_later(clock.deadline - clock.started, self._fire, room, clock.version)
        message = json.dumps(self.message(room, clock))
        for c in room.conns:
            c.push(message)

    def message(self, room: Room, clock: RoomClock) -> dict[str, Any]:
        """The `clock` message: the seat whose clock runs, its time left, the reserves, the bot-played seats."""
        now = time.time()
        left = max(0.0, clock.deadline - now) if clock.seat is not None else None
        return {"type": "clock", "mode": clock.mode, "move": clock.move, "seat": clock.seat, "version": clock.version,
                "left": round(left, 2) if left is not None else None,
                "move_left": round(max(0.0, clock.started + clock.move - now), 2) if clock.seat is not None else None,
                "reserves": [round(r, 1) for r in clock.reserves], "autoplay": sorted(clock.autoplay)}

    def joined(self, room: Room, conn: Any) -> None:
        """A socket joined: start the clock if it is not running yet, and send it the clock."""
        clock = self.clock(room)
        if clock is None:
            return
        if clock.version != room.version:
            self.run(room)
        else:
            conn.push(self.message(room, clock))

    def _fire(self, room: Room, version: int) -> None:
        clock = self.clocks.get(room.info.id)
        if clock is None or clock.version != version or room.version != version or clock.seat is None:
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
        self.online.manager.schedule(room)

    async def _note(self, room: Room, seat: int, note: str) -> None:
        from ttr.server.chat import SEATS, message_json

        name = room.info.seats[seat].name
        n = await self.online.db(self.online.store.add_chat, room.info.id, SEATS, None, name, note, room.version,
                                 time.time())
        message = message_json({"n": n, "channel": SEATS, "seat": None, "name": name, "text": note,
                                "version": room.version, "time": time.time()})
        encoded = json.dumps({"type": "chat", "message": message})
        for c in room.conns:
            c.push(encoded)
        clock = self.clocks.get(room.info.id)
        if clock is not None:
            encoded = json.dumps(self.message(room, clock))
            for c in room.conns:
                c.push(encoded)
