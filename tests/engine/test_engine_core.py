"""Engine pieces under the rules: the longest trail, the action notation, the RNG, copies, the id catalogue."""

from __future__ import annotations

import random

import pytest

from helpers import started
from ttr.engine import Action, Game, full_state, positions, surgery
from ttr.engine.actions import CLAIM, Catalogue
from ttr.engine.phases import MAIN, OVER
from ttr.engine.rng import Rng
from ttr.engine.scoring import longest_trail
from ttr.errors import InvalidActionError
from ttr.maps import GameMap, load_map


def _brute_force_trail(game_map: GameMap, routes: list[int]) -> int:
    """Longest trail by trying every start city and every trail (slow, obviously right)."""
    index = game_map.city_index
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for bit, r in enumerate(routes):
        route = game_map.routes[r]
        a, b = index[route.a], index[route.b]
        adj.setdefault(a, []).append((bit, b, route.length))
        adj.setdefault(b, []).append((bit, a, route.length))
    best = 0

    def walk(city: int, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for bit, other, size in adj[city]:
            if not (used >> bit) & 1:
                walk(other, used | (1 << bit), length + size)

    for start in adj:
        walk(start, 0, 0)
    return best


def _is_trail(game_map: GameMap, path: list[int]) -> bool:
    """Whether consecutive routes share a city so that the routes form one walk."""
    if len(path) <= 1:
        return True
    ends = [{game_map.routes[r].a, game_map.routes[r].b} for r in path]
    for start in ends[0]:
        city = start
        ok = True
        for e in ends:
            if city not in e:
                ok = False
                break
            (city,) = e - {city} if len(e) == 2 else e
        if ok:
            return True
    return False


@pytest.mark.parametrize("map_name", ["europe", "new_york"])
def test_E_LONG_1_longest_trail_matches_brute_force(map_name: str) -> None:
    """E-LONG-1: the search from odd-degree cities (and whole Euler components) finds the true maximum."""
    game_map = load_map(map_name)
    rng = random.Random(11)
    for _ in range(400):
        routes = rng.sample(range(len(game_map.routes)), rng.randint(0, 13))
        length, path = longest_trail(game_map, routes)
        assert length == _brute_force_trail(game_map, routes)
        assert sum(game_map.routes[r].length for r in path) == length
        assert len(set(path)) == len(path) and set(path) <= set(routes)
        assert _is_trail(game_map, path)


def test_E_LONG_1_a_loop_counts_every_route_once() -> None:
    """E-LONG-1: a closed loop where every city has even degree counts whole."""
    m = load_map("europe")
    loop = [m.route(n).index for n in ("Paris-Dieppe", "Dieppe-Brest", "Brest-Paris")]
    length, path = longest_trail(m, loop)
    assert length == 1 + 2 + 3
    assert sorted(path) == sorted(loop)


def test_action_text_notation_round_trips() -> None:
    game = started("europe", 3, seed=5)
    for aid in game.legal_ids():
        action = game.decode(aid)
        assert Action.parse(str(action)) == action
        assert Action.from_json(action.to_json()) == action
        assert game.encode(action) == aid


def test_action_parse_rejects_nonsense() -> None:
    for text in ("", "fly Berlin", "claim", "claim Berlin-Wien red=x", "draw"):
        with pytest.raises(InvalidActionError):
            Action.parse(text)


def test_rng_is_splitmix64() -> None:
    """The published SplitMix64 sequence for seed 0 (so other programs can reproduce shuffles)."""
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F,
    ]
    values = [Rng(7).below(10) for _ in range(3)]
    assert values[0] == values[1] == values[2]


def test_same_seed_same_game_different_seed_different_deal() -> None:
    m = load_map("europe")
    a, b, c = Game.new(m, 4, seed=3), Game.new(m, 4, seed=3), Game.new(m, 4, seed=4)
    assert a._initial_train == b._initial_train and a._initial_tickets == b._initial_tickets
    assert a._initial_train != c._initial_train
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not a.is_over:
        ids_a, ids_b = a.legal_ids(), b.legal_ids()
        assert ids_a == ids_b
        a.apply_id(ids_a[rng_a.randrange(len(ids_a))])
        b.apply_id(ids_b[rng_b.randrange(len(ids_b))])
    assert full_state(a) == full_state(b)


def test_copy_is_independent() -> None:
    game = started("europe", 4, seed=9)
    before = full_state(game)
    clone = game.copy()
    rng = random.Random(2)
    for _ in range(60):
        if clone.is_over:
            break
        ids = clone.legal_ids()
        clone.apply_id(ids[rng.randrange(len(ids))])
    assert full_state(game) == before
    assert game.legal_ids() == started("europe", 4, seed=9).legal_ids()


def test_catalogue_is_fixed_and_decodes() -> None:
    """Every claim id names one route and one card set of the right size."""
    for map_name in ("europe", "new_york"):
        m = load_map(map_name)
        cat = Catalogue(m)
        assert len(cat) == len(Catalogue(m))
        for aid, kind in enumerate(cat.kind):
            if kind == CLAIM:
                route = m.routes[cat.a[aid]]
                assert cat.c[aid] <= route.length
                assert route.color == "gray" or cat.b[aid] in (m.colors.index(route.color), m.wild)


def test_legal_ids_are_ascending_and_unique() -> None:
    game = started("europe", 4, seed=1)
    rng = random.Random(3)
    while not game.is_over:
        ids = game.legal_ids()
        assert ids == sorted(set(ids))
        game.apply_id(ids[rng.randrange(len(ids))])


def test_E_DRAW_8_every_seat_passing_in_a_row_ends_the_game() -> None:
    """E-DRAW-8 (our rule for the gap): when no seat can do anything, a round of passes ends the game."""
    game = started("new_york", 2, seed=1)
    for t in surgery.hidden_ticket_deck(game)[:]:
        positions.move_ticket(game, t, positions.OUT)
    for seat in range(game.n):
        positions.move_cards(game, positions.hand(seat), positions.OUT)
    for pile in (positions.DECK, positions.DISCARD, positions.ROW):
        positions.move_cards(game, pile, positions.OUT)
    assert game.phase == MAIN
    assert [game.decode(i).kind for i in game.legal_ids()] == ["pass"]
    game.apply(Action("pass"))
    assert game.phase == MAIN and game.current == 1
    game.apply(Action("pass"))
    assert game.phase == OVER
    assert [e["action"] for e in game_log(game)][-2:] == ["pass", "pass"]


def game_log(game: Game) -> list[dict[str, object]]:
    from ttr.engine import public_log

    return public_log(game)


def test_E_DRAW_7_an_empty_face_up_slot_fills_again_once_cards_come_back() -> None:
    """E-DRAW-7: a slot that could not be refilled stays empty only while the deck and discards are empty."""
    game = started("europe", 2, seed=3)
    hoard = positions.hand(1)
    positions.move_cards(game, positions.DECK, hoard)
    positions.move_cards(game, positions.DISCARD, hoard)
    positions.move_card(game, game.face_up[0], positions.row(0), hoard)
    black = game.map.card("black")
    positions.move_card(game, black, hoard, positions.hand(0))  # a card to play; taken from seat 1's hoard
    assert game.face_up[0] == -1
    game.apply(Action("claim_route", route="Amsterdam-Bruxelles", cards=Action.make_cards({"black": 1})))
    assert game.face_up[0] == game.map.card("black")  # the one discarded card, reshuffled into the row
    assert game._deck == [] and game.discard == []
    assert len(game._reshuffles) == 1


def test_N_DRAW_1_new_york_errors_cite_new_york_rules() -> None:
    """N-DRAW-1, N-CLAIM-1, N-TICK-1: a refusal on the New York map names the New York rule."""
    from ttr.errors import IllegalActionError

    game = new_game_map("new_york")
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Action("draw_tickets"))
    assert caught.value.rule == "N-SETUP-2"
    game = started("new_york", 2, seed=4)
    with pytest.raises(IllegalActionError) as caught:
        game.apply(Action("claim_route", route="Brooklyn-Chinatown/red", cards=Action.make_cards({"blue": 3})))
    assert caught.value.rule == "N-CLAIM-1"
    assert game.why_illegal(game.cat.keep_base + 1) == ("N-TICK-1", "no tickets are on offer: draw tickets first")


def new_game_map(map_name: str) -> Game:
    return Game.new(load_map(map_name), 2, seed=4)
