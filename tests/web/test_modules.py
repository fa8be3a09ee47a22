"""The page's own helpers, run in the browser: ticket paths over a player's routes, actions in words."""

from __future__ import annotations

from typing import Any

from .conftest import Served, shot

ROUTES = """[{index: 0, a: "Paris", b: "Bruxelles", length: 2}, {index: 1, a: "Bruxelles", b: "Amsterdam", length: 1},
             {index: 2, a: "Amsterdam", b: "Essen", length: 3}, {index: 3, a: "Paris", b: "Essen", length: 8},
             {index: 4, a: "Roma", b: "Venezia", length: 2}]"""


def test_ticket_paths(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate(f"""async () => {{
        const g = await import('/js/graph.js');
        const routes = {ROUTES};
        const ids = (p) => p === null ? null : p.map((r) => r.index).sort();
        return [ids(g.ticketPath("Paris-Essen", routes)), ids(g.ticketPath("Paris-Amsterdam", routes)),
                ids(g.ticketPath("Paris-Roma", routes)), ids(g.ticketPath("Essen-Bruxelles", routes))];
    }}""")
    assert got == [[3], [0, 1], None, [1, 2]]


def test_actions_and_log_in_words(page: Any, server: Served) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate("""async () => {
        const w = await import('/js/words.js');
        const i18n = await import('/js/i18n.js');
        const out = [];
        for (const lang of ["en", "zh-Hans", "zh-Hant"]) {
            await i18n.setLang(lang);
            const claim = {action: "claim_route", route: "Madrid-Pamplona/white", cards: {white: 2, locomotive: 1}};
            out.push(w.actionText(claim));
            out.push(w.logText({player: 1, action: "build_station", city: "Berlin", cards: {red: 2}}, ["Ana", "Ben"]));
            out.push(w.logText({player: 0, action: "keep_tickets", count: 2}, ["Ana", "Ben"]));
        }
        await i18n.setLang("en");
        return out;
    }""")
    assert got == [
        "Claim Madrid – Pamplona (white) with 2 × white, 1 × locomotive",
        "Ben built a station in Berlin with 2 × red.",
        "Ana kept 2 destination tickets.",
        "用 2 张白色、1 张彩虹票 占领 马德里 – 潘普洛纳（白色）",
        "Ben 用 2 张红色 在柏林建造了火车站。",
        "Ana 保留了 2 张任务牌。",
        "用 2 張白色、1 張彩虹票 佔領 馬德里 – 潘普洛納（白色）",
        "Ben 用 2 張紅色 在柏林建造了火車站。",
        "Ana 保留了 2 張任務牌。",
    ]


def test_final_breakdown_with_a_tie_and_stations(page: Any, server: Served) -> None:
    """A final the full games do not reach: a tie broken by stations, a station's borrowed route."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate("""async () => {
        const f = await import('/js/final.js');
        const player = (seat, name, stations, borrowed) => ({seat, name, route_points: 20,
            tickets_completed: ["Berlin-Roma"], tickets_failed: [], ticket_points: 9, stations_unbuilt: stations,
            station_points: 4 * stations, borrowed_routes: borrowed, longest_path: 6, express_bonus: 0,
            attractions: 0, total: 29 + 4 * stations - (stations === 3 ? 4 : 0), longest_path_routes: [],
            attraction_cities: []});
        const final = {players: [player(0, "Ana", 2, {"Berlin": "Berlin-Essen"}), player(1, "Ben", 3, {})],
                       winners: ["Ben"], winner_seats: [1], decided_by: "fewest_stations_built"};
        const view = {players: [{name: "Ana", routes: []}, {name: "Ben", routes: []}], final};
        const box = document.createElement("section");
        document.body.append(box);
        f.renderFinal(box, view, {name: "europe", rules: {stations: 3, longest_path_bonus: 10}},
                      {byName: new Map()}, {gameId: null, onPath: () => {}});
        const row = (key) => [...box.querySelectorAll(`tr[data-row="${key}"] td`)].map((td) => td.textContent);
        return [box.querySelector("#winners").textContent, box.querySelector("#tiebreak").textContent,
                row("final.borrowed"), row("final.total"), row("final.stations_kept")];
    }""")
    assert got == [
        "Winner: Ben",
        "Tie broken by the fewest stations built.",
        ["Berlin: Berlin – Essen", "–"],
        ["37", "37"],
        ["2 (+8)", "3 (+12)"],
    ]



def test_final_rows_follow_the_maps_rules_not_its_name(page: Any, server: Served) -> None:
    """The breakdown's rows come from the map's rules: a map named new_york with stations and the Express
    scores them, a custom map with attractions shows them; a custom map is named by its own name."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate("""async () => {
        const f = await import('/js/final.js');
        const i18n = await import('/js/i18n.js');
        const p = {seat: 0, name: "Ana", route_points: 1, tickets_completed: [], tickets_failed: [], ticket_points: 0,
            stations_unbuilt: 3, station_points: 12, borrowed_routes: {}, longest_path: 1, express_bonus: 0,
            attractions: 2, attraction_cities: [], total: 13, longest_path_routes: []};
        const view = {players: [{name: "Ana", routes: []}], final: {players: [p], winners: ["Ana"], winner_seats: [0]}};
        const rows = (mapData) => {
            const box = document.createElement("section");
            f.renderFinal(box, view, mapData, {byName: new Map()}, {gameId: null, onPath: () => {}});
            return [...box.querySelectorAll("tr[data-row]")].map((tr) => tr.dataset.row);
        };
        return [rows({name: "new_york", rules: {stations: 3, longest_path_bonus: 10, attraction_points: 0}}),
                rows({name: "my-map", rules: {stations: 0, longest_path_bonus: 0, attraction_points: 1}}),
                i18n.mapLabel("my-map"), i18n.mapLabel("new_york")];
    }""")
    common = ["final.routes", "final.tickets_done", "final.tickets_failed", "final.ticket_points"]
    assert got == [
        [*common, "final.stations_kept", "final.borrowed", "final.longest", "final.express", "final.total"],
        [*common, "final.attractions", "final.total"],
        "my-map", "New York",
    ]

# A mid-game Europe board drawn by the page's Board: every player colour owns two routes of its own colour
# (a blue player's blue route, ...) and two more; some routes are claimable, some were claimed since your
# last move, one lies on a highlighted path (the European Express at the end), two stations.
BOARD_SCENE = """async () => {
    const { Board } = await import('/js/board.js');
    const { PLAYERS } = await import('/js/colors.js');
    const svg = await (await fetch('/api/maps/europe/board.svg')).text();
    const main = document.getElementById('main');
    main.replaceChildren();
    const box = document.createElement('div');
    box.className = 'board-box';
    box.id = 'board';
    main.append(box);
    const board = new Board(box, svg, {});
    const routes = board.routes.filter(Boolean);
    const own = ['blue', 'red', 'green', 'yellow', 'black'];
    const owners = new Map();
    own.forEach((color, seat) => {
        const free = (c) => routes.filter((r) => r.color === c && !owners.has(r.index));
        for (const r of free(color).slice(0, 2)) owners.set(r.index, seat);
        for (const r of free('gray').slice(seat * 2, seat * 2 + 2)) owners.set(r.index, seat);
    });
    const free = routes.filter((r) => !owners.has(r.index));
    const claimable = new Set(free.filter((_, i) => i % 9 === 0).map((r) => r.index));
    const bySeat = (seat) => [...owners].filter(([, s]) => s === seat).map(([i]) => i);
    const recentRoutes = new Set([bySeat(1)[0], bySeat(4)[1]]);
    const path = new Set([bySeat(0)[0], bySeat(0)[2]]);
    const stations = new Map([['Berlin', 2], ['Roma', 3]]);
    board.update({ owners, stations, claimable, path, recentRoutes, recentCities: new Set(['Roma']),
                   names: ['Ana', 'Ben', 'Cai', 'Dee', 'Eve'] });
    window.scene = { owners: [...owners], claimable: [...claimable], recent: [...recentRoutes],
                     symbols: PLAYERS.map((p) => p.symbol), fills: PLAYERS.map((p) => p.fill) };
    return window.scene;
}"""


def test_claimed_routes_stand_out_from_unclaimed_ones(page: Any, server: Served) -> None:
    """A claimed space is a train piece (owner's colour, dark border, owner's symbol on a white disc); an
    unclaimed one keeps its colour and letter, faded a little once routes are claimed (claimable ones are not
    faded); the other overlays still show."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    scene = page.evaluate(BOARD_SCENE)
    owners = dict(scene["owners"])
    assert sorted(set(owners.values())) == [0, 1, 2, 3, 4] and len(owners) == 20
    spaces = page.evaluate("""() => [...document.querySelectorAll('svg.board g.route')].map((g) => {
        const id = Number(g.id.replace('route-', ''));
        return [id, [...g.querySelectorAll('g.space')].map((sp) => {
            const piece = sp.querySelector('.owner-piece');
            const base = sp.querySelector(':scope > rect');
            return {
                piece: piece ? [piece.querySelector('rect').getAttribute('fill'),
                                piece.querySelector('text').textContent,
                                piece.querySelectorAll('circle.owner-disc').length,
                                getComputedStyle(piece.querySelector('rect')).strokeWidth] : null,
                opacity: getComputedStyle(base).fillOpacity,
            };
        })];
    })""")
    claimable = set(scene["claimable"])
    recent = set(scene["recent"])
    for index, route_spaces in spaces:
        for space in route_spaces:
            if index in owners:
                seat = owners[index]
                fill, symbol, discs, stroke = space["piece"]
                assert (fill, symbol, discs) == (scene["fills"][seat], scene["symbols"][seat], 1), (index, space)
                assert float(stroke.rstrip("px")) >= (1.5 if index in recent else 1.8)
            else:
                assert space["piece"] is None
                assert space["opacity"] == ("1" if index in claimable else "0.6"), (index, space)
    # the black band of what the others did since your last move, only around those routes
    bands = page.evaluate("""() => [...document.querySelectorAll('svg.board g.route line.route-hit')]
        .filter((l) => getComputedStyle(l).stroke === 'rgb(17, 17, 17)')
        .map((l) => Number(l.parentNode.id.replace('route-', '')))""")
    assert sorted(bands) == sorted(recent)
    shot(page.locator("#board"), "claimed-routes")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: the same board, smaller
    shot(page.locator("#board"), "claimed-routes-phone")


def test_card_sets_cheapest_first(page: Any, server: Served) -> None:
    """The claim dialog and tunnel panel offer card sets fewest wild cards first, then fewest cards."""
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate("""async () => {
        const c = await import('/js/cards.js');
        const sets = [{red: 2, locomotive: 2}, {locomotive: 4}, {red: 3, locomotive: 1}, {red: 4}, {red: 3}];
        const entries = sets.map((cards, id) => ({id, action: {action: "claim_route", cards}}));
        return entries.sort(c.byCost("locomotive")).map((e) => e.id);
    }""")
    assert got == [4, 3, 2, 0, 1]


PROGRAMS = ["cmd:python3 examples/bots/simple_bot.py", "cmd:./mybot --fast", "cmd:java -jar bots/x.jar", "cmd:mybot",
            "cmd:node 'my bots/bot.js'", "cmd:python3.12 -u bot.py --log out.txt", "cmd:/opt/bin/tt --config a.yml"]


def test_program_seats_are_named_by_the_programs_file_as_the_server_names_them(page: Any, server: Served) -> None:
    """The lobby names a program's seat by its file (`programLabel`), as the server does (`program_label`)."""
    from ttr.server.programs import program_label

    page.goto(server.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    got = page.evaluate(f"""async () => {{
        const i18n = await import('/js/i18n.js');
        return {PROGRAMS!r}.map((p) => i18n.programLabel(p));
    }}""")
    assert got == [program_label(p) for p in PROGRAMS]
    assert got == ["simple_bot.py", "mybot", "x.jar", "mybot", "bot.js", "bot.py", "tt"]
