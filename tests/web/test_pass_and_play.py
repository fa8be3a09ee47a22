"""Pass and play: two people and a bot at one device (`#/table/{game}`), played to the end (its middle over
the seats' sockets). Between the two
people's turns, and between their ticket choices at setup, a "Pass the device to NAME" screen stands over
the game, and the page then holds no hand and no ticket at all (it watches), until that person confirms."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Served, shot
from .driver import api, play_by_socket

SERVER_CHANGES = {"chosen_seeds": True}  # games of several people on known deals (a test-only setting)

NOTHING_SECRET = """() => ({hand: document.querySelectorAll('#hand-cards').length,
  tickets: document.querySelectorAll('#ticket-list').length,
  offered: document.querySelectorAll('#action-panel [data-ticket]').length,
  watching: document.querySelector('main').dataset.myTurn === '0'})"""


def wait_next(page: Any, version: str) -> None:
    """Until the pass screen stands, or it is a table person's turn after `version`, or the game is over."""
    page.wait_for_function(
        f"() => {{ const m = document.querySelector('main'); return Boolean(document.getElementById('pass-cover'))"
        f" || (m.dataset.version !== {json.dumps(version)}"
        f" && (m.dataset.myTurn === '1' || m.dataset.phase === 'game_over')); }}",
        timeout=30000)


def act(page: Any, selector: str) -> None:
    version = page.evaluate("document.querySelector('main').dataset.version")
    page.locator(selector).first.click()
    wait_next(page, version)


def play(page: Any) -> None:
    """One action of a simple policy for whoever holds the device."""
    phase = page.evaluate("document.querySelector('main').dataset.phase")
    if phase == "choose_tickets":
        act(page, "#keep-tickets")
    elif phase == "tunnel_payment":
        act(page, "#action-panel button[data-act=pay]" if page.locator("#action-panel button[data-act=pay]").count()
            else "#abandon-tunnel")
    elif phase == "main" and page.locator("#route-list button[data-act=claim]").count():
        page.evaluate("document.getElementById('route-list').open = true")
        page.locator("#route-list button[data-act=claim]").first.click()
        act(page, "#claim-confirm")
    elif page.locator("#draw-deck:enabled").count():
        act(page, "#draw-deck")
    elif page.locator("#draw button[data-act=face-up]:enabled").count():
        act(page, "#draw button[data-act=face-up]:enabled")
    elif page.locator("#pass-button").count():
        act(page, "#pass-button")
    else:
        act(page, "#draw-tickets")


def test_pass_and_play_to_the_end(page: Any, server: Served) -> None:
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}, {"type": "bot", "level": "greedy"}]
    game = api(server.base, "/api/games", {"map": "new_york", "seed": 4, "bot_delay": 0, "seats": seats})
    held = [{"game": game["id"], "seat": s["seat"], "token": s["token"], "name": s["name"], "map": "new_york"}
            for s in game["seats"] if s.get("token")]
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("(seats) => localStorage.setItem('ttr.seats', JSON.stringify(seats))", held)
    page.goto(f"{server.base}/#/table/{game['id']}")
    page.wait_for_selector("main[data-version]")
    wait_next(page, "")
    passes: list[str] = []
    skipped = False  # whether the middle of the game has been played over the sockets
    for _ in range(400):
        phase = page.evaluate("document.querySelector('main').dataset.phase")
        if phase == "game_over":
            break
        if not skipped and sum(p.startswith("main: ") for p in passes) >= 2:
            # both people have had the device for their turns: the middle of the game over the seats' sockets
            # (test_full_game.py plays a whole game through the page), its last turns here again
            skipped = True
            now = play_by_socket(server.base, game["id"], [h["token"] for h in held], "new_york",
                                 lambda view, _: min(p["trains"] for p in view["players"]) <= 6)
            page.wait_for_function(f"document.querySelector('main').dataset.version === '{now['version']}'")
            wait_next(page, "")
            continue
        cover = page.locator("#pass-cover")
        if cover.count():
            title = cover.locator("#pass-title").inner_text()
            passes.append(f"{phase}: {title}")
            # nobody's cards in the page while the device changes hands
            assert page.evaluate(NOTHING_SECRET) == {"hand": 0, "tickets": 0, "offered": 0, "watching": True}
            if len(passes) == 1:
                shot(page, "pass-screen", full_page=False)
            name = title.removeprefix("Pass the device to ")
            page.locator("#pass-ready").click()
            page.wait_for_function("!document.getElementById('pass-cover')"
                                   " && document.querySelector('main').dataset.myTurn === '1'")
            row = page.locator("#players tr.current th")
            assert name in row.inner_text() and row.locator(".tag").first.inner_text() == "you"  # that person's seat
            assert page.locator("#hand-cards").count() == 1
            continue
        play(page)
    else:
        raise AssertionError("the game did not end")
    assert passes[0] == "choose_tickets: Pass the device to Ben"  # the setup choice, too
    assert any(p.startswith("main: Pass the device to Ana") for p in passes)
    assert any(p.startswith("main: Pass the device to Ben") for p in passes)
    page.wait_for_selector("#breakdown")
    shot(page, "pass-and-play-final")


def test_the_lobby_offers_pass_and_play_for_several_people(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#map-select", "new_york")
    page.select_option("#seat-1-type", "human")
    page.fill("#seat-0-name", "Ana")
    page.fill("#seat-1-name", "Ben")
    page.click("#create-game")
    page.wait_for_selector("#pass-and-play")
    page.click("#pass-and-play")
    page.wait_for_selector("main[data-table='1'][data-version]")
    wait_next(page, "")
    # Ana (the first seat) chooses first, then the device goes to Ben behind the pass screen
    assert page.locator("#players tr.current th").inner_text().startswith("● Ana")
    act(page, "#keep-tickets")
    assert page.locator("#pass-title").inner_text() == "Pass the device to Ben"
    assert page.evaluate(NOTHING_SECRET)["hand"] == 0
