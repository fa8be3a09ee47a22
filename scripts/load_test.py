#!/usr/bin/env python3
"""Load benchmark of `ttr serve`: many concurrent games played over WebSockets by client-side bots.

Starts `ttr serve` on a free loopback port with a temporary SQLite database (or uses --url), keeps
--games games going at once (each finished game is replaced by a new one), every seat a person seat
played by a client-side random (or first-legal, or bot) player over its own WebSocket (or, with
--server-bots, one such seat per game against bots playing on the server), and measures for each
action the time from sending it to receiving the `update` that carries it, on the sender's socket.
Prints actions per second, p50/p90/p99/max latency and the error count (error messages, unexpected
closes, timeouts).

With --servers N it starts N servers on one database (PostgreSQL: --db URL, or --start-postgres for a
throwaway cluster), creates the games round the servers and connects each seat of a game to a different
server; `fanout_ms` is then the time from sending an action to its update reaching every socket of the
game, on every server (the servers pass it on by PostgreSQL NOTIFY). CPU is printed per server process.

    .venv/bin/python scripts/load_test.py --games 200 --duration 60
    .venv/bin/python scripts/load_test.py --games 200 --duration 60 --think 0.5   # people-like pace
    .venv/bin/python scripts/load_test.py --servers 2 --start-postgres --games 1000 --think 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class Stats:
    """What the players measured."""

    latencies: list[float] = field(default_factory=list)
    fanout: list[float] = field(default_factory=list)  # send -> the update on every socket of the game
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    games_finished: int = 0
    games_started: int = 0
    elapsed: float = 0.0  # seconds measured
    server_reset: bool = False  # whether the server's timing figures were reset at the start (loopback only)
    server_cpu: float | None = None  # the server processes' CPU seconds, when their pids are known
    server_cpus: list[float] = field(default_factory=list)  # ... each
    client_cpu: float = 0.0
    server: dict[str, Any] = field(default_factory=dict)  # /api/stats at the end


def choose_with_bot(policy: str, msg: dict[str, Any], rng: random.Random) -> int:
    """The index in `msg["legal"]` that the bot `policy` (e.g. greedy) picks from the seat's view."""
    from ttr.bots import make_bot
    from ttr.engine import Action
    from ttr.maps import load_map

    view = dict(msg["view"], map=msg.get("map", "europe"))
    actions = [Action.from_json(entry["action"]) for entry in msg["legal"]]
    bot = make_bot(policy, load_map(view["map"]), int(view["seat"]), rng.randrange(2**31))
    return actions.index(bot.choose(view, actions))


_HEAD = re.compile(r'\{"type": "(update|snapshot)", "version": (\d+),')


def quick_read(raw: str | bytes) -> dict[str, Any]:
    """The message; an update that gives this seat nothing to do is read from its head alone (a player
    needs only its version), which keeps the client's CPU for the server on a shared machine."""
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    head = _HEAD.match(text)
    if head and '"legal": [], "seats"' in text and '"status": "finished"' not in text:
        return {"type": head.group(1), "version": int(head.group(2)), "legal": [], "status": "running"}
    msg: dict[str, Any] = json.loads(text)
    return msg


@dataclass
class Table:
    """The sockets of one game: when each action was sent, and how many sockets have its update."""

    sockets: int
    sent: dict[int, float] = field(default_factory=dict)  # version the action was sent at -> time sent
    got: dict[int, int] = field(default_factory=dict)

    def received(self, version: int, stats: Stats) -> None:
        """A socket got the update of `version` (the action sent at `version - 1`)."""
        at = self.sent.get(version - 1)
        if at is None:
            return
        count = self.got.get(version - 1, 0) + 1
        if count >= self.sockets:
            stats.fanout.append(time.perf_counter() - at)
            del self.sent[version - 1]
            self.got.pop(version - 1, None)
        else:
            self.got[version - 1] = count


async def play_seat(url: str, token: str, rng: random.Random, think: float, stats: Stats, stop: asyncio.Event,
                    policy: str, map_name: str, table: Table | None = None) -> None:
    """One seat: join, and on each turn send an action and time until its update comes back (to this socket,
    and with `table`, to every socket of the game)."""
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        pending: tuple[int, float] | None = None  # (version sent, time sent)
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 60)
            except TimeoutError:
                stats.errors.append("timeout: no message for 60 s")
                return
            msg = quick_read(raw)
            msg["map"] = map_name
            kind = msg["type"]
            if kind == "error":
                stats.errors.append(f"{msg['code']}: {msg['message']}")
                pending = None
                continue
            if kind not in ("snapshot", "update"):
                continue
            if table is not None and kind == "update":
                table.received(msg["version"], stats)
            if pending is not None and kind == "update" and msg["version"] == pending[0] + 1:
                stats.latencies.append(time.perf_counter() - pending[1])
                stats.actions += 1
                pending = None
            if msg["status"] == "finished":
                return
            if msg["legal"] and not stop.is_set():
                if think > 0:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                legal = msg["legal"]
                if policy == "first":
                    choice = legal[0]
                elif policy == "random":
                    choice = legal[rng.randrange(len(legal))]
                else:  # a client-side bot, from the seat's view only
                    choice = legal[choose_with_bot(policy, msg, rng)]
                pending = (msg["version"], time.perf_counter())
                if table is not None:
                    table.sent[msg["version"]] = pending[1]
                await ws.send(json.dumps({"type": "action", "version": msg["version"], "id": choice["id"]}))
            elif stop.is_set() and msg["legal"]:
                return


async def game_slot(bases: list[str], args: argparse.Namespace, slot: int, stats: Stats, stop: asyncio.Event,
                    clients: list[httpx.AsyncClient]) -> None:
    """Keep one game going until `stop`: create it (on server `slot` of `bases`, in turn), play all its
    seats (seat i on server `slot + i`), start another."""
    rng = random.Random(args.seed * 100_003 + slot)
    http = clients[slot % len(clients)]
    while not stop.is_set():
        seats: list[dict[str, Any]] = [{"type": "human", "name": f"P{i}"} for i in range(args.players)]
        if args.server_bots:  # every seat but the first is a bot that plays on the server (its worker pool)
            seats[1:] = [{"type": "bot", "level": args.server_bots} for _ in seats[1:]]
        try:
            body: dict[str, Any] = {"map": args.map, "seats": seats, "bot_delay": 0, "when_people_leave": "wait"}
            if sum(1 for s in seats if s["type"] == "human") <= 1:  # the server chooses the seed of a game of people
                body["seed"] = rng.randrange(2**40)
            r = await http.post("/api/games", json=body)
            r.raise_for_status()
        except (httpx.HTTPError, RuntimeError) as exc:  # RuntimeError: the run ended, its client closed
            if stop.is_set():
                return
            stats.errors.append(f"create: {type(exc).__name__}: {exc}")
            await asyncio.sleep(1)
            continue
        created = r.json()
        stats.games_started += 1
        people = [s for s in created["seats"] if "token" in s]
        table = Table(len(people))

        gid = created["id"]
        urls = [f"{bases[(slot + i) % len(bases)].replace('http://', 'ws://')}/ws/{gid}" for i in range(len(people))]

        try:
            await asyncio.gather(*(play_seat(urls[i], s["token"], random.Random(rng.random()), args.think, stats, stop,
                                             args.policy, args.map, table) for i, s in enumerate(people)))
        except (OSError, websockets.WebSocketException) as exc:
            stats.errors.append(f"socket: {type(exc).__name__}: {exc}")
            continue
        except Exception as exc:  # a bug in this script: count it, and keep the slot going
            stats.errors.append(f"client: {type(exc).__name__}: {exc}")
            await asyncio.sleep(1)
            continue
        if not stop.is_set():
            stats.games_finished += 1


def start_server(args: argparse.Namespace, db: str) -> tuple[subprocess.Popen[str], str]:
    """`ttr serve` on a free port; returns the process and the base URL once it answers."""
    cmd = [sys.executable, "-m", "ttr.cli.main", "serve", "--port", "0", "--db", db, "--bot-delay", "0",
           "--bot-workers", str(args.bot_workers)]
    if args.raise_limits:  # every game and socket comes from this one client: far above the per-client defaults
        cmd += RAISED_LIMITS
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    match = re.search(r"(http://[^/\s]+)/", line)
    if match is None:
        proc.kill()
        raise SystemExit(f"ttr serve did not print its address: {line!r}")
    base = match.group(1)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/maps", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("ttr serve did not answer")


RAISED_LIMITS = ["--create-limit", "100000/minute", "--message-limit", "10000000/10 seconds",
                 "--hint-limit", "100000/minute", "--max-running-per-client", "1000000",
                 "--max-sockets-per-game", "100000"]


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def run(args: argparse.Namespace, bases: list[str]) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=50)
    async with contextlib.AsyncExitStack() as stack:
        timeout = httpx.Timeout(60, pool=None)  # creations queue for a connection (1000 at once take a while)
        clients = [await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits))
                   for base in bases]
        slots = [asyncio.create_task(game_slot(bases, args, i, stats, stop, clients)) for i in range(args.games)]
        await asyncio.sleep(args.warmup)
        async with httpx.AsyncClient(timeout=60) as quiet:  # not queued behind the games' requests
            resets = [await quiet.post(f"{base}/api/stats/reset") for base in bases]  # 403 unless on this machine
        stats.server_reset = all(r.status_code == 200 for r in resets)
        stats.latencies.clear()
        stats.fanout.clear()
        stats.actions = 0
        began = time.perf_counter()
        pids = args.server_pids
        start_cpu, client_cpu = [cpu_seconds(pid) for pid in pids], time.process_time()
        await asyncio.sleep(args.duration)
        elapsed = time.perf_counter() - began
        end_cpu = [cpu_seconds(pid) for pid in pids]
        stats.server_cpus = [e - b for b, e in zip(start_cpu, end_cpu, strict=True) if b is not None and e is not None]
        stats.server_cpu = sum(stats.server_cpus) if pids and len(stats.server_cpus) == len(pids) else None
        stats.client_cpu = time.process_time() - client_cpu
        measured, fanout, count = list(stats.latencies), list(stats.fanout), stats.actions
        async with httpx.AsyncClient(timeout=60) as quiet:
            stats.server = (await quiet.get(f"{bases[0]}/api/stats")).json()
        stop.set()
        _done, pending = await asyncio.wait(slots, timeout=30)
        for task in pending:
            task.cancel()
    stats.latencies, stats.fanout, stats.actions = measured, fanout, count
    stats.elapsed = elapsed
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--players", type=int, default=2, help="seats per game, all played over WebSockets")
    parser.add_argument("--map", default="europe")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (default 5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits before acting (default 0: as fast as possible)")
    parser.add_argument("--policy", default="random",
                        help="how client players choose: random, first, or a bot name such as greedy (default random)")
    parser.add_argument("--server-bots", metavar="LEVEL",
                        help="make every seat but the first a server-side bot of this level (e.g. random, greedy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--raise-limits", action=argparse.BooleanOptionalAction, default=True,
                        help="start the server with its per-client limits and caps raised far above this load "
                             "(default; --no-raise-limits keeps the server's defaults, which refuse most of it)")
    parser.add_argument("--url", action="append", default=[],
                        help="use a running server instead of starting one (repeatable: servers sharing a database)")
    parser.add_argument("--db", help="database URL for the started server (default: a temporary SQLite file)")
    parser.add_argument("--servers", type=int, default=1,
                        help="servers to start on the one database (default 1; more need PostgreSQL)")
    parser.add_argument("--start-postgres", action="store_true",
                        help="start a throwaway PostgreSQL cluster for the servers (tests/server/postgres.py)")
    args = parser.parse_args()

    procs: list[subprocess.Popen[str]] = []
    postgres = None
    tmp = tempfile.TemporaryDirectory(prefix="ttr-load-")
    try:
        if args.url:
            bases = [u.rstrip("/") for u in args.url]
        else:
            db = args.db or f"sqlite:///{os.path.join(tmp.name, 'load.sqlite3')}"
            if args.start_postgres:
                sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
                from tests.server.postgres import start_postgres

                postgres = start_postgres()
                db = postgres.url
            if args.servers > 1 and not db.startswith("postgresql"):
                raise SystemExit("--servers above 1 need a PostgreSQL --db (or --start-postgres)")
            bases = []
            for _ in range(args.servers):
                proc, base = start_server(args, db)
                procs.append(proc)
                bases.append(base)
        args.server_pids = [p.pid for p in procs]
        stats = asyncio.run(run(args, bases))
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if postgres is not None:
            postgres.stop()
        tmp.cleanup()
    lat_ms = [x * 1000 for x in stats.latencies]
    elapsed: float = stats.elapsed
    bots = f", {args.players - 1} server bot(s) {args.server_bots} each" if args.server_bots else ""
    on_pg = args.start_postgres or (args.db or "").startswith("postgresql")
    print(f"servers              {len(bases)} ({'given' if args.url else 'PostgreSQL' if on_pg else 'SQLite'})")
    print(f"games_concurrent     {args.games} ({args.players} seats each{bots}, {args.map}, think {args.think} s, "
          f"policy {args.policy})")
    print(f"games_started        {stats.games_started}")
    print(f"games_finished       {stats.games_finished}")
    print(f"measured_seconds     {elapsed:.1f}")
    print(f"actions              {stats.actions}")
    print(f"actions_per_second   {stats.actions / elapsed:.1f}")
    if lat_ms:
        print(f"latency_ms_p50       {percentile(lat_ms, 50):.1f}")
        print(f"latency_ms_p90       {percentile(lat_ms, 90):.1f}")
        print(f"latency_ms_p99       {percentile(lat_ms, 99):.1f}")
        print(f"latency_ms_max       {max(lat_ms):.1f}")
        print(f"latency_ms_mean      {statistics.fmean(lat_ms):.1f}")
    fan_ms = [x * 1000 for x in stats.fanout]
    if fan_ms:
        print(f"fanout_ms_p50        {percentile(fan_ms, 50):.1f}  (sent -> the update on every socket of the game"
              f"{', on every server' if len(bases) > 1 else ''}; {len(fan_ms)} actions)")
        print(f"fanout_ms_p99        {percentile(fan_ms, 99):.1f}")
        print(f"fanout_ms_max        {max(fan_ms):.1f}")
    server_ms = stats.server["action_ms"]
    if server_ms["actions"]:
        since = "" if stats.server_reset else "; not reset by this run: since the server started"
        print(f"server_ms_p50        {server_ms['p50']:.2f}  (received -> update queued to every socket, "
              f"{server_ms['actions']} actions{since})")
        print(f"server_ms_p99        {server_ms['p99']:.2f}")
        print(f"server_ms_max        {server_ms['max']:.2f}")
    server_cpu = stats.server_cpu
    if server_cpu is not None:
        each = ", ".join(f"{c / elapsed * 100:.0f}%" for c in stats.server_cpus)
        print(f"server_cpu_seconds   {server_cpu:.1f} ({server_cpu / elapsed * 100:.0f}% of one core: {each} each; "
              f"{server_cpu / max(1, stats.actions) * 1000:.2f} ms per action)")
    print(f"client_cpu_seconds   {stats.client_cpu:.1f}")
    print(f"errors               {len(stats.errors)}")
    for line in sorted(set(stats.errors))[:10]:
        print(f"  {line}")
    return 1 if stats.errors else 0


if __name__ == "__main__":
    sys.exit(main())
