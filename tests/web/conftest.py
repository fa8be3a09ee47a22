"""Fixtures of the browser tests: one `ttr serve` app per test module (uvicorn in a thread, a temporary
SQLite database, no bot delay) and one Debian Chromium for the folder, driven by Playwright (no browser
download)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from ttr.server import ServerConfig, create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
SCREENSHOTS = os.environ.get("TTR_SCREENSHOTS", "") not in ("", "0")  # see `shot`


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


DESKTOP = {"width": 1400, "height": 1000}
PLAYWRIGHT_VIEWPORT = {"width": 1280, "height": 720}  # a new context's, when its options name none


class PagePool:
    """Pages kept open for the browser tests a worker runs in a row, so that a test does not pay for a new
    browser context and the first load of the page's scripts (about 2 s of CPU): a page given back is reset to a
    fresh context's state (no cookies, no storage on the server's origin, no routes, no other pages, its
    viewport) and handed to the next test that asks for the same context options. The page of a failed test is
    closed instead (as is one that had an error), so that nothing it left can reach another test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.free: dict[str, list[Any]] = {}

    @staticmethod
    def key(options: dict[str, Any]) -> str:
        """Which pages may serve `options`: those of the same context options (the viewport is the page's)."""
        return json.dumps({k: v for k, v in options.items() if k != "viewport"}, sort_keys=True)

    def take(self, options: dict[str, Any]) -> Any:
        """A page as a fresh context with `options` (see `new_context`) gives, at its viewport."""
        free = self.free.setdefault(self.key(options), [])
        page = free.pop() if free else new_context(self.browser, **options).new_page()
        viewport = options.get("viewport", PLAYWRIGHT_VIEWPORT)
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        page.set_default_timeout(60000)  # waits end on their condition: the bound only matters on a loaded machine
        return page

    def give_back(self, page: Any, options: dict[str, Any], origin: str, reuse: bool) -> None:
        """Reset `page` for the next test (or close its context, if `reuse` is false or the reset fails)."""
        context = page.context
        if reuse:
            try:
                for other in context.pages:
                    if other is not page:
                        other.close()
                page.unroute_all(behavior="ignoreErrors")
                context.unroute_all(behavior="ignoreErrors")
                page.goto(origin + "/__blank__")  # the server's page for no address: same origin, no script
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                context.clear_cookies()
                context.clear_permissions()
            except Exception:  # a page that cannot be reset is closed, not reused
                reuse = False
        if reuse:
            self.free.setdefault(self.key(options), []).append(page)
        else:
            context.close()

    def close(self) -> None:
        for pages in self.free.values():
            for page in pages:
                page.context.close()
        self.free.clear()


@pytest.fixture(scope="package")
def page_pool(browser: object) -> Iterator[PagePool]:
    """The pages kept open between the tests of a worker (`PagePool`)."""
    pool = PagePool(browser)
    try:
        yield pool
    finally:
        pool.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Note on the test whether any phase failed (`open_page` closes the pages of a failed test)."""
    outcome = yield
    if outcome.get_result().failed:  # type: ignore[attr-defined]
        item.stash[FAILED] = True


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def open_page(page_pool: PagePool, server: Served, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """`open_page(**options)`: a page as a fresh browser context with `options` (see `new_context`) gives,
    on the tests' server's origin; page errors fail the test. The pages go back to the pool after the test."""
    taken: list[tuple[Any, dict[str, Any], Callable[[Any], None]]] = []
    errors: list[str] = []

    def open_(**options: Any) -> Any:
        options = {"reduced_motion": "reduce", **options}
        page = page_pool.take(options)
        listener = lambda exc: errors.append(str(exc))  # noqa: E731
        page.on("pageerror", listener)
        taken.append((page, options, listener))
        return page

    yield open_
    reuse = not errors and not request.node.stash.get(FAILED, False)
    for page, options, listener in taken:
        page.remove_listener("pageerror", listener)
        page_pool.give_back(page, options, server.base, reuse)
    assert not errors, f"errors in the page: {errors}"


@pytest.fixture
def page(open_page: Callable[..., Any]) -> Any:
    """A page as a fresh browser context gives (empty localStorage), in English, with reduced motion
    (`new_context`), 1400 x 1000; page errors fail the test."""
    return open_page(viewport=DESKTOP, locale="en-US")


def shot(target: object, name: str, full_page: bool = True) -> Path:
    """Keep a screenshot of a page (all of it unless `full_page` is false) or of an element (a locator) as
    test-artifacts/web/NAME.png (git-ignored), for a person to look at, when TTR_SCREENSHOTS=1 is set. No test
    reads one, so by default none is taken (each costs a quarter of a second of CPU or more)."""
    path = ARTIFACTS / f"{name}.png"
    if SCREENSHOTS:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if hasattr(target, "goto"):  # a page
            target.screenshot(path=str(path), full_page=full_page)
        else:
            target.screenshot(path=str(path))  # type: ignore[attr-defined]
    return path
