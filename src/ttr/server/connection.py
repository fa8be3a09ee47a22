"""One WebSocket client of a game: its seat once joined and its outgoing queue."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ttr.server.room import Room


class Connection:
    """One WebSocket client: its seat once joined (None: spectator) and an outgoing queue."""

    MAX_QUEUE = 256  # messages waiting for a client that does not read: past this it is dropped

    def __init__(self, send: Callable[[str], Awaitable[None]],
                 hang_up: Callable[[], Awaitable[None]] | None = None) -> None:
        self._send = send
        self._hang_up = hang_up
        self.joined = False
        self.seat: int | None = None
        self.room: Room | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.too_slow = False
        self.client = ""  # the client's key (`ttr.server.rate_limits.client_key`) for its limits
        self.tasks: set[asyncio.Task[None]] = set()  # work for this client beside its messages (hints)
        self.log_sent = 0  # log entries this client was sent (`Room.send`): the next update holds the rest

    def push(self, message: dict[str, Any] | str) -> None:
        """Queue a message for this client (never blocks). A client that lets too many pile up is hung up
        on (it reconnects and gets a snapshot)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.too_slow = True
            self.close()
            return
        self.queue.put_nowait(message if isinstance(message, str) else json.dumps(message))

    async def writer(self) -> None:
        """Send queued messages until `close()`; stops quietly when the socket is gone."""
        while True:
            text = await self.queue.get()
            if text is None:
                break
            try:
                await self._send(text)
            except Exception:
                self.closed = True
                return
        if self.too_slow and self._hang_up is not None:
            with contextlib.suppress(Exception):
                await self._hang_up()

    def close(self) -> None:
        """Stop the writer after what is queued."""
        self.closed = True
        self.queue.put_nowait(None)
