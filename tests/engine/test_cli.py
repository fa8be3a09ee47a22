"""`ttr replay`, `ttr score`, `ttr play` and `ttr bench` through `ttr.cli.main.main`: output, exit status and
error reports."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from ttr.cli.main import main
from ttr.maps import load_map
from ttr.records import write_record

TESTS = Path(__file__).resolve().parents[1]
FIXTURES = TESTS / "fixtures"
EUROPE = load_map("europe")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _replay_json(capsys: pytest.CaptureFixture[str], path: str) -> tuple[int, dict[str, Any]]:
    status, out, err = _run(capsys, "replay", path, "--json")
    assert err == ""
    state: dict[str, Any] = json.loads(out)
    return status, state


# ---------------------------------------------------------------------- a hand-made record

HANDS = [["red", "red", "blue", "green"], ["white", "white", "black", "black"]]
FACE_UP = ["locomotive", "red", "blue", "yellow", "orange"]


def handmade_record(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A 2-player Europe record with given decks: seat 0 holds red, red, blue, green; seat 1 white, white,
    black, black; face up: locomotive, red, blue, yellow, orange. Both seats keep all their setup tickets."""
    top = HANDS[0] + HANDS[1] + FACE_UP
    rest = [EUROPE.card_names[c] for c in range(len(EUROPE.card_names))
            for _ in range(EUROPE.per_color if c < len(EUROPE.colors) else EUROPE.wild_count)]
    for card in top:
        rest.remove(card)
    long_tickets = [t.name for t in EUROPE.tickets if t.long]
    tickets = [t.name for t in EUROPE.tickets if not t.long]
    setup = [{"player": 0, "action": "keep_tickets", "tickets": [long_tickets[0], *tickets[0:3]]},
             {"player": 1, "action": "keep_tickets", "tickets": [long_tickets[1], *tickets[3:6]]}]
    return {"format": "ttr-record/1", "map": "europe", "players": ["Ana", "Ben"], "seed": 1,
            "decks": {"train": top + rest, "tickets": tickets, "long_tickets": long_tickets},
            "actions": setup + actions}


SECOND_CARD_LOCOMOTIVE = [{"player": 0, "action": "draw_card", "from": "face_up", "card": "red"},
                          {"player": 0, "action": "draw_card", "from": "face_up", "card": "locomotive"}]
ILLEGAL = [
    pytest.param(SECOND_CARD_LOCOMOTIVE, r"^E-DRAW-4: a face-up locomotive cannot be the second card",
                 id="second-card-locomotive"),
    pytest.param([{"player": 0, "action": "claim_route", "route": "Berlin-Wien", "cards": {"green": 3}}],
                 r"^E-CLAIM-1: you do not hold the cards \(3 green\)", id="claim-without-cards"),
    pytest.param([{"player": 0, "action": "claim_route", "route": "Paris-Bruxelles/red",
                   "cards": {"red": 1, "locomotive": 1}}],
                 r"^E-CLAIM-1: you do not hold the cards", id="claim-without-locomotive"),
    pytest.param([{"player": 0, "action": "claim_route", "route": "Bruxelles-Paris/red", "cards": {"blue": 2}}],
                 r"^E-CLAIM-2: Bruxelles-Paris/red is red", id="claim-wrong-colour"),
    pytest.param([{"player": 0, "action": "draw_card", "from": "deck"},
                  {"player": 0, "action": "draw_tickets"}],
                 r"^E-DRAW-1: draw your second card", id="tickets-after-one-card"),
    pytest.param([{"player": 1, "action": "draw_card", "from": "deck"}],
                 r"it is player 0's turn \(Ana\), not player 1's", id="out-of-turn"),
    pytest.param([{"player": 0, "action": "claim_route", "route": "Berlin-Atlantis", "cards": {"green": 3}}],
                 r"unknown route 'Berlin-Atlantis'", id="unknown-route"),
    pytest.param([{"player": 0, "action": "build_station", "city": "Berlin", "cards": {"red": 2}}],
                 r"^E-STAT-3: your station number 1 costs 1 card", id="station-cost"),
    pytest.param([{"player": 0, "action": "pass"}],
                 r"^E-DRAW-8: you may pass only when no other action is legal", id="pass"),
]


@pytest.mark.parametrize(("actions", "message"), ILLEGAL)
def test_replay_stops_at_an_illegal_action(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           actions: list[dict[str, Any]], message: str) -> None:
    """Exit 1; `error` holds the index, the action as given and the rule; the state is the one before it."""
    record = handmade_record(actions)
    status, state = _replay_json(capsys, _write(tmp_path, "bad.json", record))
    assert status == 1
    index = len(record["actions"]) - 1
    assert set(state["error"]) == {"index", "action", "message"}
    assert state["error"]["index"] == index
    assert state["error"]["action"] == record["actions"][index]
    assert re.search(message, state["error"]["message"]), state["error"]["message"]
    truncated = {**record, "actions": record["actions"][:index]}
    status_before, before = _replay_json(capsys, _write(tmp_path, "before.json", truncated))
    assert status_before == 0 and before["error"] is None
    assert {**state, "error": None} == before


def test_state_before_the_illegal_action_is_that_of_the_hand_made_deal(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    """The state shown after E-DRAW-4 has the first card drawn and nothing of the refused one."""
    record = handmade_record(SECOND_CARD_LOCOMOTIVE)
    status, state = _replay_json(capsys, _write(tmp_path, "bad.json", record))
    assert status == 1
    assert state["status"] == "in_progress"
    assert state["turn"] == {"player": 0, "phase": "second_card"}
    assert state["players"][0]["hand"] == {"blue": 1, "green": 1, "red": 3}
    assert state["face_up"][0] == "locomotive" and "locomotive" not in state["players"][0]["hand"]


def test_readable_replay_names_the_illegal_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Without --json the report says which action, why, and that the state is the one before it."""
    record = handmade_record(SECOND_CARD_LOCOMOTIVE)
    status, out, _ = _run(capsys, "replay", _write(tmp_path, "bad.json", record))
    assert status == 1
    assert "illegal action at actions[3]" in out
    assert "E-DRAW-4" in out
    assert "state before that action" in out


# ---------------------------------------------------------------------- whole records


@pytest.mark.parametrize("name", ["europe-3p", "new_york-2p"])
def test_replay_examples(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """The example records finish, with the example finals, in JSON and readable form."""
    status, state = _replay_json(capsys, str(FIXTURES / f"{name}.record.json"))
    assert status == 0 and state["status"] == "finished" and state["error"] is None
    expected = json.loads((FIXTURES / f"{name}.final.json").read_text(encoding="utf-8"))
    assert state["final"]["winners"] == expected["winners"]
    for ours, theirs in zip(state["final"]["players"], expected["players"], strict=True):
        assert {k: ours[k] for k in theirs} == theirs
    status, out, err = _run(capsys, "replay", str(FIXTURES / f"{name}.record.json"))
    assert status == 0 and err == ""
    assert "status: finished" in out
    assert f"winner(s): {', '.join(expected['winners'])}" in out


def test_replay_wrong_reshuffles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A reshuffle list that is not the discard pile: exit 1 and an error naming `reshuffles[0]`."""
    record = json.loads((TESTS / "golden" / "games" / "new_york-3p-s2003.record.json").read_text(encoding="utf-8"))
    record["reshuffles"][0] = record["reshuffles"][0][:-1]
    status, state = _replay_json(capsys, _write(tmp_path, "bad.json", record))
    assert status == 1
    assert "reshuffles[0] must hold exactly the" in state["error"]["message"]
    assert "cards of the discard pile" in state["error"]["message"]


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["train"].pop(), "decks.train"),
    (lambda d: d["tickets"].append("Berlin-Roma"), "decks.tickets"),
    (lambda d: d.__setitem__("long_tickets", d["long_tickets"][:-1]), "decks.long_tickets"),
])
def test_replay_bad_decks(capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, field: str) -> None:
    """Decks that do not hold exactly the map's cards: exit 1, one error line naming the field."""
    record = handmade_record([])
    change(record["decks"])
    status, out, err = _run(capsys, "replay", _write(tmp_path, "bad.json", record), "--json")
    assert status == 1 and out == ""
    assert err.startswith(f"ttr replay: error: {field} must hold exactly the map's")
    assert err.count("\n") == 1


@pytest.mark.parametrize(("argv", "expected"), [
    (["replay", "{missing}"], "ttr replay: error: cannot read"),
    (["score", "{missing}"], "ttr score: error: cannot read"),
    (["score", str(FIXTURES / "europe-3p.record.json")], "format: expected 'ttr-position/1', got 'ttr-record/1'"),
    (["replay", str(FIXTURES / "europe-3p.final.json")], "format: expected 'ttr-record/1', got None"),
    (["bench", "--games", "0"], "ttr bench: error: --games must be at least 1"),
    (["bench", "--map", "mars", "--games", "1"], "ttr bench: error: unknown map 'mars'"),
    (["play", "--map", "mars"], "ttr play: error: unknown map 'mars'"),
    (["play", "--bots", "greedy,nope"], "ttr play: error: --bots: unknown bot 'nope'"),
    (["play", "--bots", "greedy,random,greedy", "--players", "2"], "ttr play: error: --bots: 3 bots for 2 seats"),
    (["play", "--bots", " , "], "ttr play: error: --bots: name at least one bot"),
    (["play", "--bots", "greedy", "--map", "new_york", "--players", "5"],
     "ttr play: error: --players: new_york is for 2-4 players"),
    (["play", "--bots", "cmd:x", "--time-per-move", "0"], "ttr play: error: --time-per-move must be positive"),
    (["play", "--bots", "cmd:x", "--time-per-move", "nan"], "ttr play: error: --time-per-move must be positive"),
    (["tournament", "--bots", "cmd:x", "--time-per-move", "inf"], "--time-per-move must be positive, at most 600"),
    (["simulate", "--time-per-move", "601", "--out", "{missing}"], "--time-per-move must be positive, at most 600"),
    (["play", "--players", "-1"], "ttr play: error: europe is for 2-5 players, got -1"),
])
def test_cli_input_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                          expected: str) -> None:
    """Bad input: exit 1 and one error line on stderr."""
    argv = [a.replace("{missing}", str(tmp_path / "missing.json")) for a in argv]
    status, _, err = _run(capsys, *argv)
    assert status == 1
    assert expected in err and "Traceback" not in err


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A missing argument is argparse's usage error."""
    with pytest.raises(SystemExit) as exc:
        main(["replay"])
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err


# ---------------------------------------------------------------------- score

STATION_POSITION = {
    "format": "ttr-position/1", "map": "europe",
    "players": [
        {"name": "Ana", "routes": ["Paris-Frankfurt/orange", "Wien-Berlin", "Pamplona-Paris/blue"],
         "stations": ["Frankfurt"], "tickets": ["Wien-Paris", "Amsterdam-Pamplona"]},
        {"name": "Ben", "routes": ["Berlin-Frankfurt/red", "Amsterdam-Frankfurt", "Frankfurt-Munchen"],
         "tickets": ["Berlin-Roma"]},
    ],
}


def test_score_chooses_the_borrowed_route_for_the_best_total(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    """E-STAT-5: the station in Frankfurt could borrow Berlin-Frankfurt (Paris-Wien, 8 points) or
    Amsterdam-Frankfurt (Amsterdam-Pamplona, 7): it borrows the first, and the breakdown adds up."""
    status, out, err = _run(capsys, "score", _write(tmp_path, "pos.json", STATION_POSITION), "--json")
    assert status == 0 and err == ""
    final = json.loads(out)
    ana, ben = final["players"]
    assert ana == {
        "name": "Ana", "route_points": 4 + 4 + 7, "tickets_completed": ["Paris-Wien"],
        "tickets_failed": ["Amsterdam-Pamplona"], "ticket_points": 8 - 7, "stations_unbuilt": 2,
        "station_points": 8, "borrowed_routes": {"Frankfurt": "Berlin-Frankfurt/red"}, "longest_path": 7,
        "express_bonus": 10, "attractions": 0, "total": 15 + 1 + 8 + 10,
    }
    assert ben["route_points"] == 4 + 2 + 2 and ben["ticket_points"] == -9 and ben["station_points"] == 12
    assert ben["borrowed_routes"] == {} and ben["longest_path"] == 5 and ben["express_bonus"] == 0
    assert ben["total"] == 8 - 9 + 12
    assert final["winners"] == ["Ana"]


def test_score_borrows_the_other_route_when_it_is_the_better_one(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    """Without the Paris-Wien ticket the station borrows Amsterdam-Frankfurt to complete Amsterdam-Pamplona."""
    doc = json.loads(json.dumps(STATION_POSITION))
    doc["players"][0]["tickets"] = ["Amsterdam-Pamplona"]
    status, out, _ = _run(capsys, "score", _write(tmp_path, "pos.json", doc), "--json")
    assert status == 0
    ana = json.loads(out)["players"][0]
    assert ana["borrowed_routes"] == {"Frankfurt": "Amsterdam-Frankfurt"}
    assert ana["tickets_completed"] == ["Amsterdam-Pamplona"] and ana["ticket_points"] == 7


def test_score_readable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The readable breakdown: a table, the borrowed route of each station, the winner."""
    status, out, err = _run(capsys, "score", _write(tmp_path, "pos.json", STATION_POSITION))
    assert status == 0 and err == ""
    assert "final score" in out
    assert "Ana's station in Frankfurt borrows Berlin-Frankfurt/red" in out
    assert "winner(s): Ana" in out
    assert re.search(r"Ana\s.*\b34\b", out)
    assert re.search(r"Ben\s.*\b11\b", out)


@pytest.mark.parametrize(("name", "shown", "hidden"), [
    ("europe-3p", ("stations", "express"), ("attractions",)),
    ("new_york-2p", ("attractions",), ("stations", "express")),
])
def test_the_final_table_has_the_columns_the_map_scores(capsys: pytest.CaptureFixture[str], name: str,
                                                        shown: tuple[str, ...], hidden: tuple[str, ...]) -> None:
    """Europe scores stations and the longest path, New York tourist attractions: the readable final table
    of `ttr replay` has a column for each the map scores and none for the others; the players' table names
    the map's pieces (trains, taxis) and has stations only where the map has them."""
    status, out, _ = _run(capsys, "replay", str(FIXTURES / f"{name}.record.json"))
    assert status == 0
    header = next(line for line in out.splitlines() if "player" in line and "routes" in line and "total" in line)
    assert all(column in header for column in shown)
    assert not any(column in header for column in hidden)
    players = next(line for line in out.splitlines() if "player" in line and "hand" in line)
    assert ("taxis" in players) == (name == "new_york-2p") and ("trains" in players) == (name == "europe-3p")
    assert ("stations" in players) == ("stations" in shown)


def test_score_rejects_a_bad_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A route held by two players: exit 1 and the reason on stderr."""
    doc = json.loads(json.dumps(STATION_POSITION))
    doc["players"][1]["routes"].append("Berlin-Wien")
    status, out, err = _run(capsys, "score", _write(tmp_path, "pos.json", doc), "--json")
    assert status == 1 and out == ""
    assert err == "ttr score: error: players[1].routes: Berlin-Wien is held also by players[0]\n"


# ---------------------------------------------------------------------- play

def test_play_random_moves_logs_every_action_and_writes_a_record_that_replays(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Without `--bots`: uniformly random moves, the same game for the same seed; `--log` prints one line
    per action, and the record replays to the same end."""
    path = tmp_path / "game.json"
    status, out, err = _run(capsys, "play", "--map", "new_york", "--players", "3", "--seed", "4", "--log",
                            "--record", str(path))
    assert status == 0 and err == ""
    record = json.loads(path.read_text(encoding="utf-8"))
    log_lines = [line for line in out.splitlines() if re.match(r"^Player [123]: ", line)]
    assert len(log_lines) == len(record["actions"]) > 10
    assert "status: finished" in out
    status, state = _replay_json(capsys, str(path))
    assert status == 0 and state["status"] == "finished"
    assert f"winner(s): {', '.join(state['final']['winners'])}" in out
    again = _run(capsys, "play", "--map", "new_york", "--players", "3", "--seed", "4", "--log")[1]
    assert again.splitlines()[:len(log_lines)] == log_lines and again.splitlines()[-1] == out.splitlines()[-1]


def test_play_bots_seats_them_in_order_and_plays_the_tournament_game(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    """`--bots greedy,random`: seat 1 greedy, seat 2 random, each named after its bot; the game is the one
    `ttr tournament --seed S` plays first with those bots, and its record replays to the same winners."""
    from ttr.sim.tournament import TournamentConfig, play_seated

    path = tmp_path / "game.json"
    status, out, err = _run(capsys, "play", "--map", "new_york", "--players", "2", "--seed", "9",
                            "--bots", "greedy,random", "--log", "--record", str(path))
    assert status == 0 and err == ""
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["players"] == ["greedy 1", "random 2"] and record["seed"] == 9
    lines = [line for line in out.splitlines() if re.match(r"^(greedy 1|random 2): ", line)]
    assert len(lines) == len(record["actions"])
    assert lines[0].startswith("greedy 1: keep ") and any(line.startswith("random 2: ") for line in lines)
    expected, _, _ = play_seated(TournamentConfig("new_york", 2, ("greedy", "random"), 1, 9), 0)
    assert record == json.loads(json.dumps(write_record(expected)))
    status, state = _replay_json(capsys, str(path))
    assert status == 0 and f"winner(s): {', '.join(state['final']['winners'])}" in out


# ---------------------------------------------------------------------- bench

BENCH_LINE = re.compile(r"^(games_per_second|actions_per_second|mean_actions_per_game): ([0-9.]+)$", re.MULTILINE)


@pytest.mark.parametrize("argv", [["--map", "europe", "--players", "4", "--games", "3"],
                                  ["--map", "new_york", "--players", "2"]])
def test_bench_prints_its_speed(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """`ttr bench` prints the three speed lines, with positive numbers."""
    status, out, err = _run(capsys, "bench", *argv)
    assert status == 0 and err == ""
    values = dict(BENCH_LINE.findall(out))
    assert set(values) == {"games_per_second", "actions_per_second", "mean_actions_per_game"}
    assert all(float(v) > 0 for v in values.values())


def test_bench_record_one_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--games 1 --record f.json` writes one record that `ttr replay` finishes."""
    path = tmp_path / "f.json"
    status, _, _ = _run(capsys, "bench", "--games", "1", "--seed", "5", "--record", str(path))
    assert status == 0 and path.is_file()
    status, state = _replay_json(capsys, str(path))
    assert status == 0 and state["status"] == "finished" and state["error"] is None


def test_bench_record_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--games 3 --record DIR` writes three records, each of which replays to the end."""
    folder = tmp_path / "games"
    status, _, _ = _run(capsys, "bench", "--map", "new_york", "--players", "3", "--games", "3",
                        "--record", str(folder))
    assert status == 0
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["game-00001.json", "game-00002.json", "game-00003.json"]
    seeds = set()
    for file in files:
        record = json.loads(file.read_text(encoding="utf-8"))
        seeds.add(record["seed"])
        status, state = _replay_json(capsys, str(file))
        assert status == 0 and state["status"] == "finished"
    assert seeds == {0, 1, 2}


@pytest.mark.parametrize("target", ["missing/f.json", "a-file"])
def test_bench_record_path_that_cannot_be_written(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  target: str) -> None:
    """`--record` into a missing folder, or a folder where a file stands: exit 1 and an error line."""
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    games = "1" if target.endswith(".json") else "2"
    status, _, err = _run(capsys, "bench", "--map", "new_york", "--players", "2", "--games", games,
                          "--record", str(tmp_path / target))
    assert status == 1
    assert err.startswith("ttr bench: error: --record: cannot ") and "Traceback" not in err
