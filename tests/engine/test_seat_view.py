"""`SeatView`: the typed, frozen view of a seat or a spectator, and its wire form."""

from __future__ import annotations

import dataclasses

import pytest

from ttr.bots import make_bot
from ttr.bots.base import play_game
from ttr.engine import Game, IndexView, SeatView, public_view, seat_view, seen_history
from ttr.engine import actions as A
from ttr.maps import load_map


def _mid_game() -> Game:
    """A three-seat Europe game of greedy bots, replayed to its 60th action."""
    game_map = load_map("europe")
    finished = play_game(game_map, [make_bot("greedy", game_map, seat, 7) for seat in range(3)], seed=7)
    game = Game.new(game_map, 3, seed=7)
    for _seat, aid, _detail in finished.history[:60]:
        game.apply_id(aid)
    return game


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    game = _mid_game()
    view = SeatView.of(game, 1)
    assert view.me.hand is not None and sum(view.me.hand.values()) == sum(game.hands[1])
    for p, player in enumerate(view.players):
        assert player.hand_size == sum(game.hands[p])
        if p != 1:
            assert player.hand is None and player.tickets is None
    spectator = SeatView.of(game, None)
    assert all(p.hand is None and p.tickets is None for p in spectator.players)
    with pytest.raises(ValueError, match="spectator"):
        _ = spectator.me


def test_the_view_is_frozen() -> None:
    view = SeatView.of(_mid_game(), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.deck_size = 0  # type: ignore[misc]


def test_the_wire_form_is_seat_view_and_public_view() -> None:
    game = _mid_game()
    for seat in range(game.n):
        wire = SeatView.of(game, seat).to_json()
        assert wire == seat_view(game, seat)
        assert wire["seat"] == seat and "hand" in wire["players"][seat]
        assert all("hand" not in p for i, p in enumerate(wire["players"]) if i != seat)
    assert SeatView.of(game, None).to_json() == public_view(game)
    assert "seat" not in public_view(game)


def test_changing_the_wire_form_leaves_the_game_untouched() -> None:
    game = _mid_game()
    wire = seat_view(game, 0)
    wire["log"][0]["player"] = 99
    assert seat_view(game, 0)["log"][0]["player"] != 99


def test_no_seat_outside_the_game() -> None:
    with pytest.raises(ValueError, match="no seat 5"):
        SeatView.of(_mid_game(), 5)


def test_the_seen_history_hides_other_seats_blind_draws_and_ticket_choices() -> None:
    game = _mid_game()
    kind = game.cat.kind
    hidden = {A.DRAW_DECK, A.KEEP_TICKETS}
    for seat in (0, 2, None):
        seen = seen_history(game, seat)
        assert [(p, aid) for p, aid, _ in seen] == [(p, aid) for p, aid, _ in game.history]
        for (p, aid, detail), (_, _, full) in zip(seen, game.history, strict=True):
            assert detail == (full if p == seat or kind[aid] not in hidden else ())
    assert any(kind[aid] == A.KEEP_TICKETS and p != 0 and full for p, aid, full in game.history)
    with pytest.raises(ValueError, match="no seat"):
        seen_history(game, 3)


def test_a_copy_goes_on_with_the_known_cards_of_the_game_it_copies() -> None:
    """Played as OpenSpiel plays (each move on a copy of the game before it), every view equals the view of
    the same game played in place; a move on a copy leaves the original's known cards alone."""
    game_map = load_map("europe")
    finished = play_game(game_map, [make_bot("greedy", game_map, seat, 3) for seat in range(2)], seed=3)
    in_place = Game.new(game_map, 2, seed=3)
    copied = Game.new(game_map, 2, seed=3)
    face_up_draws = 0
    for _seat, aid, _detail in finished.history:
        for seat in range(2):
            assert IndexView.of(copied, seat) == IndexView.of(in_place, seat)
        before = IndexView.of(copied, copied.current).known
        face_up_draws += copied.cat.kind[aid] == A.DRAW_FACE_UP
        previous, copied = copied, copied.copy()
        assert copied._view_cache["known"]._done == len(previous.history)  # read on, not from the first move
        copied.apply_id(aid)
        in_place.apply_id(aid)
        assert IndexView.of(previous, previous.current).known == before
    assert face_up_draws > 5 and any(any(k) for k in IndexView.of(copied, None).known)
    assert IndexView.of(copied, None) == IndexView.of(in_place, None)
