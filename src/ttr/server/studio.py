"""The map editor's server side (`#/editor`): check a draft map with every problem at its place, suggest a
ticket's points, take a custom map for new games, and simulate bot games on it into a report.

    GET  /api/maps/{name}/file                 -> the map file to edit (with a board placement)
    POST /api/maps/check          {map}        -> {ok, problems: [{where, message, section, index, field}]}
    POST /api/maps/suggest        {map, a, b}  -> {shortest, points}
    POST /api/maps/custom         {map}        -> {name, title, players_min, players_max}
    POST /api/studio/simulations  {map, players, bots, games} -> {id}
    GET  /api/studio/simulations/{id}          -> {id, status, done, total, error}
    GET  /api/studio/simulations/{id}/report   -> the report page (HTML)

Simulations play their games in the server's bot pool, one at a time per worker, beside the live games.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import re
import secrets
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ttr.bots import BOTS
from ttr.maps.check import check_map
from ttr.server import custom_maps
from ttr.server.bot_pool import BotPool
from ttr.server.config import ApiError

log = logging.getLogger("ttr.server")

MAX_SIM_GAMES = 1000
MAX_MAP_BODY = 512 * 1024  # bytes: Europe's file is 24 KB
MAX_SIMULATIONS = 8  # kept in memory (the oldest finished one is dropped first)
WHERE = re.compile(r"^(?P<section>[a-z_]+)(?:\[(?P<index>\d+)\])?(?:\.(?P<field>.+))?$")


def locate(where: str) -> dict[str, Any]:
    """A problem's place as parts the editor points at: ``routes[12].color`` -> routes, 12, color."""
    match = WHERE.match(where)
    if match is None:
        return {"section": where, "index": None, "field": None}
    index = match.group("index")
    return {"section": match.group("section"), "index": int(index) if index is not None else None,
            "field": match.group("field")}


def problems_json(data: Any) -> list[dict[str, Any]]:
    """Every problem of a draft map (`ttr.maps.check.check_map`), with its place split for the editor."""
    return [{"where": p.where, "message": p.message, **locate(p.where)} for p in check_map(data)]


@dataclass
class Simulation:
    """A simulation the editor started: its progress, and the report once it is done."""

    id: str
    total: int
    done: int = 0
    status: str = "running"  # running, done, error
    error: str = ""
    report: str = ""
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ttr-studio-sim-")))

    def to_json(self) -> dict[str, Any]:
        """The progress as the page polls it."""
        return {"id": self.id, "status": self.status, "done": self.done, "total": self.total, "error": self.error}


def editable_file(name: str) -> dict[str, Any]:
    """A shipped (or custom) map's file for the editor to start from, with a `board` placement (from the
    drawn layout, in board units) when the file has none."""
    from ttr.server.mapdata import map_data

    game_map = custom_maps.resolve(name)
    data: dict[str, Any] = json.loads(json.dumps(game_map.to_json()))
    if "board" not in data:
        drawn = map_data(name)
        width = float(drawn["width"])
        data["board"] = {c["name"]: [round(c["x"] / width * 100, 1), round(min(100.0, c["y"] / width * 100), 1)]
                         for c in drawn["cities"]}
    return data


async def _read_body(request: Request) -> Any:
    """The JSON body, up to `MAX_MAP_BODY` bytes (a map file is larger than the game API's bodies)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_MAP_BODY:
            raise ApiError(413, "too_large", f"the body is over {MAX_MAP_BODY} bytes")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):
        raise ApiError(400, "malformed", "the body is not JSON") from None


def _body_map(body: Any) -> Any:
    if not isinstance(body, dict) or "map" not in body:
        raise ApiError(400, "malformed", "the body is a JSON object with the map file's data in 'map'")
    return body["map"]


def studio_router(manager: Any, pool: BotPool) -> APIRouter:
    """The editor's routes, for `app.include_router`; `pool` plays the simulations' games."""
    router = APIRouter()
    sims: dict[str, Simulation] = {}
    running: set[asyncio.Task[None]] = set()  # the simulations' tasks, held until they end

    @router.get("/api/maps/{name}/file")
    async def map_file(name: str) -> dict[str, Any]:
        return editable_file(name)

    @router.post("/api/maps/check")
    async def check(request: Request) -> dict[str, Any]:
        problems = problems_json(_body_map(await _read_body(request)))
        return {"ok": not problems, "problems": problems}

    @router.post("/api/maps/suggest")
    async def suggest(request: Request) -> dict[str, Any]:
        body = await _read_body(request)
        data = _body_map(body)
        a, b = body.get("a"), body.get("b")
        if not isinstance(a, str) or not isinstance(b, str) or a == b:
            raise ApiError(400, "malformed", "'a' and 'b' are two different city names")
        # imported here: the analysis brings networkx and numpy, a second of a server's start, for one endpoint
        from ttr.maps.analyze import draft_shortest, suggested_points

        shortest = draft_shortest(data, a, b)
        return {"shortest": shortest, "points": suggested_points(shortest) if shortest is not None else None}

    @router.post("/api/maps/custom", status_code=201)
    async def custom(request: Request) -> dict[str, Any]:
        name, game_map = custom_maps.register(_body_map(await _read_body(request)))
        return {"name": name, "title": game_map.title, "players_min": game_map.rules.players_min,
                "players_max": game_map.rules.players_max}

    @router.post("/api/studio/simulations", status_code=201)
    async def start_simulation(request: Request) -> dict[str, Any]:
        body = await _read_body(request)
        if not isinstance(body, dict):
            raise ApiError(400, "malformed", "the body is {map, players, bots, games}")
        name = body.get("map")
        if not isinstance(name, str) or not custom_maps.known(name):
            raise ApiError(400, "unknown_map", f"unknown map {str(name)[:40]!r}: send a custom map to "
                           "POST /api/maps/custom first")
        game_map = custom_maps.resolve(name)
        players, games, bots = body.get("players", 2), body.get("games", 200), body.get("bots", "greedy")
        rules = game_map.rules
        whole = isinstance(players, int) and not isinstance(players, bool)
        if not whole or not rules.players_min <= players <= rules.players_max:
            raise ApiError(400, "bad_seats", f"'players' must be from {rules.players_min} to {rules.players_max}")
        if not isinstance(games, int) or isinstance(games, bool) or not 1 <= games <= MAX_SIM_GAMES:
            raise ApiError(400, "malformed", f"'games' must be a whole number from 1 to {MAX_SIM_GAMES}")
        specs = tuple(b.strip() for b in bots.split(",")) if isinstance(bots, str) else ()
        if not specs or any(spec not in BOTS for spec in specs):
            raise ApiError(400, "unknown_level",
                           f"'bots' names bots of the server, comma-separated ({', '.join(BOTS)})")
        from ttr.sim.tournament import TournamentConfig

        text = custom_maps.extra_for(name).get(custom_maps.EXTRA_KEY)
        config = TournamentConfig(name, players, specs, games, seed=secrets.randbits(31), map_json=text)
        if len(sims) >= MAX_SIMULATIONS:
            finished = [s for s in sims.values() if s.status != "running"]
            if not finished:
                raise ApiError(429, "busy", f"{MAX_SIMULATIONS} simulations are running: wait for one to finish")
            oldest = finished[0]
            shutil.rmtree(oldest.folder, ignore_errors=True)
            sims.pop(oldest.id)
        sim = Simulation(secrets.token_hex(6), games)
        sims[sim.id] = sim
        loop = asyncio.get_running_loop()
        task = loop.create_task(asyncio.to_thread(_run, sim, config, pool, loop, lambda: bool(manager.stopping)))
        running.add(task)
        task.add_done_callback(running.discard)
        return {"id": sim.id}

    def the_sim(sim_id: str) -> Simulation:
        sim = sims.get(sim_id)
        if sim is None:
            raise ApiError(404, "not_found", f"no simulation {sim_id[:40]!r}")
        return sim

    @router.get("/api/studio/simulations/{sim_id}")
    async def simulation(sim_id: str) -> dict[str, Any]:
        return the_sim(sim_id).to_json()

    @router.get("/api/studio/simulations/{sim_id}/report")
    async def report(sim_id: str) -> HTMLResponse:
        sim = the_sim(sim_id)
        if sim.status != "done":
            raise ApiError(409, "not_finished", f"the simulation is {sim.status}")
        return HTMLResponse(sim.report)

    return router


def _run(sim: Simulation, config: Any, pool: BotPool, loop: asyncio.AbstractEventLoop,
         stopping: Callable[[], bool]) -> None:
    """Play the simulation's games in the bot pool (from a thread), then build its report; a server that is
    stopping ends it after the games under way (so the thread never outlives the server's loop)."""
    from ttr.sim.simulate import play_rows, simulate

    def runner(cfg: Any, indexes: list[int], with_records: bool) -> Iterator[Any]:
        window = max(1, pool.workers)
        pending: list[concurrent.futures.Future[Any]] = []
        queue = list(indexes)
        while queue or pending:
            while queue and len(pending) < window:
                pending.append(asyncio.run_coroutine_threadsafe(pool.run(play_rows, cfg, queue.pop(0)), loop))
            finished, _ = concurrent.futures.wait(pending, timeout=0.5, return_when=concurrent.futures.FIRST_COMPLETED)
            if stopping():
                raise RuntimeError("the server stopped before the simulation finished")
            for fut in finished:
                pending.remove(fut)
                yield fut.result()

    def progress(done: int, _total: int) -> None:
        sim.done = done

    try:
        simulate(config, sim.folder, "csv", runner=runner, progress=progress)
        from ttr.sim.report import build_report

        sim.report = build_report([sim.folder])
        sim.status = "done"
    except Exception as exc:  # a report without matplotlib, a worker that failed: say so to the page
        log.exception("simulation %s failed", sim.id)
        sim.status, sim.error = "error", str(exc)[:300] or type(exc).__name__
