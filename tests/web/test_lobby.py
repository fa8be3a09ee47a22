"""The lobby, the languages, invite links, spectating and the phone-sized layout."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .conftest import Served, shot
from .driver import api, create_game, open_seat, state, wait_turn

WEB_I18N = Path(__file__).resolve().parents[2] / "src" / "ttr" / "web" / "i18n"


def test_create_a_game_against_bots_from_the_lobby(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#map-select", "new_york")
    page.fill("#seed-input", "21")
    page.fill("#seat-0-name", "Mei")
    page.click("#add-seat")
    page.click("#add-seat")
    assert page.locator("#add-seat").is_disabled()  # New York: at most 4 seats
    page.select_option("#seat-2-level", "easy")
    page.click("#seat-3-remove")
    assert page.locator("#seed-input").input_value() == "21"  # kept while the seats change
    assert page.locator("#seat-0-name").input_value() == "Mei"
    notes = page.locator("#level-notes li").all_inner_texts()  # what each level does, to choose by
    assert [n.split(":")[0] for n in notes] == ["easy", "medium", "hard", "expert"]
    shot(page, "lobby")
    page.click("#create-game")
    page.wait_for_url("**/#/play/**")
    wait_turn(page)
    assert state(page)[0] == "choose_tickets"  # alone against bots: the game starts at once
    game_id = page.url.split("/#/play/")[1].split("/")[0]
    summary = api(server.base, f"/api/games/{game_id}")
    assert summary["map"] == "new_york"
    first = summary["seats"][0]
    assert (first["name"], first["type"], first["level"]) == ("Mei", "human", None)
    assert [s["level"] for s in summary["seats"][1:]] == ["medium", "easy"]
    assert page.locator("#players tbody tr").count() == 3
    # back in the lobby: the game is among yours, and among the recent games to watch
    page.goto(server.base + "/#/")
    page.wait_for_selector("#your-games")
    assert game_id in page.locator("#your-games").inner_text()
    page.wait_for_selector(f'#recent-games li[data-game="{game_id}"]')
    assert page.locator(f'#your-games li[data-game="{game_id}"] .game-status').inner_text() == "in progress"
    assert page.locator(f'#recent-games li[data-game="{game_id}"] a').inner_text() == "Watch"


def test_a_game_of_bots_only_opens_to_watch(page: Any, server: Served) -> None:
    """Every seat a bot: the lobby takes you to the game to watch it (there is no seat to invite anyone to),
    and the bots play it to the end."""
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#map-select", "new_york")
    page.select_option("#seat-0-type", "bot")
    page.select_option("#seat-0-level", "easy")
    page.click("#create-game")
    page.wait_for_url("**/#/watch/**")
    game_id = page.url.split("/#/watch/")[1].split("/")[0]
    page.wait_for_selector("main[data-version]")
    assert page.locator("#hint-button").count() == 0 and page.locator("#invites").count() == 0
    page.wait_for_function("() => document.querySelector('main').dataset.phase === 'game_over'", timeout=60000)
    summary = api(server.base, f"/api/games/{game_id}")
    assert summary["status"] == "finished" and [s["type"] for s in summary["seats"]] == ["bot", "bot"]
    assert page.locator("#turn").inner_text() == "The game is over."


def test_invite_links_and_spectating(page: Any, server: Served, open_page: Any) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#seat-1-type", "human")
    page.fill("#seat-0-name", "Ana")
    page.fill("#seat-1-name", "Ben")
    page.click("#create-game")
    page.wait_for_selector("#invites")
    links = page.eval_on_selector_all("#invites input.invite", "els => els.map(e => e.value)")
    assert len(links) == 2 and all("/#/play/" in link for link in links)
    game_id, seat, token = links[1].split("/#/play/")[1].split("/")
    assert seat == "1" and len(token) >= 24
    ben = open_page(viewport={"width": 1200, "height": 900}, locale="en-US")  # another browser
    ben.goto(links[1])
    ben.wait_for_selector("main[data-version]")
    assert ben.locator('#players tr[data-seat="1"] .tag').first.inner_text() == "you"
    assert ben.locator("#turn").inner_text() == "Ana is choosing destination tickets."
    watcher = ben.context.new_page()
    watcher.goto(f"{server.base}/#/watch/{game_id}")
    watcher.wait_for_selector("main[data-version]")
    assert watcher.locator("#hint-button").count() == 0
    assert watcher.locator("#hand").is_hidden() and watcher.locator("#tickets").is_hidden()
    assert watcher.locator("#players tbody tr").count() == 2
    # the spectator sees card counts, no hand and no ticket
    assert watcher.locator("#hand-cards").count() == 0 and watcher.locator("#ticket-list").count() == 0
    assert watcher.locator('#players tr[data-seat="0"] td').nth(3).inner_text() == "4"


def test_language_follows_the_browser_and_switches(open_page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=2)
    page = open_page(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert page.locator("#turn").inner_text() == "轮到你：选择要保留的任务牌。"
    assert page.locator('svg.board g.city[data-city="Kobenhavn"] text.city-name').text_content() == "哥本哈根"
    assert page.locator("#lang-select").input_value() == "zh-Hans"
    title = page.locator("svg.board text.map-title")  # the board's own title follows the language too
    assert title.text_content() == "铁路环游：欧洲（Days of Wonder，2005）"
    shot(page, "game-zh-Hans")
    page.select_option("#lang-select", "zh-Hant")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    assert title.text_content() == "鐵路環遊：歐洲（Days of Wonder，2005）"
    assert page.locator("#turn").inner_text() == "輪到你：選擇要保留的任務牌。"
    assert page.locator('svg.board g.city[data-city="Erzurum"] text.city-name').text_content() == "埃爾祖倫"
    assert "雙線道" in page.locator('svg.board g.route.double').first.get_attribute("aria-label")
    page.reload()  # the choice is kept
    page.wait_for_selector("main[data-version]")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("#draw-deck").inner_text().startswith("從牌堆抽一張")
    page.locator("#confirm-toggle").check()  # a dialog open while the language changes is reworded
    page.click("#keep-tickets")
    assert page.locator("#dialog h2").inner_text() == "確認"
    page.select_option("#lang-select", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.locator("#dialog").is_visible() and page.locator("#dialog h2").inner_text() == "Confirm"
    assert page.locator("#dialog p").inner_text().startswith("Keep ")
    page.keyboard.press("Escape")
    page.locator("#confirm-toggle").uncheck()
    assert page.locator('svg.board g.city[data-city="Kobenhavn"] text.city-name').text_content() == "Kobenhavn"
    assert title.text_content() == "Ticket to Ride: Europe (Days of Wonder, 2005)"
    assert page.locator("#turn").inner_text() == "Your turn: choose the destination tickets to keep."


def test_create_errors_in_the_pages_language(open_page: Any, server: Served) -> None:
    """A seed out of range, or an error the server answers, is worded in the page's language; the server's
    own words stay beside it."""
    page = open_page(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.fill("#seed-input", str(2**63))  # one more than the largest seed
    page.click("#create-game")
    error = page.locator("#create-error")
    page.wait_for_function("document.getElementById('create-error').textContent.length > 0")
    assert error.inner_text() == f"无法创建游戏：随机种子必须是 0 至 {2**63 - 1} 之间的整数。"
    assert not re.search(r"[A-Za-z]", error.inner_text())
    assert page.locator("#level-notes li").first.inner_text().startswith("简单：")
    page.select_option("#lang-select", "zh-Hant")  # shown again in the new language
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    assert error.inner_text() == f"無法建立遊戲：隨機種子必須是 0 至 {2**63 - 1} 之間的整數。"
    assert page.locator("#level-notes li").last.inner_text().startswith("專家：")
    assert page.url.endswith("/#/") or "#/play/" not in page.url  # no game was created
    # a seed above 2**53 reaches the server digit for digit (a JavaScript number would round it)
    page.fill("#seed-input", str(2**53 + 1))
    page.fill("#seat-0-name", "Mei")
    with page.expect_request("**/api/games") as sent:
        page.click("#create-game")
    assert json.loads(sent.value.post_data or "")["seed"] == 2**53 + 1
    page.wait_for_url("**/#/play/**")
    # an error the server answers: a bot level it does not have (the page is offered one more level than
    # the server knows, so that the real server refuses the game: 400 unknown_level)
    def more_levels(route: Any) -> None:
        levels = [*route.fetch().json(), {"level": "nonesuch", "bot": "nonesuch", "description": ""}]
        route.fulfill(json=levels)

    page.route("**/api/bots", more_levels)
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#seat-1-level", "nonesuch")
    page.click("#create-game")
    page.wait_for_selector("#create-error .error-detail")
    assert error.locator(".error-text").inner_text() == "無法建立遊戲：伺服器沒有這個電腦等級。"
    detail = error.locator(".error-detail")
    assert detail.inner_text().startswith("伺服器原文：")
    # the server's own English words, kept as the detail
    assert detail.locator("[lang=en]").inner_text().startswith("seat 1: unknown bot level 'nonesuch'")
    page.route("**/api/games", lambda route: route.abort())  # no answer at all
    page.select_option("#seat-1-level", "easy")
    page.click("#create-game")
    page.wait_for_function("document.querySelector('#create-error .error-text')?.textContent.includes('回應')")
    assert error.locator(".error-text").inner_text().startswith("無法建立遊戲：伺服器沒有回應")
    assert error.locator(".error-detail").count() == 0  # no server words to show
    shot(page, "create-error-zh-Hant")


def test_list_errors_in_the_pages_language(open_page: Any, server: Served) -> None:
    """A lobby list that does not load (the recent games, the maps) says so in the page's language, the server's
    own words kept below as a detail; no answer at all gets its own message."""
    page = open_page(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    games_list = re.compile(r"/api/games\?limit=")
    page.route(games_list, lambda route: route.fulfill(
        status=503, json={"error": {"code": "unavailable", "message": "database is locked"}}))
    page.goto(server.base + "/")
    page.wait_for_selector("#recent-error .error-text")
    error = page.locator("#recent-error")
    assert error.locator(".error-text").inner_text() == "无法加载游戏列表。"
    detail = error.locator(".error-detail")
    assert detail.inner_text().startswith("服务器原文：")
    assert detail.locator("[lang=en]").inner_text() == "database is locked"
    page.select_option("#lang-select", "zh-Hant")  # loaded again, worded in the new language
    page.wait_for_function("document.querySelector('#recent-error .error-text')?.textContent.includes('載入')")
    assert error.locator(".error-text").inner_text() == "無法載入遊戲列表。"
    page.unroute(games_list)
    page.route(games_list, lambda route: route.abort())  # no answer at all
    page.select_option("#lang-select", "zh-Hans")
    page.wait_for_function("document.querySelector('#recent-error .error-text')?.textContent.includes('回应')")
    assert error.locator(".error-text").inner_text().startswith("无法加载游戏列表：服务器没有回应")
    assert error.locator(".error-detail").count() == 0  # no server words to show
    # the list of maps: without it there is no lobby
    page.route("**/api/maps", lambda route: route.fulfill(
        status=500, json={"error": {"code": "internal", "message": "maps exploded"}}))
    page.reload()
    page.wait_for_selector("#lobby-error .error-text")
    assert page.locator("#lobby-error .error-text").inner_text() == "无法打开大厅：地图列表没有加载。"
    assert page.locator("#lobby-error .error-detail [lang=en]").inner_text() == "maps exploded"
    shot(page, "list-error-zh-Hans")


def test_phone_keeps_the_scroll_position_after_a_move(open_page: Any, server: Served) -> None:
    """One column at 390x844: scrolled down to the actions, the page stays where it was after each of the
    player's own moves (the board and panels drawn anew), also when the bots then have the turn."""
    game_id, token = create_game(server.base, "new_york", seed=5)
    page = open_page(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    page.locator("#keep-tickets").tap()
    wait_turn(page, "0")
    # the draw is in the bar at the bottom of the screen; the tickets are well below the board
    page.evaluate("document.getElementById('tickets').scrollIntoView({block: 'start'})")
    before = page.evaluate("window.scrollY")
    assert before > 300
    for expected in ("second_card", "main"):
        _, version, _ = state(page)
        page.locator("#draw-deck").tap()
        wait_turn(page, version)
        page.wait_for_timeout(200)  # let any late layout settle
        assert state(page)[0] == expected
        after = page.evaluate("window.scrollY")
        assert abs(after - before) <= 4, (expected, before, after)
    shot(page, "phone-after-move", full_page=False)


def test_phone_sized_screen(open_page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "new_york", seed=5)
    page = open_page(viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True)
    page.goto(server.base + "/")
    page.wait_for_selector("#create-form")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "phone-lobby", full_page=False)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#keep-tickets").tap()
    wait_turn(page, "0")
    # a tap on a route shows its details
    page.locator('svg.board g.route[data-route^="Central Park-Times Square"]').first.tap()
    assert "Central Park – Times Square" in page.locator(".board-tip").inner_text()
    shot(page, "phone-game", full_page=False)


def test_a_wrong_invite_link_says_so(page: Any, server: Served) -> None:
    game_id, _ = create_game(server.base, "europe", seed=9)
    page.goto(f"{server.base}/#/play/{game_id}/0/not-the-token-of-this-seat")
    page.wait_for_function("document.getElementById('game-error')?.textContent.length > 0")
    assert page.locator("#game-error").inner_text() == "This invite link is not valid for this game."
    assert page.locator("#hand-cards").count() == 0
    assert page.locator("svg.board").count() == 0 and page.locator("#players").count() == 0  # no empty game
    shot(page, "wrong-invite-link")
    page.click("#watch-instead")  # the game can still be watched
    page.wait_for_selector("main[data-version]")
    assert page.url.endswith(f"#/watch/{game_id}") and page.locator("#players tbody tr").count() == 2
    page.goto(f"{server.base}/#/")
    page.wait_for_selector("#create-form")
    assert page.locator("#your-games").count() == 0  # a wrong link is not kept among your games
    page.goto(f"{server.base}/#/play/nosuchgame/0/whatever")
    page.wait_for_selector("#load-error")
    assert page.locator("#load-error").inner_text() == "No such game."  # the page's words, not the server's
    page.select_option("#lang-select", "zh-Hant")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    page.goto(f"{server.base}/#/watch/nosuchgame")
    page.wait_for_function("document.getElementById('load-error')?.textContent === '沒有這局遊戲。'")
    page.click("main a[href='#/']")  # and the way back to the lobby
    page.wait_for_selector("#create-form")


def _open_failing(page: Any, url: str) -> Any:
    """Open a game or replay that does not load (the page loaded afresh), wait until the page has said so; its
    error line."""
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("body[data-ready]")
    return page.locator("main .error")


def test_game_and_replay_errors_in_the_pages_language(open_page: Any, server: Served) -> None:
    """A game or a replay that does not open says why in the page's language, worded again on a change, the
    server's own words kept below as a detail (none when the server did not answer); never the English
    fallback 'Could not load: ...'."""
    game_id, _ = create_game(server.base, "europe", seed=11)  # still running: a person's seat waits
    summary = f"**/api/games/{game_id}"
    watch, replay = f"{server.base}/#/watch/{game_id}", f"{server.base}/#/replay/{game_id}"

    def failing(route: Any) -> None:
        route.fulfill(status=503, json={"error": {"code": "unavailable", "message": "database is locked"}})

    for locale, words in (("en-US", "en"), ("zh-CN", "zh-Hans")):
        table = json.loads((WEB_I18N / f"{words}.json").read_text(encoding="utf-8"))
        page = open_page(viewport={"width": 1200, "height": 900}, locale=locale)  # a fresh browser each time
        page.route(summary, failing)  # the server answers with an error
        for url, key in ((watch, "error.load.game"), (replay, "error.load.replay")):
            error = _open_failing(page, url)
            text = error.inner_text()
            assert text.startswith(table[key]) and "Could not load" not in text, (locale, url, text)
            assert error.locator(".error-text").inner_text() == table[key]
            assert error.locator(".error-detail").inner_text().startswith(table["error.server_said"])
            assert error.locator(".error-detail [lang=en]").inner_text() == "database is locked"
        page.unroute(summary)
        page.route(summary, lambda route: route.abort())  # no answer at all: no server words to show
        for url, key in ((watch, "error.load.game_network"), (replay, "error.load.replay_network")):
            error = _open_failing(page, url)
            assert error.inner_text() == table[key], (locale, url)
        page.unroute(summary)
        # a replay of a game still running: the server's own refusal, worded in the page's language
        error = _open_failing(page, replay)
        text = error.inner_text()
        assert text.startswith(table["error.load.replay_running"]) and "Could not load" not in text, (locale, text)
        assert "still running" in error.locator(".error-detail [lang=en]").inner_text()
        page.keyboard.press("ArrowRight")  # the replay that did not open steps no more
        shot(page, f"replay-error-{words}")
        page.select_option("#lang-select", "zh-Hant")  # worded again in the new language
        page.wait_for_function("document.querySelector('#load-error .error-text')?.textContent.includes('重播')")
        hant = json.loads((WEB_I18N / "zh-Hant.json").read_text(encoding="utf-8"))
        assert page.locator("#load-error .error-text").inner_text() == hant["error.load.replay_running"]
        page.click("main a[href='#/']")  # and the way back to the lobby
        page.wait_for_selector("#create-form")


def _reason_in(lang: str, data: dict[str, Any]) -> str:
    """A ticket-keeping hint reason as the page should word it, filled from the language's file."""
    words = json.loads((WEB_I18N / f"{lang}.json").read_text(encoding="utf-8"))
    cities = words["cities"]

    def pair(name: str) -> str:
        a, b = name.split("-")
        return f"{cities[a]} – {cities[b]}"

    params = {"tickets": words["list.sep"].join(pair(t) for t in data["tickets"]), "points": data["points"],
              "n": data["n"], "pieces": words[f"piece.{data['pieces']}"]}
    text: str = words[data["key"]].format(**params)
    return text


def test_hint_reason_in_chinese(open_page: Any, server: Served) -> None:
    """The hint's reason is worded from the i18n files (city names too), in the page's language."""
    game_id, token = create_game(server.base, "new_york", seed=4)
    hints: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: Any) -> None:
            message = json.loads(payload)
            if message.get("type") == "hint":
                hints.append(message)
        ws.on("framereceived", on_frame)

    page = open_page(viewport={"width": 1200, "height": 900}, locale="zh-CN")
    page.on("websocket", on_socket)
    open_seat(page, server.base, game_id, token)
    wait_turn(page)
    page.click("#hint-button")
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('提示：')")
    assert len(hints) == 1
    data = hints[0]["reason_i18n"]
    assert data["key"] in ("hint.keep_all", "hint.keep_some") and data["pieces"] in ("taxi", "taxis")
    shown = page.locator("#hint-text").inner_text()
    chinese = _reason_in("zh-Hans", data)
    assert shown.endswith(chinese), (shown, chinese)
    assert "辆出租车" in chinese  # simplified Chinese: the mainland word (the rulebook has 計程車)
    zh_cities = json.loads((WEB_I18N / "zh-Hans.json").read_text(encoding="utf-8"))["cities"]
    for ticket in data["tickets"]:
        assert all(zh_cities[c] in shown for c in ticket.split("-"))
    assert not re.search(r"[A-Za-z]", shown)  # no English left: city names and words are all translated
    shot(page, "hint-zh-Hans")
    page.select_option("#lang-select", "en")  # the same hint, reworded in the new language
    page.wait_for_function("document.getElementById('hint-text').textContent.startsWith('Hint: ')")
    assert page.locator("#hint-text").inner_text().endswith(_reason_in("en", data))
    assert hints[0]["reason"].startswith("Keep")  # the server's own English text is still sent
    page.remove_listener("websocket", on_socket)


def test_a_seed_chosen_by_the_creator_is_marked(page: Any, server: Served) -> None:
    game_id, token = create_game(server.base, "europe", seed=12)  # one person against a bot: a seed is allowed
    open_seat(page, server.base, game_id, token)
    assert page.locator("#seed-chosen").inner_text() == "seed chosen by the creator"
    assert "knows every hand and deck" in (page.locator("#seed-chosen").get_attribute("title") or "")
    fair = api(server.base, "/api/games", {"map": "europe", "bot_delay": 0,
                                           "seats": [{"type": "human"}, {"type": "bot", "level": "greedy"}]})
    open_seat(page, server.base, fair["id"], fair["seats"][0]["token"])
    assert page.locator("#seed-chosen").count() == 0
    page.goto(server.base + "/")
    page.wait_for_selector(f'#recent-games li[data-game="{game_id}"]')
    assert page.locator(f'#recent-games li[data-game="{game_id}"] .seed-chosen').inner_text() == \
        "seed chosen by the creator"
    assert page.locator(f'#recent-games li[data-game="{fair["id"]}"] .seed-chosen').count() == 0
