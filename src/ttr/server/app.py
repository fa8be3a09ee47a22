"""The FastAPI application of `ttr serve`: the REST API, the game WebSocket and the page's static files.

`create_app(config)` builds it; the store is opened from `config.db` (any SQLAlchemy URL, or `memory`)
and the bots run in a `BotPool`. See docs/web-protocol.md for every path and message.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ttr.engine import Game
from ttr.maps import BUILTIN_MAPS
from ttr.records import write_record
from ttr.server import chat, custom_maps
from ttr.server.bot_pool import BotPool
from ttr.server.collector import Collector
from ttr.server.config import LEVEL_TEXT, LEVELS, ApiError, ServerConfig
from ttr.server.connection import Connection
from ttr.server.head import HeadAsGet
from ttr.server.mapdata import board_svg, map_data, maps_list
from ttr.server.metrics import CONTENT_TYPE
from ttr.server.online import online_seat
from ttr.server.online_wiring import install_online
from ttr.server.protocol import MAX_BODY, ProtocolError, parse_client_message
from ttr.server.rate_limits import client_key
from ttr.server.reviews import Reviews, add_review_routes
from ttr.server.rooms import GameManager
from ttr.server.store import ABANDONED, FINISHED, RUNNING, GameStore
from ttr.server.stores import open_store
from ttr.server.studio import studio_router
from ttr.server.views import last_for, view_for

log = logging.getLogger("ttr.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

FALLBACK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ttr</title></head>
<body><h1>ttr serve</h1>
<p>The server is running, but the page (<code>src/ttr/web/static/</code>) is not installed.</p>
<p>The API is at <a href="/api/maps">/api/maps</a>; the protocol is in docs/web-protocol.md.</p>
</body></html>
"""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


FORWARDING_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")  # set by reverse proxies for the client behind


def _from_this_machine(request: Request) -> bool:
    """Whether the request came over the loopback interface (127.0.0.0/8 or ::1) and not through a proxy: a
    reverse proxy on the same machine connects from loopback too, but names the real client in a forwarding
    header (`FORWARDING_HEADERS`)."""
    if any(name in request.headers for name in FORWARDING_HEADERS):
        return False
    host = request.client.host if request.client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = address.ipv4_mapped if isinstance(address, ipaddress.IPv6Address) else None
    return (mapped or address).is_loopback


def _whole(text: str, digits: int = 18) -> int | None:
    """`text` as a whole number if it is ASCII digits worth at most `digits` digits (leading zeros aside),
    else None: `int()` of a long enough digit string raises, and other scripts' digits are not numbers here."""
    if not text or not text.isascii() or not text.isdecimal() or len(text.lstrip("0")) > digits:
        return None
    return int(text)


def _is_json(content_type: str | None) -> bool:
    """Whether a Content-Type header names JSON (`application/json`, parameters such as charset aside)."""
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket handshake's `Origin` may open the game socket: no Origin at all (not a browser:
    a browser always sends one), the server's own origin (the Origin's host and port are the `Host` header),
    or one of `allowed` (`--allowed-origin`, e.g. `https://play.example.org`)."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if origin in allowed:
        return True
    scheme, _, netloc = origin.partition("://")
    return scheme in ("http", "https") and bool(netloc) and host is not None and netloc == host.strip().lower()


async def _read_body(request: Request) -> Any:
    if not _is_json(request.headers.get("content-type")):
        shown = (request.headers.get("content-type") or "none")[:60]
        raise ApiError(415, "unsupported_media_type", f"the body must be application/json (Content-Type: {shown})")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdecimal():
        size = _whole(declared)
        if size is None or size > MAX_BODY:
            raise ApiError(413, "too_large", f"the body is {declared[:20]} bytes; at most {MAX_BODY}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, "too_large", f"the body is over {MAX_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed", "the body is not JSON") from None


def create_app(config: ServerConfig | None = None, store: GameStore | None = None,
               pool: BotPool | None = None) -> FastAPI:
    """The application. `store` and `pool` default to `open_store(config.db)` and a `BotPool` of the config."""
    config = config or ServerConfig()
    the_store = store if store is not None else open_store(config.db)
    the_pool = pool if pool is not None else BotPool(config.bot_workers, config.bot_pool)
    manager = GameManager(the_store, the_pool, config)
    reviews = Reviews(manager, config.review_playouts)
    collector = Collector(manager.metrics.gc_seconds)
    static_dir = Path(config.static_dir) if config.static_dir else WEB_DIR / "static"
    allowed_origins = tuple(o.strip().lower().rstrip("/") for o in config.allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        collector.install()
        await manager.start()
        await the_pool.start()
        freezer = (asyncio.get_running_loop().create_task(collector.freeze_loop(config.gc_freeze_every,
                                                                                config.gc_sweep_every))
                   if config.gc_freeze_every > 0 else None)
        try:
            yield
        finally:
            collector.remove()
            if freezer is not None:
                freezer.cancel()
                with contextlib.suppress(BaseException):
                    await freezer
            await online.close()
            await reviews.stop()
            await manager.stop()
            the_pool.close()

    app = FastAPI(title="ttr", lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.manager = manager
    app.state.reviews = reviews
    app.add_middleware(HeadAsGet)

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        manager.metrics.refused(exc.code)
        response = _error(exc.status, exc.code, exc.message)
        if exc.retry_after is not None:
            response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return response

    @app.exception_handler(StarletteHTTPException)
    async def no_route(request: Request, exc: StarletteHTTPException) -> Response:
        """What no route takes (a path with a line break, a method such as OPTIONS): under /api/ the API's
        `not_found` error, elsewhere the not-found page, never the framework's own `{"detail": ...}`."""
        path = request.url.path
        if path == "/api" or path.startswith("/api/"):
            return _error(404, "not_found", f"no API path {request.method} {path[:60]!r}")
        page = static_dir / "404.html"
        if page.is_file():
            return FileResponse(page, status_code=404, media_type="text/html")
        return _error(exc.status_code, "not_found", f"nothing at {path[:60]!r}")

    # ------------------------------------------------------------------ maps and bots

    @app.get("/api/maps")
    async def get_maps() -> list[dict[str, Any]]:
        return maps_list()

    def known_map(name: str) -> str:
        if name not in BUILTIN_MAPS and not custom_maps.known(name):
            raise ApiError(404, "not_found", f"unknown map {name[:40]!r} (maps: {', '.join(BUILTIN_MAPS)})")
        return name

    app.include_router(studio_router(manager, the_pool))  # the map editor: check, custom maps, simulations

    @app.get("/api/maps/{name}")
    async def get_map(name: str) -> dict[str, Any]:
        return map_data(known_map(name))

    @app.get("/api/maps/{name}/board.svg")
    async def get_board(name: str) -> Response:
        return Response(board_svg(known_map(name)), media_type="image/svg+xml")

    @app.get("/api/bots")
    async def get_bots() -> list[dict[str, Any]]:
        from ttr.bots import LEVEL_BOTS

        levels = [{"level": lv, "bot": LEVEL_BOTS[lv], "description": LEVEL_TEXT[lv]} for lv in LEVELS]
        return levels + [{"level": name, "bot": name, "description": f"a program the server runs ({name[4:]}), "
                          "speaking ttr-bot/1"} for name in config.programs]

    # ------------------------------------------------------------------ games

    @app.post("/api/games", status_code=201)
    async def post_game(request: Request) -> JSONResponse:
        creator = client_key(request.client.host if request.client else None)
        wait = manager.limits.hit(manager.limits.create, creator)
        if wait is not None:
            raise ApiError(429, "rate_limited", f"too many new games from your address (at most "
                           f"{config.create_limit}): try again in {wait:g} s", retry_after=wait)
        body = await _read_body(request)
        return JSONResponse(await manager.create(body, creator), status_code=201)

    @app.get("/api/games")
    async def get_games(limit: str = "50") -> list[dict[str, Any]]:
        count = _whole(limit)
        if count is None or not 1 <= count <= 500:
            raise ApiError(400, "malformed", "'limit' must be a whole number from 1 to 500")
        return await manager.list_summaries(count)

    async def finished_room(game_id: str) -> Any:
        room = await manager.room(game_id)
        if room is None:
            raise ApiError(404, "not_found", f"no game {game_id[:40]!r}")
        if room.info.status != FINISHED:
            raise ApiError(409, "not_finished", "the game is still running: records and replays are for finished games")
        return room

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> dict[str, Any]:
        summary = await manager.summary(game_id)
        if summary is None:
            raise ApiError(404, "not_found", f"no game {game_id[:40]!r}")
        return summary

    @app.get("/api/games/{game_id}/record")
    async def get_record(game_id: str) -> JSONResponse:
        room = await finished_room(game_id)
        return JSONResponse(write_record(room.game),
                            headers={"Content-Disposition": f'attachment; filename="ttr-{game_id}.json"'})

    @app.get("/api/games/{game_id}/replay/{step}")
    async def get_replay(game_id: str, step: str) -> dict[str, Any]:
        room = await finished_room(game_id)
        steps = len(room.game.history)
        n = _whole(step)
        if n is None or not 0 <= n <= steps:
            raise ApiError(400, "malformed", f"'step' must be a whole number from 0 to {steps}")
        game = Game.new(room.game.map, list(room.game.players), seed=room.info.seed)
        for _seat, aid, _detail in room.game.history[:n]:
            game.apply_id(aid)
        view = view_for(game, None)
        return {"step": n, "steps": steps, "view": view, "last": last_for(view)}

    @app.get("/api/stats")
    async def get_stats() -> dict[str, Any]:
        conns = sum(len(r.conns) for r in manager.rooms.values())
        running = sum(1 for r in manager.rooms.values() if not r.game.is_over)
        games = await manager.db(manager.store.count_by_status)
        return {"action_ms": manager.times.summary(), "games_in_memory": len(manager.rooms),
                "games_running": running, "connections": conns,
                "games": {status: games.get(status, 0) for status in (RUNNING, FINISHED, ABANDONED)},
                "gc": collector.summary()}

    @app.post("/api/stats/reset")
    async def reset_stats(request: Request) -> dict[str, Any]:
        if not _from_this_machine(request):
            raise ApiError(403, "forbidden",
                           "the timing figures can be reset only from the server's own machine, not through a proxy")
        manager.times.reset()
        collector.reset()
        return {"action_ms": manager.times.summary()}

    # ------------------------------------------------------------------ operations

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        """The process answers (a liveness probe)."""
        return {"status": "ok"}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Ready for games: started, and the database answers (a readiness probe: 503 otherwise)."""
        if not manager.ready or manager.stopping:
            return JSONResponse({"status": "not_ready", "reason": "starting or stopping"}, status_code=503)
        try:
            await asyncio.wait_for(manager.db(manager.store.ping), 5)
        except Exception as exc:
            return JSONResponse({"status": "not_ready", "reason": f"the database does not answer: "
                                 f"{type(exc).__name__}"}, status_code=503)
        return JSONResponse({"status": "ready"})

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """Prometheus metrics (`ttr.server.metrics`)."""
        return Response(manager.metrics.render(), media_type=CONTENT_TYPE)

    online = install_online(app, manager)

    add_review_routes(app, reviews)

    @app.api_route("/api/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"], include_in_schema=False)
    async def no_such_api(rest: str) -> JSONResponse:
        return _error(404, "not_found", f"no API path /api/{rest[:60]}")

    # ------------------------------------------------------------------ the game socket

    @app.websocket("/ws/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        origin = websocket.headers.get("origin")
        if not origin_allowed(origin, websocket.headers.get("host"), allowed_origins):
            shown = (origin or "")[:80]
            await websocket.send_text(json.dumps(ProtocolError(
                "forbidden_origin", f"this server does not take games from pages of {shown!r} (only its own "
                "origin and those given with --allowed-origin)").to_message()))
            await websocket.close(code=4403, reason="origin not allowed")
            return
        conn = Connection(websocket.send_text, lambda: websocket.close(code=1013, reason="too slow: reconnect"))
        conn.client = client_key(websocket.client.host if websocket.client else None)
        counted: Any = None
        writer = asyncio.create_task(conn.writer())
        try:
            await online.ws_connected(conn, websocket)
            refusal: dict[str, str] | None = None
            try:
                room = await manager.room(game_id)
            except Exception:  # a stored game that no longer replays: say so, keep serving the others
                log.exception("cannot load game %s", game_id)
                room, refusal = None, {"type": "error", "code": "internal", "message": "this game cannot be loaded"}
            if room is None:
                conn.push(refusal or ProtocolError("not_found", f"no game {game_id[:40]!r}").to_message())
                conn.close()
                await writer
                await websocket.close(code=4404 if refusal is None else 1011)
                return
            if room.sockets >= config.max_sockets_per_game:
                conn.push(ProtocolError("too_many_sockets", f"this game has {room.sockets} sockets open here, the "
                                        f"most this server takes ({config.max_sockets_per_game})").to_message())
                conn.close()
                await writer
                await websocket.close(code=1013, reason="too many sockets on this game")
                return
            room.sockets += 1
            counted = room
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                received = time.perf_counter()
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes")
                await _handle(conn, room, raw, received)
        except WebSocketDisconnect:
            pass
        finally:
            if counted is not None:
                counted.sockets -= 1
            for task in list(conn.tasks):
                task.cancel()
            manager.leave(conn)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 5)
            if websocket.application_state != WebSocketState.DISCONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    async def _handle(conn: Connection, room: Any, raw: str | bytes | None, received: float) -> None:
        try:
            wait = manager.limits.hit(manager.limits.message, conn.client)
            if wait is not None:
                raise ProtocolError("rate_limited", f"too many messages from your address (at most "
                                    f"{config.message_limit}): this one was not read; wait {wait:g} s",
                                    retry_after=wait)
            data = parse_client_message(raw)
            kind = data["type"]
            if kind == "join":
                seat = None if data["seat"] is None else await online_seat(online, conn, room, data["seat"])
                await manager.join(conn, room, data["token"], seat)
                await online.joined(conn)
            elif not conn.joined:
                raise ProtocolError("join_first", f"send 'join' before '{kind}'")
            elif kind == "action":
                await manager.act(conn, data["version"], data["id"])
                took = time.perf_counter() - received
                manager.times.add(took * 1000)
                manager.metrics.action_seconds.observe(took)
            elif kind == "hint":
                _start_hint(conn, room)
            elif kind == "chat":
                await chat.say(online, conn, data)
            else:
                conn.push({"type": "pong"})
        except ProtocolError as exc:
            manager.metrics.refused(exc.code)
            conn.push(exc.to_message())
        except Exception:
            manager.metrics.refused("internal")
            log.exception("error handling a message in game %s", room.info.id)
            conn.push({"type": "error", "code": "internal",
                       "message": "the server failed on this message; nothing changed"})

    def _start_hint(conn: Connection, room: Any) -> None:
        """Work out a hint beside the socket's other messages (a search takes up to a second); one at a time
        per seat, a second request meanwhile is refused with `hint_pending`."""
        seat = manager.check_hint(conn)
        if seat in room.hinting:
            raise ProtocolError("hint_pending", "a hint for this seat is being worked out; it comes when ready")
        wait = manager.limits.hit(manager.limits.hint, conn.client)
        if wait is not None:
            raise ProtocolError("rate_limited", f"too many hints for your address (at most {config.hint_limit}): "
                                f"wait {wait:g} s", retry_after=wait)
        room.hinting.add(seat)

        async def work() -> None:
            try:
                conn.push(await manager.hint(conn))
            except ProtocolError as exc:
                conn.push(exc.to_message())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hint failed in game %s", room.info.id)
                conn.push({"type": "error", "code": "internal", "message": "the hint failed; nothing changed"})
            finally:
                room.hinting.discard(seat)

        task = asyncio.get_running_loop().create_task(work())
        conn.tasks.add(task)
        task.add_done_callback(conn.tasks.discard)

    # ------------------------------------------------------------------ the page

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = static_dir / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(FALLBACK_PAGE)

    app.mount("/i18n", StaticFiles(directory=WEB_DIR / "i18n", check_dir=False), name="i18n")
    app.mount("/", StaticFiles(directory=static_dir, html=True, check_dir=False), name="static")
    return app
