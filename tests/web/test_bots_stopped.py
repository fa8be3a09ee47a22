"""A game whose bots the server stopped (`ServerConfig.bot_action_limit`, a guard against bots that loop):
the page says so instead of waiting on a bot that will never move."""

from __future__ import annotations

from typing import Any

from .conftest import Served
from .driver import api, open_seat

LIMIT = 30
# the stand-in bot plays a person's seat as soon as they leave a "finish" game
SERVER_CHANGES = {"bot_action_limit": LIMIT, "leave_grace": 0.0, "standin_level": "random"}


def test_the_page_says_when_the_bots_of_a_game_have_stopped(page: Any, server: Served) -> None:
    # The game waits for Ana's first move, so the spectator's page sees it before any bot has moved, however
    # slow the machine; once she leaves, bots play both seats up to the limit.
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"}]
    game = api(server.base, "/api/games", {"map": "europe", "seed": 5, "bot_delay": 0, "seats": seats,
                                           "when_people_leave": "finish"})
    page.goto(f"{server.base}/#/watch/{game['id']}")
    page.wait_for_selector("main[data-version]")
    assert page.locator("main").get_attribute("data-version") == "0"
    assert "stopped" not in page.locator("#turn").inner_text()
    seat = page.context.new_page()  # Ana comes and goes
    open_seat(seat, server.base, game["id"], game["seats"][0]["token"])
    seat.close()
    page.wait_for_function(f"() => document.querySelector('main').dataset.version === '{LIMIT}'", timeout=120000)
    page.wait_for_function("() => document.getElementById('turn').textContent.includes('bots have stopped')")
    assert api(server.base, f"/api/games/{game['id']}")["bots_stopped"] is True
    page.reload()  # a page opened later says so too
    page.wait_for_selector("main[data-version]")
    assert page.locator("#turn").inner_text().startswith("The bots have stopped")
    assert page.locator("main").get_attribute("data-version") == str(LIMIT)
