"""A game in memory: the stored info, the rebuilt `Game`, its lock, its connections and the messages
built for this version (each reader's view, from `seat_view` or `public_view` only)."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ttr.engine import Action, Game
from ttr.server.connection import Connection
from ttr.server.store import GameInfo
from ttr.server.views import last_for, legal_json, seats_json, seed_chosen, view_for

LOG_MARK = "\x00log\x00"  # stands for the log while a message is encoded (names hold no control characters)
LOG_MARK_JSON = json.dumps(LOG_MARK)
LEGAL_MARK = "\x00legal\x00"  # the same for the legal list
LEGAL_MARK_JSON = json.dumps(LEGAL_MARK)


@dataclass
class Room:
    """A game in memory: the stored info, the rebuilt game, its lock and connections."""

    info: GameInfo
    game: Game
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    people_left_at: float | None = None  # when the last person left (None: someone is here, or never came)
    seat_left_at: dict[int, float] = field(default_factory=dict)  # human seats gone: when their last connection closed
    last_used: float = field(default_factory=time.monotonic)
    bots_stopped: bool = False  # the game reached `ServerConfig.bot_action_limit`: bots no longer move in it
    hint: tuple[int, dict[str, Any]] | None = None  # (version, the `hint` message): one search per position
    remote: dict[str, set[int]] = field(default_factory=dict)  # other servers' connected seats (ttr.server.cluster)
    sockets: int = 0  # game sockets open on it (joined or not), for `ServerConfig.max_sockets_per_game`
    hinting: set[int] = field(default_factory=set)  # seats whose hint is being worked out (one at a time each)
    _messages: dict[tuple[str, int | None], str] = field(default_factory=dict)  # built at `_messages_version`
    _messages_version: int = -1
    _legal: tuple[int, list[int], list[Action], str] | None = None
    _log_json: dict[int | None, list[str]] = field(default_factory=dict)  # each reader's log entries, as JSON

    @property
    def version(self) -> int:
        """The number of actions applied."""
        return len(self.game.history)

    def local_seats(self) -> set[int]:
        """Seats with at least one open connection on this server."""
        return {c.seat for c in self.conns if c.seat is not None}

    def connected_seats(self) -> set[int]:
        """Seats with at least one open connection, on this server or another sharing the database."""
        seats = self.local_seats()
        for others in self.remote.values():
            seats |= others
        return seats

    def people_here(self) -> bool:
        """Whether any human seat has a connection."""
        return any(self.info.seats[s].type == "human" for s in self.connected_seats())

    def legal(self) -> tuple[list[int], list[Action], str]:
        """The legal ids, actions and the protocol's list as JSON at this version (worked out once per version)."""
        if self._legal is None or self._legal[0] != self.version:
            self._legal = (self.version, *legal_json(self.game))
        return self._legal[1], self._legal[2], self._legal[3]

    def message(self, kind: str, seat: int | None) -> str:
        """The `snapshot` or `update` message for `seat` (None: spectator), built once per version."""
        key = (kind, seat)
        if self._messages_version != self.version:
            self._messages, self._messages_version = {}, self.version
        text = self._messages.get(key)
        if text is None:
            game = self.game
            view = view_for(game, seat)
            to_move = seat is not None and not game.is_over and seat == game.current
            msg: dict[str, Any] = {
                "type": kind, "version": self.version, "view": view, "legal": LEGAL_MARK if to_move else [],
                "seats": seats_json(self.info, self.connected_seats()), "status": self.info.status,
                "bots_stopped": self.bots_stopped,
            }
            if kind == "snapshot":
                msg["seat"] = seat
                info = self.info
                msg["game"] = {"id": info.id, "map": info.map, "when_people_leave": info.when_people_leave,
                               "seed_chosen": seed_chosen(info)}
            else:
                msg["last"] = last_for(view)
            # The log only grows and each entry reads the same to the same reader: its JSON is kept per
            # reader and spliced in, so an update costs the new entries, not the whole log again.
            entries = view["log"]
            cache = self._log_json.setdefault(seat, [])
            if len(cache) > len(entries):
                cache.clear()
            cache.extend(json.dumps(e) for e in entries[len(cache):])
            view["log"] = LOG_MARK
            text = json.dumps(msg).replace(LOG_MARK_JSON, "[" + ",".join(cache) + "]", 1)
            if to_move:
                text = text.replace(LEGAL_MARK_JSON, self.legal()[2], 1)
            self._messages[key] = text
        return text

    def forget_messages(self) -> None:
        """Drop the built messages (the seats' connection state changed)."""
        self._messages = {}
