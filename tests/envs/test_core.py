"""The environments' shared state: ticket choices as keep/return sub-decisions, legality, rewards, the encoder."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ttr.engine import Game, final_score, positions, surgery
from ttr.engine.actions import DRAW_FACE_UP, KEEP_TICKETS
from ttr.engine.phases import CHOOSE_SETUP, MAIN
from ttr.envs import EnvCore, ObservationEncoder
from ttr.errors import IllegalActionError
from ttr.maps import load_map


def play_random(core: EnvCore, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if core.is_over:
            return
        ids = core.legal_ids()
        core.step(ids[rng.randrange(len(ids))])


def test_setup_choice_is_asked_ticket_by_ticket_and_keeps_the_minimum() -> None:
    core = EnvCore(load_map("europe"), 2)
    core.reset(5)
    game = core.game
    offered = game.offered[:]
    assert len(offered) == 4 and game.phase == CHOOSE_SETUP
    assert core.legal_ids() == [core.keep_id, core.return_id]
    core.step(core.return_id)
    core.step(core.keep_id)
    # one kept, one returned, two left: keep_min 2 allows one more return
    assert core.legal_ids() == [core.keep_id, core.return_id]
    core.step(core.return_id)
    assert core.legal_ids() == [core.keep_id]  # the last ticket must be kept to reach 2
    with pytest.raises(IllegalActionError, match="keep at least 2"):
        core.step(core.return_id)
    core.step(core.keep_id)
    assert game.tickets[0] == [offered[1], offered[3]]
    assert game.current == 1 and core.kept == []


def test_engine_keep_ids_and_unknown_ids_are_refused_without_change() -> None:
    core = EnvCore(load_map("new_york"), 3)
    core.reset(1)
    keep_ids = [i for i in range(len(core.cat)) if core.cat.kind[i] == KEEP_TICKETS]
    before = (core.game.offered[:], core.kept[:], len(core.game.history))
    for aid in (keep_ids[3], core.num_actions, -1, core.cat.draw_deck):
        assert core.why_illegal(aid) is not None
        with pytest.raises(IllegalActionError):
            core.step(aid)
    assert (core.game.offered, core.kept, len(core.game.history)) == before
    while core.game.phase != MAIN:
        core.step(core.keep_id)
    assert core.why_illegal(core.keep_id) == "no tickets are on offer: draw tickets first"
    assert not set(core.legal_ids()) & set(keep_ids)


@pytest.mark.parametrize("map_name,players", [("europe", 2), ("europe", 5), ("new_york", 2), ("new_york", 4)])
def test_random_games_end_and_rewards_follow_the_final_score(map_name: str, players: int) -> None:
    core = EnvCore(load_map(map_name), players)
    rng = random.Random(players)
    core.reset(11)
    play_random(core, rng, 50_000)
    assert core.is_over
    totals = [p.total for p in final_score(core.game).players]
    winners = final_score(core.game).winners
    margins = core.final_rewards("margin")
    assert margins == [t - max(totals[:p] + totals[p + 1:]) for p, t in enumerate(totals)]
    win_loss = core.final_rewards("win_loss")
    assert win_loss == [1.0 if f"player_{p}" in winners else -1.0 for p in range(players)]
    assert win_loss.count(1.0) >= 1


def test_bad_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="2-5 players"):
        EnvCore(load_map("europe"), 6)


def _hidden_variants(core: EnvCore, seat: int, rng: random.Random) -> list[EnvCore]:
    """Copies of the state that differ only in what `seat` may not see."""
    game = core.game
    other = (seat + 1) % core.n
    out = []
    shuffled = game.copy()  # the deck order
    surgery.shuffle_deck(shuffled, rng)
    out.append(shuffled)
    swapped = game.copy()  # another seat's hand: one card swapped with a different card from the deck
    held = [c for c, k in enumerate(swapped.hands[other]) if k]
    for c in held:
        d = _swap_from_deck(swapped, other, c)
        if d is not None:
            break
    out.append(swapped)
    tickets = game.copy()  # another seat's tickets, the count kept
    pool = [t for t in surgery.hidden_ticket_deck(game) if t not in game.tickets[other]]
    new = rng.sample(pool, len(game.tickets[other]))
    for t in list(tickets.tickets[other]):
        positions.move_ticket(tickets, t, positions.TICKET_DECK)
    for t in new:
        positions.move_ticket(tickets, t, positions.held(other))
    out.append(tickets)
    cores = []
    for g in out:
        c = EnvCore(core.map, core.n)
        c.game = g
        c.kept = core.kept[:]
        cores.append(c)
    return cores


def _swap_from_deck(game: Game, seat: int, card: int) -> int | None:
    """Give `seat` a card of another type from the deck for one `card` of its hand; the type taken (None:
    the deck has none)."""
    for d in range(game.wild + 1):
        if d == card:
            continue
        try:
            positions.move_card(game, d, positions.DECK, positions.hand(seat))
        except ValueError:
            continue
        positions.move_card(game, card, positions.hand(seat), positions.DECK)
        return d
    return None


@pytest.mark.parametrize("map_name,players", [("europe", 3), ("new_york", 2)])
def test_observation_holds_nothing_another_seat_hides(map_name: str, players: int) -> None:
    game_map = load_map(map_name)
    core = EnvCore(game_map, players)
    encoder = ObservationEncoder(game_map, players)
    rng = random.Random(3)
    changed_by_own_hand = 0
    known_shown = 0  # observations whose known_cards segment holds something: the check covers it
    for seed in range(6):
        core.reset(seed)
        play_random(core, rng, rng.randrange(0, 120))
        if core.is_over:
            continue
        for seat in range(players):
            obs = encoder.encode(core.game, seat, core.kept if core.game.current == seat else None)
            assert obs.shape == (encoder.size,) and obs.dtype == np.float32
            assert (obs >= 0).all() and (obs <= encoder.high).all()
            known_shown += bool(encoder.segment(obs, "known_cards").any())
            for variant in _hidden_variants(core, seat, rng):
                seen = encoder.encode(variant.game, seat, core.kept if core.game.current == seat else None)
                assert np.array_equal(obs, seen)
            # the observer's own hand does show: the check above can fail
            mine = core.game.copy()
            give = next((c for c, k in enumerate(mine.hands[seat]) if k), None)
            take = next((c for c in surgery.hidden_deck(mine) if c != give), None)
            if give is not None and take is not None and surgery.exchange_with_deck(mine, seat, give, take):
                changed_by_own_hand += not np.array_equal(obs, encoder.encode(mine, seat))
    assert changed_by_own_hand > 0
    assert known_shown > 0


@pytest.mark.parametrize("map_name,players", [("europe", 3), ("new_york", 4)])
def test_known_cards_are_the_face_up_draws_not_yet_played(map_name: str, players: int) -> None:
    """Per other seat, the cards it took face up and has not played since: a face-up draw shows at once,
    the count never exceeds what the seat really holds, and it matches the public log read afresh."""
    game_map = load_map(map_name)
    core = EnvCore(game_map, players)
    encoder = ObservationEncoder(game_map, players)
    cards = encoder.cards
    core.reset(4)
    assert encoder.segment(encoder.encode(core.game, 0), "known_cards").shape == ((players - 1) * cards,)
    rng = random.Random(8)
    draws = played = 0
    for seed in range(3):
        core.reset(seed)
        while not core.is_over:
            game = core.game
            mover = game.current
            observer = (mover + 1) % players
            before = encoder.segment(encoder.encode(game, observer), "known_cards").reshape(players - 1, cards)
            ids = core.legal_ids()
            aid = ids[rng.randrange(len(ids))]
            core.step(aid)
            game = core.game
            after = encoder.segment(encoder.encode(game, observer), "known_cards").reshape(players - 1, cards)
            row = (mover - observer) % players - 1  # the mover as the observer sees it
            if aid < len(core.cat.kind) and core.cat.kind[aid] == DRAW_FACE_UP:  # not KEEP or RETURN
                expected = before.copy()
                expected[row][core.cat.b[aid]] += 1
                assert np.array_equal(after, expected)
                draws += 1
            elif after[row].sum() < before[row].sum():
                played += 1
            for seat in range(players):
                seen = encoder.segment(encoder.encode(game, seat), "known_cards").reshape(players - 1, cards)
                for rel in range(1, players):
                    other = (seat + rel) % players
                    assert (seen[rel - 1] <= np.array(game.hands[other])).all()
            # read from the whole history again (a copy is another game): the same counts
            fresh = ObservationEncoder(game_map, players).encode(game.copy(), observer)
            assert np.array_equal(encoder.segment(fresh, "known_cards").reshape(players - 1, cards), after)
    assert draws > 0 and played > 0


def test_observation_segments_read_the_state() -> None:
    game_map = load_map("europe")
    core = EnvCore(game_map, 3)
    encoder = ObservationEncoder(game_map, 3)
    core.reset(2)
    play_random(core, random.Random(9), 200)
    game = core.game
    seat = (game.current + 1) % 3
    obs = encoder.encode(game, seat)
    assert encoder.segment(obs, "hand").tolist() == game.hands[seat]
    assert sum(encoder.segment(obs, "face_up")) == sum(1 for c in game.face_up if c >= 0)
    assert encoder.segment(obs, "piles").tolist() == [game.deck_size, len(game.discard), game.ticket_deck_size]
    owners = encoder.segment(obs, "route_owner").reshape(-1, 3)
    for r, o in enumerate(game.owner):
        expected = [0.0] * 3
        if o >= 0:
            expected[(o - seat) % 3] = 1.0
        assert owners[r].tolist() == expected
    players = encoder.segment(obs, "players").reshape(3, 5)
    nxt = (seat + 1) % 3
    assert players[1].tolist() == [sum(game.hands[nxt]), len(game.tickets[nxt]), game.trains[nxt],
                                   game.stations_left[nxt], game.scores[nxt]]
    held = np.flatnonzero(encoder.segment(obs, "tickets_held")).tolist()
    assert held == sorted(game.tickets[seat])
    assert encoder.segment(obs, "to_move").tolist() == [0.0, 0.0, 1.0]
    assert sum(s for _, s, _ in encoder.segments) == encoder.size


def test_tickets_joined_matches_the_final_score_without_stations() -> None:
    game_map = load_map("new_york")  # no stations: a ticket is completed exactly when own routes join it
    core = EnvCore(game_map, 2)
    encoder = ObservationEncoder(game_map, 2)
    checked = 0
    for seed in range(4):
        core.reset(seed)
        play_random(core, random.Random(seed), 50_000)
        scores = final_score(core.game)
        for seat in range(2):
            joined = np.flatnonzero(encoder.segment(encoder.encode(core.game, seat), "tickets_joined")).tolist()
            names = sorted(game_map.tickets[t].name for t in joined)
            assert names == scores.players[seat].tickets_completed
            checked += len(names)
    assert checked > 0
