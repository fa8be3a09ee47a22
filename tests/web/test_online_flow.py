"""Two new players online, end to end in the page: they register, join the quick-play queue, are matched,
chat (markup shown as text, a quick phrase in the reader's language, a mute), play the rated game to its
end (its middle over their sockets), and see their new ratings, the leaderboard and the game in their histories."""

from __future__ import annotations

import json
from typing import Any

from .conftest import Served, shot
from .driver import play_accounts_by_socket, state
from .test_accounts_page import register_in_page


def act_once(page: Any) -> bool:
    """One action of this seat if it is its turn (keep tickets, pay tunnels, claim the longest route, else draw);
    waits for the answer. False when it is not this seat's turn."""
    phase, version, mine = state(page)
    if not mine or phase == "game_over":
        return False
    selector = "#keep-tickets"
    if phase == "tunnel_payment":
        pay = page.locator("#action-panel button[data-act=pay]")
        selector = "#action-panel button[data-act=pay]" if pay.count() else "#abandon-tunnel"
    elif phase != "choose_tickets":
        routes = page.eval_on_selector_all(
            "#route-list button[data-act=claim]",
            "els => els.map(e => [e.dataset.route, Number(document.querySelector("
            "`svg.board g.route[data-route=\"${e.dataset.route}\"]`).dataset.length)])")
        if phase == "main" and routes:
            name = max(routes, key=lambda r: r[1])[0]
            page.evaluate("document.getElementById('route-list').open = true")
            page.locator(f"#route-list button[data-route={json.dumps(name)}]").click()
            selector = "#claim-confirm"
        elif page.locator("#draw-deck:enabled").count():
            selector = "#draw-deck"
        elif page.locator("#draw button[data-act=face-up]:enabled").count():
            selector = "#draw button[data-act=face-up]:enabled"
        elif page.locator("#pass-button").count():
            selector = "#pass-button"
        else:
            selector = "#draw-tickets"
    page.locator(selector).first.click()
    page.wait_for_function(f"() => document.querySelector('main').dataset.version !== {json.dumps(version)}")
    return True


def test_two_players_register_queue_chat_play_and_see_their_ratings(open_page: Any, server: Served) -> None:
    ana = open_page(viewport={"width": 1300, "height": 950}, locale="en-US")
    ben = open_page(viewport={"width": 390, "height": 844}, locale="zh-CN")  # a phone, in Chinese
    for p in (ana, ben):
        p.set_default_timeout(20000)
    register_in_page(ana, server.base, "Flow Ana")
    register_in_page(ben, server.base, "Flow Ben")
    for p in (ana, ben):
        p.goto(server.base + "/#/")
        p.wait_for_selector("#queue-join")
        p.select_option("#queue-select", "new_york-2")
    assert ben.locator("#quick-h").inner_text() == "快速匹配"
    ana.click("#queue-join")
    ana.wait_for_selector("#queue-status")
    assert "Waiting for New York, 2 players" in ana.locator("#queue-status").inner_text()
    ben.click("#queue-join")
    for p in (ana, ben):  # matched: each page opens its seat, by account
        p.wait_for_url("**/#/seat/**")
        p.wait_for_selector("main[data-version]")
    game_id = ana.url.split("/#/seat/")[1].split("/")[0]
    assert ben.url.split("/#/seat/")[1].split("/")[0] == game_id
    ana.wait_for_selector("#clock:not([hidden])")
    # chat: text stays text; a quick phrase reads in each reader's language; a mute hides a player
    ana.fill("#chat-input", "<b>hello</b> Ben")
    ana.press("#chat-input", "Enter")
    ben.wait_for_selector("#chat-list .chat-text")
    assert ben.locator("#chat-list .chat-text").first.inner_text() == "<b>hello</b> Ben"
    assert ben.locator("#chat-list b.chat-name").count() == 1  # no <b> made from the message
    ben.click("#chat .chat-phrase[data-phrase=good_luck]")
    ana.wait_for_function("() => document.querySelectorAll('#chat-list .chat-msg').length === 2")
    assert ana.locator("#chat-list .chat-text").nth(1).inner_text() == "Good luck!"
    assert ben.locator("#chat-list .chat-text").nth(1).inner_text() == "祝你好运！"
    ana.locator("#chat-list .chat-mute").first.click()
    assert ana.locator("#chat-list .chat-text").all_inner_texts() == ["<b>hello</b> Ben"]
    shot(ben, "online-chat-phone")
    # the game: its first moves in the pages, its middle over the seats' sockets (by account, as the pages
    # join; test_full_game.py plays a whole game through the page), its last turns in the pages again
    for _ in range(6):
        if not (act_once(ana) or act_once(ben)):
            ana.wait_for_timeout(50)
    seats = [(int(p.url.rsplit("/", 1)[1]), "; ".join(f"{c['name']}={c['value']}" for c in p.context.cookies()))
             for p in (ana, ben)]
    now = play_accounts_by_socket(server.base, game_id, seats, "new_york",
                                  lambda view, _: min(p["trains"] for p in view["players"]) <= 5)
    for p in (ana, ben):
        p.wait_for_function(f"document.querySelector('main').dataset.version === '{now['version']}'")
    for _ in range(1500):
        if state(ana)[0] == "game_over" and state(ben)[0] == "game_over":
            break
        if not (act_once(ana) or act_once(ben)):
            ana.wait_for_timeout(50)
    assert state(ana)[0] == state(ben)[0] == "game_over"
    # their new ratings and the game in their histories
    for p, name in ((ana, "Flow Ana"), (ben, "Flow Ben")):
        p.goto(f"{server.base}/#/player/{name.replace(' ', '%20')}")
        p.wait_for_selector('#profile-ratings tr[data-map="new_york"][data-seats="2"]')
        assert p.locator(f'#profile-history li[data-game="{game_id}"] a').count() == 1
    assert "New York, 2 players" in ana.locator("#profile-ratings").inner_text()
    assert "1 games played" in ana.locator("#profile-totals").inner_text()
    assert "纽约，2 人" in ben.locator("#profile-ratings").inner_text()
    shot(ben, "online-profile-phone")
    assert ben.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    ana.goto(server.base + "/#/leaderboard/new_york/2")
    ana.wait_for_selector("#leaderboard tbody tr[data-name]")
    assert sorted(ana.locator("#leaderboard tbody tr[data-name]").evaluate_all(
        "rows => rows.map(r => r.dataset.name)")) == ["Flow Ana", "Flow Ben"]
    assert ana.locator("#bot-ratings tr[data-level=hard]").count() == 1
    # the replay shows the chat said before the first move
    ana.locator("#leaderboard a", has_text="Flow Ana").click()
    ana.wait_for_selector(f'#profile-history li[data-game="{game_id}"] a')
    ana.locator(f'#profile-history li[data-game="{game_id}"] a').click()
    ana.wait_for_selector("#replay-chat")
    assert ana.locator("#replay-chat .chat-text").first.inner_text() == "<b>hello</b> Ben"
