"""`ttr review` and `ttr.review`: the golden review of a recorded game, reproducibility, no hidden information,
the played move always measured, and the command's output and errors.

The golden file is made again with `TTR_UPDATE_GOLDEN=1` (only when the search changes on purpose).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from ttr.cli.main import main
from ttr.cli.review_cmd import print_review
from ttr.engine import SeatView, final_score
from ttr.errors import RecordError
from ttr.records import read_record
from ttr.review import REVIEW_FORMAT, ReviewSearch, decisions, review_record

TESTS = Path(__file__).resolve().parents[1]
RECORD = TESTS / "fixtures" / "review-new_york-2p.record.json"  # two greedy seats, New York, seed 3
GOLDEN = TESTS / "golden" / "review-new_york-2p.json"
BUDGET = 24  # playouts per decision: enough to rate, small enough for a test


def _record_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def test_review_matches_golden() -> None:
    review = review_record(read_record(_record_data()), 0, BUDGET)
    if os.environ.get("TTR_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(review, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert review == json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert review["format"] == REVIEW_FORMAT


def test_golden_review_is_consistent() -> None:
    review = json.loads(GOLDEN.read_text(encoding="utf-8"))
    made, game = decisions(read_record(_record_data()), 0)
    assert [d["index"] for d in review["decisions"]] == [d.index for d in made]
    for row, decision in zip(review["decisions"], made, strict=True):
        assert row["played"] == decision.played.to_json()
        assert row["played"] in [c["action"] for c in row["candidates"]]  # the played move is always measured
        lo, hi = row["interval"]
        assert 0 <= lo <= row["loss"] <= hi
        if row["loss"] == 0:
            assert row["best"] == row["played"]
        assert 0 <= row["win_chance"] <= 1
    losses = sorted((r["loss"] for r in review["decisions"]), reverse=True)
    assert [next(r["loss"] for r in review["decisions"] if r["index"] == i) for i in review["costliest"]] == \
        losses[:len(review["costliest"])]
    summary = review["summary"]
    assert summary["pieces_unused"] == game.trains[0]
    final = final_score(game).players[0]
    assert summary["score"] == final.total and summary["tickets_unfinished"] == final.tickets_failed
    assert summary["piece_name"] == "taxis"


def _offers(record_data: dict[str, Any]) -> list[list[str]]:
    """Per seat, every ticket it was offered in the game."""
    record = read_record(record_data)
    game = record.new_game()
    seen: list[list[str]] = [[] for _ in record.players]
    for _seat, action, _raw in record.actions:
        if game.phase_name in ("choose_setup", "choose_tickets"):
            seen[game.current] += [game.map.tickets[t].name for t in game.offered]
        game.apply(action)
    return seen


def _swap_hidden_tickets(data: dict[str, Any], seat: int) -> dict[str, Any]:
    """The record with every ticket offered to `seat` exchanged for one nobody was offered (in the deck and in
    the seat's keeps): the same game for every other seat, with other hidden tickets for `seat`."""
    offers = _offers(data)
    anyone = {t for seen in offers for t in seen}
    unseen = [t for t in data["decks"]["tickets"] if t not in anyone]
    swap = dict(zip(offers[seat], unseen, strict=False))
    assert len(swap) == len(offers[seat])  # enough tickets nobody saw
    swap.update({b: a for a, b in list(swap.items())})
    out = copy.deepcopy(data)
    out["decks"]["tickets"] = [swap.get(t, t) for t in data["decks"]["tickets"]]
    for raw in out["actions"]:
        if raw["player"] == seat and raw["action"] == "keep_tickets":
            raw["tickets"] = [swap.get(t, t) for t in raw["tickets"]]
    return out


def test_review_never_reads_another_seats_tickets(monkeypatch: pytest.MonkeyPatch) -> None:
    data = _record_data()
    other = _swap_hidden_tickets(data, 1)
    made, game = decisions(read_record(data), 0)
    made_other, game_other = decisions(read_record(other), 0)
    assert sorted(game.tickets[1]) != sorted(game_other.tickets[1])  # seat 1's hidden tickets differ ...
    assert [d.view for d in made] == [d.view for d in made_other]  # ... while seat 0 saw the same game
    assert SeatView.of(game, 1) != SeatView.of(game_other, 1)
    given: list[SeatView] = []
    rate = ReviewSearch.rate

    def spy(self: ReviewSearch, view: SeatView, legal: Any, played: Any) -> Any:
        given.append(view)
        return rate(self, view, legal, played)

    monkeypatch.setattr(ReviewSearch, "rate", spy)
    assert review_record(read_record(data), 0, 6) == review_record(read_record(other), 0, 6)
    assert len(given) == 2 * len(made)  # the search is given the seat's view only: no other seat's hand or tickets
    for view in given:
        assert view.seat == 0
        assert view.players[1].hand is None and view.players[1].tickets is None


def test_review_rejects_a_bad_seat_and_an_unfinished_game() -> None:
    data = _record_data()
    with pytest.raises(RecordError, match="seat"):
        review_record(read_record(data), 2, 4)
    cut = copy.deepcopy(data)
    cut["actions"] = cut["actions"][:10]
    with pytest.raises(RecordError, match="finished"):
        review_record(read_record(cut), 0, 4)


def test_cli_review_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", str(RECORD), "--seat", "1", "--budget", "1", "--json"]) == 0
    out, _ = capsys.readouterr()
    review = json.loads(out)
    assert review["seat"] == 1 and review["playouts"] == 1
    assert review["summary"]["score"] == final_score(decisions(read_record(_record_data()), 1)[1]).players[1].total
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    console = Console(width=200, record=True)
    print_review(console, golden)
    text = console.export_text()
    assert "The costliest decisions" in text and "taxis unused" in text
    assert f"points given up in all: {golden['total_loss']:.1f}" in text
    assert main(["review", str(RECORD), "--seat", "3"]) == 1
    _, err = capsys.readouterr()
    assert "seat: expected a seat number 0-1, got 3" in err
    assert main(["review", str(RECORD), "--budget", "0"]) == 1
    _, err = capsys.readouterr()
    assert "--budget" in err
