"""Deployment: configuration from the environment, `/healthz`, `/readyz`, Prometheus `/metrics`, JSON log
lines, and the compose file (checked by `docker compose config` where Docker Compose is installed)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from ttr.cli.main import build_parser
from ttr.cli.serve_cmd import database_url_from, log_config
from ttr.server.app import create_app
from ttr.server.bot_pool import BotPool
from ttr.server.store import MemoryStore

from .kit import server_config
from .test_restart import Served

ROOT = Path(__file__).resolve().parents[2]
GAME = {"map": "europe", "bot_delay": 0, "when_people_leave": "wait",
        "seats": [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "random"}]}


def test_every_option_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"TTR_PORT": "8123", "TTR_HOST": "0.0.0.0", "TTR_BOT_WORKERS": "3",
                        "TTR_CREATE_LIMIT": "5/minute", "TTR_MAX_RUNNING_PER_CLIENT": "7",
                        "TTR_ALLOWED_ORIGIN": "https://a.example, https://b.example", "TTR_LOG_FORMAT": "json",
                        "TTR_IDLE_EXPIRY": "3600", "DATABASE_URL": "postgres://u:p@db/ttr"}.items():
        monkeypatch.setenv(name, value)
    args = build_parser().parse_args(["serve"])
    assert (args.port, args.host, args.bot_workers, args.create_limit, args.max_running_per_client) == (
        8123, "0.0.0.0", 3, "5/minute", 7)
    assert args.allowed_origin == ["https://a.example", "https://b.example"]
    assert (args.log_format, args.idle_expiry) == ("json", 3600.0)
    assert args.db == "postgresql+psycopg://u:p@db/ttr"
    args = build_parser().parse_args(["serve", "--port", "9000", "--db", "memory"])  # the command line wins
    assert (args.port, args.db) == (9000, "memory")
    monkeypatch.setenv("TTR_DB", "sqlite:////tmp/x.sqlite3")  # TTR_DB before DATABASE_URL
    assert build_parser().parse_args(["serve"]).db == "sqlite:////tmp/x.sqlite3"


def test_database_url_forms() -> None:
    assert database_url_from({}) is None
    assert database_url_from({"DATABASE_URL": "postgresql://h/d"}) == "postgresql+psycopg://h/d"
    assert database_url_from({"DATABASE_URL": "postgresql+psycopg://h/d"}) == "postgresql+psycopg://h/d"
    assert database_url_from({"TTR_DB": "memory", "DATABASE_URL": "postgres://h/d"}) == "memory"


def test_health_readiness_and_metrics() -> None:
    app = create_app(server_config(), store=MemoryStore(), pool=BotPool(1, "thread"))
    with TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/readyz").json() == {"status": "ready"}
        g = client.post("/api/games", json=GAME).json()
        client.post("/api/games", content=b"{}", headers={"content-type": "text/plain"})  # refused: 415
        with client.websocket_connect(f"/ws/{g['id']}") as ws:
            ws.send_json({"type": "join", "token": g["seats"][0]["token"]})
            snap = ws.receive_json()
            ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
            assert ws.receive_json()["type"] == "update"
            ws.send_json({"type": "action", "version": 0, "id": snap["legal"][0]["id"]})
            while (msg := ws.receive_json())["type"] != "error":  # the bot's moves come meanwhile
                pass
            assert msg["code"] == "stale_version"
            r = client.get("/metrics")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        lines = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in r.text.splitlines()
                 if line and not line.startswith("#")}
        assert lines['ttr_actions_total{by="person"}'] == 1
        assert lines["ttr_action_seconds_count"] == 1
        assert lines['ttr_refusals_total{reason="stale_version"}'] == 1
        assert lines['ttr_refusals_total{reason="unsupported_media_type"}'] == 1
        assert lines["ttr_sockets"] == 1 and lines["ttr_games_running"] == 1
        assert "ttr_bot_queue" in lines and "ttr_hints_total" in lines


def test_not_ready_while_the_database_does_not_answer() -> None:
    store = MemoryStore()
    app = create_app(server_config(), store=store, pool=BotPool(1, "thread"))
    with TestClient(app) as client:
        def down() -> None:
            raise ConnectionError("no database")

        store.ping = down  # type: ignore[method-assign]
        r = client.get("/readyz")
        assert r.status_code == 503 and "does not answer" in r.json()["reason"]
        assert client.get("/healthz").status_code == 200


def test_json_log_lines(tmp_path: Path) -> None:
    served = Served("memory", tmp_path / "log.txt", extra=("--log-format", "json", "--log-level", "info"))
    try:
        assert httpx.get(f"{served.http}/healthz").status_code == 200
    finally:
        served.kill()
    lines = [json.loads(line) for line in (tmp_path / "log.txt").read_text().splitlines() if line.strip()]
    assert lines and all({"asctime", "levelname", "name", "message"} <= set(e) for e in lines)
    assert any(e["name"] == "uvicorn.access" and "/healthz" in e["message"] for e in lines)
    assert log_config("text", "info")["formatters"]["default"]["()"] == "uvicorn.logging.DefaultFormatter"


def test_the_image_runs_as_a_user_without_privileges() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "\nUSER ttr\n" in dockerfile and "python:3.11-slim" in dockerfile
    assert 'CMD ["ttr", "serve"]' in dockerfile


def test_compose_file() -> None:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("docker is not installed here: compose.yaml cannot be checked")
    version = subprocess.run([docker, "compose", "version"], capture_output=True, text=True, timeout=30, check=False)
    if version.returncode != 0:
        pytest.skip(f"docker compose does not work here: {(version.stderr or version.stdout).strip()[:120]}")
    done = subprocess.run([docker, "compose", "-f", str(ROOT / "compose.yaml"), "config", "--format", "json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    services = json.loads(done.stdout)["services"]
    assert {"db", "ttr1", "ttr2", "proxy"} <= set(services)
    assert services["ttr1"]["environment"]["TTR_DB"].startswith("postgresql+psycopg://")
