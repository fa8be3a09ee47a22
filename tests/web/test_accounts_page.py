"""Accounts in the page: a guest registers and keeps the games of the browser, a wrong password is said in
the page's language, and the account's games open from another browser without their tokens."""

from __future__ import annotations

from typing import Any

from .conftest import Served, shot
from .driver import create_game, open_seat, state


def register_in_page(page: Any, base: str, name: str, password: str = "correct horse") -> None:
    """Register on the account page."""
    page.goto(base + "/#/account")
    page.wait_for_selector("#register-form")
    page.fill("#register-name", name)
    page.fill("#register-password", password)
    page.click("#register-button")
    page.wait_for_selector("#account-info")


def test_a_guest_registers_keeps_the_game_and_opens_it_elsewhere(page: Any, server: Served, open_page: Any) -> None:
    game_id, token = create_game(server.base, "new_york", seed=5)
    open_seat(page, server.base, game_id, token)
    register_in_page(page, server.base, "Web Ana")
    assert "1 game of this browser" in page.locator("#account-note").inner_text()
    assert page.locator("#account-link").inner_text() == "Account: Web Ana"
    # a wrong password, in the page's language, changes nothing
    page.fill("#old-password", "not my password")
    page.fill("#new-password", "another password")
    page.click("#password-button")
    page.wait_for_selector("#account-error .error-text")
    assert page.locator("#account-error .error-text").inner_text().startswith("Wrong name or password")
    page.click("#logout-button")
    page.wait_for_selector("#login-form")
    assert page.locator("#account-link").inner_text() == "Log in"
    page.fill("#login-name", "web ana")
    page.fill("#login-password", "wrong password")
    page.select_option("#lang-select", "zh-Hans")  # the page says it again in Chinese, keeping what was typed
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    assert page.input_value("#login-name") == "web ana"
    assert page.input_value("#login-password") == "wrong password"
    page.click("#login-button")
    page.wait_for_selector("#account-error .error-text")
    assert page.locator("#account-error .error-text").inner_text() == "名字或密码不对；没有任何改动。"
    page.select_option("#lang-select", "en")
    # another browser: log in, the lobby lists the game with "your turn", and it opens without the token
    other = open_page(viewport={"width": 390, "height": 844}, locale="en-US")
    other.goto(server.base + "/#/account")
    other.wait_for_selector("#login-form")
    other.fill("#login-name", "WEB ANA")
    other.fill("#login-password", "correct horse")
    other.press("#login-password", "Enter")  # by keyboard
    other.wait_for_selector("#account-info")
    other.goto(server.base + "/#/")
    other.wait_for_selector(f'#account-games li[data-game="{game_id}"]')
    entry = other.locator(f'#account-games li[data-game="{game_id}"]')
    assert entry.get_attribute("data-your-turn") == "1" and "your turn" in entry.inner_text()
    shot(other, "account-games-phone")
    assert other.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    entry.locator("a").click()
    other.wait_for_selector("main[data-version]")
    assert state(other) == ("choose_tickets", "0", True)


def test_bad_names_are_said_in_the_page(page: Any, server: Served) -> None:
    page.goto(server.base + "/#/account")
    page.wait_for_selector("#register-form")
    page.fill("#register-name", "Medium")
    page.fill("#register-password", "correct horse")
    page.click("#register-button")
    page.wait_for_selector("#account-error .error-text")
    assert "not the name of a bot level" in page.locator("#account-error .error-text").inner_text()
    register_in_page(page, server.base, "Taken Name")
    page.click("#logout-button")
    page.wait_for_selector("#register-form")
    page.fill("#register-name", "taken name")
    page.fill("#register-password", "correct horse")
    page.click("#register-button")
    page.wait_for_selector("#account-error .error-text")
    assert page.locator("#account-error .error-text").inner_text().startswith("That name is taken")
