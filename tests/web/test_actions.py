"""Every action by clicking (Europe, one person against a greedy bot, fixed seeds): the setup ticket choice,
drawing cards, claiming a route with the cheapest card set preselected, a station, a tunnel paid and one
given up, the keyboard, the hint and the confirm step."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import Served, shot
from .driver import claim_first, click_and_wait, create_game, draw_something, open_seat, play_one, state, wait_turn


def start(page: Any, server: Served, seed: int = 3) -> str:
    game_id, token = create_game(server.base, "europe", seed=seed)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    return game_id


def hand_size(page: Any) -> int:
    counts = page.eval_on_selector_all("#hand-cards .chip-count", "els => els.map(e => e.textContent)")
    return sum(int(c.lstrip("×")) for c in counts)


def my_row(page: Any) -> list[str]:
    """Score, trains, stations, cards, tickets of seat 0 in the players table."""
    return page.eval_on_selector_all('#players tr[data-seat="0"] td', "els => els.map(e => e.textContent)")


def keep_setup(page: Any) -> None:
    assert state(page)[0] == "choose_tickets"
    click_and_wait(page, "#keep-tickets")


def play_until(page: Any, condition: Any, limit: int = 120, **policy: Any) -> None:
    """Act with the simple policy until `condition(page)` holds on this seat's turn."""
    for _ in range(limit):
        if condition(page):
            return
        assert state(page)[0] != "game_over", "the game ended first"
        play_one(page, **policy)
    raise AssertionError("the condition never held")


def test_setup_ticket_choice(page: Any, server: Served) -> None:
    start(page, server)
    offer = page.locator("#action-panel input[type=checkbox]")
    assert offer.count() == 4  # 1 long and 3 regular tickets on offer
    assert "2" in page.locator("#action-panel").inner_text()  # keep at least 2
    for i in range(3):
        offer.nth(i).uncheck()
    assert page.locator("#keep-tickets").is_disabled()  # 1 ticket is too few
    offer.nth(1).check()
    assert page.locator("#keep-tickets").is_enabled()
    kept = [offer.nth(i).get_attribute("data-ticket") for i in (1, 3)]
    shot(page, "setup-tickets")
    click_and_wait(page, "#keep-tickets")
    listed = page.eval_on_selector_all("#ticket-list li", "els => els.map(e => e.dataset.ticket)")
    assert sorted(listed) == sorted(kept)
    assert all(s == "0" for s in page.eval_on_selector_all("#ticket-list li", "els => els.map(e => e.dataset.done)"))
    assert re.search(r"Ana kept .+", page.locator("#log-list").inner_text())


def test_draw_from_the_row_and_the_deck(page: Any, server: Served) -> None:
    start(page, server)
    keep_setup(page)
    before = hand_size(page)
    button = page.locator("#draw button[data-act=face-up]:enabled:not([data-card=locomotive])").first
    card = button.get_attribute("data-card")
    click_and_wait(page, f"#draw button[data-card={card}]:enabled")
    assert state(page)[0] == "second_card"
    assert hand_size(page) == before + 1
    assert page.locator("#draw-tickets").is_disabled()  # the second card only
    click_and_wait(page, "#draw-deck")
    assert hand_size(page) == before + 2
    log = page.locator("#log-list").inner_text()
    assert f"Ana took the face-up {card}." in log
    assert re.search(r"Ana drew a card from the deck \(\w+\)\.", log)
    assert my_row(page)[3] == str(before + 2)


def test_claim_a_route_with_the_cheapest_cards_preselected(page: Any, server: Served) -> None:
    start(page, server)
    keep_setup(page)
    play_until(page, lambda p: state(p)[0] == "main" and p.locator("svg.board g.route.claimable").count() > 0,
               prefer_tunnels=False, **{})
    route = page.locator("svg.board g.route.claimable").first
    name = route.get_attribute("data-route")
    trains_before = int(my_row(page)[1])
    route.click()
    dialog = page.locator("#dialog")
    assert dialog.is_visible()
    options = dialog.locator("ul.options li")
    n = options.count()
    wilds = [options.nth(i).locator('[data-card="locomotive"] .chip-count').all_inner_texts() for i in range(n)]
    wild_counts = [int(w[0].lstrip("×")) if w else 0 for w in wilds]
    checked = [options.nth(i).locator("input").is_checked() for i in range(options.count())]
    assert checked.index(True) == wild_counts.index(min(wild_counts))
    shot(page, "claim-dialog")
    click_and_wait(page, "#claim-confirm")
    taken = page.locator(f'svg.board g.route[data-route="{name}"]')
    if state(page)[0] == "tunnel_payment":
        click_and_wait(page, "#action-panel button[data-act=pay]")
    assert taken.get_attribute("data-seat") == "0"
    assert taken.locator(".owner-piece").count() == int(taken.get_attribute("data-length"))
    assert int(my_row(page)[1]) == trains_before - int(taken.get_attribute("data-length"))
    assert "Ana claimed" in page.locator("#log-list").inner_text()


def test_build_a_station(page: Any, server: Served) -> None:
    start(page, server, seed=4)
    keep_setup(page)
    play_until(page, lambda p: state(p)[0] == "main" and p.locator("#build-station:enabled").count() > 0)
    page.click("#build-station")
    city = page.locator("#station-city").input_value()
    page.locator("#station-city").select_option(city)
    assert page.locator("#dialog input[name=station-option]:checked").count() == 1
    click_and_wait(page, "#station-confirm")
    piece = page.locator(f'svg.board g.city[data-city="{city}"] .station-piece[data-seat="0"]')
    assert piece.count() == 1
    group = page.locator(f'svg.board g.city[data-city="{city}"]')
    spot = f'translate({group.get_attribute("data-station-x")} {group.get_attribute("data-station-y")})'
    assert piece.get_attribute("transform") == spot  # where the layout put it, clear of the names
    assert my_row(page)[2] == "2"
    assert f"built a station in {city}" in page.locator("#log-list").inner_text()
    shot(page, "station")


def tunnel_outcome(page: Any, route: str) -> str:
    """The log line after the seat's last try of the tunnel `route` (the try itself still says "tries")."""
    log = page.locator("#log-list li").all_inner_texts()
    tried = [i for i, line in enumerate(log) if line.startswith(f"Ana tried the tunnel {route} with ")]
    assert tried and tried[-1] + 1 < len(log), log[-4:]
    return log[tried[-1] + 1]


def test_tunnel_paid_and_tunnel_given_up(page: Any, server: Served) -> None:
    start(page, server, seed=11)
    keep_setup(page)
    outcomes: list[str] = []
    for _ in range(200):
        phase = state(page)[0]
        assert phase != "game_over", f"the game ended with tunnels {outcomes}"
        if phase == "tunnel_payment":
            reveal = page.locator("#tunnel-reveal .chip")
            assert reveal.count() == 3
            assert re.search(r"Extra cards to pay: [123]", page.locator("#tunnel-extra").inner_text())
            title = page.locator("#action-panel h2").inner_text()
            route = title.removeprefix("Tunnel: ")
            # while its extra cards wait, the tunnel is only tried: the log does not call it claimed yet
            log = page.locator("#log-list li").all_inner_texts()
            assert log[-1].startswith(f"Ana tried the tunnel {route} with "), log[-1]
            assert not any(line.startswith(f"Ana claimed {route}") for line in log)
            if "paid" not in outcomes and page.locator("#action-panel button[data-act=pay]").count():
                shot(page, "tunnel")
                click_and_wait(page, "#action-panel button[data-act=pay]")
                outcomes.append("paid")
                after = tunnel_outcome(page, route)
                assert re.fullmatch(rf"Ana paid .+ more and claimed {re.escape(route)}\.", after), after
            else:
                click_and_wait(page, "#abandon-tunnel")
                outcomes.append("gave up")
                after = tunnel_outcome(page, route)
                assert after == f"Ana gave up the tunnel {route} and took back their cards.", after
            assert title.startswith("Tunnel: ")
            if {"paid", "gave up"} <= set(outcomes):
                return
        elif phase == "main":
            if not claim_first(page, tunnel=True):
                draw_something(page)
        else:
            play_one(page)
    raise AssertionError(f"no tunnel needed extra cards twice: {outcomes}")


def focused(page: Any) -> str:
    """The id of the element with the keyboard focus (its class if it has no id)."""
    return str(page.evaluate("document.activeElement.id || document.activeElement.className"))


def skip_to_actions(page: Any, first_tab: bool) -> None:
    """Tab to "Skip to content" (the first Tab on the page, else focused), Enter, Tab to "Skip to your
    actions", Enter."""
    if first_tab:
        page.keyboard.press("Tab")
    else:
        page.locator("a.skip").focus()
    assert focused(page) == "skip"
    page.keyboard.press("Enter")
    assert focused(page) == "main" and "#/play/" in page.url  # the focus moved; the page's route stayed
    page.keyboard.press("Tab")
    assert focused(page) == "skip-actions" and page.locator("#skip-actions").is_visible()
    page.keyboard.press("Enter")


def test_keyboard_claim_and_confirm_step(page: Any, server: Served) -> None:
    start(page, server)
    # skip links: the ticket choice of the setup is the action, then (on a main turn) the draw panel; one
    # more Tab reaches a control there instead of crossing ~50 claimable routes and the route list
    skip_to_actions(page, first_tab=True)
    assert focused(page) == "action-panel"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#action-panel') && document.activeElement.type") == "checkbox"
    keep_setup(page)
    skip_to_actions(page, first_tab=False)
    assert focused(page) == "draw"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#draw') && document.activeElement.tagName") == "BUTTON"
    # the second skip link: your tickets
    page.locator("a.skip").focus()
    for key in ("Enter", "Tab", "Tab"):
        page.keyboard.press(key)
    assert focused(page) == "skip-tickets"
    page.keyboard.press("Enter")
    assert focused(page) == "tickets"
    # the confirm step: the move waits for a yes
    page.locator("#confirm-toggle").check()
    page.locator("#draw-deck").focus()
    page.keyboard.press("Enter")
    assert page.locator("#dialog").is_visible()
    assert "Draw a card from the deck" in page.locator("#dialog").inner_text()
    version = state(page)[1]
    page.keyboard.press("Escape")  # cancelled: nothing sent
    assert not page.locator("#dialog").is_visible()
    assert state(page)[1] == version
    page.locator("#draw-deck").focus()
    page.keyboard.press("Enter")
    page.locator("#confirm-yes").focus()
    page.keyboard.press("Enter")
    wait_turn(page, version)
    assert state(page)[0] == "second_card"
    # the keyboard keeps its place across updates: still on the deck for the second card...
    assert page.evaluate("document.activeElement.id") == "draw-deck"
    version = state(page)[1]
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "confirm-yes"
    page.keyboard.press("Enter")
    wait_turn(page, version)
    # ...then, the deck disabled while the bot played, on the turn line, which says it is your turn again
    assert page.evaluate("document.activeElement.id") == "turn"
    assert page.locator("#turn").inner_text().startswith("Your turn")
    page.locator("#confirm-toggle").uncheck()
    play_until(page, lambda p: state(p)[0] == "main" and p.locator("svg.board g.route.claimable").count() > 0)
    # claimable routes, and only they, are in the Tab order; Enter opens the claim
    tabbable = page.eval_on_selector_all('svg.board g.route[tabindex="0"]', "els => els.map(e => e.dataset.route)")
    claimable = page.eval_on_selector_all("svg.board g.route.claimable", "els => els.map(e => e.dataset.route)")
    assert tabbable == claimable and claimable
    name = page.locator("svg.board g.route.claimable").first.get_attribute("data-route")
    route = page.locator(f'svg.board g.route[data-route="{name}"]')
    route.focus()
    assert page.locator(".board-tip").is_visible()
    assert "you can claim it" in page.locator(".board-tip").inner_text()
    page.keyboard.press("Enter")
    assert page.locator("#dialog").is_visible()
    assert page.evaluate("document.activeElement.id") == "claim-confirm"  # Enter claims at once
    assert not page.locator(".board-tip").is_visible()  # the route's details went with the click
    version = state(page)[1]
    page.keyboard.press("Enter")
    wait_turn(page, version)
    assert route.get_attribute("data-seat") == "0" or state(page)[0] == "tunnel_payment"


def test_hint(page: Any, server: Served) -> None:
    hints: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: hints.extend(
            m for m in [json.loads(payload)] if m.get("type") == "hint"))

    page.on("websocket", on_socket)
    start(page, server)
    keep_setup(page)
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Hint: ')")
    # the reason names the move ("Take the face-up red: you need 2 more for ..."): said once, not twice
    assert len(hints) == 1 and ": " in hints[0]["reason"]
    move = hints[0]["reason"].split(": ")[0]
    shown = page.locator("#hint-text").inner_text()
    assert shown.startswith(f"Hint: {move}: ") and shown.count(move) == 1, shown
    page.remove_listener("websocket", on_socket)


def test_draw_tickets_and_choose_which_to_keep(page: Any, server: Served) -> None:
    start(page, server, seed=5)
    keep_setup(page)
    before = page.eval_on_selector_all("#ticket-list li", "els => els.map(e => e.dataset.ticket)")
    click_and_wait(page, "#draw-tickets")
    assert state(page)[0] == "choose_tickets"
    offer = page.locator("#action-panel input[type=checkbox]")
    assert offer.count() == 3
    assert "Keep at least 1." in page.locator("#action-panel").inner_text()
    for i in range(3):
        offer.nth(i).uncheck()
    assert page.locator("#keep-tickets").is_disabled()
    offer.nth(2).check()
    chosen = offer.nth(2).get_attribute("data-ticket")
    click_and_wait(page, "#keep-tickets")
    after = page.eval_on_selector_all("#ticket-list li", "els => els.map(e => e.dataset.ticket)")
    assert sorted(after) == sorted([*before, chosen])
    assert my_row(page)[4] == str(len(before) + 1)
    assert "Ana drew destination tickets." in page.locator("#log-list").inner_text()


def since_mine(page: Any) -> list[str]:
    """The log lines after this seat's (Ana's) last one."""
    lines = page.locator("#log-list li").all_inner_texts()
    last = max(i for i, line in enumerate(lines) if line.startswith("Ana "))
    return lines[last + 1:]


def test_what_the_others_did_since_your_last_move(page: Any, server: Served) -> None:
    start(page, server, seed=6)
    keep_setup(page)
    # the players table fits its panel: no column (Tickets) hidden behind a sideways scroll
    widths = page.evaluate("() => { const s = document.querySelector('#players .table-scroll');"
                           " return [s.scrollWidth, s.clientWidth]; }")
    assert widths[0] <= widths[1], widths
    others = since_mine(page)
    # the bot's name is made from its level in the page's language (the server named it "Bot 2 (greedy)")
    assert others and all(line.startswith("greedy bot 2 ") for line in others)
    assert page.locator("#last-move").inner_text() == "Since your last move: " + " ".join(others)
    # a route the bot claimed while you waited is outlined on the board, and only that
    play_until(page, lambda p: p.locator("svg.board g.route.last-move").count() > 0)
    outlined = page.eval_on_selector_all("svg.board g.route.last-move",
                                         "els => els.map(e => [e.dataset.route, e.dataset.seat])")
    claimed = [re.match(r"greedy bot 2 (?:claimed|paid .+? more and claimed) (.+?)(?: with |\.$)", line)
               for line in since_mine(page)]
    assert sorted(name for name, _ in outlined) == sorted(m.group(1).replace(" – ", "-") for m in claimed if m)
    assert {seat for _, seat in outlined} == {"1"}
    assert page.locator("#last-move").inner_text() == "Since your last move: " + " ".join(since_mine(page))
    shot(page, "last-move")
