"""`cmd:COMMAND`: a bot that is another program, speaking `ttr-bot/1` (docs/bot-protocol.md).

The program is started on its first decision (once per game and seat), greeted with `hello` and
expected to answer `ready`; then each decision is one `decide` line, answered by one line: an action of
the legal list (record form) or `{"index": i}`. An answer that is malformed, not legal, or later than
`time_per_move` plus a second of grace is logged and replaced by the first legal action (a line longer
than `MAX_LINE` bytes counts as malformed); after 3 such failures the seat is played by `random` for the
rest of the game (`report()` says so). What the program writes to standard error goes to a log file
(`stderr_path`, at most `MAX_LOG` bytes). `end(final)` sends the end message, closes the program's
standard input, waits a second and ends the process.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import queue
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ttr.bots.random_bot import RandomBot
from ttr.engine import Action, Game, SeatView, final_score
from ttr.errors import MapError, TTRError
from ttr.maps import GameMap

PROTOCOL = "ttr-bot/1"
DEFAULT_TIME_PER_MOVE = 1.0
GRACE = 1.0  # seconds allowed on top of the time budget
STARTUP_TIMEOUT = 10.0  # seconds to start and answer `ready`
MAX_FAILURES = 3
END_WAIT = 1.0  # seconds between closing the bot's stdin and ending its process
MAX_LINE = 64 * 1024  # bytes an answer line may have (an action takes well under 1 KB)
OVERLONG = f"<a line longer than {MAX_LINE} bytes>".encode()  # what stands for such a line
MAX_LOG = 10 * 1024 * 1024  # bytes of a program's standard error kept in its log (the rest is read and dropped)

log = logging.getLogger(__name__)
_counter = itertools.count()


def default_log_dir() -> Path:
    """Where bots' standard error logs go unless told otherwise (`$TMPDIR/ttr-bot-logs`)."""
    return Path(tempfile.gettempdir()) / "ttr-bot-logs"


class CmdBot:
    """A seat played by an external program over `ttr-bot/1` (one process per game and seat)."""

    def __init__(
        self,
        command: str,
        game_map: GameMap,
        seat: int,
        seed: int,
        *,
        time_per_move: float = DEFAULT_TIME_PER_MOVE,
        grace: float = GRACE,
        startup_timeout: float = STARTUP_TIMEOUT,
        log_dir: str | Path | None = None,
    ) -> None:
        """Prepare the bot; the program starts at the first decision (the hello names the players)."""
        self.command = command
        self.name = f"cmd:{command}"
        self.game_map = game_map
        self.seat = seat
        self.time_per_move = time_per_move
        self.grace = grace
        self.startup_timeout = startup_timeout
        self.log_dir = Path(log_dir) if log_dir is not None else default_log_dir()
        self.fallback = RandomBot(game_map, seat, seed)
        self.failures: list[str] = []
        self.replaced = False
        self.program_name: str | None = None  # what the program called itself in `ready`
        self.stderr_path: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._writer: threading.Thread | None = None  # writes `_outbox` to the program (`_write_lines`)
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: IO[bytes] | None = None  # the log file of the program's standard error
        self._logger: threading.Thread | None = None  # copies that standard error into the log (`_keep_log`)
        self._started = False
        self._exited = False

    # ------------------------------------------------------------------ the Bot protocol

    def choose(self, view: SeatView, legal: list[Action]) -> Action:
        """Ask the program; on a bad answer, the first legal action (and `random` after 3 failures)."""
        if self.replaced:
            return self.fallback.choose(view, legal)
        if not self._started:
            self._started = True
            if not self._start(view):
                return self._replace_now(view, legal)
        self._drain()
        message = {"type": "decide", "view": view.to_json(), "legal": [a.to_json() for a in legal]}
        if not self._send(message):
            return self._fail("the program has exited", legal)
        line, waited = self._read(self.time_per_move + self.grace)
        if line is None:
            why = "the program has exited" if self._exited else f"no answer within {waited:.1f} s"
            return self._fail(why, legal)
        action, why = self._parse(line, legal)
        if action is None:
            return self._fail(why, legal)
        return action

    def end(self, final: dict[str, Any]) -> None:
        """Send the end message with the final breakdown, then close the program."""
        if self._proc is not None and not self.replaced:
            self._send({"type": "end", "final": final})
        self.close()

    def close(self) -> None:
        """Close the program's stdin, give it `END_WAIT` seconds to exit, then kill it (idempotent)."""
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        writer = self._writer
        if writer is not None:
            self._outbox.put(None)  # after what is queued (the end message)
            writer.join(timeout=END_WAIT)
            if writer.is_alive():  # stuck writing to a program that does not read: end it
                proc.kill()
                writer.join(timeout=END_WAIT)
        if proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        try:
            proc.wait(timeout=END_WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if self._reader is not None:
            self._reader.join(timeout=1.0)
        if proc.stdout is not None:
            proc.stdout.close()
        if self._logger is not None:
            self._logger.join(timeout=1.0)  # it closes the log file at the end of the program's output
            self._logger = None
        self._stderr = None

    def report(self) -> dict[str, Any]:
        """What happened to this seat's program: its name, failures, whether `random` took over, the log."""
        return {
            "bot": self.name,
            "seat": self.seat,
            "program": self.program_name,
            "failures": list(self.failures),
            "replaced_by": "random" if self.replaced else None,
            "stderr_log": str(self.stderr_path) if self.stderr_path else None,
        }

    # ------------------------------------------------------------------ process and lines

    def _start(self, view: SeatView) -> bool:
        try:
            args = command_args(self.command)
        except ValueError as exc:
            self._log(str(exc))
            return False
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = self.log_dir / f"seat{self.seat}-{os.getpid()}-{next(_counter)}.stderr.log"
        self._stderr = self.stderr_path.open("wb")
        try:
            self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as exc:
            self._log(f"cannot start {self.command!r}: {exc.strerror or exc}")
            self._stderr.close()
            self._stderr = None
            return False
        assert self._proc.stderr is not None
        self._logger = threading.Thread(target=_keep_log, args=(self._proc.stderr, self._stderr, MAX_LOG), daemon=True)
        self._logger.start()
        self._reader = threading.Thread(target=self._read_lines, args=(self._proc,), daemon=True)
        self._reader.start()
        self._writer = threading.Thread(target=self._write_lines, args=(self._proc,), daemon=True)
        self._writer.start()
        hello = {"type": "hello", "protocol": PROTOCOL, "map": view.map,
                 "seat": self.seat, "players": [p.name for p in view.players],
                 "time_per_move": self.time_per_move}
        if not self._send(hello):
            self._log("the program exited before the hello")
            return False
        line, waited = self._read(self.startup_timeout)
        if line is None:
            self._log(f"no ready answer within {waited:.1f} s" if not self._exited else "the program exited")
            return False
        try:
            ready = json.loads(line)
        except ValueError:
            ready = None
        if not isinstance(ready, dict) or ready.get("type") != "ready":
            self._log(f"expected a ready answer, got {_short(line)}")
            return False
        name = ready.get("name")
        self.program_name = name if isinstance(name, str) else None
        return True

    def _read_lines(self, proc: subprocess.Popen[bytes]) -> None:
        """The program's output, line by line, into `_lines` (None at its end). A line longer than
        `MAX_LINE` bytes is not kept: it becomes the text `OVERLONG`, a malformed answer, and the rest of
        it is skipped (a program writing without end cannot fill the server's memory)."""
        out = proc.stdout
        assert out is not None
        while line := out.readline(MAX_LINE + 1):
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while (rest := out.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    pass
                line = OVERLONG
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, message: dict[str, Any]) -> bool:
        """Queue a message for the program (`_write_lines` writes it); False if the program is gone."""
        if self._proc is None or self._exited or self._writer is None or not self._writer.is_alive():
            return False
        self._outbox.put(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
        return True

    def _write_lines(self, proc: subprocess.Popen[bytes]) -> None:
        """Write the queued messages to the program, in a thread of their own: a program that stops reading
        its input blocks this thread, never the game (its questions time out, and after 3 it is killed)."""
        stdin = proc.stdin
        assert stdin is not None
        while (data := self._outbox.get()) is not None:
            try:
                stdin.write(data)
                stdin.flush()
            except (OSError, ValueError):
                return

    def _read(self, timeout: float) -> tuple[str | None, float]:
        """The next line (None on timeout or exit) and the seconds waited."""
        start = time.monotonic()
        if self._exited:
            return None, 0.0
        try:
            raw = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None, time.monotonic() - start
        if raw is None:
            self._exited = True
            return None, time.monotonic() - start
        return raw.decode("utf-8", errors="replace").strip(), time.monotonic() - start

    def _drain(self) -> None:
        """Lines waiting before a question are late answers to an earlier one: log and drop them."""
        while True:
            try:
                raw = self._lines.get_nowait()
            except queue.Empty:
                return
            if raw is None:
                self._exited = True
                return
            self._log(f"late answer ignored: {_short(raw.decode('utf-8', errors='replace'))}")

    # ------------------------------------------------------------------ answers

    def _parse(self, line: str, legal: Sequence[Action]) -> tuple[Action | None, str]:
        try:
            data = json.loads(line)
        except ValueError:
            return None, f"not JSON: {_short(line)}"
        if not isinstance(data, dict):
            return None, f"not a JSON object: {_short(line)}"
        if "index" in data and "action" not in data:
            index = data["index"]
            if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(legal):
                return legal[index], ""
            return None, f"index {index!r} is not in the legal list (0-{len(legal) - 1})"
        fields = {k: v for k, v in data.items() if k not in ("player", "type")}
        try:
            key = _canonical(Action.from_json(fields), self.game_map)
        except (TTRError, MapError) as exc:
            return None, f"malformed action {_short(line)}: {exc}"
        for action in legal:
            if _canonical(action, self.game_map) == key:
                return action, ""
        return None, f"not a legal action: {_short(line)}"

    def _fail(self, why: str, legal: list[Action]) -> Action:
        self.failures.append(why)
        self._log(f"failure {len(self.failures)}: {why}; playing {legal[0]}")
        if len(self.failures) >= MAX_FAILURES:
            self.replaced = True
            self._log(f"{MAX_FAILURES} failures: random plays this seat for the rest of the game")
            self.close()
        return legal[0]

    def _replace_now(self, view: SeatView, legal: list[Action]) -> Action:
        self.failures.append("the program did not start")
        self.replaced = True
        self._log("random plays this seat for the whole game")
        self.close()
        return self.fallback.choose(view, legal)

    def _log(self, message: str) -> None:
        log.warning("%s (seat %d): %s", self.name, self.seat, message)


def _canonical(action: Action, game_map: GameMap) -> Action:
    """The action with map names in the map's spelling and tickets in a fixed order (for matching)."""
    if action.kind == "claim_route" and action.route is not None:
        return Action(action.kind, route=game_map.route(action.route).name, cards=action.cards)
    if action.kind == "build_station" and action.city is not None:
        return Action(action.kind, city=game_map.city(action.city).name, cards=action.cards)
    if action.kind == "keep_tickets":
        return Action(action.kind, tickets=tuple(sorted(game_map.ticket(t).name for t in action.tickets)))
    return action


def _keep_log(pipe: IO[bytes], log_file: IO[bytes], limit: int) -> None:
    """Copy a program's standard error into its log file, up to `limit` bytes, then a line saying the log
    stops there; what comes after is read and dropped, so the program never blocks on a full pipe and
    cannot fill the disk. Closes the log file at the end of the output."""
    kept = 0
    try:
        while chunk := pipe.read1(65536):  # type: ignore[attr-defined]
            if kept >= limit:
                continue
            part = chunk[:limit - kept]
            log_file.write(part)
            kept += len(part)
            if kept >= limit:
                log_file.write(f"\n[ttr: the log stops here, at {limit} bytes]\n".encode())
            log_file.flush()
    except (OSError, ValueError):
        pass
    finally:
        log_file.close()
        pipe.close()


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def make_cmd_bot(command: str, game_map: GameMap, seat: int, seed: int) -> CmdBot:
    """The registry's `cmd:` prefix: a `CmdBot` with the default time budget."""
    return CmdBot(command, game_map, seat, seed)


def command_args(command: str) -> list[str]:
    """The program and its arguments in `command`, split as a shell would (no shell runs it); `ValueError`
    saying why when the quoting cannot be read or the command is empty."""
    try:
        args = shlex.split(command)
    except ValueError as exc:
        raise ValueError(f"cannot read the command {command!r}: {exc}") from None
    if not args:
        raise ValueError("the command is empty")
    return args


def end_bots(bots: Sequence[object], game: Game | None) -> None:
    """After a game: send each bot that has an `end` method the final breakdown (closing programs).

    With no game, or one not over (it failed), bots with a `close` method are just closed."""
    final = final_score(game).to_json() if game is not None and game.is_over else None
    for bot in bots:
        end = getattr(bot, "end", None)
        if callable(end) and final is not None:
            end(final)
        else:
            close = getattr(bot, "close", None)
            if callable(close):
                close()
