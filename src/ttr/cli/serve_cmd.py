"""`ttr serve`: the browser game (FastAPI + uvicorn), with games kept in a SQL database."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Mapping
from typing import Any

from ttr.errors import TTRError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `ttr serve`."""
    p = sub.add_parser("serve", help="play in the browser: start the game server",
                       description="Start the browser game's server and print the address to open.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--db", metavar="URL", default=None,
                   help="SQLAlchemy database URL (default: SQLite in the user's data directory; "
                        "e.g. postgresql+psycopg://user@host/db; 'memory' keeps nothing)")
    p.add_argument("--bot-workers", metavar="N", type=int, default=max(1, min(4, (os.cpu_count() or 2) - 1)),
                   help="worker processes for bot moves and hints (default: CPUs - 1, at most 4)")
    p.add_argument("--bot-pool", choices=("process", "thread"), default="process",
                   help="run bots in worker processes (default) or threads")
    p.add_argument("--bot-delay", metavar="S", type=float, default=0.6,
                   help="seconds a bot waits before moving, so people can follow (default 0.6; a game may set its own)")
    p.add_argument("--leave-grace", metavar="S", type=float, default=30.0,
                   help="seconds after the last person leaves before bots finish a 'finish' game (default 30)")
    p.add_argument("--bot-program", metavar="COMMAND", action="append", default=[],
                   help="offer a program speaking ttr-bot/1 as a bot for seats (repeatable; e.g. "
                        "'python3 mybot.py'); web pages can seat only the programs listed here")
    p.add_argument("--bot-program-time", metavar="T", type=float, default=1.0,
                   help="seconds per decision for those programs, plus 1 s of grace (default 1.0; at most 600)")
    p.add_argument("--bot-program-idle", metavar="S", type=float, default=600.0,
                   help="close a program that has waited this many seconds for its seat's next decision; it "
                        "starts again at that decision (default 600)")
    p.add_argument("--allowed-origin", metavar="ORIGIN", action="append", default=[],
                   help="a page origin besides the server's own that may open the game socket, such as "
                        "https://play.example.org (repeatable); pages of any other origin are refused")
    p.add_argument("--create-limit", metavar="LIMIT", default="30/minute",
                   help="new games one client (address) may create (default 30/minute; a 'limits' string)")
    p.add_argument("--message-limit", metavar="LIMIT", default="100/10 seconds",
                   help="game socket messages one client may send, all its sockets together (default '100/10 seconds')")
    p.add_argument("--hint-limit", metavar="LIMIT", default="20/minute",
                   help="hints one client may ask for (default 20/minute)")
    p.add_argument("--max-running-per-client", metavar="N", type=int, default=20,
                   help="running games one client may have created (default 20)")
    p.add_argument("--max-sockets-per-game", metavar="N", type=int, default=50,
                   help="game sockets open on one game on this server (default 50)")
    p.add_argument("--unstarted-expiry", metavar="S", type=float, default=86400.0,
                   help="seconds after which a game nobody has moved in is abandoned (default 86400: a day)")
    p.add_argument("--idle-expiry", metavar="S", type=float, default=7 * 86400.0,
                   help="seconds without an action after which a running game is abandoned (default 604800: 7 days)")
    p.add_argument("--rate-limit-storage", metavar="URI", default="memory://",
                   help="where every rate limit counts: memory:// (default, per server process), or a storage the "
                        "servers share: redis://HOST:6379 (the redis package) or memcached://HOST:11211 (pymemcache)")
    online = p.add_argument_group("playing people online")
    online.add_argument("--register-limit", metavar="LIMIT", default="10/hour",
                        help="registrations one client may make (default 10/hour)")
    online.add_argument("--login-limit", metavar="LIMIT", default="20/minute",
                        help="logins one client may try (default 20/minute)")
    online.add_argument("--login-name-limit", metavar="LIMIT", default="10/minute",
                        help="logins to one account name, from anywhere (default 10/minute)")
    online.add_argument("--chat-limit", metavar="LIMIT", default="5/10 seconds",
                        help="chat messages one seat or spectator may send (default '5/10 seconds')")
    online.add_argument("--session-days", metavar="D", type=float, default=30.0,
                        help="days a login lasts (default 30)")
    online.add_argument("--clock-move", metavar="S", type=float, default=90.0,
                        help="a real-time clock's default seconds per move, quick play's too (default 90; 1 to 600)")
    online.add_argument("--clock-reserve", metavar="S", type=float, default=300.0,
                        help="a real-time clock's default reserve in seconds (default 300; 0 to 3600)")
    online.add_argument("--turn-move", metavar="S", type=float, default=86400.0,
                        help="a turn-based clock's default seconds per move (default 86400; 3600 to 604800)")
    online.add_argument("--queue-wait", metavar="S", type=float, default=60.0,
                        help="default seconds in a quick-play queue before a player may fill the table with bots "
                             "(default 60; 5 to 600)")
    online.add_argument("--open-table-expiry", metavar="S", type=float, default=86400.0,
                        help="seconds an open table stays listed (default 86400)")
    p.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                   help="server log level (default warning)")
    p.add_argument("--log-format", default="text", choices=("text", "json"),
                   help="log lines as text (default) or one JSON object per line")
    p.add_argument("--forwarded-allow-ips", metavar="IPS", default="127.0.0.1",
                   help="addresses of reverse proxies whose X-Forwarded-For / X-Forwarded-Proto name the client "
                        "(comma-separated, or '*'; default 127.0.0.1)")
    defaults_from_environment(p, os.environ)
    p.set_defaults(run=run)


ENV_PREFIX = "TTR_"
GC_FREEZE_EVERY = 5.0  # seconds: long-lived objects kept out of the collector's scans (ttr.server.collector; a freeze
# is a splice of lists, so it costs nothing however often)


def environment_name(dest: str) -> str:
    """The environment variable of an option: `--bot-workers` is `TTR_BOT_WORKERS`."""
    return ENV_PREFIX + dest.upper()


def database_url_from(environ: Mapping[str, str]) -> str | None:
    """`TTR_DB`, else `DATABASE_URL` (a bare `postgres://` or `postgresql://` URL gets the psycopg driver)."""
    url = environ.get("TTR_DB") or environ.get("DATABASE_URL")
    if not url:
        return None
    for bare in ("postgres://", "postgresql://"):
        if url.startswith(bare):
            return "postgresql+psycopg://" + url[len(bare):]
    return url


def defaults_from_environment(parser: argparse.ArgumentParser, environ: Mapping[str, str]) -> None:
    """Every option's default from its `TTR_*` variable, if set (a command-line option still wins). A
    repeatable option takes several values separated by commas; a flag-less value is read as on the
    command line (`TTR_PORT=8080`)."""
    for action in parser._actions:
        if not action.option_strings or action.dest in ("help", "db"):
            continue
        value = environ.get(environment_name(action.dest))
        if value is None:
            continue
        if isinstance(action, argparse._AppendAction):
            parser.set_defaults(**{action.dest: [v.strip() for v in value.split(",") if v.strip()]})
        else:
            parser.set_defaults(**{action.dest: value})  # argparse converts a string default with the type
    db = database_url_from(environ)
    if db is not None:
        parser.set_defaults(db=db)


def run(args: argparse.Namespace) -> int:
    """Start the server; returns when it stops (Ctrl-C)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401

        from ttr.server import ServerConfig, default_db_url
    except ImportError as exc:  # the base install: the engine, bots and tools without the server's libraries
        from ttr import install_hint

        raise TTRError(f"the browser game needs the server extra: {install_hint('server')} ({exc})") from None
    from ttr.server.programs import check_command, program_name
    from ttr.server.rate_limits import check_limit

    if args.bot_workers < 1:
        print("ttr serve: error: --bot-workers must be at least 1", file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("ttr serve: error: --port must be from 0 to 65535 (0 picks a free one)", file=sys.stderr)
        return 2
    if not 0 < args.bot_program_time <= 600:
        print("ttr serve: error: --bot-program-time must be positive, at most 600 seconds", file=sys.stderr)
        return 2
    if not 1 <= args.bot_program_idle <= 86400:
        print("ttr serve: error: --bot-program-idle must be from 1 to 86400 seconds", file=sys.stderr)
        return 2
    for command in args.bot_program:
        why = check_command(command)
        if why is not None:
            print(f"ttr serve: error: --bot-program: {why}", file=sys.stderr)
            return 2
    if not 0 <= args.bot_delay <= 10:
        print("ttr serve: error: --bot-delay must be from 0 to 10 seconds", file=sys.stderr)
        return 2
    for option in ("create_limit", "message_limit", "hint_limit", "register_limit", "login_limit",
                   "login_name_limit", "chat_limit"):
        why = check_limit(getattr(args, option))
        if why is not None:
            print(f"ttr serve: error: --{option.replace('_', '-')}: {why}", file=sys.stderr)
            return 2
    for option in ("max_running_per_client", "max_sockets_per_game"):
        if getattr(args, option) < 1:
            print(f"ttr serve: error: --{option.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    for option in ("unstarted_expiry", "idle_expiry"):
        if not getattr(args, option) > 0:
            print(f"ttr serve: error: --{option.replace('_', '-')} must be a positive number of seconds",
                  file=sys.stderr)
            return 2
    online, why = _online_settings(args)
    if why is not None:
        print(f"ttr serve: error: {why}", file=sys.stderr)
        return 2
    from ttr.server.rate_limits import check_storage

    why = check_storage(args.rate_limit_storage)
    if why is not None:
        print(f"ttr serve: error: --rate-limit-storage: {why}", file=sys.stderr)
        return 2
    try:
        db = args.db or default_db_url()
    except OSError as exc:
        print(f"ttr serve: error: cannot create the data directory ({exc}); give a database with --db URL",
              file=sys.stderr)
        return 1
    programs = tuple(dict.fromkeys(program_name(command) for command in args.bot_program))
    config = ServerConfig(db=db, gc_freeze_every=GC_FREEZE_EVERY, bot_workers=args.bot_workers,
                          bot_pool=args.bot_pool, bot_delay=args.bot_delay,
                          leave_grace=max(0.0, args.leave_grace), programs=programs,
                          program_time=args.bot_program_time, program_idle=args.bot_program_idle,
                          allowed_origins=tuple(args.allowed_origin), create_limit=args.create_limit,
                          message_limit=args.message_limit, hint_limit=args.hint_limit,
                          max_running_per_client=args.max_running_per_client,
                          max_sockets_per_game=args.max_sockets_per_game, unstarted_expiry=args.unstarted_expiry,
                          idle_expiry=args.idle_expiry, rate_storage=args.rate_limit_storage, online=online)
    lock = _sqlite_lock(db)
    if lock is not None:
        from filelock import Timeout

        try:
            lock.acquire(timeout=0)
        except Timeout:
            print(f"ttr serve: error: another ttr serve is using the database {_safe(db)} (its lock file "
                  f"{lock.lock_file} is held); one SQLite file serves one server: stop the other, or give several "
                  "servers one PostgreSQL database", file=sys.stderr)
            return 1
        except OSError as exc:
            print(f"ttr serve: error: cannot create the lock file {lock.lock_file}: {exc}", file=sys.stderr)
            return 1
    try:
        return _serve(args, config, db, programs)
    finally:
        if lock is not None:
            lock.release()


def _online_settings(args: argparse.Namespace) -> tuple[Any, str | None]:
    """The `OnlineSettings` of the options, and why they are out of range (None: they are fine)."""
    from ttr.server.clocks import check_clock_defaults
    from ttr.server.config import OnlineSettings
    from ttr.server.matchmaking import WAIT_MAX, WAIT_MIN

    settings = OnlineSettings(session_days=args.session_days, register_limit=args.register_limit,
                              login_limit=args.login_limit, login_name_limit=args.login_name_limit,
                              chat_limit=args.chat_limit, clock_move=args.clock_move, clock_reserve=args.clock_reserve,
                              turn_move=args.turn_move, queue_wait=args.queue_wait,
                              open_table_expiry=args.open_table_expiry)
    if not args.session_days > 0:
        return settings, "--session-days must be a positive number of days"
    if not WAIT_MIN <= args.queue_wait <= WAIT_MAX:
        return settings, f"--queue-wait must be from {WAIT_MIN:g} to {WAIT_MAX:g} seconds"
    if not args.open_table_expiry > 0:
        return settings, "--open-table-expiry must be a positive number of seconds"
    why = check_clock_defaults(settings)
    if why is not None:
        return settings, f"--clock-move, --clock-reserve, --turn-move: {why}"
    return settings, None


def _sqlite_lock(db: str) -> Any:
    """The lock file beside a SQLite database (`filelock`), or None for any other database."""
    from sqlalchemy.engine import make_url

    try:
        url = make_url(db)
    except Exception:
        return None
    if not url.drivername.startswith("sqlite") or url.database in (None, "", ":memory:"):
        return None
    from filelock import FileLock

    return FileLock(f"{url.database}.lock")


def _serve(args: argparse.Namespace, config: Any, db: str, programs: tuple[str, ...]) -> int:
    """Listen, build the app and run uvicorn until stopped."""
    import asyncio
    import socket

    import uvicorn

    from ttr.cli.console import engine_build
    from ttr.server.app import create_app

    try:
        sock = socket.create_server((args.host, args.port))
    except OSError as exc:
        print(f"ttr serve: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        app = create_app(config)
    except Exception as exc:  # a bad URL, a database that does not answer, a missing driver
        sock.close()
        print(f"ttr serve: error: cannot open the database {_safe(db)}: {exc}", file=sys.stderr)
        return 1
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    offered = f"; programs: {', '.join(programs)}" if programs else ""
    print(f"ttr serve: open http://{shown}:{port}/  (database: {_safe(db)}{offered}; engine: {engine_build()}; "
          "Ctrl-C stops)", flush=True)
    # no per-message deflate: on loopback and a LAN it costs more CPU than it saves
    server = uvicorn.Server(uvicorn.Config(app, log_level=args.log_level, ws="websockets-sansio", ws_max_size=64 * 1024,
                                           ws_per_message_deflate=False, access_log=args.log_level in ("info", "debug"),
                                           lifespan="on", log_config=log_config(args.log_format, args.log_level),
                                           proxy_headers=True, forwarded_allow_ips=args.forwarded_allow_ips))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve(sockets=[sock]))
    return 0


def log_config(kind: str, level: str) -> dict[str, Any]:
    """uvicorn's logging configuration, for its loggers and the server's (`ttr`): text lines, or one JSON
    object per line (python-json-logger) with `kind="json"`."""
    if kind == "json":
        fields = "%(asctime)s %(levelname)s %(name)s %(message)s"
        formatters: dict[str, Any] = {
            "default": {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": fields},
            "access": {"()": "pythonjsonlogger.json.JsonFormatter", "fmt": fields},
        }
    else:
        formatters = {
            "default": {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"},
            "access": {"()": "uvicorn.logging.AccessFormatter",
                       "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'},
        }
    stream = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
    return {
        "version": 1, "disable_existing_loggers": False, "formatters": formatters,
        "handlers": {"default": {**stream, "formatter": "default"}, "access": {**stream, "formatter": "access"}},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"level": level.upper()},
            "uvicorn.access": {"handlers": ["access"], "level": level.upper(), "propagate": False},
            "ttr": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
    }


def _safe(url: str) -> str:
    """The URL without a password."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url
