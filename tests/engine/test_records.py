"""Records and positions through the API: write/read/replay round trips, reshuffles, decks, names, bad positions."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.play_cmds import play_random
from ttr.engine import Game, final_score
from ttr.errors import RecordError
from ttr.maps import load_map
from ttr.records import read_position, read_record, replay, score_position, write_position, write_record

TESTS = Path(__file__).resolve().parents[1]
GOLDEN_GAMES = TESTS / "golden" / "games"


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _through_json(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def _random_game(map_name: str, players: int, seed: int, steps: int | None = None) -> Game:
    game = Game.new(load_map(map_name), players, seed=seed)
    if steps is None:
        play_random(game, random.Random(seed))
        return game
    rng = random.Random(seed)
    for _ in range(steps):
        ids = game.legal_ids()
        game.apply_id(ids[rng.randrange(len(ids))])
    return game


# ---------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("map_name", "players", "seed"),
                         [("europe", 2, 7), ("europe", 5, 8), ("new_york", 2, 9), ("new_york", 4, 10)])
def test_write_read_replay_round_trip(map_name: str, players: int, seed: int) -> None:
    """write_record -> JSON -> read_record -> replay gives the same final, and writes the same record back."""
    game = _random_game(map_name, players, seed)
    record = _through_json(write_record(game))
    result = replay(read_record(record))
    assert result.error is None
    assert result.to_json()["status"] == "finished"
    assert final_score(result.game).to_json() == final_score(game).to_json()
    assert write_record(result.game) == record


@pytest.mark.parametrize("steps", [0, 1, 9, 40, 123])
def test_round_trip_of_a_game_in_progress(steps: int) -> None:
    """An unfinished game (mid-turn, mid-tunnel, mid-choice) replays to the very same state."""
    game = _random_game("europe", 3, 77, steps)
    record = _through_json(write_record(game))
    result = replay(read_record(record))
    assert result.error is None
    assert result.to_json() == replay(read_record(record)).to_json()
    assert result.to_json()["status"] == "in_progress"
    assert (result.game.phase, result.game.current, result.game.hands, result.game._deck, result.game.face_up) == (
        game.phase, game.current, game.hands, game._deck, game.face_up)


def test_round_trip_reaches_a_pending_tunnel() -> None:
    """A record that stops with a tunnel's extra cards due replays to the tunnel_payment phase."""
    game = Game.new(load_map("europe"), 2, seed=3)
    rng = random.Random(3)
    while game.phase_name != "tunnel_payment":
        ids = game.legal_ids()
        game.apply_id(ids[rng.randrange(len(ids))])
    state = replay(read_record(_through_json(write_record(game)))).to_json()
    assert state["turn"]["phase"] == "tunnel_payment"
    assert len(state["turn"]["tunnel_reveal"]) == 3


@pytest.mark.parametrize("name", ["europe-3p", "new_york-2p"])
def test_example_records_rewritten_replay_the_same(name: str) -> None:
    """The other program's record, written back by this one, replays to the same final."""
    result = replay(read_record(_load(TESTS / "fixtures" / f"{name}.record.json")))
    rewritten = _through_json(write_record(result.game))
    again = replay(read_record(rewritten))
    assert again.error is None
    assert again.to_json()["final"] == result.to_json()["final"]
    assert rewritten["reshuffles"] == _load(TESTS / "fixtures" / f"{name}.record.json").get("reshuffles", [])


def test_an_action_after_the_end_is_an_error() -> None:
    """An action after the last turn is refused (E-END-1); the finished state is shown."""
    record = _load(GOLDEN_GAMES / "new_york-2p-s2002.record.json")
    extra = {**record, "actions": [*record["actions"], {"player": 0, "action": "draw_card", "from": "deck"}]}
    result = replay(read_record(extra))
    assert result.error == {"index": len(record["actions"]), "action": extra["actions"][-1],
                            "message": "E-END-1: the game is over"}
    assert result.to_json()["status"] == "finished"
    assert result.to_json()["final"] == _load(GOLDEN_GAMES / "new_york-2p-s2002.final.json")


# ---------------------------------------------------------------------- reshuffles


def _reshuffle_index(record: dict[str, Any]) -> int:
    """The index of the action during which the first reshuffle happens."""
    bare = {k: v for k, v in record.items() if k != "actions"}
    for i in range(len(record["actions"])):
        game = replay(read_record({**bare, "actions": record["actions"][:i + 1]})).game
        if game._reshuffles:
            return i
    raise AssertionError("no reshuffle in this record")


def test_wrong_reshuffle_cards_are_an_error_at_that_action() -> None:
    """A `reshuffles` list that is not the discard pile's cards stops the replay where the reshuffle happens."""
    record = _load(GOLDEN_GAMES / "europe-2p-s1002.record.json")
    at = _reshuffle_index(record)
    bad = json.loads(json.dumps(record))
    first = bad["reshuffles"][0][0]
    bad["reshuffles"][0][0] = "red" if first != "red" else "blue"
    result = replay(read_record(bad))
    assert result.error is not None
    assert result.error["index"] == at
    assert result.error["action"] == record["actions"][at]
    assert "reshuffles[0]" in result.error["message"] and "discard pile" in result.error["message"]
    before = replay(read_record({**bad, "actions": bad["actions"][:at]})).to_json()
    assert {**result.to_json(), "error": None} == before


def test_reshuffles_with_too_few_cards_are_an_error() -> None:
    """A reshuffle list missing a card is refused too."""
    record = _load(GOLDEN_GAMES / "europe-3p-s1003.record.json")
    bad = {**record, "reshuffles": [record["reshuffles"][0][1:], *record["reshuffles"][1:]]}
    result = replay(read_record(bad))
    assert result.error is not None and "reshuffles[0]" in result.error["message"]


def test_reshuffle_in_another_order_is_used() -> None:
    """The right cards in another order are accepted: the new deck is dealt in that order."""
    record = _load(GOLDEN_GAMES / "europe-2p-s1002.record.json")
    at = _reshuffle_index(record)
    order = list(reversed(record["reshuffles"][0]))
    changed = {**record, "reshuffles": [order], "actions": record["actions"][:at + 1]}
    game = replay(read_record(changed)).game
    assert game._reshuffles[0] == [game.map.card(c) for c in order]


def test_reshuffles_with_an_unknown_card() -> None:
    """An unknown card name in `reshuffles` is refused naming the field."""
    record = _load(GOLDEN_GAMES / "new_york-2p-s2002.record.json")
    with pytest.raises(RecordError, match=r"reshuffles.*unknown card 'purple'"):
        replay(read_record({**record, "reshuffles": [["purple"]]}))


# ---------------------------------------------------------------------- decks


def _europe_record() -> dict[str, Any]:
    record: dict[str, Any] = _load(GOLDEN_GAMES / "europe-2p-s1002.record.json")
    return record


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["train"].pop(), "decks.train"),
    (lambda d: d["train"].append("red"), "decks.train"),
    (lambda d: d["train"].__setitem__(0, "pink"), "decks.train"),
    (lambda d: d["train"].__setitem__(d["train"].index("red"), "blue"), "decks.train"),
    (lambda d: d.__setitem__("train", "red blue"), "decks.train"),
    (lambda d: d["tickets"].pop(), "decks.tickets"),
    (lambda d: d["tickets"].append(d["tickets"][0]), "decks.tickets"),
    (lambda d: d["tickets"].__setitem__(0, "Berlin-Nowhere"), "decks.tickets"),
    (lambda d: d["tickets"].__setitem__(0, d["long_tickets"][0]), "decks.tickets"),
    (lambda d: d["long_tickets"].__setitem__(0, d["long_tickets"][1]), "decks.long_tickets"),
    (lambda d: d.__setitem__("discard", []), "decks"),
    (lambda d: d["train"].__setitem__(3, 7), "decks.train"),
])
def test_decks_must_hold_exactly_the_maps_cards(change: Any, field: str) -> None:
    """A deck with a card too many, too few, unknown or of the wrong kind is refused naming the field."""
    record = _europe_record()
    change(record["decks"])
    with pytest.raises(RecordError, match=rf"^{field.replace('.', '[.]')}\b"):
        replay(read_record(record))


def test_partial_decks_are_fine() -> None:
    """`decks` may fix only some decks: the train deck as given, the seed shuffles the tickets."""
    record = _europe_record()
    only_train = {**record, "decks": {"train": record["decks"]["train"]}, "actions": []}
    game = replay(read_record(only_train)).game
    assert [game.map.card_names[c] for c in game._initial_train] == record["decks"]["train"]
    assert sorted(game._initial_tickets) == sorted(t.index for t in game.map.tickets if not t.long)


# ---------------------------------------------------------------------- names in either city order


def _reverse_pair(name: str) -> str:
    cities, slash, track = name.partition("/")
    a, _, b = cities.partition("-")
    return f"{b}-{a}{slash}{track}"


@pytest.mark.parametrize("stem", ["europe-4p-s1004", "new_york-3p-s2003"])
def test_routes_and_tickets_in_either_city_order(stem: str) -> None:
    """Reversed route and ticket names are read; the program writes them back in the map file's order."""
    record = _load(GOLDEN_GAMES / f"{stem}.record.json")
    flipped = json.loads(json.dumps(record))
    flipped["decks"]["tickets"] = [_reverse_pair(t) for t in flipped["decks"]["tickets"]]
    if "long_tickets" in flipped["decks"]:
        flipped["decks"]["long_tickets"] = [_reverse_pair(t) for t in flipped["decks"]["long_tickets"]]
    for action in flipped["actions"]:
        if action["action"] == "claim_route":
            action["route"] = _reverse_pair(action["route"])
        if action["action"] == "keep_tickets":
            action["tickets"] = [_reverse_pair(t) for t in action["tickets"]]
    assert flipped != record
    result = replay(read_record(flipped))
    assert result.error is None
    assert result.to_json()["final"] == _load(GOLDEN_GAMES / f"{stem}.final.json")
    assert write_record(result.game) == record
    game_map = result.game.map
    for player in result.to_json()["players"]:
        assert all(r in {route.name for route in game_map.routes} for r in player["routes"])
        assert all(t in {ticket.name for ticket in game_map.tickets} for t in player["tickets"])


# ---------------------------------------------------------------------- positions


def _position(map_name: str, *players: dict[str, Any]) -> dict[str, Any]:
    return {"format": "ttr-position/1", "map": map_name,
            "players": [{"name": f"P{i}", **p} for i, p in enumerate(players)]}


def _routes_over(map_name: str) -> list[str]:
    """Routes of one player, no double route twice, with more pieces than a player owns."""
    game_map = load_map(map_name)
    chosen: list[str] = []
    total = 0
    taken: set[int] = set()
    for route in sorted(game_map.routes, key=lambda r: -r.length):
        if route.twin in taken:
            continue
        chosen.append(route.name)
        taken.add(route.index)
        total += route.length
        if total > game_map.rules.pieces:
            return chosen
    raise AssertionError("the map has too few routes")


@pytest.mark.parametrize(("doc", "expected"), [
    (_position("europe", {"routes": ["Berlin-Wien"]}, {"routes": ["Wien-Berlin"]}),
     r"^players\[1\]\.routes: Berlin-Wien is held also by players\[0\]"),
    (_position("europe", {"routes": ["Berlin-Wien", "Berlin-Wien"]}, {}),
     r"^players\[0\]\.routes: Berlin-Wien is held twice"),
    (_position("europe", {"routes": ["Berlin-Frankfurt/black", "Frankfurt-Berlin/red"]}, {}, {}, {}),
     r"^players\[0\]\.routes: both tracks of Berlin-Frankfurt/red are held by one player \(E-DOUBLE-1\)"),
    (_position("europe", {"routes": ["Berlin-Frankfurt/black"]}, {}, {"routes": ["Berlin-Frankfurt/red"]}),
     r"^players\[2\]\.routes: both tracks of Berlin-Frankfurt/red are used in a 3-player game \(E-DOUBLE-2\)"),
    (_position("europe", {"routes": ["Dieppe-London/1"]}, {"routes": ["London-Dieppe/2"]}),
     r"both tracks of Dieppe-London/2 are used in a 2-player game \(E-DOUBLE-2\)"),
    (_position("new_york", {"routes": ["Central Park-Times Square/red"]},
               {"routes": ["Times Square-Central Park/black"]}),
     r"^players\[1\]\.routes: both tracks of .* are used in a 2-player game \(N-DOUBLE-1\)"),
    (_position("new_york", {"routes": ["Chelsea-Empire State Building/1", "Chelsea-Empire State Building/2"]},
               {}, {}),
     r"held by one player \(N-DOUBLE-1\)"),
    (_position("europe", {"routes": _routes_over("europe")}, {}),
     r"^players\[0\]\.routes: \d+ trains placed, a player has 45"),
    (_position("new_york", {}, {"routes": _routes_over("new_york")}),
     r"^players\[1\]\.routes: \d+ taxis placed, a player has 15"),
    (_position("europe", {"stations": ["Berlin", "Wien", "Roma", "Paris"]}, {}),
     r"^players\[0\]\.stations: 4 stations, a player has 3"),
    (_position("new_york", {"stations": ["Chelsea"]}, {}),
     r"^players\[0\]\.stations: 1 stations, a player has 0"),
    (_position("europe", {"stations": ["Berlin"]}, {"stations": ["Berlin"]}),
     r"^players\[1\]\.stations: Berlin already has a station \(E-STAT-1\)"),
    (_position("europe", {"stations": ["Berlin", "Berlin"]}, {}),
     r"^players\[0\]\.stations: Berlin already has a station \(E-STAT-1\)"),
    (_position("europe", {"tickets": ["Berlin-Roma"]}, {"tickets": ["Roma-Berlin"]}),
     r"a ticket is held by two players"),
    (_position("europe", {"routes": ["Berlin-Nowhere"]}, {}),
     r"^players\[0\]\.routes: unknown route 'Berlin-Nowhere': unknown city 'Nowhere'"),
    (_position("europe", {"routes": ["Berlin-Frankfurt"]}, {}),
     r"^players\[0\]\.routes: unknown route 'Berlin-Frankfurt': name one of the tracks"),
    (_position("europe", {}), r"^players: europe is for 2-5 players, got 1"),
], ids=["shared-route", "route-twice", "both-tracks-4p", "second-track-3p", "second-track-2p-ferry",
        "new-york-second-track-2p", "new-york-both-tracks", "too-many-trains", "too-many-taxis",
        "too-many-stations", "new-york-station", "two-stations-one-city", "station-twice", "shared-ticket",
        "unknown-city", "double-without-track", "one-player"])
def test_bad_positions_are_refused(doc: dict[str, Any], expected: str) -> None:
    """Each impossible board of docs/records.md is refused with a message naming the field and the fault."""
    with pytest.raises(RecordError, match=expected):
        read_position(doc)


def test_second_track_is_fine_with_more_players() -> None:
    """Both tracks of a double route, by two players, in a 4-player Europe or 3-player New York game."""
    read_position(_position("europe", {"routes": ["Berlin-Frankfurt/black"]}, {"routes": ["Berlin-Frankfurt/red"]},
                            {}, {}))
    read_position(_position("new_york", {"routes": ["Central Park-Times Square/red"]},
                            {"routes": ["Central Park-Times Square/black"]}, {}))


def test_position_names_in_either_order_and_written_in_map_order() -> None:
    """A finished game's board, written as a position, scores as the game did; reversed names read the same."""
    game = replay(read_record(_load(GOLDEN_GAMES / "europe-5p-s1005.record.json"))).game
    position = _through_json(write_position(game))
    assert score_position(position).to_json() == final_score(game).to_json()
    flipped = json.loads(json.dumps(position))
    for player in flipped["players"]:
        player["routes"] = [_reverse_pair(r) for r in player["routes"]]
        player["tickets"] = [_reverse_pair(t) for t in player["tickets"]]
    assert score_position(flipped).to_json() == final_score(game).to_json()


# ---------------------------------------------------------------------- the record reader's own checks


@pytest.mark.parametrize(("change", "expected"), [
    (lambda r: r.__setitem__("format", "ttr-record/2"), r"^format: expected 'ttr-record/1', got 'ttr-record/2'"),
    (lambda r: r.pop("format"), r"^format: expected 'ttr-record/1', got None"),
    (lambda r: r.__setitem__("map", "mars"), r"^map: unknown map 'mars'"),
    (lambda r: r.__setitem__("map", 3), r"^map: expected a map name"),
    (lambda r: r.__setitem__("players", ["solo"]), r"^players: europe is for 2-5 players, got 1"),
    (lambda r: r.__setitem__("players", "Ana"), r"^players: expected a list of player names"),
    (lambda r: r.__setitem__("seed", "7"), r"^seed: expected an integer"),
    (lambda r: r.__setitem__("seed", True), r"^seed: expected an integer"),
    (lambda r: r.__setitem__("decks", []), r"^decks: expected an object"),
    (lambda r: r.__setitem__("reshuffles", [["red"], "blue"]), r"^reshuffles: expected a list of card lists"),
    (lambda r: r.__setitem__("actions", {}), r"^actions: expected a list"),
    (lambda r: r["actions"].__setitem__(3, "draw"), r"^actions\[3\]: expected an object"),
    (lambda r: r["actions"][3].__setitem__("player", 2), r"^actions\[3\]\.player: expected a seat number 0-1"),
    (lambda r: r["actions"][3].pop("player"), r"^actions\[3\]\.player: expected a seat number"),
    (lambda r: r["actions"][3].__setitem__("action", "fly"), r"^actions\[3\]: unknown action 'fly'"),
    (lambda r: r["actions"][3].__setitem__("action", "claim_route"), r"^actions\[3\]: claim_route needs 'route'"),
])
def test_record_fields_are_checked(change: Any, expected: str) -> None:
    """A malformed record is refused naming the field."""
    record = _europe_record()
    change(record)
    with pytest.raises(RecordError, match=expected):
        replay(read_record(record))
