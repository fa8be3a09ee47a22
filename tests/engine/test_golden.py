"""Golden files: recorded random games with their finals, perft counts, and the two example records.

The golden files were generated from the engine by scripts/make_golden.py. When one of these tests
fails after an engine change that was meant to keep the rules as they are (a speed-up, a refactoring),
the change has a bug: fix the change, do not regenerate. Regenerate only after a deliberate rule change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from golden_support import (
    GAMES,
    GAMES_DIR,
    LINES,
    PERFT_FILE,
    POSITIONS,
    build_position,
    game_stem,
    position_counts,
)
from ttr.engine import Action, Game
from ttr.errors import TTRError
from ttr.maps import load_map
from ttr.records import read_record, replay, write_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REGENERATE = ("the engine no longer matches its golden file. If a speed-up or refactoring caused this, the "
              "change has a bug: fix it. Run scripts/make_golden.py only after a deliberate rule change.")
STEMS = [game_stem(*g) for g in GAMES]


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _perft() -> dict[str, Any]:
    data: dict[str, Any] = _load(PERFT_FILE)
    return data


@pytest.mark.parametrize("stem", STEMS)
def test_golden_game_replays_to_its_final(stem: str) -> None:
    """Each golden game replays to the end with the stored final breakdown, and writes back unchanged."""
    record = _load(GAMES_DIR / f"{stem}.record.json")
    expected = _load(GAMES_DIR / f"{stem}.final.json")
    result = replay(read_record(record))
    state = result.to_json()
    assert state["error"] is None, f"{stem}: {state['error']}: {REGENERATE}"
    assert state["status"] == "finished", f"{stem}: {REGENERATE}"
    assert state["final"] == expected, f"{stem}: final differs: {REGENERATE}"
    assert write_record(result.game) == record, f"{stem}: the record written back differs: {REGENERATE}"


@pytest.mark.parametrize("stem", STEMS)
def test_golden_game_seed_alone_fixes_every_shuffle(stem: str) -> None:
    """Without `decks` and `reshuffles` the seed deals and reshuffles the same cards (the Rng is stable)."""
    record = _load(GAMES_DIR / f"{stem}.record.json")
    expected = _load(GAMES_DIR / f"{stem}.final.json")
    stripped = {k: v for k, v in record.items() if k not in ("decks", "reshuffles")}
    result = replay(read_record(stripped))
    assert result.error is None, f"{stem}: {result.error}: {REGENERATE}"
    assert result.to_json()["final"] == expected, f"{stem}: {REGENERATE}"
    written = write_record(result.game)
    assert (written["decks"], written["reshuffles"]) == (record["decks"], record["reshuffles"]), REGENERATE


def test_golden_files_are_the_listed_ones() -> None:
    """No stale or missing golden file: the folder holds exactly the games listed in golden_support."""
    names = sorted(p.name for p in GAMES_DIR.iterdir())
    assert names == sorted([f"{s}.record.json" for s in STEMS] + [f"{s}.final.json" for s in STEMS])
    perft = _perft()
    assert [(x["map"], x["players"], x["seed"]) for x in perft["lines"]] == [line[:3] for line in LINES]
    assert [p["name"] for p in perft["positions"]] == [s["name"] for s in POSITIONS]


@pytest.mark.parametrize("index", range(len(LINES)), ids=[f"{m}-{n}p-s{s}" for m, n, s, _ in LINES])
def test_perft_line(index: int) -> None:
    """The legal-action count before the first action and after each stored action matches."""
    line = _perft()["lines"][index]
    game = Game.new(load_map(line["map"]), line["players"], seed=line["seed"])
    counts = [len(game.legal_ids())]
    for step, raw in enumerate(line["actions"]):
        assert game.current == raw["player"], f"step {step}: seat {game.current} to play, not {raw['player']}"
        ids = game.legal_ids()
        assert len(set(ids)) == len(ids), f"step {step}: an action id is listed twice"
        try:
            game.apply(Action.from_json(raw))
        except TTRError as exc:
            pytest.fail(f"step {step}: the golden action {raw} is refused: {exc}: {REGENERATE}")
        counts.append(len(game.legal_ids()))
        if counts[-1] != line["counts"][len(counts) - 1]:
            break
    first = next((i for i, (a, b) in enumerate(zip(counts, line["counts"], strict=False)) if a != b), None)
    assert counts == line["counts"], (
        f"legal-action count after step {first}: {counts[first] if first is not None else '?'}, golden "
        f"{line['counts'][first] if first is not None else '?'}: {REGENERATE}"
    )


@pytest.mark.parametrize("spec", POSITIONS, ids=[s["name"] for s in POSITIONS])
def test_perft_position(spec: dict[str, Any]) -> None:
    """At each hand-built position: the legal actions (total, per kind), perft(2), every one really legal."""
    expected = next(p for p in _perft()["positions"] if p["name"] == spec["name"])
    game = build_position(spec)
    for aid in game.legal_ids():
        assert game.why_illegal(aid) is None, f"listed but illegal: {game.decode(aid)}"
    got = {"name": spec["name"], **position_counts(game)}
    assert got == expected, REGENERATE


@pytest.mark.parametrize("name", ["europe-3p", "new_york-2p"])
def test_example_record_replays_to_its_final(name: str) -> None:
    """The other program's records finish with its final breakdown, on every field it gives."""
    result = replay(read_record(_load(FIXTURES / f"{name}.record.json")))
    expected = _load(FIXTURES / f"{name}.final.json")
    state = result.to_json()
    assert state["error"] is None
    assert state["status"] == "finished"
    final = state["final"]
    assert final["winners"] == expected["winners"]
    assert len(final["players"]) == len(expected["players"])
    for ours, theirs in zip(final["players"], expected["players"], strict=True):
        assert set(theirs) <= set(ours), f"fields we do not print: {set(theirs) - set(ours)}"
        assert {k: ours[k] for k in theirs} == theirs
