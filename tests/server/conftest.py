"""Fixtures of the server tests: stores of every adapter (in-memory, SQLite, a throwaway PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .postgres import Postgres, PostgresUnavailable, drop_tables, start_postgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    """A PostgreSQL server for this test session (skips, saying why, where none can start)."""
    try:
        server = start_postgres()
    except PostgresUnavailable as exc:
        pytest.skip(f"no PostgreSQL server for the store tests: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL of each adapter; PostgreSQL tables are dropped after each test."""
    if request.param == "memory":
        yield "memory"
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        server: Postgres = request.getfixturevalue("postgres_server")
        yield server.url
        drop_tables(server.url)
