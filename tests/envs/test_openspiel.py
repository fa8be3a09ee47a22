"""The OpenSpiel game: OpenSpiel's random simulation test, chance nodes, the observer, ISMCTS."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import ttr.envs.openspiel  # noqa: E402, F401  # registers python_ttr


def load(spec: str = "map=new_york,players=2") -> object:
    return pyspiel.load_game(f"python_ttr({spec})")


def deal(state: object, outcomes: list[int] | None = None) -> None:
    """Play the deal's chance nodes: the given outcomes first, then the first possible one."""
    queue = list(outcomes or [])
    while state.is_chance_node():
        possible = [a for a, _ in state.chance_outcomes()]
        state.apply_action(queue.pop(0) if queue and queue[0] in possible else possible[0])


@pytest.mark.parametrize("spec,sims", [("map=new_york,players=2", 4), ("map=new_york,players=4", 2),
                                       ("map=europe,players=2", 1)])
def test_pyspiel_random_sim_test(spec: str, sims: int) -> None:
    pyspiel.random_sim_test(load(spec), num_sims=sims, serialize=False, verbose=False)


def test_the_deal_is_chance_and_probabilities_follow_the_deck() -> None:
    game = load("map=europe,players=2")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({c: (14 if c == 8 else 12) / 110 for c in range(9)})
    state.apply_action(8)
    assert dict(state.chance_outcomes())[8] == pytest.approx(13 / 109)
    with pytest.raises(ValueError, match="not a card"):
        state.apply_action(40)
    deal(state)
    assert state.current_player() == 0
    assert state.legal_actions() == [game.num_distinct_actions() - 2, game.num_distinct_actions() - 1]


def test_a_blind_draw_is_seen_by_the_drawer_alone() -> None:
    game = load()
    state = game.new_initial_state()
    deal(state)
    draw_deck = 0  # the catalogue's first id
    mover = -1
    while not state.is_chance_node():  # keep every ticket, then draw from the deck
        mover = state.current_player()
        legal = state.legal_actions()
        state.apply_action(draw_deck if draw_deck in legal else legal[0])
    assert state.history()[-1] == draw_deck
    before = [state.information_state_string(p) for p in range(2)]
    card = state.chance_outcomes()[-1][0]
    state.apply_action(card)
    after = [state.information_state_string(p) for p in range(2)]
    assert after[mover].endswith(f"c{card}") and after[1 - mover].endswith("c?")
    assert after[0].startswith(before[0]) and after[1].startswith(before[1])


def test_the_other_seats_cards_change_nothing_a_player_knows() -> None:
    game = load("map=europe,players=2")
    worlds = []
    for second_hand in ([0, 0, 1, 1], [5, 6, 7, 8]):
        state = game.new_initial_state()
        deal(state, [2, 3, 4, 5, *second_hand])
        worlds.append(state)
    a, b = worlds
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.information_state_string(1) != b.information_state_string(1)
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))


def test_resample_keeps_the_information_state_and_changes_hidden_cards() -> None:
    game = load("map=new_york,players=3")
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 60:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    other = max((q for q in range(3) if q != player), key=lambda q: sum(state.core.game.hands[q]))
    assert sum(state.core.game.hands[other]) >= 2
    hands = set()
    for i in range(12):
        sample = state.resample_from_infostate(player, lambda i=i: (i + 0.5) / 12)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.core.game.hands[player] == state.core.game.hands[player]
        hands.add(tuple(sample.core.game.hands[other]))
        assert sum(sample.core.game.hands[other]) == sum(state.core.game.hands[other])
    assert len(hands) > 1


@pytest.mark.parametrize("spec,moves", [("map=new_york,players=2", None), ("map=europe,players=2", 6)])
def test_ismcts_plays(spec: str, moves: int | None) -> None:
    game = load(spec)
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=rs)
    # ISMCTS's own resampler is a pyspiel sampler seeded anew each run: resample from `rs` to be reproducible
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and (moves is None or played < moves):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            played += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    if moves is None:
        # one winner, or a shared win (both 1.0)
        assert state.is_terminal() and sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])
    else:
        assert played == moves


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="players"):
        load("map=new_york,players=5")
    with pytest.raises(Exception, match="reward"):
        load("reward=points")


def test_cards_are_conserved_through_chance_draws() -> None:
    game = load("map=europe,players=3")
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    total = 8 * 12 + 14
    checked = 0
    while not state.is_terminal() and checked < 400:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            actions, probs = zip(*outcomes, strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        g = state.core.game
        cards = len(g._deck) + len(g.discard) + sum(1 for c in g.face_up if c >= 0) + sum(map(sum, g.hands))
        if g.t_route >= 0:  # a pending tunnel: the cards played and the cards revealed wait aside
            cards += g.map.routes[g.t_route].length + len(g.t_revealed)
        assert cards == total
        state.apply_action(int(rng.choice(state.legal_actions())))
        checked += 1
    assert checked == 400 or state.is_terminal()
