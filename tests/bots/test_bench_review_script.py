"""`scripts/bench_review.py`: moves put in on purpose (a random legal move instead of greedy's) are found among
the review's costliest decisions. Two short New York games are reviewed (about 7 s of CPU): the review's
search is what is under test, and a smaller budget would measure its noise instead."""

from __future__ import annotations

from helpers import load_module
from ttr.records import read_record, write_record
from ttr.review import review_record

BUDGET = 48


def test_random_moves_put_in_are_among_the_costliest() -> None:
    script = load_module("scripts/bench_review.py", "bench_review")
    found = total = 0
    for seed in (1, 2):
        game, at = script.mistake_game("new_york", 2, seed, 3)
        assert len(at) == 3 and all(game.history[i][0] == 0 for i in at)  # seat 0's moves
        review = review_record(read_record(write_record(game)), 0, BUDGET)
        top, sure, ranks = script.hits(review, at)
        assert len(ranks) == 3 and 0 <= sure <= 3 and 0 <= top <= 3
        found += sum(1 for i in at if i in review["costliest"])
        total += len(at)
    # a review ranking its ~20 decisions at random would put 4 of these 6 among its 5 costliest about 4% of the time
    assert found >= 4, f"{found} of {total} random moves among the 5 costliest"
