"""`ttr serve`: the browser game's server (FastAPI, WebSockets, an append-only SQL action log).

`create_app(config)` builds the application; `ServerConfig` holds its options; `default_db_url()` is the
SQLite file in the user's data directory. See docs/server.md and docs/web-protocol.md.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs

from ttr.server.config import ServerConfig


def default_db_url() -> str:
    """`sqlite:///<user data dir>/ttr.sqlite3` (the folder is created)."""
    folder = Path(platformdirs.user_data_dir("ttr"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ttr.sqlite3'}"


def create_app(*args: object, **kwargs: object) -> object:
    """`ttr.server.app.create_app` (imported on use)."""
    from ttr.server.app import create_app as make

    return make(*args, **kwargs)  # type: ignore[arg-type]


__all__ = ["ServerConfig", "create_app", "default_db_url"]
