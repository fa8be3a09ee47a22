"""Per-client rate limits of `ttr serve` (the `limits` library, moving windows): new games, socket messages
and hints, each keyed by the client's address (loopback included).

Limits are written as `limits` strings, such as `30/minute` or `100/10 seconds`. They count where
`ServerConfig.rate_storage` says (`--rate-limit-storage`): in the server's memory by default (per server
process: behind a load balancer over N servers a client may get up to N times as much), or in a storage
the servers share, such as Redis (`redis://host:6379`) or memcached (`memcached://host:11211`).

In memory the counts live in `QuietMemoryStorage`, `limits`' `MemoryStorage` whose expired entries are
dropped by the thread that counts, at most once a second, not from a timer thread started anew 10 ms after
each burst of hits: a thread start per 10 ms of traffic cost the event loop more than the counting itself.
"""

from __future__ import annotations

import hashlib
import time

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from ttr.server.config import ServerConfig


class QuietMemoryStorage(MemoryStorage):
    """`limits`' in-memory storage whose expired entries are dropped by the caller, at most once a second."""

    EXPIRE_EVERY = 1.0  # seconds between two passes over the stored entries

    def __init__(self) -> None:
        super().__init__()
        self._next_expiry = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # replaces MemoryStorage's timer thread (name-mangled)
        now = time.monotonic()
        if now >= self._next_expiry:
            self._next_expiry = now + self.EXPIRE_EVERY
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


def check_limit(text: str) -> str | None:
    """Why `text` is not a rate limit string (None if it is one)."""
    try:
        parse(text)
    except ValueError as exc:
        return f"{text!r} is not a rate limit such as '30/minute' or '100/10 seconds' ({exc})"
    return None


def open_storage(uri: str) -> Storage:
    """The `limits` storage of a URI (`memory://`, `redis://host:6379`, `memcached://host:11211`, ...); a
    `ValueError` naming the problem for an unknown scheme or a storage whose driver is not installed."""
    if uri.strip().lower().rstrip("/") in ("memory:", "memory:/"):
        return QuietMemoryStorage()
    try:
        storage = storage_from_string(uri)
    except Exception as exc:  # limits raises ConfigurationError (a ValueError) or the driver's ImportError
        raise ValueError(f"{uri!r} is not a rate limit storage this server can use ({exc}); use memory://, or "
                         "redis://HOST:6379 (the redis package), or memcached://HOST:11211 (pymemcache)") from None
    if not isinstance(storage, Storage):
        raise ValueError(f"{uri!r} is an asyncio storage: give it without 'async+'")
    return storage


def check_storage(uri: str) -> str | None:
    """Why `uri` is not a storage this server can count limits in (None if it is)."""
    try:
        open_storage(uri)
    except ValueError as exc:
        return str(exc)
    return None


def client_key(address: str | None) -> str:
    """The key of a client: a digest of its address (a game's row keeps this, never the address)."""
    return hashlib.sha256((address or "unknown").encode("utf-8", "surrogatepass")).hexdigest()[:32]


class RateLimits:
    """The server's per-client limits; `hit` counts one use and says how long to wait when over."""

    def __init__(self, config: ServerConfig) -> None:
        self._limiter = MovingWindowRateLimiter(open_storage(config.rate_storage))
        self.create: RateLimitItem = parse(config.create_limit)
        self.message: RateLimitItem = parse(config.message_limit)
        self.hint: RateLimitItem = parse(config.hint_limit)

    def hit(self, item: RateLimitItem, key: str) -> float | None:
        """Count one use of `item` by `key`: None if within the limit, else the seconds until one is free."""
        if self._limiter.hit(item, key):
            return None
        reset = self._limiter.get_window_stats(item, key).reset_time
        return round(max(0.1, reset - time.time()), 1)
