"""A program seat from the lobby: a server started with `--bot-program` offers the program as a bot level
(by its command, with a line saying what it is), and a game created with it is played by the program."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

from .conftest import Served, shot
from .driver import api, click_and_wait, wait_turn

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "bots" / "simple_bot.py"
COMMAND = f"{shlex.quote(sys.executable)} {shlex.quote(str(EXAMPLE))}"
SERVER_CHANGES = {"programs": (f"cmd:{COMMAND}",)}


def test_the_lobby_offers_the_servers_program_and_it_plays(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#map-select", "new_york")
    page.fill("#seat-0-name", "Mei")
    options = page.locator("#seat-1-level option").all_inner_texts()
    assert options[-1] == f"program: {COMMAND}"  # after the four levels
    notes = page.locator("#level-notes li").all_inner_texts()
    assert notes[-1].startswith("program: a program the server runs plays the seat")
    page.select_option("#seat-1-level", f"cmd:{COMMAND}")
    shot(page, "lobby-program")
    page.click("#create-game")
    page.wait_for_url("**/#/play/**")
    wait_turn(page)
    game_id = page.url.split("/#/play/")[1].split("/")[0]
    seat = api(server.base, f"/api/games/{game_id}")["seats"][1]
    assert (seat["type"], seat["level"]) == ("bot", f"cmd:{COMMAND}")
    assert seat["name"] == "Bot 2 (simple_bot.py)"  # the server names it by its file, not its command line
    assert "program: simple_bot.py 2" in page.locator("#players").inner_text()  # worded in the page's language
    assert f"program: {COMMAND}" in page.locator("#players").inner_text()
    click_and_wait(page, "#keep-tickets")  # then the program keeps its own, and the turn comes back
    summary = api(server.base, f"/api/games/{game_id}")
    assert summary["version"] >= 2  # the program chose its tickets too
