"""What the engine answers for the layers around it: the double-route rule and the final round from the owners
and the game (`ttr.engine.doubles`, `Game.final_round`, the views' `final_turns`), winners as seats, the
catalogue's decode cache, and an `Action` that cannot be made malformed."""

from __future__ import annotations

import random

import pytest

from ttr.engine import Action, Game, doubles, final_score, public_view, seat_view
from ttr.engine import actions as A
from ttr.errors import InvalidActionError
from ttr.maps import load_map


@pytest.mark.parametrize(("map_name", "players"), [("europe", 2), ("europe", 4), ("new_york", 2), ("new_york", 3)])
def test_open_routes_and_the_final_round_agree_with_the_game_at_every_step(map_name: str, players: int) -> None:
    m = load_map(map_name)
    rnd = random.Random(players)
    rounds = 0
    for seed in range(4):
        game = Game.new(m, players, seed=seed)
        while not game.is_over:
            for seat in range(players):
                open_ = doubles.open_routes(m, game.owner, seat, players)
                claimable = [not game.blocked[r] and game.cat.claim_base[r] not in game._excluded[seat]
                             for r in range(len(m.routes))]
                assert open_ == claimable
            assert game.final_round == (min(game.trains) <= m.rules.end_trigger_pieces)
            view = seat_view(game, game.current)
            assert view["final_turns"] == game.turns_left == public_view(game)["final_turns"]
            assert (view["final_turns"] is not None) == game.final_round
            rounds += game.final_round
            claims = [i for i in game.legal_ids() if game.cat.kind[i] == A.CLAIM]
            game.apply_id(rnd.choice(claims) if claims and rnd.random() < 0.6 else rnd.choice(game.legal_ids()))
        assert seat_view(game, 0)["final_turns"] is None
    assert rounds > 0


def test_a_claim_closes_its_twin_only_where_one_track_is_used() -> None:
    m = load_map("europe")
    r = next(route.index for route in m.routes if route.twin >= 0)
    twin = m.routes[r].twin
    assert doubles.closed_by(m, r, 3) == (r, twin) and doubles.single_use(m, 3)
    assert doubles.closed_by(m, r, 4) == (r,) and not doubles.single_use(m, 4)
    assert doubles.twin_conflict(m, r, 0, 0, 4) == "E-DOUBLE-1"
    assert doubles.twin_conflict(m, r, 0, 1, 3) == "E-DOUBLE-2"
    assert doubles.twin_conflict(m, r, 0, 1, 4) is None and doubles.twin_conflict(m, r, 0, -1, 2) is None
    ny = load_map("new_york")
    q = next(route.index for route in ny.routes if route.twin >= 0)
    assert doubles.twin_conflict(ny, q, 0, 1, 2) == "N-DOUBLE-1"


def test_winners_are_seats_even_when_two_seats_share_a_name() -> None:
    m = load_map("new_york")
    rnd = random.Random(1)
    for seed in range(6):
        game = Game.new(m, ["same", "same", "other"], seed=seed)
        while not game.is_over:
            game.apply_id(rnd.choice(game.legal_ids()))
        fs = final_score(game)
        top = max(p.total for p in fs.players)
        assert fs.winner_seats and all(fs.players[s].total == top for s in fs.winner_seats)
        assert fs.winners == [game.players[s] for s in fs.winner_seats]
        if fs.decided_by is None:
            assert len(fs.winner_seats) == 1


def test_the_catalogue_decodes_an_id_once_where_the_id_alone_fixes_the_action() -> None:
    game = Game.new(load_map("europe"), 2, seed=4)
    keep = game.legal_ids()[0]
    assert game.decode(keep).kind == "keep_tickets" and keep not in game.cat.decoded
    claim = game.cat.claim_base[0]
    first = game.decode(claim)
    assert game.cat.decoded[claim] is first and game.decode(claim) is first
    assert game.legal_actions() == [game.decode(i) for i in game.legal_ids()]


@pytest.mark.parametrize("fields", [
    {"kind": "fly"},
    {"kind": "draw_card"},
    {"kind": "draw_card", "source": "deck", "card": "red"},
    {"kind": "draw_card", "source": "face_up"},
    {"kind": "draw_card", "source": "river"},
    {"kind": "pass", "route": "Berlin-Wien"},
    {"kind": "draw_tickets", "tickets": ("Berlin-Roma",)},
    {"kind": "claim_route", "cards": (("red", 2),)},
    {"kind": "build_station", "city": 3, "cards": (("red", 1),)},
    {"kind": "claim_route", "route": "Berlin-Wien", "cards": (("red", 0),)},
    {"kind": "claim_route", "route": "Berlin-Wien", "cards": (("red", 1), ("blue", 1))},
    {"kind": "claim_route", "route": "Berlin-Wien", "cards": (("red", 1), ("red", 1))},
    {"kind": "pay_tunnel", "cards": (("red", True),)},
    {"kind": "keep_tickets", "tickets": ["Berlin-Roma"]},
])
def test_a_malformed_action_cannot_be_made(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidActionError):
        Action(**fields)  # type: ignore[arg-type]


def test_well_formed_actions_still_round_trip() -> None:
    for text in ("draw deck", "draw red", "claim Berlin-Wien green=3 locomotive=1", "pay red=1", "abandon",
                 "station Berlin red=2", "tickets", "keep A-B, C-D", "pass"):
        action = Action.parse(text)
        assert Action.parse(str(action)) == action == Action.from_json(action.to_json())
