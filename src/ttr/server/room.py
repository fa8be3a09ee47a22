"""A game in memory: the stored info, the rebuilt `Game`, its lock, its connections and the messages
built for this version (each reader's view, from `SeatView` only).

A snapshot carries the reader's whole log; an update only the entries after those its socket was last
sent (`log_from`), so an update costs the new actions, not the whole game again (docs/web-protocol.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ttr.engine import Action, Game, SeatView
from ttr.server.connection import Connection
from ttr.server.store import GameInfo
from ttr.server.views import last_entry, legal_json, seats_json, seed_chosen, view_body

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
    _messages: dict[tuple[str, int | None, int], str] = field(default_factory=dict)  # built at `_messages_version`
    _messages_version: int = -1
    _views: dict[int | None, SeatView] = field(default_factory=dict)  # each reader's view at `_messages_version`
    _legal: tuple[int, list[int], list[Action], str] | None = None

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

    def view(self, seat: int | None) -> SeatView:
        """`SeatView.of(game, seat)` at this version (None: a spectator's), built once per version."""
        self._check_version()
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = SeatView.of(self.game, seat)
        return view

    def _check_version(self) -> None:
        if self._messages_version != self.version:
            self._messages, self._views, self._messages_version = {}, {}, self.version

    def message(self, kind: str, seat: int | None, log_from: int = 0) -> str:
        """The `snapshot` (the whole log) or `update` (the log from entry `log_from` on) message for `seat`
        (None: spectator), built once per version and reader."""
        if kind == "snapshot":
            log_from = 0
        key = (kind, seat, log_from)
        self._check_version()
        text = self._messages.get(key)
        if text is None:
            game = self.game
            view = self.view(seat)
            body = view_body(view)
            body["log"] = [dict(entry) for entry in view.log[log_from:]]
            to_move = seat is not None and not game.is_over and seat == game.current
            msg: dict[str, Any] = {
                "type": kind, "version": self.version, "view": body, "legal": LEGAL_MARK if to_move else [],
                "seats": seats_json(self.info, self.connected_seats()), "status": self.info.status,
                "bots_stopped": self.bots_stopped,
            }
            if kind == "snapshot":
                msg["seat"] = seat
                info = self.info
                msg["game"] = {"id": info.id, "map": info.map, "when_people_leave": info.when_people_leave,
                               "seed_chosen": seed_chosen(info)}
            else:
                msg["log_from"] = log_from
                msg["last"] = last_entry(view.log[-1]) if view.log else None
            text = json.dumps(msg)
            if to_move:
                text = text.replace(LEGAL_MARK_JSON, self.legal()[2], 1)
            self._messages[key] = text
        return text

    def send(self, conn: Connection, kind: str) -> None:
        """Queue the `snapshot` or `update` for `conn`'s reader; an update holds the log entries after
        those the socket was sent before."""
        conn.push(self.message(kind, conn.seat, conn.log_sent if kind == "update" else 0))
        conn.log_sent = self.version

    def forget_messages(self) -> None:
        """Drop the built messages (the seats' connection state changed)."""
        self._messages = {}
