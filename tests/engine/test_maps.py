"""Maps as data: the shipped maps, `ttr.maps.check`, the summary, the SVG/PNG board and `ttr map`."""

from __future__ import annotations

import copy
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.main import main
from ttr.errors import MapError
from ttr.maps import BUILTIN_MAPS, GameMap, dump_map_json, load_map, parse_map
from ttr.maps.check import MapProblem, check_map
from ttr.maps.layout import CITY_RADIUS, Point, layout_board, station_box
from ttr.maps.render import SPACE_WIDTH, TITLE_HEIGHT, render_png, render_svg
from ttr.maps.summary import format_summary, map_summary

SVG = "{http://www.w3.org/2000/svg}"


def shipped_text(name: str) -> str:
    return resources.files("ttr.maps").joinpath(f"{name}.json").read_text(encoding="utf-8")


def data(name: str) -> dict[str, Any]:
    """A fresh, mutable copy of a shipped map's JSON."""
    return copy.deepcopy(json.loads(shipped_text(name)))


def write_map(path: Path, map_data: dict[str, Any]) -> Path:
    path.write_text(dump_map_json(map_data), encoding="utf-8")
    return path


# -- the shipped maps ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_shipped_map_checks_clean(name: str) -> None:
    assert check_map(data(name)) == []
    game_map = load_map(name)
    assert game_map.name == name


def test_shipped_map_sizes() -> None:
    europe, new_york = load_map("europe"), load_map("new_york")
    assert (len(europe.cities), len(europe.routes), len(europe.tickets), europe.total_cards) == (47, 101, 46, 110)
    assert (len(new_york.cities), len(new_york.routes), len(new_york.tickets), new_york.total_cards) == (15, 41, 18, 44)


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_dump_map_json_round_trips_byte_for_byte(name: str, tmp_path: Path) -> None:
    text = shipped_text(name)
    assert dump_map_json(json.loads(text)) == text
    assert dump_map_json(load_map(name).to_json()) == text
    copy_path = write_map(tmp_path / f"{name}.json", load_map(name).to_json())
    assert copy_path.read_bytes() == text.encode("utf-8")
    assert load_map(str(copy_path)).routes == load_map(name).routes


# -- one test per kind of problem -----------------------------------------------------------------------

Mutate = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutate:
    """Set a value at a dotted path with [i] indexes, e.g. "routes[3].length"."""
    def mutate(d: dict[str, Any]) -> None:
        keys: list[str | int] = [int(k) if k.isdigit() else k for k in re.findall(r"[^.\[\]]+", path)]
        target: Any = d
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
    return mutate


def _delete(path: str) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        head, _, key = path.rpartition(".")
        target: Any = d
        for part in re.findall(r"[^.\[\]]+", head):
            target = target[int(part) if part.isdigit() else part]
        del target[key]
    return mutate


def _append(section: str, item: Callable[[dict[str, Any]], Any]) -> Mutate:
    return lambda d: d[section].append(item(d))


def _add_city(name: str) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        d["cities"].append({"name": name, "lat": 40.745, "lon": -74.03})
        if "board" in d:
            d["board"][name] = [90, 50]
    return mutate


def _both(*mutations: Mutate) -> Mutate:
    def mutate(d: dict[str, Any]) -> None:
        for m in mutations:
            m(d)
    return mutate


# New York's green routes: replacing "green" in cards.colors leaves them with an unknown colour.
GREEN_ROUTES = [f"routes[{i}].color" for i, r in enumerate(data("new_york")["routes"]) if r["color"] == "green"]

# New York's routes of a card colour: with no card colours, each of them names its colour as unknown.
COLOURED_ROUTES = [f"routes[{i}].color" for i, r in enumerate(data("new_york")["routes"]) if r["color"] != "gray"]
FIRST_ATTRACTION = data("new_york")["tourist_attractions"][0]

# (map, change, [where of every expected problem], a phrase of the first problem's message).
# A change edits the data in place, or returns what replaces the whole file.
CASES: dict[str, tuple[str, Mutate, list[str], str]] = {
    "not-an-object": ("new_york", lambda d: [d], ["map"], "a map file holds a JSON object, got a list"),
    "wrong-format": ("new_york", _set("format", "ttr-map/0"), ["format"], "expected 'ttr-map/1'"),
    "missing-field": ("new_york", _delete("routes[3].length"), ["routes[3].length"], "missing field"),
    "mistyped-field": ("new_york", _set("routes[2].tunnel", "no"), ["routes[2].tunnel"], "expected true or false"),
    "unknown-field": ("new_york", _set("routes[0].colour", "red"), ["routes[0].colour"], "unknown field"),
    "section-not-a-list": ("new_york", _set("tickets", {}), ["tickets"], "expected a list, got an object"),
    "unknown-city-in-route": ("new_york", _set("routes[4].b", "Hoboken"), ["routes[4].b"],
                              "unknown city 'Hoboken'"),
    "unknown-city-in-ticket": ("new_york", _set("tickets[3].a", "Hoboken"), ["tickets[3].a"],
                               "unknown city 'Hoboken'"),
    "length-not-scored": ("new_york", _set("routes[2].length", 5), ["routes[2].length"],
                          "no score for a route of length 5"),
    "route-to-itself": ("new_york", _set("routes[2].b", "Brooklyn"), ["routes[2]"], "route from Brooklyn to itself"),
    "third-track": ("new_york", _append("routes", lambda d: {**d["routes"][0], "color": "green"}), ["routes[41]"],
                    "a double route with more than two tracks"),
    "duplicate-route": ("new_york", _set("routes[1].color", "orange"), ["routes[1]"], "duplicate route"),
    "double-route-lengths-differ": ("new_york", _set("routes[1].length", 2), ["routes[1]"], "differ in length"),
    "ferry-too-many-locomotives": ("europe", _set("routes[3].ferry_locomotives", 3), ["routes[3].ferry_locomotives"],
                                   "needs 3 locomotives but the route has only 2 spaces"),
    "ferry-negative": ("europe", _set("routes[3].ferry_locomotives", -1), ["routes[3].ferry_locomotives"],
                       "must be 0 or more"),
    "disconnected-city": ("new_york", _add_city("Hoboken"), ["cities"],
                          "the board is disconnected: Hoboken is cut off from Lincoln Center"),
    "disconnected-part": ("new_york", _both(
        _add_city("Hoboken"), _add_city("Jersey City"),
        _append("routes", lambda d: {"a": "Hoboken", "b": "Jersey City", "length": 1, "color": "gray",
                                     "tunnel": False, "ferry_locomotives": 0})),
        ["cities"], "Hoboken, Jersey City are cut off"),
    "too-few-cards": ("new_york", _both(_set("cards.per_color", 1), _set("cards.wild_count", 0)), ["cards"],
                      "too few cards to deal: 4 players x 2 cards + 5 face up need 13, the deck holds 6"),
    "too-few-regular-tickets": ("new_york", lambda d: d.update(tickets=d["tickets"][:7]), ["tickets"],
                                "too few regular tickets to deal: 4 players x 2 need 8, the map has 7"),
    "too-few-long-tickets": ("europe", lambda d: d.update(tickets=d["tickets"][:-2]), ["tickets"],
                             "too few long tickets to deal: 5 players x 1 need 5, the map has 4"),
    "colour-not-a-card": ("new_york", _set("routes[0].color", "purple"), ["routes[0].color"],
                          "colour 'purple' is not a card colour"),
    "tunnel-without-reveal": ("new_york", _set("routes[2].tunnel", True), ["routes[2].tunnel"],
                              "rules.tunnel_reveal is 0"),
    "ticket-same-city-twice": ("new_york", _set("tickets[0].b", "Lower East Side"), ["tickets[0]"],
                               "ticket names the same city twice (Lower East Side)"),
    "duplicate-ticket": ("new_york", _append("tickets", lambda d: dict(d["tickets"][5])), ["tickets[18]"],
                         "duplicate ticket: tickets[5]"),
    "duplicate-city": ("new_york", _append("cities", lambda d: dict(d["cities"][3])), ["cities[15].name"],
                       "duplicate city 'Times Square' (also cities[3])"),
    "city-name-with-dash": ("europe", lambda d: json.loads(json.dumps(d).replace('"Amsterdam"', '"Amster-dam"')),
                            ["cities[0].name"], "city name 'Amster-dam' holds '-' or '/'"),
    "latitude-out-of-range": ("new_york", _set("cities[1].lat", 140.0), ["cities[1].lat"],
                              "a latitude is between -90 and 90"),
    "attraction-not-a-city": ("new_york", _set("tourist_attractions[2]", "Statue of Liberty"),
                              ["tourist_attractions[2]"], "'Statue of Liberty' is not a city"),
    "station-costs-length": ("europe", _set("rules.station_costs", [1, 2]), ["rules.station_costs"],
                             "lists 2 cost(s) for 3 station(s)"),
    "unknown-tiebreak": ("europe", _set("rules.tiebreaks[1]", "coin_toss"), ["rules.tiebreaks[1]"],
                         "unknown tie-break 'coin_toss'"),
    "players-min-over-max": ("new_york", _set("rules.players_min", 5), ["rules.players_min"],
                             "players_min 5 is more than players_max 4"),
    "end-trigger-not-below-pieces": ("new_york", _set("rules.end_trigger_pieces", 15), ["rules.end_trigger_pieces"],
                                     "must be less than pieces (15)"),
    "setup-keep-more-than-dealt": ("new_york", _set("rules.setup_tickets.keep_min", 3),
                                   ["rules.setup_tickets.keep_min"], "keep_min 3 is more than the 2 tickets dealt"),
    "setup-returned-unknown": ("new_york", _set("rules.setup_tickets.returned", "discard"),
                               ["rules.setup_tickets.returned"], "expected 'box' or 'bottom'"),
    "draw-keep-more-than-drawn": ("europe", _set("rules.draw_tickets.keep_min", 4), ["rules.draw_tickets.keep_min"],
                                  "keep_min 4 is more than the 3 tickets drawn"),
    "route-points-bad-length": ("new_york", _set("rules.route_points.x", 3), ["rules.route_points.x"],
                                "a route length is a whole number"),
    "card-colour-gray": ("new_york", _set("cards.colors[1]", "gray"), ["cards.colors[1]", *GREEN_ROUTES],
                         "'gray' is not a card colour"),
    "card-colour-twice": ("new_york", _set("cards.colors[1]", "blue"), ["cards.colors[1]", *GREEN_ROUTES],
                          "colour 'blue' is listed twice"),
    "wild-named-as-colour": ("new_york", _set("cards.wild", "red"), ["cards.wild"], "must differ from every colour"),
    "variant-is-another-city": ("new_york", _set("spelling_variants.Soho", ["Chinatown"]),
                                ["spelling_variants.Soho[0]"], "'Chinatown' is another city's name"),
    "variant-of-unknown-city": ("new_york", _set("spelling_variants.Harlem", ["Harlem NYC"]),
                                ["spelling_variants.Harlem"], "which is not a city on the map"),
    "board-not-an-object": ("new_york", _set("board", [[2, 70]]), ["board"], "expected an object, got a list"),
    "board-unknown-city": ("new_york", _set("board.Hoboken", [10, 10]), ["board.Hoboken"],
                           "a place for 'Hoboken', which is not a city on the map"),
    "board-city-missing": ("new_york", _both(_delete("board.Soho"), _delete("board.Brooklyn")), ["board"],
                           "no place for Soho, Brooklyn"),
    "board-not-a-place": ("new_york", _set("board.Soho", [2]), ["board.Soho"],
                          "expected a place [x, y] (two numbers), got a list"),
    "board-not-a-number": ("new_york", _set("board.Soho[1]", "70"), ["board.Soho[1]"],
                           "expected a number (y), got a string"),
    "board-out-of-range": ("new_york", _set("board.Soho[0]", 140), ["board.Soho[0]"],
                           "x must be between 0 and 100 (board units), got 140"),
    "one-route-joins-two-cities": ("new_york", lambda d: d.update(routes=d["routes"][:1]), ["cities"] * 13,
                                   "Lincoln Center is cut off from Chinatown and the city joined to it"),
    "name-empty": ("new_york", _set("name", ""), ["name"], "must not be empty"),
    "rule-ids-unknown": ("new_york", _set("rule_ids", "X"), ["rule_ids"], "expected 'E'"),
    "cards-not-an-object": ("new_york", _set("cards", 3), ["cards"], "expected an object, got a number"),
    "card-colour-null": ("new_york", _set("cards.colors[1]", None), ["cards.colors[1]", *GREEN_ROUTES],
                         "expected a colour name, got null"),
    "card-colour-boolean": ("new_york", _set("cards.colors[1]", True), ["cards.colors[1]", *GREEN_ROUTES],
                            "expected a colour name, got a boolean"),
    "no-card-colours": ("new_york", _set("cards.colors", []), ["cards.colors", *COLOURED_ROUTES, "cards"],
                        "the deck needs at least one colour"),
    "rules-not-an-object": ("new_york", _set("rules", "x"), ["rules"], "expected an object, got a string"),
    "piece-name-empty": ("new_york", _set("rules.piece_name", ""), ["rules.piece_name"], "must not be empty"),
    "station-costs-not-a-list": ("europe", _set("rules.station_costs", 3), ["rules.station_costs"],
                                 "expected a list, got a number"),
    "station-cost-not-positive": ("europe", _set("rules.station_costs[1]", 0), ["rules.station_costs[1]"],
                                  "expected a positive card count, got 0"),
    "setup-tickets-not-an-object": ("new_york", _set("rules.setup_tickets", 2), ["rules.setup_tickets"],
                                    "expected an object, got a number"),
    "setup-deals-none": ("new_york", _both(_set("rules.setup_tickets.regular", 0),
                                           _set("rules.setup_tickets.keep_min", 0)),
                         ["rules.setup_tickets"], "deals no tickets at setup"),
    "setup-offer-too-large": ("new_york", _set("rules.setup_tickets.regular", 12), ["rules.setup_tickets", "tickets"],
                              "deals 12 tickets to choose from: at most 8"),
    "draw-tickets-not-an-object": ("europe", _set("rules.draw_tickets", []), ["rules.draw_tickets"],
                                   "expected an object, got a list"),
    "draw-offer-too-large": ("europe", _set("rules.draw_tickets.draw", 12), ["rules.draw_tickets.draw"],
                             "draws 12 tickets to choose from: at most 8"),
    "route-points-not-an-object": ("new_york", _set("rules.route_points", 1), ["rules.route_points"],
                                   "expected an object, got a number"),
    "route-points-negative": ("new_york", _set("rules.route_points.2", -1), ["rules.route_points.2"],
                              "expected the points (a whole number, 0 or more), got -1"),
    "tiebreaks-not-a-list": ("europe", _set("rules.tiebreaks", "x"), ["rules.tiebreaks"], "expected a list"),
    "tiebreak-twice": ("europe", _set("rules.tiebreaks[1]", "tickets_completed"), ["rules.tiebreaks[1]"],
                       "tie-break 'tickets_completed' is listed twice"),
    "longitude-out-of-range": ("new_york", _set("cities[1].lon", 200.0), ["cities[1].lon"],
                               "a longitude is between -180 and 180, got 200.0"),
    "attractions-not-a-list": ("new_york", _set("tourist_attractions", "x"), ["tourist_attractions"],
                               "expected a list, got a string"),
    "attraction-not-a-name": ("new_york", _set("tourist_attractions[1]", 7), ["tourist_attractions[1]"],
                              "expected a city name, got a number"),
    "attraction-twice": ("new_york", _set("tourist_attractions[1]", FIRST_ATTRACTION), ["tourist_attractions[1]"],
                         f"tourist attraction {FIRST_ATTRACTION!r} is listed twice"),
    "routes-not-a-list": ("new_york", _set("routes", 1), ["routes"], "expected a list, got a number"),
    "no-routes": ("new_york", _set("routes", []), ["routes"], "the map has no routes"),
    "route-not-an-object": ("new_york", _set("routes[3]", [1]), ["routes[3]"], "expected an object, got a list"),
    "ticket-not-an-object": ("new_york", _set("tickets[3]", "x"), ["tickets[3]"], "expected an object, got a string"),
    "variants-not-an-object": ("new_york", _set("spelling_variants", []), ["spelling_variants"],
                               "expected an object, got a list"),
    "variant-not-a-list": ("new_york", _set("spelling_variants.Soho", "SoHo"), ["spelling_variants.Soho"],
                           "expected a list of other spellings, got a string"),
    "variant-not-a-string": ("new_york", _set("spelling_variants.Soho", [3]), ["spelling_variants.Soho[0]"],
                             "expected a spelling, got 3"),
    "variant-of-two-cities": ("new_york", _both(_set("spelling_variants.Soho", ["Midtown X"]),
                                                _set("spelling_variants.Chinatown", ["Midtown X"])),
                              ["spelling_variants.Chinatown[0]"], "'Midtown X' is also given as a spelling of Soho"),
}


# A change whose first problem makes others follow (a city gone leaves its routes' ends unknown):
# (map, change, where of the first problem, a phrase of its message, the cities one of which every later
# problem names).
NEW_YORK_CITIES = tuple(c["name"] for c in data("new_york")["cities"])
CASCADES: dict[str, tuple[str, Mutate, str, str, tuple[str, ...]]] = {
    "cities-not-a-list": ("new_york", _set("cities", {}), "cities", "expected a list, got an object", NEW_YORK_CITIES),
    "no-cities": ("new_york", _set("cities", []), "cities", "the map has no cities", NEW_YORK_CITIES),
    "city-not-an-object": ("new_york", _set("cities[2]", 4.5), "cities[2]", "expected an object, got a number",
                           (NEW_YORK_CITIES[2],)),
    "city-name-missing": ("new_york", _delete("cities[1].name"), "cities[1].name", "missing field",
                          (NEW_YORK_CITIES[1],)),
    "city-name-blank": ("new_york", _set("cities[1].name", "  "), "cities[1].name", "a city name must not be empty",
                        (NEW_YORK_CITIES[1],)),
}


@pytest.mark.parametrize("case", sorted(CASCADES))
def test_check_names_the_first_problem_and_what_follows_from_it(case: str) -> None:
    name, mutate, where, phrase, cities = CASCADES[case]
    broken = data(name)
    mutate(broken)
    problems = check_map(broken)
    assert problems[0].where == where and phrase in problems[0].message, problems[0]
    assert len(problems) > 1 and all(any(c in p.message for c in cities) for p in problems[1:]), problems


@pytest.mark.parametrize("case", sorted(CASES))
def test_check_names_the_problem_and_its_place(case: str) -> None:
    name, mutate, wheres, phrase = CASES[case]
    broken: Any = data(name)
    replaced = mutate(broken)
    if replaced is not None:
        broken = replaced
    problems = check_map(broken)
    assert [p.where for p in problems] == wheres, problems
    assert phrase in problems[0].message, problems[0]


def test_two_gray_tracks_are_a_double_route_but_two_red_ones_are_not() -> None:
    europe = data("europe")
    dieppe_london = [r for r in europe["routes"] if {r["a"], r["b"]} == {"Dieppe", "London"}]
    assert [r["color"] for r in dieppe_london] == ["gray", "gray"]  # allowed: the shipped map checks clean
    for route in dieppe_london:
        route["color"] = "red"
    problems = check_map(europe)
    assert len(problems) == 1 and "duplicate route" in problems[0].message


def test_check_reports_every_problem_at_once() -> None:
    broken = data("new_york")
    broken["routes"][4]["b"] = "Hoboken"
    broken["routes"][8]["length"] = 9
    broken["tickets"][0]["a"] = broken["tickets"][0]["b"]
    broken["rules"]["tiebreaks"] = ["longest_path", "coin"]
    problems = check_map(broken)
    assert [p.where for p in problems] == ["rules.tiebreaks[1]", "routes[4].b", "routes[8].length", "tickets[0]"]
    assert all(isinstance(p, MapProblem) for p in problems)
    assert str(problems[1]) == "routes[4].b: unknown city 'Hoboken'"


def test_loader_raises_every_problem_of_a_custom_map(tmp_path: Path) -> None:
    broken = data("new_york")
    broken["routes"][4]["b"] = "Hoboken"
    broken["tickets"][1]["points"] = 0
    path = write_map(tmp_path / "broken.json", broken)
    with pytest.raises(MapError) as caught:
        load_map(str(path))
    lines = str(caught.value).splitlines()
    assert lines[0] == f"{path}: 2 problems in the map:"
    assert lines[1:] == ["  routes[4].b: unknown city 'Hoboken'", "  tickets[1].points: must be at least 1, got 0"]
    looped = data("new_york")
    looped["routes"][2]["b"] = "Brooklyn"
    expected = r"^new_york: 1 problem in the map:\n  routes\[2\]: route from Brooklyn to itself$"
    with pytest.raises(MapError, match=expected):
        parse_map(looped, where="new_york")


def test_europe_without_stations_is_a_good_custom_map(tmp_path: Path) -> None:
    custom = data("europe")
    custom["name"] = "europe_no_stations"
    custom["rules"].update(stations=0, station_costs=[], unbuilt_station_points=0,
                           tiebreaks=["tickets_completed", "longest_path"])
    path = write_map(tmp_path / "europe_no_stations.json", custom)
    game_map = load_map(str(path))
    assert game_map.rules.stations == 0 and game_map.rules.station_costs == ()
    assert len(game_map.routes) == 101


# -- summary --------------------------------------------------------------------------------------------


def test_summary_counts_europe() -> None:
    s = map_summary(load_map("europe"))
    assert (s["cities"], s["routes"], s["tunnels"], s["ferries"], s["double_routes"]) == (47, 101, 18, 13, 11)
    assert s["ferry_locomotive_spaces"] == 17
    assert s["routes_by_length"]["8"] == {"routes": 1, "points_each": 21}
    assert sum(v["routes"] for v in s["routes_by_length"].values()) == 101
    assert s["routes_by_color"]["gray"] == 37 and sum(s["routes_by_color"].values()) == 101
    assert s["tickets"] == {"count": 46, "long": 6, "regular": 40, "points_min": 5, "points_max": 21}
    assert s["totals"]["spaces"] == 300 and s["totals"]["cards"] == 110
    assert s["totals"]["route_points"] == sum(
        load_map("europe").rules.route_points[r.length] for r in load_map("europe").routes)
    json.dumps(s)  # JSON-ready


def test_summary_text_has_the_tables() -> None:
    text = format_summary(map_summary(load_map("new_york")))
    for phrase in ("Ticket to Ride: New York", "Routes by length", "Routes by colour", "Tickets and cards",
                   "taxis per player", "taxi cards"):
        assert phrase in text
    assert re.search(r"tourist attractions\s*│\s*9", text)
    assert "\x1b[" not in text  # no terminal codes unless asked


# -- the drawn board ------------------------------------------------------------------------------------


def parse_svg(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))


def route_groups(root: ET.Element) -> dict[int, ET.Element]:
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith("route-")]
    return {int(g.get("id", "").removeprefix("route-")): g for g in groups}


def space_centres(group: ET.Element) -> list[tuple[float, float]]:
    out = []
    for g in group.findall(f"{SVG}g"):
        if "space" in g.get("class", "").split():
            x, y = re.findall(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))[0]
            out.append((float(x), float(y)))
    return out


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_svg_has_every_city_and_one_group_per_route(name: str) -> None:
    game_map = load_map(name)
    svg = render_svg(game_map)
    root = parse_svg(svg)
    names = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "city-name"}
    assert names == {c.name for c in game_map.cities}
    city_groups = [g for g in root.iter(f"{SVG}g") if "city" in g.get("class", "").split()]
    assert [g.get("data-city") for g in city_groups] == [c.name for c in game_map.cities]
    groups = route_groups(root)
    assert sorted(groups) == list(range(len(game_map.routes)))
    for route in game_map.routes:
        group = groups[route.index]
        assert group.get("data-route") == route.name
        assert "route" in group.get("class", "").split()
        assert len(space_centres(group)) == route.length
    assert svg == render_svg(game_map)  # deterministic


def test_svg_city_ids_are_stable_slugs() -> None:
    root = parse_svg(render_svg(load_map("new_york")))
    ids = {g.get("data-city"): g.get("id") for g in root.iter(f"{SVG}g") if g.get("data-city")}
    assert ids["Empire State Building"] == "city-Empire_State_Building"
    assert ids["Soho"] == "city-Soho"


def test_svg_double_routes_are_side_by_side() -> None:
    game_map = load_map("europe")
    groups = route_groups(parse_svg(render_svg(game_map)))
    pairs = [(r.index, r.twin) for r in game_map.routes if r.twin > r.index]
    assert len(pairs) == 11
    for i, j in pairs:
        first_i, first_j = space_centres(groups[i])[0], space_centres(groups[j])[0]
        gap = math.dist(first_i, first_j)
        assert abs(gap - (SPACE_WIDTH + 3)) < 0.3, (game_map.routes[i].name, gap)
        assert "double" in groups[i].get("class", "").split()


def test_svg_marks_tunnels_ferries_and_colour_letters() -> None:
    game_map = load_map("europe")
    groups = route_groups(parse_svg(render_svg(game_map)))
    for route in game_map.routes:
        group = groups[route.index]
        rects = [r for r in group.iter(f"{SVG}rect")]
        dashed = [r for r in rects if r.get("stroke-dasharray")]
        assert len(dashed) == (route.length if route.tunnel else 0), route.name
        assert ("tunnel" in group.get("class", "").split()) == route.tunnel
        locos = [g for g in group.iter(f"{SVG}g") if g.get("class") == "ferry-loco"]
        assert len(locos) == route.ferry_locomotives, route.name
        letters = [t.text for t in group.iter(f"{SVG}text") if t.get("class") == "space-letter"]
        expected = {"black": "K", "blue": "B", "gray": None}.get(route.color, route.color[0].upper())
        assert letters == ([expected] * route.length if expected else []), route.name


def test_svg_owners_stations_and_highlight() -> None:
    game_map = load_map("europe")
    paris_frankfurt = game_map.route("Paris-Frankfurt/white").index
    brest_paris = game_map.route("Brest-Paris").index
    svg = render_svg(game_map, owners={paris_frankfurt: "#1f77b4"}, stations={"München": "#d62728"},
                     highlight={brest_paris})
    root = parse_svg(svg)
    groups = route_groups(root)
    claimed = groups[paris_frankfurt]
    assert "claimed" in claimed.get("class", "").split() and claimed.get("data-owner") == "#1f77b4"
    trains = [r for r in claimed.iter(f"{SVG}rect") if r.get("class") == "train"]
    assert len(trains) == 3 and all(r.get("fill") == "#1f77b4" for r in trains)
    assert not [r for r in root.iter(f"{SVG}rect") if r.get("class") == "train" and r not in trains]
    munchen = next(g for g in root.iter(f"{SVG}g") if g.get("data-city") == "Munchen")
    station = [p for p in munchen.iter(f"{SVG}path") if p.get("class") == "station"]
    assert len(station) == 1 and station[0].get("fill") == "#d62728"
    assert [e.get("class") for e in groups[brest_paris] if e.tag == f"{SVG}line"] == ["route-highlight"]
    assert sum(1 for e in root.iter(f"{SVG}line") if e.get("class") == "route-highlight") == 1


@pytest.mark.parametrize("name", BUILTIN_MAPS)
def test_a_station_piece_stands_beside_its_city_clear_of_every_name(name: str) -> None:
    """Each city's station spot (drawn by `render_svg`, sent to the page as data-station-x/y) is next to
    its dot and covers no city's name; the piece once stood top right of every city, over 11 names in
    Europe and 5 in New York."""
    game_map = load_map(name)
    layout = layout_board(game_map, top=TITLE_HEIGHT)
    colour = "#d62728"
    root = parse_svg(render_svg(game_map, stations={c.name: colour for c in game_map.cities}))
    groups = {g.get("data-city"): g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("city")}
    for city in game_map.cities:
        spot = layout.stations[city.index]
        x, y = layout.points[city.index]
        assert math.dist(spot, (x, y)) < 3 * CITY_RADIUS, city.name
        box = station_box(spot)
        assert min(box[0], box[1]) >= 0 and box[2] <= layout.width and box[3] <= layout.height, city.name
        for other, label in zip(game_map.cities, layout.labels, strict=True):
            apart = box[2] <= label.box[0] or label.box[2] <= box[0] or box[3] <= label.box[1] or label.box[3] <= box[1]
            assert apart, f"{city.name}'s station covers the name {other.name}"
        group = groups[city.name]
        assert (float(group.get("data-station-x")), float(group.get("data-station-y"))) == pytest.approx(spot, abs=0.06)
        piece = next(p for p in group.iter(f"{SVG}path") if p.get("class") == "station")
        start = re.match(r"M([-\d.]+),([-\d.]+) ", piece.get("d", ""))
        assert start and (float(start[1]), float(start[2])) == pytest.approx((box[0], box[3]), abs=0.06)  # bottom left


def test_svg_rejects_unknown_routes_and_cities() -> None:
    game_map = load_map("new_york")
    with pytest.raises(MapError, match="no route 41"):
        render_svg(game_map, owners={41: "red"})
    with pytest.raises(MapError, match="unknown city 'Hoboken'"):
        render_svg(game_map, stations={"Hoboken": "red"})


def test_layout_keeps_new_york_cities_apart() -> None:
    root = parse_svg(render_svg(load_map("new_york")))
    dots = [(float(c.get("cx", 0)), float(c.get("cy", 0))) for c in root.iter(f"{SVG}circle")
            if c.get("class") == "city-dot"]
    assert len(dots) == 15
    closest = min(math.dist(p, q) for i, p in enumerate(dots) for q in dots[i + 1:])
    assert closest > 55  # the real coordinates are a few hundred metres apart


def _segment_gap(p: Point, q: Point, r: Point, s: Point) -> float:
    """The least distance between segments p-q and r-s (0 when they cross)."""
    def side(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def to_segment(c: Point, a: Point, b: Point) -> float:
        vx, vy = b[0] - a[0], b[1] - a[1]
        if vx == vy == 0:
            return math.dist(c, a)
        t = max(0.0, min(1.0, ((c[0] - a[0]) * vx + (c[1] - a[1]) * vy) / (vx * vx + vy * vy)))
        return math.dist(c, (a[0] + t * vx, a[1] + t * vy))

    if (side(r, s, p) > 0) != (side(r, s, q) > 0) and (side(p, q, r) > 0) != (side(p, q, s) > 0):
        return 0.0
    return min(to_segment(p, r, s), to_segment(q, r, s), to_segment(r, p, q), to_segment(s, p, q))


def board_tangles(game_map: GameMap) -> list[str]:
    """Routes of the laid-out board that cross or overlap, or pass through a city they do not join.

    Computed from the layout's city points: each pair of cities joined by a route is a band as wide as
    its drawn track(s); bands of routes with no common city must not touch, routes leaving the same city
    must leave at least 20 degrees apart, and no band may come within a dot's radius of another city.
    """
    points = layout_board(game_map).points
    half: dict[tuple[int, int], float] = {}
    for r in game_map.routes:
        pair = (min(game_map.city_index[r.a], game_map.city_index[r.b]),
                max(game_map.city_index[r.a], game_map.city_index[r.b]))
        half[pair] = SPACE_WIDTH / 2 + ((SPACE_WIDTH + 3) / 2 if r.twin >= 0 else 0.0)
    name = [c.name for c in game_map.cities]
    pairs = sorted(half)
    found = []
    for n, (a, b) in enumerate(pairs):
        for c, point in enumerate(points):
            if c not in (a, b) and _segment_gap(point, point, points[a], points[b]) < CITY_RADIUS + half[(a, b)]:
                found.append(f"{name[a]}-{name[b]} passes through {name[c]}")
        for c, d in pairs[n + 1:]:
            shared = {a, b} & {c, d}
            if not shared:
                if _segment_gap(points[a], points[b], points[c], points[d]) < half[(a, b)] + half[(c, d)]:
                    found.append(f"{name[a]}-{name[b]} crosses {name[c]}-{name[d]}")
                continue
            (hub,) = shared
            u, v = points[a if b == hub else b], points[c if d == hub else d]
            turn = math.atan2(v[1] - points[hub][1], v[0] - points[hub][0]) - math.atan2(
                u[1] - points[hub][1], u[0] - points[hub][0])
            if abs((turn + math.pi) % (2 * math.pi) - math.pi) < math.radians(20):
                found.append(f"{name[a]}-{name[b]} overlaps {name[c]}-{name[d]} at {name[hub]}")
    return found


def test_new_york_board_has_no_crossing_or_overlapping_routes() -> None:
    game_map = load_map("new_york")
    assert game_map.board  # drawn from the map's board placement
    assert board_tangles(game_map) == []


def test_new_york_from_latitude_and_longitude_would_tangle() -> None:
    """Without the board placement, Chelsea-Soho crosses Greenwich Village's routes (the check can fail)."""
    raw = data("new_york")
    del raw["board"]
    game_map = parse_map(raw)
    assert game_map.board == ()
    assert board_tangles(game_map) == [
        "Chelsea-Soho crosses Gramercy Park-Greenwich Village",
        "Chelsea-Soho crosses Greenwich Village-East Village",
        "Chelsea-Soho crosses Greenwich Village-Chinatown",
        "Chelsea-Soho crosses Greenwich Village-Lower East Side",
    ]


def test_board_placement_places_the_cities() -> None:
    game_map = load_map("new_york")
    points = layout_board(game_map).points
    index = game_map.city_index
    # Greenwich Village sits east of the Chelsea-Soho line, as on the real board (geographically it is west)
    assert points[index["Greenwich Village"]][0] > max(points[index["Chelsea"]][0], points[index["Soho"]][0])
    # The real coordinates stay in the file; a different placement gives a different board.
    assert game_map.city("Chelsea").lat == 40.7465
    moved = data("new_york")
    moved["board"]["Greenwich Village"], moved["board"]["East Village"] = [56, 58], [25, 58]
    moved_points = layout_board(parse_map(moved)).points
    assert moved_points[index["Greenwich Village"]][0] > moved_points[index["East Village"]][0]
    assert load_map("europe").board == ()  # Europe is drawn from latitude and longitude


def test_png_needs_cairosvg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if not installed: importing it fails
    with pytest.raises(MapError, match=r"install it with pip install 'ttr-game\[png\]'"):
        render_png(load_map("new_york"), tmp_path / "board.png")
    assert not (tmp_path / "board.png").exists()


def test_png_is_written(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    path = tmp_path / "board.png"
    render_png(load_map("new_york"), path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- the command line -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "line"), [("europe", "europe: ok (47 cities, 101 routes, 46 tickets)"),
                                            ("new_york", "new_york: ok (15 cities, 41 routes, 18 tickets)")])
def test_cli_check_ok(name: str, line: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "check", name]) == 0
    assert capsys.readouterr().out == line + "\n"


def test_cli_check_file_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_map(tmp_path / "ny.json", data("new_york"))
    assert main(["map", "check", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: ok (15 cities, 41 routes, 18 tickets)\n"


def test_cli_check_bad_file_prints_each_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = data("europe")
    broken["routes"][10]["a"] = "Oslo"
    del broken["routes"][20]["tunnel"]
    broken["rules"]["station_costs"] = [1, 2, 3, 4]
    path = write_map(tmp_path / "bad.json", broken)
    assert main(["map", "check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{path}: rules.station_costs: lists 4 cost(s) for 3 station(s): give one cost per station, in the order "
        "they are built",
        f"{path}: routes[10].a: unknown city 'Oslo'",
        f"{path}: routes[20].tunnel: missing field",
    ]
    assert err == f"{path}: 3 problems\n"


def test_cli_check_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": ', encoding="utf-8")
    assert main(["map", "check", str(path)]) == 1
    assert "not valid JSON (line 1" in capsys.readouterr().err


def test_cli_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "show", "europe"]) == 0
    out = capsys.readouterr().out
    assert "Routes by length" in out and re.search(r"routes\s*│\s*101", out)
    assert main(["map", "show", "new_york", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary == map_summary(load_map("new_york"))


def test_cli_show_bad_map_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = data("new_york")
    broken["tickets"][2]["b"] = "Hoboken"
    path = write_map(tmp_path / "bad.json", broken)
    assert main(["map", "show", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ttr map: error: ") and "tickets[2].b: unknown city 'Hoboken'" in err


def test_cli_render_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.svg"
    assert main(["map", "render", "europe", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert out.read_text(encoding="utf-8") == render_svg(load_map("europe"))


def test_cli_render_png(tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "board.png"
    assert main(["map", "render", "new_york", "-o", str(out), "--scale", "0.5"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_cli_render_unknown_extension(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "render", "europe", "-o", str(tmp_path / "board.gif")]) == 1
    assert "name it .svg or .png" in capsys.readouterr().err
    assert not (tmp_path / "board.gif").exists()
