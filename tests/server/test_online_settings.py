"""The online settings as `ttr serve` options and `TTR_*` variables (clock defaults, the quick-play wait, the
accounts' and chat's limits, the rate limits' storage): parsed, refused out of range with a clear message,
and used by the server."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ttr.cli.main import build_parser, main
from ttr.cli.serve_cmd import _online_settings
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.config import OnlineSettings
from ttr.server.rate_limits import check_storage

from .kit import server_config


def test_online_options_and_their_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    settings, why = _online_settings(build_parser().parse_args(["serve"]))
    assert why is None and settings == OnlineSettings()  # the defaults are the settings' own
    for name, value in {"TTR_CLOCK_MOVE": "45", "TTR_CLOCK_RESERVE": "60", "TTR_TURN_MOVE": "7200",
                        "TTR_QUEUE_WAIT": "30", "TTR_CHAT_LIMIT": "3/10 seconds", "TTR_REGISTER_LIMIT": "2/hour",
                        "TTR_SESSION_DAYS": "7", "TTR_RATE_LIMIT_STORAGE": "memory://"}.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(["serve", "--queue-wait", "20"])  # the command line wins
    settings, why = _online_settings(args)
    assert why is None and args.rate_limit_storage == "memory://"
    assert (settings.clock_move, settings.clock_reserve, settings.turn_move, settings.queue_wait) == (45, 60, 7200, 20)
    assert (settings.chat_limit, settings.register_limit, settings.session_days) == ("3/10 seconds", "2/hour", 7)


@pytest.mark.parametrize(("argv", "message"), [
    (["--clock-move", "0.5"], "'move' is 1 to 600 seconds"),
    (["--clock-reserve", "5000"], "'reserve' is 0 to 3600 seconds"),
    (["--turn-move", "60"], "'move' is 3600 to 604800 seconds"),
    (["--queue-wait", "1"], "--queue-wait must be from 5 to 600 seconds"),
    (["--session-days", "0"], "--session-days must be a positive number"),
    (["--chat-limit", "lots"], "--chat-limit: 'lots' is not a rate limit"),
    (["--rate-limit-storage", "carrier-pigeon://loft"], "--rate-limit-storage: 'carrier-pigeon://loft' is not"),
])
def test_online_options_out_of_range(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--db", "memory", *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_storage_whose_driver_is_missing_is_named() -> None:
    why = check_storage("memcached://127.0.0.1:11211")
    try:
        import pymemcache  # noqa: F401
    except ImportError:
        assert why is not None and "pymemcache" in why
    else:
        assert why is None
    assert check_storage("memory://") is None


def test_the_server_uses_its_settings() -> None:
    online = OnlineSettings(clock_move=45.0, clock_reserve=12.0, turn_move=7200.0, queue_wait=9.0,
                            argon2_time_cost=1, argon2_memory_kib=1024, argon2_parallelism=1)
    app = create_app(server_config(online=online), pool=BotPool(1, "thread"))
    with TestClient(app) as client:
        seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]
        manager: Any = app.state.manager
        for mode, expected in (("realtime", {"move": 45.0, "reserve": 12.0}), ("turn", {"move": 7200.0})):
            made = client.post("/api/games", json={"map": "new_york", "seats": seats, "clock": {"mode": mode}}).json()
            clock = manager.rooms[made["id"]].info.extra["clock"]
            assert {k: clock[k] for k in expected} == expected
        csrf = client.post("/api/account/register", json={"name": "Ana", "password": "correct horse"}).json()["csrf"]
        status = client.post("/api/queue", json={"queue": "europe-2"}, headers={"X-CSRF-Token": csrf}).json()
        assert status["queued"]["wait"] == 9.0  # the server's default wait
