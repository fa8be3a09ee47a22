"""`research/hidden_worth.py`: the other seats' real hands go into a sampled world without losing or doubling a
card, the early and late hand cheats split the game where they say, a game of the cheating search plays to
the end, and two runs are paired by deal."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from helpers import greedy_main_turn, load_module
from ttr.engine import Game, seat_view
from ttr.engine.sample import InfoSet

ROOT = Path(__file__).resolve().parents[2]


def load_script() -> ModuleType:
    return load_module("research/hidden_worth.py", "hidden_worth")


def unseen_cards(game: Game, seat: int) -> Counter[int]:
    """The deck and every other seat's hand: the cards `seat` cannot see."""
    cards = Counter(game._deck)
    for q, hand in enumerate(game.hands):
        if q != seat:
            cards.update({card: count for card, count in enumerate(hand) if count})
    return cards


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("new_york", 3)])
def test_the_real_hands_replace_the_sampled_ones_and_every_card_stays_once(map_name: str, players: int) -> None:
    script = load_script()
    game_map, game = greedy_main_turn(map_name, players, seed=5, seat=0, after=14)
    info = InfoSet(game_map, seat_view(game, 0))
    rng = random.Random(2)
    changed = 0
    for _ in range(20):
        world = info.sample(rng)
        before = unseen_cards(world, 0)
        own = world.hands[0][:]
        changed += any(world.hands[q] != game.hands[q] for q in range(1, players))
        script.with_real_hands(world, game, 0, rng)
        assert unseen_cards(world, 0) == before  # nothing lost, nothing doubled
        assert world.hands[0] == own  # the seat's own hand is as it was (known)
        for q in range(1, players):
            assert world.hands[q] == game.hands[q]
    assert changed  # the sampled worlds did deal other hands, so the swap was tested


def test_the_early_and_late_hand_cheats_split_the_game_at_the_trains_laid() -> None:
    script = load_script()
    game_map, game = greedy_main_turn("europe", 2, seed=5, seat=0, after=30)
    laid = game_map.rules.pieces - game.trains[1]
    assert laid > 0
    early = script.CheatingSearch(game_map, 0, 5, game, "hand-early", laid + 1, iterations=4)
    late = script.CheatingSearch(game_map, 0, 5, game, "hand-late", laid + 1, iterations=4)
    assert early._in_window() and not late._in_window()
    early.early = late.early = laid
    assert not early._in_window() and late._in_window()
    info = InfoSet(game_map, seat_view(game, 0))
    assert late.sample_world(info, random.Random(3)).hands[1] == game.hands[1]  # in its window: the real hand
    # every world dealt afresh, so the cheat is the only difference between runs
    assert not late.config.assume_greedy_tracking


def test_a_game_of_the_cheating_search_is_played_to_the_end() -> None:
    row = load_script().one_game(("new_york", 2, "both", 12, 7, {"iterations": 6}))
    assert row["seed"] == 7 and row["seat"] == 1 and row["cheat"] == "both"
    assert row["win"] in (0.0, 0.5, 1.0)
    if row["score"] != row["best_other"]:  # (a tie on points goes to the tie-breaks)
        assert (row["win"] > 0) == (row["score"] > row["best_other"])


def test_two_runs_are_paired_by_deal() -> None:
    compare = load_script().compare

    def row(cheat: str, seed: int, win: float, score: int, other: int) -> dict[str, object]:
        return {"seed": seed, "seat": seed % 2, "cheat": cheat, "win": win, "score": score, "best_other": other}

    a = [row("none", 0, 1.0, 100, 90), row("none", 1, 0.0, 80, 95), row("none", 2, 0.0, 70, 75)]
    b = [row("hand", 0, 1.0, 110, 90), row("hand", 1, 1.0, 99, 95), row("hand", 3, 1.0, 1, 0)]
    lines = compare(a, b)
    assert lines[0] == "2 deals: none won 1, hand won 2"  # seed 2 and 3 were played by one run only
    assert lines[1].startswith("hand decided 1 deals better and 0 worse")
    assert "margin gain +14.5 points a game" in lines[1]  # (20 - 10 + 4 - -15) / 2
    assert lines[2:] == ["seat 0: 1 deals, none won 1, hand won 1", "seat 1: 1 deals, none won 0, hand won 1"]
    assert compare(a[:1], b[2:]) == ["no deal in common"]


def test_the_command_plays_one_seats_deals_and_compares_its_runs(tmp_path: Path) -> None:
    """`--seat 1` plays the deals where the search sits second; a run compared with itself is level."""
    script = str(ROOT / "research" / "hidden_worth.py")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    out = tmp_path / "run.jsonl"
    played = subprocess.run([sys.executable, script, "new_york", "--cheat", "hand", "--games", "2", "--seat", "1",
                             "--iterations", "4", "--out", str(out)], env=env, capture_output=True, text=True,
                            timeout=300)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("hand: won ") and " of 2;" in played.stdout
    assert [row["seed"] for row in map(json.loads, out.read_text().splitlines())] == [1, 3]
    compared = subprocess.run([sys.executable, script, "--compare", str(out), str(out)], env=env,
                              capture_output=True, text=True, timeout=60)
    assert compared.returncode == 0, compared.stderr
    assert "hand decided 0 deals better and 0 worse" in compared.stdout
    assert "margin gain +0.0 points a game" in compared.stdout
    unplayable = subprocess.run([sys.executable, script, "--cheat", "hand"], env=env, capture_output=True,
                                text=True, timeout=60)
    assert unplayable.returncode == 2 and "a map is needed to play" in unplayable.stderr
