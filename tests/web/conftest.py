"""Fixtures of the browser tests: one `ttr serve` app per test module (uvicorn in a thread, a temporary
SQLite database, no bot delay) and one Debian Chromium for the folder, driven by Playwright (no browser
download)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ttr.server import ServerConfig, create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


class Served:
    """A running server: its base URL."""

    def __init__(self, base: str) -> None:
        self.base = base


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Served]:
    """The game server on a free loopback port, with its own SQLite file (and the test module's
    `SERVER_CHANGES` to its config, if any)."""
    db = tmp_path_factory.mktemp("web-db") / "games.sqlite3"
    settings: dict[str, object] = {"db": f"sqlite:///{db}", "bot_workers": 1, "bot_pool": "thread", "bot_delay": 0.0,
                                   "leave_grace": 30.0, "create_limit": "1000/minute",
                                   "max_running_per_client": 1000}  # every game comes from this one client
    settings.update(getattr(request.module, "SERVER_CHANGES", {}))
    config = ServerConfig(**settings)  # type: ignore[arg-type]
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning",
                                        ws="websockets-sansio"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not uv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield Served(f"http://127.0.0.1:{port}")
    finally:
        uv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """Chromium, headless (skips, saying why, where Debian's chromium or Playwright is missing): one for the
    browser tests that run in a row on a worker (each test has its own context)."""
    if not os.path.exists(CHROMIUM) and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def new_context(browser: object, **options: object) -> Any:
    """A fresh browser context with the system's "reduce motion" preference (`reduced_motion="reduce"`) unless
    `options` say otherwise: the page's motion is for people (tests/web/test_motion.py checks it); without it a
    Playwright click does not wait out the board's pulsing routes and cards in flight."""
    return browser.new_context(**{"reduced_motion": "reduce", **options})  # type: ignore[attr-defined]


@pytest.fixture
def page(browser: object, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser context (empty localStorage) in English, with reduced motion (`new_context`); page errors
    fail the test."""
    context = new_context(browser, viewport={"width": 1400, "height": 1000}, locale="en-US")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(60000)  # waits end on their condition: the bound only matters on a loaded machine
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: object, name: str, full_page: bool = True) -> Path:
    """Keep a screenshot under test-artifacts/web/ (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)  # type: ignore[attr-defined]
    return path
