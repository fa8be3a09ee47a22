"""Drawing train cards (E-DRAW-1..8)."""

from __future__ import annotations

from collections import Counter

from helpers import set_face_up, set_hand, skip_setup, stack_deck, started
from ttr.engine import Game, public_log, seat_view
from ttr.engine.phases import MAIN, SECOND_CARD
from ttr.engine.views import history_actions
from ttr.maps import load_map
from ttr.records import read_record, replay, write_record

from .scenarios import (
    DRAW_DECK,
    PASS,
    TOTAL_CARDS,
    assert_illegal,
    assert_legal,
    card_counts,
    claim,
    face_up,
    hand_of,
    move_deck_to_hand,
    move_discard_to_hand,
    move_row_to_hand,
    move_ticket_deck_to,
)


def names(game: Game, cards: list[int]) -> list[str | None]:
    """Card names of card indexes (None for an empty slot)."""
    return [game.map.card_names[c] if c >= 0 else None for c in cards]


def test_E_DRAW_1_two_blind_cards_make_a_turn() -> None:
    game = started("europe", 2, seed=21)
    set_hand(game, 0, {})
    stack_deck(game, ["red", "blue"])
    game.apply(DRAW_DECK)
    assert game.phase == SECOND_CARD and game.current == 0
    assert hand_of(game, 0) == {"red": 1}
    game.apply(DRAW_DECK)
    assert hand_of(game, 0) == {"red": 1, "blue": 1}
    assert game.current == 1 and game.phase == MAIN


def test_E_DRAW_1_two_face_up_cards_make_a_turn() -> None:
    game = started("europe", 2, seed=21)
    set_hand(game, 0, {})
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    game.apply(face_up("blue"))
    assert game.phase == SECOND_CARD
    game.apply(face_up("green"))
    assert hand_of(game, 0) == {"blue": 1, "green": 1}
    assert game.current == 1


def test_E_DRAW_1_a_card_that_is_not_face_up_cannot_be_taken() -> None:
    game = started("europe", 2, seed=21)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    assert_illegal(game, face_up("purple"), "E-DRAW-1")
    game.apply(DRAW_DECK)
    assert_illegal(game, face_up("yellow"), "E-DRAW-1")


def test_E_DRAW_2_a_taken_face_up_card_is_replaced_from_the_top_of_the_deck() -> None:
    game = started("europe", 2, seed=22)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["orange", "yellow"])
    deck_size = len(game._deck)
    game.apply(face_up("green"))
    assert names(game, game.face_up) == ["red", "blue", "orange", "white", "black"]
    game.apply(face_up("red"))
    assert names(game, game.face_up) == ["yellow", "blue", "orange", "white", "black"]
    assert len(game._deck) == deck_size - 2
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_DRAW_3_a_face_up_locomotive_as_first_card_ends_the_turn() -> None:
    game = started("europe", 2, seed=23)
    set_hand(game, 0, {})
    set_face_up(game, ["locomotive", "red", "blue", "green", "white"])
    stack_deck(game, ["black"])
    game.apply(face_up("locomotive"))
    assert hand_of(game, 0) == {"locomotive": 1}
    assert game.current == 1 and game.phase == MAIN
    assert names(game, game.face_up)[0] == "black"


def test_E_DRAW_3_a_blind_first_card_does_not_end_the_turn_but_a_face_up_locomotive_does() -> None:
    game = started("europe", 2, seed=23)
    set_face_up(game, ["locomotive", "red", "blue", "green", "white"])
    assert_legal(game, face_up("locomotive"))
    game.apply(face_up("red"))
    assert game.phase == SECOND_CARD and game.current == 0


def test_E_DRAW_4_the_second_card_may_not_be_a_face_up_locomotive_already_there() -> None:
    game = started("europe", 2, seed=24)
    set_face_up(game, ["locomotive", "red", "blue", "green", "white"])
    stack_deck(game, ["black"])
    game.apply(face_up("red"))
    assert_illegal(game, face_up("locomotive"), "E-DRAW-4")
    assert_legal(game, face_up("blue"), face_up("black"), DRAW_DECK)


def test_E_DRAW_4_the_second_card_may_not_be_a_locomotive_just_turned_up() -> None:
    game = started("europe", 2, seed=24)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["locomotive"])
    game.apply(face_up("red"))
    assert names(game, game.face_up)[0] == "locomotive"
    assert_illegal(game, face_up("locomotive"), "E-DRAW-4")
    game.apply(face_up("blue"))
    assert game.current == 1


def test_E_DRAW_5_a_blind_locomotive_is_an_ordinary_first_card() -> None:
    game = started("europe", 2, seed=25)
    set_hand(game, 0, {})
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    stack_deck(game, ["locomotive", "locomotive"])
    game.apply(DRAW_DECK)
    assert game.phase == SECOND_CARD and game.current == 0
    assert_legal(game, DRAW_DECK, face_up("red"))
    game.apply(DRAW_DECK)  # a blind locomotive as the second card is fine too
    assert hand_of(game, 0) == {"locomotive": 2}
    assert game.current == 1


def test_E_DRAW_5_blind_draws_are_not_shown_to_others() -> None:
    game = started("europe", 2, seed=25)
    stack_deck(game, ["locomotive", "purple"])
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)
    own = [e for e in seat_view(game, 0)["log"] if e.get("from") == "deck"]
    other = [e for e in seat_view(game, 1)["log"] if e.get("from") == "deck"]
    spectator = [e for e in public_log(game) if e.get("from") == "deck"]
    assert [e.get("card") for e in own] == ["locomotive", "purple"]
    assert len(other) == 2 and all("card" not in e for e in other)
    assert len(spectator) == 2 and all("card" not in e for e in spectator)


def test_E_DRAW_6_three_face_up_locomotives_after_a_refill_reset_the_row() -> None:
    game = started("europe", 2, seed=26)
    set_hand(game, 0, {})
    set_face_up(game, ["locomotive", "locomotive", "red", "blue", "green"])
    new_row = ["white", "black", "orange", "purple", "yellow"]
    stack_deck(game, ["locomotive", *new_row])
    discard_before = list(game.discard)
    game.apply(face_up("red"))
    assert names(game, game.face_up) == new_row
    assert names(game, game.discard[len(discard_before):]) == ["locomotive", "locomotive", "locomotive", "blue",
                                                                "green"]
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_DRAW_6_at_most_three_resets_in_a_row_then_the_row_stays_until_a_card_is_taken() -> None:
    game = started("europe", 2, seed=26)
    set_hand(game, 0, {})
    set_face_up(game, ["locomotive", "locomotive", "red", "blue", "green"])
    row1 = ["locomotive", "white", "locomotive", "black", "locomotive"]
    row2 = ["orange", "locomotive", "locomotive", "locomotive", "purple"]
    row3 = ["locomotive", "locomotive", "yellow", "locomotive", "white"]
    row4 = ["red", "red", "blue", "blue", "green"]
    stack_deck(game, ["locomotive", *row1, *row2, *row3, "black", *row4])
    discard_before = len(game.discard)
    game.apply(face_up("red"))
    # The first row (now with 3 locomotives) and the 2 next rows were discarded; the third new row stays.
    assert names(game, game.face_up) == row3
    assert names(game, game.discard[discard_before:]) == [
        "locomotive", "locomotive", "locomotive", "blue", "green", *row1, *row2]
    assert game.phase == SECOND_CARD
    assert_illegal(game, face_up("locomotive"), "E-DRAW-4")
    assert_legal(game, face_up("yellow"), face_up("white"), DRAW_DECK)
    # Taking a card from the row that stayed: the refill leaves 3 locomotives, so the row resets again.
    game.apply(face_up("yellow"))
    assert names(game, game.face_up) == row4
    assert hand_of(game, 0) == {"red": 1, "yellow": 1}
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_DRAW_7_the_discards_are_reshuffled_only_when_a_card_must_be_taken() -> None:
    game = started("europe", 2, seed=27)
    set_hand(game, 0, {"red": 3})
    move_deck_to_hand(game, 1)
    assert game._deck == [] and game.discard
    game.apply(claim("Kyiv-Smolensk", red=3))  # cards go to the discard pile; no reshuffle yet
    assert game._deck == [] and game._reshuffles == []
    discard = Counter(game.discard)
    game.apply(DRAW_DECK)  # seat 1 must take a card from the empty deck: reshuffle now
    assert len(game._reshuffles) == 1
    assert Counter(game._reshuffles[0]) == discard
    assert game.discard == []
    assert len(game._deck) == sum(discard.values()) - 1
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_DRAW_7_emptying_the_deck_does_not_reshuffle_until_the_next_card() -> None:
    game = started("europe", 2, seed=27)
    set_hand(game, 0, {})  # the old hand goes to the discard pile
    move_deck_to_hand(game, 1, leave=1)
    discard = list(game.discard)
    assert discard
    game.apply(DRAW_DECK)
    assert game._deck == [] and game.discard == discard and game._reshuffles == []
    game.apply(DRAW_DECK)
    assert len(game._reshuffles) == 1 and game.discard == []


def test_E_DRAW_7_a_face_up_refill_from_an_empty_deck_reshuffles() -> None:
    game = started("europe", 2, seed=27)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    move_deck_to_hand(game, 1)
    set_hand(game, 0, {})  # the old hand goes to the discard pile
    pile = Counter(game.discard)
    game.apply(face_up("red"))
    assert len(game._reshuffles) == 1 and Counter(game._reshuffles[0]) == pile
    assert game.face_up[0] >= 0
    assert len(game._deck) == sum(pile.values()) - 1


def test_E_DRAW_7_a_slot_that_cannot_be_refilled_stays_empty() -> None:
    game = started("europe", 2, seed=27)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    game.apply(face_up("blue"))
    assert names(game, game.face_up) == ["red", None, "green", "white", "black"]
    assert game._reshuffles == []
    game.apply(face_up("red"))
    assert names(game, game.face_up) == [None, None, "green", "white", "black"]
    assert sum(card_counts(game)) == TOTAL_CARDS


def test_E_DRAW_7_there_is_no_hand_limit() -> None:
    game = started("europe", 2, seed=27)
    move_deck_to_hand(game, 0, leave=4)
    assert sum(game.hands[0]) > 80
    size = sum(game.hands[0])
    game.apply(DRAW_DECK)
    game.apply(DRAW_DECK)
    assert sum(game.hands[0]) == size + 2


def test_E_DRAW_8_no_blind_draw_when_deck_and_discard_are_empty() -> None:
    game = started("europe", 2, seed=28)
    set_face_up(game, ["red", "blue", "green", "white", "black"])
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    assert_illegal(game, DRAW_DECK, "E-DRAW-8")
    assert_legal(game, face_up("red"))


def test_E_DRAW_8_with_no_card_to_draw_the_player_takes_another_action() -> None:
    game = started("europe", 2, seed=28)
    set_hand(game, 0, {"red": 3})
    move_row_to_hand(game, 1)
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    kinds = {a.kind for a in game.legal_actions()}
    assert "draw_card" not in kinds and "pass" not in kinds
    assert_illegal(game, PASS, "E-DRAW-8")
    game.apply(claim("Kyiv-Smolensk", red=3))
    assert game.current == 1


def test_E_DRAW_8_with_no_legal_second_card_the_turn_ends_with_one_card() -> None:
    game = started("europe", 2, seed=28)
    set_hand(game, 0, {})
    set_face_up(game, ["red", "locomotive", "locomotive"])
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    game.apply(face_up("red"))
    assert hand_of(game, 0) == {"red": 1}
    assert game.current == 1 and game.phase == MAIN
    assert names(game, game.face_up) == [None, "locomotive", "locomotive", None, None]


def test_E_DRAW_8_a_seat_with_no_legal_action_passes_and_the_log_records_it() -> None:
    game = started("europe", 2, seed=28)
    set_hand(game, 0, {})
    move_row_to_hand(game, 1)
    move_deck_to_hand(game, 1)
    move_discard_to_hand(game, 1)
    move_ticket_deck_to(game, 1)
    assert game.legal_actions() == [PASS]
    history = len(game.history)
    game.apply(PASS)
    assert game.current == 1 and game.phase == MAIN
    assert len(game.history) == history + 1
    assert public_log(game)[-1] == {"player": 0, "action": "pass"}
    assert history_actions(game)[-1] == {"player": 0, "action": "pass"}
    assert_illegal(game, PASS, "E-DRAW-8")  # seat 1 holds every card: it has other actions


def test_E_DRAW_4_a_replayed_record_stops_at_the_illegal_second_card_and_names_the_rule() -> None:
    colours = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green"]
    front = ["black"] * 8 + ["red", "locomotive", "blue", "green", "white"]
    rest = Counter({c: 12 for c in colours} | {"locomotive": 14})
    rest.subtract(Counter(front))
    train = front + [c for c in [*colours, "locomotive"] for _ in range(rest[c])]
    game = Game.new(load_map("europe"), 2, seed=29, decks={"train": train})
    skip_setup(game)
    game.apply(face_up("red"))
    record = write_record(game)
    record["actions"].append({"player": 0, "action": "draw_card", "from": "face_up", "card": "locomotive"})
    result = replay(read_record(record))
    assert result.error is not None
    assert result.error["index"] == len(record["actions"]) - 1
    assert result.error["message"].startswith("E-DRAW-4")
    state = result.to_json()
    assert state["turn"] == {"player": 0, "phase": "second_card"}
    assert state["players"][0]["hand"] == {"black": 4, "red": 1}
