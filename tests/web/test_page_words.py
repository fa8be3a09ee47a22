"""The page's words and small mechanics: a route's tooltip closes with its dialog, bots named from their
level in the page's language, "a bot plays for NAME" when the server's stand-in plays a seat whose person
left, the board's legend (New York's tourist attractions), a city's name as part of its click target."""

from __future__ import annotations

from typing import Any

from .conftest import Served, new_context, shot
from .driver import api, click_and_wait, create_game, open_seat, state, wait_turn

SERVER_CHANGES = {"leave_grace": 1.0,  # a person who left is played by the stand-in bot after 1 s
                  "chosen_seeds": True}  # games of two people on known deals (a test-only setting)



def set_lang(page: Any, lang: str) -> None:
    """Switch the page's language and wait until it is drawn in it."""
    page.select_option("#lang-select", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


def test_route_tooltip_closes_with_its_dialog(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    route = page.locator("svg.board g.route.claimable").first
    route.click()
    assert page.locator("#dialog").is_visible()
    assert not page.locator(".board-tip").is_visible()
    page.mouse.move(0, 0)  # off the board: a route under a resting pointer shows its tip on hover, rightly
    page.locator("#dialog button:not(.primary)").press("Enter")  # closed by the keyboard, the pointer stays off
    assert not page.locator("#dialog").is_visible() and not page.locator(".board-tip").is_visible()
    page.evaluate("document.activeElement.blur()")
    route.focus()  # the tooltip still opens on focus (and hover) on its own
    assert page.locator(".board-tip").is_visible()


def test_bots_named_from_their_level_in_the_pages_language(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "new_york", seed=4, bots=2)
    seats = api(server.base, f"/api/games/{game_id}")["seats"]
    assert [s["name"] for s in seats[1:]] == ["Bot 2 (greedy)", "Bot 3 (greedy)"]  # the server's names
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    set_lang(page, "zh-Hans")
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    rows = page.locator("#players tbody th").all_inner_texts()
    assert rows[1] == "▲ 贪心电脑 2" and rows[2] == "■ 贪心电脑 3", rows  # no level tag: the name says it
    log = page.locator("#log-list").inner_text()
    assert "贪心电脑 2" in log and "greedy" not in log and "Bot 2" not in log
    set_lang(page, "zh-Hant")
    assert page.locator("#players tbody th").all_inner_texts()[1] == "▲ 貪心電腦 2"
    set_lang(page, "en")
    assert page.locator("#players tbody th").all_inner_texts()[1] == "▲ greedy bot 2"


def test_a_chosen_name_stays(page: Any, server: Served) -> None:
    game = api(server.base, "/api/games", {"map": "new_york", "seed": 2, "bot_delay": 0, "seats": [
        {"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy", "name": "Robo"}]})
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    set_lang(page, "zh-Hans")
    open_seat(page, server.base, game["id"], game["seats"][0]["token"])
    assert page.locator("#players tbody th").all_inner_texts()[1] == "▲ Robo贪心电脑"  # with its level


def test_a_bot_plays_for_a_person_who_left(page: Any, browser: Any, server: Served) -> None:
    people = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Ben"}]
    game = api(server.base, "/api/games", {"map": "new_york", "seed": 5, "bot_delay": 0, "when_people_leave": "finish",
                                           "seats": people})
    ben = new_context(browser).new_page()
    open_seat(ben, server.base, game["id"], game["seats"][1]["token"], seat=1)
    ben.context.close()  # Ben leaves
    open_seat(page, server.base, game["id"], game["seats"][0]["token"])
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")  # then the stand-in keeps Ben's tickets, and plays his turn
    page.wait_for_selector("#players .stand-in")
    assert page.locator("#players .stand-in").inner_text() == "a bot plays for Ben"
    assert "away" not in page.locator('#players tr[data-seat="1"]').inner_text()


def test_the_legend_explains_new_yorks_attractions(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "new_york", seed=4)
    open_seat(page, server.base, game_id, token)
    marks = page.eval_on_selector_all("#legend li", "els => els.map(e => e.dataset.mark)")
    assert marks == ["double", "attraction"]  # New York: no tunnel, ferry or station
    assert page.locator('#legend li[data-mark="attraction"]').inner_text() == (
        "tourist attraction (gold dot): 1 point for each one your routes reach")
    set_lang(page, "zh-Hant")
    assert "旅遊景點" in page.locator('#legend li[data-mark="attraction"]').inner_text()
    set_lang(page, "en")
    game_id, token = create_game(server.base, "europe", seed=3)
    page.goto(server.base + "/#/")  # leave the game first: the next one's page is a new route
    page.wait_for_selector("#create-form")
    open_seat(page, server.base, game_id, token)
    marks = page.eval_on_selector_all("#legend li", "els => els.map(e => e.dataset.mark)")
    assert marks == ["tunnel", "ferry", "double", "station"]
    shot(page, "legend-europe", full_page=False)


def test_a_citys_name_opens_its_station(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=3)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    click_and_wait(page, "#keep-tickets")
    assert state(page)[0] == "main"
    city = page.locator("svg.board g.city.station-choice").first
    name = city.get_attribute("data-city")
    city.locator("text.city-name").click()  # the name, not the dot
    assert page.locator("#dialog").is_visible()
    assert page.locator("#station-city").input_value() == name
