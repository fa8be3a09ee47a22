#!/usr/bin/env python3
"""Load benchmark of `ttr serve`: many concurrent games played over WebSockets by client-side players.

Starts `ttr serve` on a loopback port with a temporary SQLite database (or uses --url), keeps --games games
going at once (each finished game is replaced by a new one), every seat a person seat played by a
client-side random (or first-legal, or bot) player over its own WebSocket (or, with --server-bots, one
such seat per game against bots playing on the server), and measures for each action the time from
sending it to receiving the `update` that carries it: on the sender's socket (`latency_ms`) and on every
socket of the game (`fanout_ms`). Prints actions per second, the latency percentiles, the error count
(error messages, unexpected closes, timeouts) and the CPU seconds of each server process and of the
client processes. The measured window opens once every game has been created and joined.

With --servers N it starts N servers on one database (PostgreSQL: --db URL, or --start-postgres for a
throwaway cluster), creates the games round the servers and connects each seat of a game to a different
server (the servers pass each action on by PostgreSQL NOTIFY). --clients N plays the games from N client
processes, so the client is not what limits the figures.

--soak-minutes M runs for M minutes while --kill-every S seconds one server (in turn) is killed with
SIGKILL and started again on the same port; seats whose socket dropped reconnect (to another server, if
there is one). At the end every action whose update a client received is looked up in the stored log:
`lost` counts those missing (it must be 0).

    .venv/bin/python scripts/load_test.py --games 200 --duration 60
    .venv/bin/python scripts/load_test.py --games 1000 --think 3 --clients 2
    .venv/bin/python scripts/load_test.py --servers 2 --start-postgres --games 1000 --think 3 --clients 2
    .venv/bin/python scripts/load_test.py --servers 2 --start-postgres --games 300 --think 3 \
        --soak-minutes 30 --kill-every 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import httpx
import websockets

PORTS = range(8200, 8300)  # where started servers listen (a port free on this machine, kept across restarts)


@dataclass
class Stats:
    """What one client process measured (sent to the parent at the end)."""

    latencies: list[float] = field(default_factory=list)  # seconds: send -> the update on the sender's socket
    fanout: list[float] = field(default_factory=list)  # send -> the update on every socket of the game
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    games_finished: int = 0
    games_started: int = 0
    reconnects: int = 0  # sockets opened again after their server was killed (soak)
    accepted: list[tuple[str, int, int]] = field(default_factory=list)  # (game, version, action id) acknowledged
    cpu: float = 0.0  # this process's CPU seconds in the measured window


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
_LEGAL_ID = re.compile(r'\{"id": (\d+), "text": ')


def quick_read(raw: str | bytes, full: bool) -> dict[str, Any]:
    """The message. A snapshot or update is read from its text without decoding it (its version, status and
    legal ids: all a random or first-legal player needs), which keeps the client's CPU for the servers;
    `full` decodes everything (client-side bots need the view)."""
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    head = _HEAD.match(text)
    if head is None or full:
        msg: dict[str, Any] = json.loads(text)
        if "legal" in msg:
            msg["legal_ids"] = [entry["id"] for entry in msg["legal"]]
        return msg
    legal_at = text.rfind('"legal": [')
    seats_at = text.find('"seats": [', legal_at)
    status_at = text.rfind('"status": "')
    status = text[status_at + 11:text.index('"', status_at + 11)]
    ids = [int(i) for i in _LEGAL_ID.findall(text, legal_at, seats_at)]
    return {"type": head.group(1), "version": int(head.group(2)), "legal_ids": ids, "status": status}


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


class Client:
    """The game slots of one client process."""

    def __init__(self, args: argparse.Namespace, bases: list[str]) -> None:
        self.args = args
        self.bases = bases
        self.stats = Stats()
        self.stop = asyncio.Event()
        self.soak = args.soak_minutes > 0
        self.creating = asyncio.Semaphore(args.create_concurrency)  # creations in flight (httpx's pool is O(queue))
        self.joined = 0  # seats that got their first snapshot
        self.full = args.policy not in ("random", "first")

    async def play_seat(self, game_id: str, token: str, server: int, rng: random.Random, table: Table) -> None:
        """One seat: join, and on each turn send an action and time until its update comes back (on this
        socket, and on every socket of the game). In a soak, a dropped socket reconnects (another server first)."""
        first = True
        while True:
            url = f"{self.bases[server % len(self.bases)].replace('http://', 'ws://')}/ws/{game_id}"
            try:
                async with websockets.connect(url, max_size=None, open_timeout=60) as ws:
                    if await self._play_socket(ws, game_id, token, rng, table, first):
                        return
                    first = False
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                if self.stop.is_set():
                    return
                if not self.soak:
                    raise
                self.stats.reconnects += 1
                first = False
                server += 1
                table.sent.clear()
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                del exc

    async def _play_socket(self, ws: Any, game_id: str, token: str, rng: random.Random, table: Table,
                           first: bool) -> bool:
        """Play over one socket; True once the game is over (False: the socket closed under us)."""
        stats, args = self.stats, self.args
        await ws.send(json.dumps({"type": "join", "token": token}))
        pending: tuple[int, int, float] | None = None  # (version sent at, action id, time sent)
        seen = -1  # the last version this socket was told of
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 120)
            except TimeoutError:
                if not self.stop.is_set():
                    sent = f"an action sent at {pending[0]}" if pending else "no action sent"
                    stats.errors.append(f"timeout: no message for 120 s (game {game_id}, last told version {seen}, "
                                        f"{sent}; {await self._versions(game_id)})")
                return True
            msg = quick_read(raw, self.full)
            kind = msg["type"]
            if kind == "error":
                if not self.stop.is_set():
                    stats.errors.append(f"{msg['code']}: {msg['message']}")
                pending = None
                continue
            if kind not in ("snapshot", "update"):
                continue
            if kind == "snapshot" and first:
                first = False
                self.joined += 1
            version = seen = msg["version"]
            if kind == "update":
                table.received(version, stats)
            if pending is not None and version > pending[0]:
                if kind == "update" and version == pending[0] + 1:
                    stats.latencies.append(time.perf_counter() - pending[2])
                    stats.actions += 1
                    if self.soak:
                        stats.accepted.append((game_id, pending[0], pending[1]))
                pending = None
            if msg["status"] != "running":
                return True
            legal = msg["legal_ids"]
            if legal and not self.stop.is_set():
                if args.think > 0:
                    await asyncio.sleep(rng.uniform(0.5 * args.think, 1.5 * args.think))
                if args.policy == "first":
                    choice = legal[0]
                elif args.policy == "random":
                    choice = legal[rng.randrange(len(legal))]
                else:  # a client-side bot, from the seat's view only
                    msg["map"] = args.map
                    choice = legal[choose_with_bot(args.policy, msg, rng)]
                pending = (version, choice, time.perf_counter())
                table.sent[version] = pending[2]
                await ws.send(json.dumps({"type": "action", "version": version, "id": choice}))

    async def _versions(self, game_id: str) -> str:
        """What each server says of a game (its version there), to tell a lost update from a lost action."""
        said = []
        async with httpx.AsyncClient(timeout=30) as http:
            for i, base in enumerate(self.bases):
                try:
                    summary = (await http.get(f"{base}/api/games/{game_id}")).json()
                    said.append(f"server {i}: version {summary.get('version')}")
                except (httpx.HTTPError, ValueError) as exc:
                    said.append(f"server {i}: {type(exc).__name__}")
        return ", ".join(said)

    async def _create(self, http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
        async with self.creating:
            r = await http.post("/api/games", json=body)
        r.raise_for_status()
        created: dict[str, Any] = r.json()
        return created

    async def game_slot(self, slot: int, clients: list[httpx.AsyncClient]) -> None:
        """Keep one game going until `stop`: create it (on server `slot` of the bases, in turn), play all its
        seats (seat i on server `slot + i`), start another."""
        args, stats = self.args, self.stats
        rng = random.Random(args.seed * 100_003 + slot)
        while not self.stop.is_set():
            seats: list[dict[str, Any]] = [{"type": "human", "name": f"P{i}"} for i in range(args.players)]
            if args.server_bots:  # every seat but the first is a bot that plays on the server (its worker pool)
                seats[1:] = [{"type": "bot", "level": args.server_bots} for _ in seats[1:]]
            body: dict[str, Any] = {"map": args.map, "seats": seats, "bot_delay": 0, "when_people_leave": "wait"}
            if sum(1 for s in seats if s["type"] == "human") <= 1:  # the server chooses the seed of a game of people
                body["seed"] = rng.randrange(2**40)
            server = slot
            try:
                created = await self._create(clients[server % len(clients)], body)
            except (httpx.HTTPError, RuntimeError) as exc:  # RuntimeError: the run ended, its client closed
                if self.stop.is_set():
                    return
                if not self.soak:
                    stats.errors.append(f"create: {type(exc).__name__}: {exc}")
                slot += 1  # a soak's killed server: create on the next one
                await asyncio.sleep(1)
                continue
            stats.games_started += 1
            people = [s for s in created["seats"] if "token" in s]
            table = Table(len(people))
            try:
                await asyncio.gather(*(self.play_seat(created["id"], s["token"], server + i,
                                                      random.Random(rng.random()), table)
                                       for i, s in enumerate(people)))
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                if not self.stop.is_set():
                    stats.errors.append(f"socket: {type(exc).__name__}: {exc}")
                continue
            except Exception as exc:  # a bug in this script: count it, and keep the slot going
                stats.errors.append(f"client: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1)
                continue
            if not self.stop.is_set():
                stats.games_finished += 1


async def client_main(args: argparse.Namespace, bases: list[str], slots: list[int], pipe: Connection) -> None:
    """One client process: play `slots` until told to stop; report `ready` once every seat has joined, then
    measure between `measure` and `stop`, and send the stats."""
    client = Client(args, bases)
    loop = asyncio.get_running_loop()
    limits = httpx.Limits(max_connections=args.create_concurrency)
    async with contextlib.AsyncExitStack() as stack:
        timeout = httpx.Timeout(60, pool=None)
        clients = [await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits))
                   for base in bases]
        tasks = [asyncio.create_task(client.game_slot(slot, clients)) for slot in slots]
        seats = len(slots) * (1 if args.server_bots else args.players)
        while client.joined < seats:
            await asyncio.sleep(0.2)
        pipe.send(("ready", client.stats.games_started))
        command = await loop.run_in_executor(None, pipe.recv)
        assert command == "measure"
        stats = client.stats
        stats.latencies.clear()
        stats.fanout.clear()
        stats.errors.clear()
        stats.actions = stats.reconnects = 0
        stats.accepted = [] if not client.soak else stats.accepted
        began = time.process_time()
        command = await loop.run_in_executor(None, pipe.recv)
        assert command == "stop"
        stats.cpu = time.process_time() - began
        measured = Stats(list(stats.latencies), list(stats.fanout), list(stats.errors), stats.actions,
                         stats.games_finished, stats.games_started, stats.reconnects, list(stats.accepted), stats.cpu)
        client.stop.set()
        _done, pending = await asyncio.wait(tasks, timeout=5)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    pipe.send(measured)


def client_process(args: argparse.Namespace, bases: list[str], slots: list[int], pipe: Connection) -> None:
    """The entry point of a client process."""
    asyncio.run(client_main(args, bases, slots, pipe))


# ---------------------------------------------------------------------------------------------------- servers

RAISED_LIMITS = ["--create-limit", "100000/minute", "--message-limit", "10000000/10 seconds",
                 "--hint-limit", "100000/minute", "--max-running-per-client", "1000000",
                 "--max-sockets-per-game", "100000"]


def free_port(ports: range) -> int:
    """A free loopback port in `ports`."""
    for port in random.sample(list(ports), len(ports)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port in {ports.start}-{ports.stop - 1}")


class Server:
    """One `ttr serve` process, on a port it keeps when started again."""

    def __init__(self, args: argparse.Namespace, db: str, port: int) -> None:
        self.args, self.db, self.port = args, db, port
        self.base = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[str] | None = None
        self.cpu_before = 0.0  # CPU seconds of the processes killed during the measured window

    def start(self) -> None:
        """Start it and wait until it answers."""
        cmd = [sys.executable, "-m", "ttr.cli.main", "serve", "--port", str(self.port), "--db", self.db,
               "--bot-delay", "0", "--bot-workers", str(self.args.bot_workers)]
        if self.args.raise_limits:  # every game and socket comes from this one client: far above the defaults
            cmd += RAISED_LIMITS
        deadline = time.monotonic() + 120
        while True:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            assert self.proc.stdout is not None
            line = self.proc.stdout.readline()
            if "open http://" in line:
                break
            self.proc.wait()
            if time.monotonic() > deadline:  # the port not free again yet, or the SQLite lock still held
                raise SystemExit(f"ttr serve did not start: {line!r}")
            time.sleep(0.5)
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/readyz", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise SystemExit("ttr serve did not answer")

    def cpu(self) -> float:
        """CPU seconds of this server's processes so far in the window (the killed ones and the current one)."""
        now = cpu_seconds(self.proc.pid) if self.proc is not None else None
        return self.cpu_before + (now or 0.0)

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.proc is not None:
            self.cpu_before += cpu_seconds(self.proc.pid) or 0.0
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        """Stop it cleanly (SIGINT), or kill it after 20 s."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def tree_cpu_seconds(pid: int) -> float | None:
    """CPU seconds of a process and of all its children, living and exited (Linux /proc): a PostgreSQL
    postmaster's own, its backends' so far, and the reaped backends' it has collected."""
    tick = os.sysconf("SC_CLK_TCK")
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total = sum(int(x) for x in fields[11:15]) / tick  # utime, stime, cutime, cstime
    except (OSError, ValueError, IndexError):
        return None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                total += sum(int(x) for x in fields[11:15]) / tick
        except (OSError, ValueError, IndexError):
            continue
    return total


def postmaster_pid(base: str) -> int | None:
    """The postmaster's pid of a throwaway cluster (its data folder's postmaster.pid), or None."""
    try:
        with open(f"{base}/data/postmaster.pid", encoding="ascii") as f:
            return int(f.readline())
    except (OSError, ValueError):
        return None


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def lost_actions(db: str, accepted: list[tuple[str, int, int]]) -> tuple[int, list[str]]:
    """How many acknowledged actions are not in the stored log (at their version, with their id); examples."""
    from ttr.server.sql_store import SqlStore

    store = SqlStore(db)
    logs: dict[str, dict[int, int]] = {}
    lost, examples = 0, []
    try:
        for game_id, version, action_id in accepted:
            log = logs.get(game_id)
            if log is None:
                log = logs[game_id] = {a.version: a.action_id for a in store.actions(game_id)}
            if log.get(version) != action_id:
                lost += 1
                if len(examples) < 5:
                    examples.append(f"{game_id} v{version}: sent {action_id}, stored {log.get(version)}")
    finally:
        store.close()
    return lost, examples


def measure(args: argparse.Namespace, servers: list[Server], bases: list[str],
            db_pid: int | None = None) -> dict[str, Any]:
    """Start the client processes, wait until every game is joined, measure (killing servers in a soak) and
    gather the figures."""
    ctx = multiprocessing.get_context("spawn")
    shares = [list(range(i, args.games, args.clients)) for i in range(args.clients)]
    pipes, procs = [], []
    for share in shares:
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=client_process, args=(args, bases, share, theirs), daemon=True)
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    began_ramp = time.perf_counter()
    for pipe in pipes:
        pipe.recv()  # ready: every game created and joined
    ramp = time.perf_counter() - began_ramp
    time.sleep(args.warmup)
    with httpx.Client(timeout=60) as quiet:
        resets = [quiet.post(f"{base}/api/stats/reset") for base in bases]  # 403 unless on this machine
    for pipe in pipes:
        pipe.send("measure")
    began = time.perf_counter()
    for server in servers:
        server.cpu_before = -(cpu_seconds(server.proc.pid) or 0.0) if server.proc is not None else 0.0
    db_before = tree_cpu_seconds(db_pid) if db_pid is not None else None
    duration = args.soak_minutes * 60 if args.soak_minutes > 0 else args.duration
    kills = 0
    if args.soak_minutes > 0 and args.kill_every > 0 and servers:
        end = began + duration
        while time.perf_counter() + args.kill_every < end:
            time.sleep(args.kill_every)
            victim = servers[kills % len(servers)]
            victim.kill()
            kills += 1
            print(f"soak: {time.perf_counter() - began:6.0f} s: killed server {servers.index(victim)} (SIGKILL); "
                  "starting it again", flush=True)
            victim.start()
        time.sleep(max(0.0, end - time.perf_counter()))
    else:
        time.sleep(duration)
    elapsed = time.perf_counter() - began
    server_cpus = [server.cpu() for server in servers]
    db_now = tree_cpu_seconds(db_pid) if db_pid is not None else None
    db_cpu = db_now - db_before if db_now is not None and db_before is not None else None
    server_stats: dict[str, Any] = {}
    with contextlib.suppress(httpx.HTTPError), httpx.Client(timeout=60) as quiet:
        server_stats = quiet.get(f"{bases[0]}/api/stats").json()
    for pipe in pipes:
        pipe.send("stop")
    parts: list[Stats] = [pipe.recv() for pipe in pipes]
    for proc in procs:
        proc.join(30)
    total = Stats()
    for part in parts:
        total.latencies += part.latencies
        total.fanout += part.fanout
        total.errors += part.errors
        total.actions += part.actions
        total.games_started += part.games_started
        total.games_finished += part.games_finished
        total.reconnects += part.reconnects
        total.accepted += part.accepted
    return {"stats": total, "client_cpus": [p.cpu for p in parts], "server_cpus": server_cpus, "elapsed": elapsed,
            "ramp": ramp, "server": server_stats, "reset": all(r.status_code == 200 for r in resets), "kills": kills,
            "db_cpu": db_cpu}


def git_commit() -> str:
    """The checked-out commit (short), with `+` when the work tree has changes."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty else "")


def engine_build() -> str:
    """Whether the engine is pure Python or the compiled (mypyc) build."""
    from ttr.cli.console import engine_build as build

    return build()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--players", type=int, default=2, help="seats per game, all played over WebSockets")
    parser.add_argument("--map", default="europe")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds between every game joined and the measured window (default 5)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits before acting (default 0: as fast as possible)")
    parser.add_argument("--policy", default="random",
                        help="how client players choose: random, first, or a bot name such as greedy (default random)")
    parser.add_argument("--server-bots", metavar="LEVEL",
                        help="make every seat but the first a server-side bot of this level (e.g. random, greedy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-workers", type=int, default=1)
    parser.add_argument("--clients", type=int, default=1, help="client processes playing the games (default 1)")
    parser.add_argument("--create-concurrency", type=int, default=8,
                        help="game creations in flight per client process (default 8)")
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
    parser.add_argument("--soak-minutes", type=float, default=0.0,
                        help="a soak: run this many minutes (instead of --duration), killing servers "
                             "(--kill-every), then check that no acknowledged action is missing from the log")
    parser.add_argument("--kill-every", type=float, default=0.0,
                        help="in a soak, SIGKILL one server (in turn) every this many seconds and start it again")
    parser.add_argument("--markdown", action="store_true", help="also print the figures as a docs/server.md table row")
    args = parser.parse_args()
    if args.soak_minutes > 0 and args.url:
        raise SystemExit("--soak-minutes starts (and kills) its own servers: leave --url out")

    servers: list[Server] = []
    postgres = None
    tmp = tempfile.TemporaryDirectory(prefix="ttr-load-")
    db = ""
    try:
        if args.url:
            bases = [u.rstrip("/") for u in args.url]
        else:
            db = args.db or f"sqlite:///{os.path.join(tmp.name, 'load.sqlite3')}"
            if args.start_postgres:
                sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
                from tests.server.postgres import start_postgres

                postgres = start_postgres(port=free_port(range(55200, 55300)))
                db = postgres.url
            if args.servers > 1 and not db.startswith("postgresql"):
                raise SystemExit("--servers above 1 need a PostgreSQL --db (or --start-postgres)")
            for _ in range(args.servers):
                server = Server(args, db, free_port(PORTS))
                server.start()
                servers.append(server)
            bases = [s.base for s in servers]
        result = measure(args, servers, bases, postmaster_pid(postgres.base) if postgres is not None else None)
        lost: tuple[int, list[str]] | None = None
        if args.soak_minutes > 0:
            for server in servers:
                server.stop()
            lost = lost_actions(db, result["stats"].accepted)
    finally:
        for server in servers:
            server.stop()
        if postgres is not None:
            postgres.stop()
        tmp.cleanup()
    stats: Stats = result["stats"]
    elapsed: float = result["elapsed"]
    lat_ms = [x * 1000 for x in stats.latencies]
    fan_ms = [x * 1000 for x in stats.fanout]
    bots = f", {args.players - 1} server bot(s) {args.server_bots} each" if args.server_bots else ""
    on_pg = args.start_postgres or (args.db or "").startswith("postgresql")
    kind = "given" if args.url else "PostgreSQL" if on_pg else "SQLite"
    print(f"commit               {git_commit()} (engine: {engine_build()})")
    print(f"servers              {len(bases)} ({kind})")
    print(f"games_concurrent     {args.games} ({args.players} seats each{bots}, {args.map}, think {args.think} s, "
          f"policy {args.policy}; {args.clients} client process(es))")
    print(f"ramp_seconds         {result['ramp']:.1f}  (every game created and joined)")
    print(f"games_started        {stats.games_started}")
    print(f"games_finished       {stats.games_finished}")
    print(f"measured_seconds     {elapsed:.1f}")
    print(f"actions              {stats.actions}")
    print(f"actions_per_second   {stats.actions / elapsed:.1f}")
    if lat_ms:
        for q in (50, 95, 99):
            print(f"latency_ms_p{q}       {percentile(lat_ms, q):.1f}")
        print(f"latency_ms_max       {max(lat_ms):.1f}")
        print(f"latency_ms_mean      {statistics.fmean(lat_ms):.1f}")
    if fan_ms:
        where = ", on every server" if len(bases) > 1 else ""
        print(f"fanout_ms_p50        {percentile(fan_ms, 50):.1f}  (sent -> the update on every socket of the game"
              f"{where}; {len(fan_ms)} actions)")
        print(f"fanout_ms_p95        {percentile(fan_ms, 95):.1f}")
        print(f"fanout_ms_p99        {percentile(fan_ms, 99):.1f}")
        print(f"fanout_ms_max        {max(fan_ms):.1f}")
    server_ms = result["server"].get("action_ms", {})
    if server_ms.get("actions"):
        since = "" if result["reset"] else "; not reset by this run: since the server started"
        print(f"server_ms_p50        {server_ms['p50']:.2f}  (first server: received -> update queued to every "
              f"socket, {server_ms['actions']} actions{since})")
        print(f"server_ms_p99        {server_ms['p99']:.2f}")
    pauses = result["server"].get("gc")
    if pauses:
        parts = ", ".join(f"gen {g}: {pauses[g]['collections']} x, {pauses[g].get('cpu_ms', 0):.0f} ms CPU, max "
                          f"{pauses[g]['max_ms']:.1f} ms, {pauses[g].get('freed', 0)} freed" for g in "012")
        print(f"server_gc            {parts}  (first server's collector pauses in the window; "
              f"{pauses['frozen']} objects frozen)")
    if servers:
        cpus = result["server_cpus"]
        each = ", ".join(f"{c:.1f} s ({c / elapsed * 100:.0f}%)" for c in cpus)
        print(f"server_cpu_seconds   {sum(cpus):.1f}  (each: {each}; {sum(cpus) / max(1, stats.actions) * 1000:.2f} ms "
              "per action)")
    if result["db_cpu"] is not None:
        db_cpu = result["db_cpu"]
        print(f"database_cpu_seconds {db_cpu:.1f}  (PostgreSQL's processes, {db_cpu / elapsed * 100:.0f}% of a core; "
              f"{db_cpu / max(1, stats.actions) * 1000:.2f} ms per action)")
    client_cpus = result["client_cpus"]
    print(f"client_cpu_seconds   {sum(client_cpus):.1f}  (each: {', '.join(f'{c:.1f}' for c in client_cpus)})")
    print(f"load_average         {', '.join(f'{x:.1f}' for x in os.getloadavg())}  (1, 5, 15 min, at the end)")
    print(f"errors               {len(stats.errors)}")
    for line in sorted(set(stats.errors))[:10]:
        print(f"  {line}")
    if lost is not None:
        print(f"soak_kills           {result['kills']} (SIGKILL, every {args.kill_every:g} s)")
        print(f"reconnects           {stats.reconnects}")
        print(f"accepted_checked     {len(stats.accepted)}")
        print(f"lost                 {lost[0]}")
        for line in lost[1]:
            print(f"  {line}")
    if args.markdown and lat_ms:
        cpus = result["server_cpus"]
        print("| set-up | games | actions/s | p50 | p95 | p99 | fanout p99 | errors | server CPU | client CPU |")
        print(f"| {len(bases)} x {kind} | {args.games} | {stats.actions / elapsed:.0f} | "
              f"{percentile(lat_ms, 50):.1f} ms "
              f"| {percentile(lat_ms, 95):.1f} ms | {percentile(lat_ms, 99):.1f} ms | "
              f"{percentile(fan_ms, 99) if fan_ms else float('nan'):.1f} ms | {len(stats.errors)} | "
              f"{' + '.join(f'{c / elapsed * 100:.0f}%' for c in cpus)} | "
              f"{sum(client_cpus) / elapsed * 100:.0f}% |")
    failed = bool(stats.errors) or (lost is not None and lost[0] > 0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
