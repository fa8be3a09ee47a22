"""The server's options (`ServerConfig`), the bot levels it offers, and the REST refusal (`ApiError`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ttr.bots.base import MAX_ACTIONS

LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_TEXT = {
    "easy": "plays long routes, takes few risks (long_route_junkie)",
    "medium": "plans its tickets and collects the colours it needs (greedy)",
    "hard": "plans its tickets through long routes, which score more per train (greedy_long_fitted: "
            "greedy_long with knobs fitted to the map and the number of players)",
    "expert": "searches ahead over the hidden cards and tickets (Monte Carlo search, about 0.5 s a move)",
}


class ApiError(Exception):
    """A refused REST request: HTTP `status`, a `code` and a message naming the problem."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after  # seconds, for 429 (the Retry-After header)


@dataclass
class OnlineSettings:
    """The knobs of playing people online: limits of accounts and chat, sessions, clock defaults, the
    quick-play wait (`ttr serve` options and `TTR_*` variables; tests make them small)."""

    session_days: float = 30.0  # a session cookie lasts this long
    register_limit: str = "10/hour"  # registrations per client address
    login_limit: str = "20/minute"  # logins per client address
    login_name_limit: str = "10/minute"  # logins per account name (slows guessing one account's password)
    chat_limit: str = "5/10 seconds"  # chat messages per seat or spectator
    clock_move: float = 90.0  # a real-time clock's default seconds per move (quick play uses it)
    clock_reserve: float = 300.0  # ... and its default reserve
    turn_move: float = 86400.0  # a turn-based clock's default seconds per move
    queue_wait: float = 60.0  # default seconds in a quick-play queue before the table may be filled with bots
    open_table_expiry: float = 86400.0  # seconds an open table stays listed
    argon2_time_cost: int = 3  # argon2id parameters (argon2-cffi's defaults)
    argon2_memory_kib: int = 65536
    argon2_parallelism: int = 4


@dataclass
class ServerConfig:
    """Options of `ttr serve` that shape the games (the CLI fills these in)."""

    db: str = "memory"
    bot_workers: int = 2
    bot_pool: str = "process"  # "process" or "thread"
    bot_delay: float = 0.6  # default seconds a bot waits before it moves (a game may set its own)
    leave_grace: float = 30.0  # seconds without any person connected before "finish" games go on with bots
    standin_level: str = "medium"  # the bot that plays for people who left a "finish" game
    static_dir: str | None = None  # None: the package's src/ttr/web/static
    bot_action_limit: int = MAX_ACTIONS  # bots stop moving in a game with this many actions (a loop guard)
    programs: tuple[str, ...] = ()  # `cmd:COMMAND` bots a game may seat (`ttr serve --bot-program`; docs/server.md)
    program_time: float = 1.0  # seconds per decision for those programs (plus a second of grace)
    program_idle: float = 600.0  # seconds a program may wait for its next decision before it is closed
    chosen_seeds: bool = False  # let a game of several people have its creator's seed (tests only: unfair)
    allowed_origins: tuple[str, ...] = ()  # page origins besides the server's own that may open the game socket
    # Per-client limits (`limits` strings; per server process) and caps: docs/server.md, "Limits".
    create_limit: str = "30/minute"  # new games a client may create
    message_limit: str = "100/10 seconds"  # socket messages a client may send (all its sockets together)
    hint_limit: str = "20/minute"  # hints a client may ask for
    max_running_per_client: int = 20  # running games one client may have created
    max_sockets_per_game: int = 50  # sockets open on one game (per server)
    unstarted_expiry: float = 86400.0  # seconds: a game with no action this long is abandoned
    idle_expiry: float = 7 * 86400.0  # seconds: a running game with no action this long is abandoned
    expiry_sweep: float = 60.0  # seconds between two looks for games to abandon
    review_playouts: int | None = None  # playouts per decision of a game review (None: the map's default)
    gc_freeze_every: float = 0.0  # seconds between moving live objects out of the collector's scans (0: never;
    # `ttr serve` sets 60: ttr.server.collector)
    gc_sweep_every: float = 600.0  # ... and between full collections with nothing frozen
    rate_storage: str = "memory://"  # where every rate limit counts: a `limits` storage URI (redis://... for a cluster)
    online: OnlineSettings = field(default_factory=OnlineSettings)
