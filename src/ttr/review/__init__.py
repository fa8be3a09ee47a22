"""Game reviews: every decision of a seat rated by the `expert` search, as chess sites analyse a game
(docs/review.md)."""

from ttr.review.game_review import (
    REVIEW_FORMAT,
    Decision,
    assemble,
    decision_seed,
    decisions,
    default_playouts,
    rate_decision,
    review_record,
)
from ttr.review.search import Candidate, Rating, ReviewSearch

__all__ = ["REVIEW_FORMAT", "Candidate", "Decision", "Rating", "ReviewSearch", "assemble", "decision_seed",
           "decisions", "default_playouts", "rate_decision", "review_record"]
