"""Fuzzing the readers: garbage and mutated documents either read fine or raise a `TTRError` with a message.

Targets: `read_record` + `replay`, `read_position` + `score_position`, `parse_map`, `Action.from_json`,
`Action.parse`, and the CLI (`ttr replay`, `ttr score`) on files of random bytes. Any other exception
(KeyError, TypeError, RecursionError, a ValueError that is not a TTRError, ...) is a bug.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ttr.cli.main import main
from ttr.engine import Action, Game
from ttr.errors import TTRError
from ttr.maps import load_map, parse_map
from ttr.records import read_position, read_record, replay, score_position, write_position

TESTS = Path(__file__).resolve().parents[1]
SCALE = float(os.environ.get("TTR_FUZZ_SCALE", "1"))  # e.g. TTR_FUZZ_SCALE=20 for a long hunt


def _budget(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


FUZZ = _budget(120)


def _doc(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


EUROPE_RECORD = _doc(TESTS / "fixtures" / "europe-3p.record.json")
NEW_YORK_RECORD = _doc(TESTS / "fixtures" / "new_york-2p.record.json")
SHORT_RECORD = _doc(TESTS / "golden" / "games" / "new_york-2p-s2002.record.json")
EUROPE_MAP = load_map("europe")
NEW_YORK_MAP = load_map("new_york")


def _finished_position(map_name: str, players: int, seed: int) -> dict[str, Any]:
    game = replay(read_record(_doc(TESTS / "golden" / "games" / f"{map_name}-{players}p-s{seed}.record.json"))).game
    return write_position(game)


EUROPE_POSITION = _finished_position("europe", 4, 1004)
NEW_YORK_POSITION = _finished_position("new_york", 3, 2003)

# Names that mean something on some map, so mutations reach past the first type check.
MAP_NAMES = sorted(
    {c.name for m in (EUROPE_MAP, NEW_YORK_MAP) for c in m.cities}
    | {r.name for m in (EUROPE_MAP, NEW_YORK_MAP) for r in m.routes}
    | {t.name for m in (EUROPE_MAP, NEW_YORK_MAP) for t in m.tickets}
    | {c for m in (EUROPE_MAP, NEW_YORK_MAP) for c in m.card_names}
    | {"europe", "new_york", "deck", "face_up", "ttr-record/1", "ttr-position/1", "ttr-map/1", "gray"}
    | {"draw_card", "claim_route", "pay_tunnel", "abandon_tunnel", "build_station", "draw_tickets",
       "keep_tickets", "pass", "Berlin-Nowhere", "Nowhere-Berlin", "Berlin-Wien/9", "A-B-C", "-", "/", ""}
)
names = st.sampled_from(MAP_NAMES)
huge_ints = st.sampled_from([-1, 0, 1, 2, 5, 45, 2**31, 2**63, 2**64 + 1, -(2**70), 10**100])
scalars = (st.none() | st.booleans() | st.integers() | huge_ints | st.floats(allow_nan=True, allow_infinity=True)
           | st.text(max_size=12) | names)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8) | names, inner, max_size=5),
    max_leaves=25,
)


def _expect_clean(call: Callable[[], Any]) -> None:
    """Run `call`; a `TTRError` with a message is fine, any other exception fails the test."""
    try:
        call()
    except TTRError as exc:
        assert str(exc).strip(), f"{type(exc).__name__} with an empty message"


def _replay_all(doc: Any) -> None:
    result = replay(read_record(doc))
    state = result.to_json()
    json.dumps(state)
    if result.error is not None:
        assert result.error["message"], "an illegal action without a reason"
        assert set(result.error) == {"index", "action", "message"}


def _score(doc: Any) -> None:
    read_position(doc)
    json.dumps(score_position(doc).to_json())


# ---------------------------------------------------------------------- mutations


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document (keys and list indexes from the top)."""
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


@st.composite
def mutated(draw: st.DrawFn, base: Any, max_mutations: int = 3) -> Any:
    """`base` with 1 to `max_mutations` changes: a value deleted, replaced (junk, wrong type, a map name, a
    huge number), a list truncated, an item duplicated or inserted."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, max_mutations))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            return draw(json_values)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent, key = _parent(doc, path), path[-1]
        op = draw(st.sampled_from(["delete", "junk", "scalar", "name", "number", "truncate", "duplicate",
                                   "insert"]))
        value = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "junk":
            parent[key] = draw(json_values)
        elif op == "scalar":
            parent[key] = draw(scalars)
        elif op == "name":
            parent[key] = draw(names)
        elif op == "number":
            parent[key] = draw(huge_ints)
        elif op == "truncate" and isinstance(value, list):
            del value[draw(st.integers(0, len(value))):]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(value))
        elif op == "insert" and isinstance(value, (list, dict)):
            if isinstance(value, list):
                value.insert(draw(st.integers(0, len(value))), draw(json_values))
            else:
                value[draw(names | st.text(max_size=6))] = draw(json_values)
        else:
            parent[key] = draw(json_values)
    return doc


# ---------------------------------------------------------------------- records


@FUZZ
@given(json_values)
@example([])
@example({"format": "ttr-record/1", "map": "europe", "players": ["A", "B"], "seed": 2**200})
@example({"format": "ttr-record/1", "map": "x\x00.json", "players": ["A", "B"]})
@example({"format": "ttr-record/1", "map": "a" * 300, "players": ["A", "B"]})
@example({"format": "ttr-record/1", "map": "/", "players": ["A", "B"]})
def test_garbage_records(doc: Any) -> None:
    """Arbitrary JSON values given as records."""
    _expect_clean(lambda: _replay_all(doc))


@FUZZ
@given(st.sampled_from([EUROPE_RECORD, NEW_YORK_RECORD, SHORT_RECORD]).flatmap(mutated))
def test_mutated_records(doc: Any) -> None:
    """Valid records with fields deleted, retyped, renamed, truncated."""
    _expect_clean(lambda: _replay_all(doc))


@FUZZ
@given(st.data())
def test_mutated_record_headers(data: st.DataObject) -> None:
    """Mutations aimed at the header: map, players, seed, decks, reshuffles."""
    doc = copy.deepcopy(data.draw(st.sampled_from([EUROPE_RECORD, SHORT_RECORD])))
    key = data.draw(st.sampled_from(["map", "players", "seed", "decks", "reshuffles", "format"]))
    new = data.draw(mutated({key: doc.get(key)}, max_mutations=2))
    doc.pop(key, None)
    if isinstance(new, dict):
        doc.update(new)
    else:
        doc[key] = new
    _expect_clean(lambda: _replay_all(doc))


@FUZZ
@given(st.data())
def test_mutated_single_action(data: st.DataObject) -> None:
    """One action of a valid record changed: most become illegal, and the replay says which and why."""
    doc = copy.deepcopy(data.draw(st.sampled_from([EUROPE_RECORD, SHORT_RECORD])))
    index = data.draw(st.integers(0, len(doc["actions"]) - 1))
    doc["actions"][index] = data.draw(mutated(doc["actions"][index], max_mutations=2))
    _expect_clean(lambda: _replay_all(doc))


@_budget(60)
@given(st.data())
def test_truncated_records_replay_in_progress(data: st.DataObject) -> None:
    """Every prefix of a valid record replays with no error, finished only when it is the whole game."""
    doc = copy.deepcopy(data.draw(st.sampled_from([EUROPE_RECORD, NEW_YORK_RECORD])))
    cut = data.draw(st.integers(0, len(doc["actions"])))
    whole = cut == len(doc["actions"])
    del doc["actions"][cut:]
    state = replay(read_record(doc)).to_json()
    assert state["error"] is None
    assert state["status"] == ("finished" if whole else "in_progress")


@FUZZ
@given(st.lists(json_values | st.fixed_dictionaries({"player": st.integers(0, 1), "action": names}), max_size=6))
def test_junk_actions_after_setup(junk: list[Any]) -> None:
    """Junk appended to a valid game in progress."""
    doc = copy.deepcopy(SHORT_RECORD)
    doc["actions"] = doc["actions"][:10] + junk
    _expect_clean(lambda: _replay_all(doc))


# ---------------------------------------------------------------------- positions


@FUZZ
@given(json_values)
@example({"format": "ttr-position/1", "map": "new_york", "players": [{"stations": ["Chelsea"]}, {}]})
def test_garbage_positions(doc: Any) -> None:
    """Arbitrary JSON values given as positions."""
    _expect_clean(lambda: _score(doc))


@FUZZ
@given(st.sampled_from([EUROPE_POSITION, NEW_YORK_POSITION]).flatmap(mutated))
def test_mutated_positions(doc: Any) -> None:
    """Valid positions with fields deleted, retyped, renamed."""
    _expect_clean(lambda: _score(doc))


# ---------------------------------------------------------------------- maps


@_budget(150)
@given(st.sampled_from([EUROPE_MAP.source, NEW_YORK_MAP.source]).flatmap(mutated))
def test_mutated_maps(doc: Any) -> None:
    """Valid map files with fields deleted, retyped, renamed."""
    _expect_clean(lambda: parse_map(doc))


@FUZZ
@given(json_values)
def test_garbage_maps(doc: Any) -> None:
    """Arbitrary JSON values given as map files."""
    _expect_clean(lambda: parse_map(doc))


# ---------------------------------------------------------------------- actions


@FUZZ
@given(json_values | st.fixed_dictionaries({"action": names}, optional={
    "from": names | scalars, "card": names | scalars, "route": names | scalars, "city": names | scalars,
    "cards": st.dictionaries(names | st.text(max_size=5), scalars | huge_ints, max_size=3) | json_values,
    "tickets": st.lists(names | scalars, max_size=4) | json_values}))
def test_actions_from_json(doc: Any) -> None:
    """Garbage and near-miss actions: parsed, then applied to a game in its main phase."""
    def run() -> None:
        action = Action.from_json(doc)
        assert Action.from_json(action.to_json()) == action
        for game in (_europe_game(), _new_york_game()):
            with contextlib.suppress(TTRError):
                game.apply(action)

    _expect_clean(run)


@FUZZ
@given(st.text(max_size=40) | st.builds(lambda v, t, c: f"{v} {t} {c}",
                                        st.sampled_from(["draw", "claim", "station", "pay", "keep", "tickets",
                                                         "abandon", "pass", ""]),
                                        names, st.text(max_size=12)))
@example("pay red=²")
@example("claim Berlin-Wien green=٣")
@example("claim Berlin-Wien green=99999999999999999999999")
def test_action_parse(text: str) -> None:
    """The text notation: read back, or a clear error."""
    def run() -> None:
        action = Action.parse(text)
        for game in (_europe_game(), _new_york_game()):
            with contextlib.suppress(TTRError):
                game.apply(action)

    _expect_clean(run)


def _europe_game() -> Game:
    game = Game.new(EUROPE_MAP, 3, seed=5)
    while game.phase_name == "choose_tickets":
        game.apply_id(game.legal_ids()[-1])
    return game


def _new_york_game() -> Game:
    game = Game.new(NEW_YORK_MAP, 2, seed=5)
    while game.phase_name == "choose_tickets":
        game.apply_id(game.legal_ids()[-1])
    return game


# ---------------------------------------------------------------------- the CLI on bytes


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


BAD_BYTES = (
    st.binary(max_size=200)
    | st.binary(max_size=60).map(lambda b: b"\xff\xfe" + b)
    | st.text(max_size=60).map(lambda t: t.encode("utf-8") + b"\xc3")
    | st.sampled_from([b"", b"{", b"[" * 100_000, b"1" * 5000, b"{\"format\": \"ttr-record/1\"", b"\x00\x00",
                       b"\xed\xa0\x80", b"[1, 2, 3]", b"null", b"NaN", b"\"\\ud800\""])
)


@_budget(80)
@given(BAD_BYTES, st.sampled_from([["replay"], ["replay", "--json"], ["score"], ["score", "--json"]]))
def test_cli_on_bad_bytes(data: bytes, command: list[str]) -> None:
    """Random bytes, invalid UTF-8, non-JSON: exit status 1 and one error line on stderr, no traceback."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.json"
        path.write_bytes(data)
        status, _, err = _run_cli([command[0], str(path), *command[1:]])
    assert status == 1
    assert err.startswith(f"ttr {command[0]}: error: ") and err.strip()
    assert "Traceback" not in err


@_budget(40)
@given(st.data())
def test_cli_on_mangled_record_bytes(data: st.DataObject) -> None:
    """A valid record file with bytes flipped, cut or inserted: exit 0 or 1, printable output, no traceback."""
    raw = json.dumps(SHORT_RECORD).encode("utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(raw)))
        op = data.draw(st.sampled_from(["flip", "cut", "insert"]))
        if op == "flip" and pos < len(raw):
            raw = raw[:pos] + bytes([raw[pos] ^ data.draw(st.integers(1, 255))]) + raw[pos + 1:]
        elif op == "cut":
            raw = raw[:pos]
        else:
            raw = raw[:pos] + data.draw(st.binary(min_size=1, max_size=4)) + raw[pos:]
    command = data.draw(st.sampled_from([["replay"], ["replay", "--json"]]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.json"
        path.write_bytes(raw)
        status, out, err = _run_cli([command[0], str(path), *command[1:]])
    assert status in (0, 1)
    assert "Traceback" not in err
    (out + err).encode("utf-8")  # what the terminal gets must be text
