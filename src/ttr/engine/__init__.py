"""The rules engine: pure Python, no I/O, no dependency beyond the standard library.

`Game` holds the state and applies actions; `SeatView` (`ttr.engine.views`; `IndexView`, the same view in
indexes) is how other layers read it; `final_score` scores it. See `ttr.engine.game` for the API.
"""

from ttr.engine.actions import Action, Catalogue
from ttr.engine.game import Game, board_of, final_score
from ttr.engine.scoring import BoardPlayer, FinalScore, PlayerScore, longest_trail, score_board
from ttr.engine.views import (
    IndexView,
    PlayerView,
    SeatView,
    TurnView,
    full_state,
    public_log,
    public_view,
    seat_view,
    seen_history,
)

__all__ = ["Action", "BoardPlayer", "Catalogue", "FinalScore", "Game", "IndexView", "PlayerScore", "PlayerView",
           "SeatView", "TurnView", "board_of", "final_score", "full_state", "longest_trail", "public_log",
           "public_view", "score_board", "seat_view", "seen_history"]
