"""The store for a `--db` value (`ttr serve --db`): the one place that knows both kinds of store."""

from __future__ import annotations

from ttr.server.sql_store import SqlStore
from ttr.server.store import GameStore, MemoryStore


def open_store(url: str) -> GameStore:
    """The store for a `--db` value: `memory` for the in-memory one, else any SQLAlchemy URL."""
    if url in ("memory", "memory://"):
        return MemoryStore()
    return SqlStore(url)
