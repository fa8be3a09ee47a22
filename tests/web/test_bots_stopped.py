"""A game whose bots the server stopped (`ServerConfig.bot_action_limit`, a guard against bots that loop):
the page says so instead of waiting on a bot that will never move."""

from __future__ import annotations

from typing import Any

from .conftest import Served
from .driver import api

LIMIT = 30
SERVER_CHANGES = {"bot_action_limit": LIMIT}


def test_the_page_says_when_the_bots_of_a_game_have_stopped(page: Any, server: Served) -> None:
    seats = [{"type": "bot", "level": "greedy"}, {"type": "bot", "level": "random"}]
    game = api(server.base, "/api/games", {"map": "europe", "seed": 5, "bot_delay": 0.05, "seats": seats})
    page.goto(f"{server.base}/#/watch/{game['id']}")
    page.wait_for_selector("main[data-version]")
    assert int(page.locator("main").get_attribute("data-version")) < LIMIT
    assert "stopped" not in page.locator("#turn").inner_text()
    page.wait_for_function(f"() => document.querySelector('main').dataset.version === '{LIMIT}'", timeout=60000)
    page.wait_for_function("() => document.getElementById('turn').textContent.includes('bots have stopped')",
                           timeout=10000)
    assert api(server.base, f"/api/games/{game['id']}")["bots_stopped"] is True
    page.reload()  # a page opened later says so too
    page.wait_for_selector("main[data-version]")
    assert page.locator("#turn").inner_text().startswith("The bots have stopped")
    assert page.locator("main").get_attribute("data-version") == str(LIMIT)
