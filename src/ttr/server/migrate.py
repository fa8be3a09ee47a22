"""Bringing a database's schema up to date with Alembic (`ttr.server.migrations`), as `ttr serve` starts.

A database made before the migrations (today's two tables, no `alembic_version`) is upgraded in place. On
PostgreSQL an advisory lock makes servers that start together upgrade one after the other.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATION_LOCK = 7_317_022  # the advisory lock's key (any number the database's other users do not take)


def alembic_config() -> Config:
    """The Alembic configuration of the package's migrations."""
    config = Config()
    config.set_main_option("script_location", "ttr.server:migrations")
    return config


def head() -> str:
    """The newest revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    """The database's revision (None: made before the migrations, or empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Apply every migration the database lacks (nothing when it is at the head)."""
    target = head()
    if current(engine) == target:
        return
    config = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = conn
        command.upgrade(config, target)
