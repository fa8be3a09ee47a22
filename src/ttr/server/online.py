"""Playing people online: `Online` holds a server's online store, rate limits and the accounts of its game
sockets, and the helpers the online features share (`read_json`, `fields`, `client_address`, `online_seat`).
The features (accounts, ratings, profiles, chat, clocks, matchmaking, open tables) import this module;
`ttr.server.online_wiring.install_online` wires them into the app.

Sessions ride in an HttpOnly, SameSite=Lax cookie (`ttr_session`, Secure when the request came over TLS);
every state-changing request that carries it must send the session's CSRF token in the `X-CSRF-Token` header
(the token is given by `GET /api/account` and at login; it is also in the readable `ttr_csrf` cookie).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Request, WebSocket
from limits import RateLimitItem, parse
from limits.strategies import MovingWindowRateLimiter

from ttr.server.config import ApiError, OnlineSettings
from ttr.server.online_store import OnlineStore, Session
from ttr.server.protocol import MAX_BODY, ProtocolError
from ttr.server.rate_limits import open_storage

if TYPE_CHECKING:
    from ttr.server.clocks import Clocks
    from ttr.server.connection import Connection
    from ttr.server.matchmaking import Matchmaker
    from ttr.server.rooms import GameManager

log = logging.getLogger("ttr.server")
T = TypeVar("T")

SESSION_COOKIE = "ttr_session"
CSRF_COOKIE = "ttr_csrf"
CSRF_HEADER = "x-csrf-token"


def hash_secret(token: str) -> str:
    """The stored form of a session token (SHA-256)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Online:
    """The online features of one server: its store, rate limits, and the accounts of game sockets."""

    def __init__(self, manager: GameManager, store: OnlineStore, settings: OnlineSettings | None = None) -> None:
        self.manager = manager
        self.store = store
        self.settings = settings or manager.config.online
        self.limiter = MovingWindowRateLimiter(open_storage(manager.config.rate_storage))
        self._ws_sessions: weakref.WeakKeyDictionary[Connection, Session] = weakref.WeakKeyDictionary()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.clocks: Clocks | None = None  # set by install_online
        self.matchmaker: Matchmaker | None = None  # set by install_online
        self.join_hooks: list[Callable[[Connection], Awaitable[None]]] = []  # after a socket joined a game

    async def joined(self, conn: Connection) -> None:
        """A socket joined its game: the chat it may read, the clock."""
        for hook in self.join_hooks:
            await hook(conn)

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run an online-store call where the game store's calls run (inline for SQLite and memory)."""
        return await self.manager.db(fn, *args)

    # ------------------------------------------------------------------ rate limits

    def limit(self, rule: str, *keys: str) -> None:
        """Count one hit against `rule` (a `limits` string such as "10/minute") for `keys`; 429 when over."""
        item: RateLimitItem = parse(rule)
        if not self.limiter.hit(item, *keys):
            reset = self.limiter.get_window_stats(item, *keys).reset_time
            wait = max(1, int(reset - time.time() + 0.999))
            raise ApiError(429, "rate_limited", f"too many attempts ({rule}): try again in {wait} s")

    # ------------------------------------------------------------------ sessions

    async def session(self, request: Request, write: bool) -> Session | None:
        """The session the request's cookie names: None without a cookie (a guest); 401 `session_expired`
        for a cookie that names no live session; for a state-changing request (`write`), 403 `csrf` unless
        the `X-CSRF-Token` header holds the session's token."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        session = await self.db(self.store.session, hash_secret(token), time.time())
        if session is None:
            raise ApiError(401, "session_expired", "your session has expired or was logged out: log in again")
        if write:
            sent = request.headers.get(CSRF_HEADER, "")
            if not sent or not hmac.compare_digest(sent.encode("utf-8", "replace"), session.csrf.encode("utf-8")):
                raise ApiError(403, "csrf", "this request needs the session's CSRF token in the X-CSRF-Token header "
                                            "(GET /api/account gives it)")
        return session

    async def require(self, request: Request, write: bool = True) -> Session:
        """The request's session; 401 `not_logged_in` for a guest."""
        session = await self.session(request, write)
        if session is None:
            raise ApiError(401, "not_logged_in", "log in first")
        return session

    async def ws_connected(self, conn: Connection, websocket: WebSocket) -> None:
        """Note the account of a game socket, from its session cookie; only when the socket was opened by a
        page of this server (its Origin is this host), since a browser sends the cookie to any page's sockets."""
        token = websocket.cookies.get(SESSION_COOKIE)
        origin = websocket.headers.get("origin", "")
        host = websocket.headers.get("host", "")
        if not token or not host or origin.split("://", 1)[-1] != host:
            return
        session = await self.db(self.store.session, hash_secret(token), time.time())
        if session is not None:
            self._ws_sessions[conn] = session

    def ws_session(self, conn: Connection) -> Session | None:
        """The session of a game socket (None: a guest)."""
        return self._ws_sessions.get(conn)

    async def close(self) -> None:
        """Stop the clocks and the queue's matching, finish the background tasks, close the store."""
        if self.clocks is not None:
            self.clocks.close()
        if self.matchmaker is not None:
            await self.matchmaker.close()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 5)
        self.store.close()

    def spawn(self, coro: Any) -> None:
        """Run a background task, kept until done, its failure logged."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("online task failed", exc_info=t.exception())

        task.add_done_callback(done)


async def read_json(request: Request) -> Any:
    """The request's JSON body (at most `MAX_BODY` bytes); 400 `malformed` or 413 `too_large` otherwise."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, "too_large", f"the body is over {MAX_BODY} bytes")
    try:
        return json.loads(body or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed", "the body is not JSON") from None


def fields(body: Any, allowed: tuple[str, ...]) -> dict[str, Any]:
    """The body as an object holding only `allowed` fields; 400 `malformed` naming the first other one."""
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", f"the body is a JSON object (fields: {', '.join(allowed)})")
    unknown = sorted(str(k)[:40] for k in body if k not in allowed)
    if unknown:
        raise ApiError(400, "malformed", f"unknown field {unknown[0]!r} (fields: {', '.join(allowed)})")
    return body


def client_address(request: Request) -> str:
    """The client's address, for rate limits."""
    return request.client.host if request.client else "unknown"


async def online_seat(online: Online, conn: Connection, room: Any, seat: int) -> int:
    """The seat a socket joins by its account (`join` with `seat`, no token): it must be logged in
    (`not_logged_in`) and hold that seat (`not_your_seat`)."""
    session = online.ws_session(conn)
    if session is None:
        raise ProtocolError("not_logged_in", "joining a seat without its token needs a logged-in account "
                                             "(open the game from a page of this server)")
    owner = await online.db(online.store.seat_owner, room.info.id, seat)
    if owner is None or owner != session.account.id:
        raise ProtocolError("not_your_seat", f"your account does not hold seat {seat} of this game")
    return seat
