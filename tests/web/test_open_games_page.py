"""Open games in the page: a guest with a name opens a table, a logged-in player takes the free seat from
another browser, and both pages open their seats of the new game; a name missing is said in the page."""

from __future__ import annotations

from typing import Any

from .conftest import Served
from .test_accounts_page import register_in_page


def test_a_guest_opens_a_table_and_an_account_takes_the_seat(page: Any, open_page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#open-create")
    page.click("#open-create")  # no name yet
    page.wait_for_selector("#open-error .error-text")
    assert page.locator("#open-error .error-text").inner_text().startswith("That name cannot be used")
    page.fill("#open-name", "Guest Gail")
    page.select_option("#open-map", "new_york")
    page.click("#open-create")
    page.wait_for_selector("#open-waiting")
    assert "1 of 2" in page.locator("#open-waiting").inner_text()
    other = open_page(viewport={"width": 390, "height": 844}, locale="en-US")  # another browser
    register_in_page(other, server.base, "Table Tom")
    other.goto(server.base + "/")
    other.wait_for_selector("#open-list li .open-take")
    assert "Guest Gail" in other.locator("#open-list").inner_text()
    other.locator("#open-list li .open-take").first.click()
    for p in (page, other):
        p.wait_for_url("**/#/play/**")
        p.wait_for_selector("main[data-version]")
    assert page.url.split("/#/play/")[1].split("/")[:2][0] == other.url.split("/#/play/")[1].split("/")[0]
    names = page.locator("#players tbody tr").all_inner_texts()
    assert any("Guest Gail" in n for n in names) and any("Table Tom" in n for n in names)
