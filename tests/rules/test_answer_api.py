"""The answer API's edges for outside programs: exactly the documented answer shapes, answers
tied to the decision they were meant for, and error messages that tell no seat what it may not
know."""
import pytest

import dominion
from dominion import (IllegalAnswerError, InvalidConfigError, Move, NotYourDecisionError,
                      StaleAnswerError)
from tests.support import at, play, zone

MILITIA_VICTIM = ["Copper", "Copper", "Estate", "Estate", "Gold"]


def militia_discard():
    """Seat 1 must discard 2 of a mixed hand."""
    return play(at("Militia", hands=[["Militia"], MILITIA_VICTIM]), "Militia")


@pytest.mark.parametrize("answer", [
    {"Copper": 2}, {"Copper", "Estate"}, (c for c in ("Copper", "Estate")), "Copper",
    b"Copper", ["Copper", 7], None, 3, [["Copper"], ["Estate"]]],
    ids=["dict", "set", "generator", "one-string", "bytes", "non-string-item", "none", "int",
         "nested"])
def test_a_select_takes_only_a_list_or_tuple_of_card_names(answer):
    s = militia_discard()
    with pytest.raises(IllegalAnswerError, match="list or tuple of card names"):
        dominion.step(s, answer, 1)


def test_a_select_answer_as_list_or_tuple_is_accepted():
    s = militia_discard()
    assert dominion.step(s, ["Copper", "Estate"], 1) == dominion.step(s, ("Copper", "Estate"), 1)


def test_an_order_refuses_a_set_whose_order_depends_on_the_hash_seed():
    s = at("Sentry", hands=[["Sentry"]], decks=[["Copper", "Gold", "Estate"]])
    s = play(s, "Sentry")
    s = dominion.step(s, [])            # trash nothing
    s = dominion.step(s, [])            # discard nothing
    d = dominion.pending(s)
    assert d.kind == dominion.ORDER
    with pytest.raises(IllegalAnswerError, match="list or tuple of card names"):
        dominion.step(s, set(d.cards))


def test_a_turn_takes_only_a_move():
    s = at("Village", hands=[["Village", "Copper"]])
    for bad in (("play", "Village"), ["play", "Village"], "play Village", {"play": "Village"}):
        with pytest.raises(IllegalAnswerError, match="a Move"):
            dominion.step(s, bad)
    assert dominion.pending(dominion.step(s, Move("play", "Village"))).kind == dominion.TURN


def test_a_choose_takes_options_as_a_sequence_or_one_string():
    s = at("Pawn", hands=[["Pawn"]], decks=[["Copper"]])
    s = play(s, "Pawn")
    assert dominion.step(s, ["+1 Card", "+$1"]) == dominion.step(s, ("+1 Card", "+$1"))
    with pytest.raises(IllegalAnswerError):
        dominion.step(s, {"+1 Card", "+$1"})


@pytest.mark.parametrize("seat", [False, True, 0.0, 1.0, "1"])
def test_the_answering_seat_must_be_an_int(seat):
    s = militia_discard()
    with pytest.raises(InvalidConfigError, match="seat number"):
        dominion.step(s, ["Copper", "Estate"], seat)


def test_an_answer_names_the_decision_it_answers():
    s = militia_discard()
    n = dominion.decision_number(s)
    after = dominion.step(s, ["Copper", "Estate"], 1, number=n)
    assert after == dominion.step(s, ["Copper", "Estate"], 1)
    with pytest.raises(StaleAnswerError, match="already answered"):
        dominion.step(after, ["Copper"], number=n)
    with pytest.raises(StaleAnswerError, match="not asked yet"):
        dominion.step(s, ["Copper", "Estate"], 1, number=n + 1)


def test_an_answer_for_an_earlier_question_is_not_applied_to_the_next_one():
    """The same card list fits both Militia victims' questions; tied to its number, the
    retried first answer is refused instead of answering the second victim's question."""
    hands = [["Copper", "Copper", "Estate", "Estate", "Gold"], ["Militia"],
             ["Copper", "Copper", "Estate", "Estate", "Gold"]]
    s = play(at("Militia", players=3, current=1, hands=hands), "Militia")
    first = dominion.decision_number(s)
    s2 = dominion.step(s, ["Copper", "Estate"], 2, number=first)
    assert dominion.pending(s2).player == 0
    with pytest.raises(StaleAnswerError):
        dominion.step(s2, ["Copper", "Estate"], number=first)


def test_not_your_decision_does_not_reveal_the_drawn_action_of_library():
    s = at("Library", hands=[["Library"] + ["Copper"] * 5], decks=[["Smithy", "Silver"]])
    s = play(s, "Library")
    assert dominion.pending(s).about_cards == ("Smithy",)
    with pytest.raises(NotYourDecisionError) as e:
        dominion.step(s, ["yes"], 1)
    assert "Smithy" not in str(e.value) and "Library" not in str(e.value)


def test_not_your_decision_does_not_reveal_a_militia_victims_hand():
    s = militia_discard()
    with pytest.raises(NotYourDecisionError) as e:
        dominion.step(s, ["Gold"], 0)
    assert not any(c in str(e.value) for c in ("Gold", "Estate", "Copper"))


def test_error_messages_quote_bad_input_only_so_far():
    s = militia_discard()
    with pytest.raises(IllegalAnswerError) as e:
        dominion.step(s, {"x" * 100_000: 1}, 1)
    assert len(str(e.value)) < 1_000


@pytest.mark.parametrize("case", [
    ("Steward", ["Copper", "Copper"], [["trash 2 cards"]], "trash"),
    ("Mill", ["Copper", "Copper", "Copper"], [["yes"]], "discard"),
    ("Trading Post", ["Estate", "Estate", "Copper"], [], "trash"),
    ("Trading Post", ["Estate", "Copper"], [], "trash"),
    ("Poacher", ["Copper", "Copper"], [], "discard"),
], ids=lambda c: f"{c[0]}-{len(c[1])}")
def test_a_question_with_only_one_possible_answer_is_not_asked(case):
    """Every legal answer is the same game: the question is skipped (README, Forced questions)."""
    card, hand, answers, purpose = case
    empty = {"Curse": 0} if card == "Poacher" else {}
    s = play(at(card, hands=[[card] + hand], supply=empty), card)
    for a in answers:
        s = dominion.step(s, a)
    d = dominion.pending(s)
    forced = not (card == "Trading Post" and len(hand) == 3)
    assert (d is None or d.purpose != purpose) == forced, d


def test_a_torturer_victim_holding_one_kind_of_card_discards_without_being_asked():
    s = play(at("Torturer", hands=[["Torturer"], ["Copper"] * 4]), "Torturer")
    s = dominion.step(s, ["discard 2 cards"], 1)
    assert dominion.pending(s).player == 0 and len(zone(s, "hand", 1)) == 2


def test_discarding_two_different_cards_is_asked_even_when_both_must_go():
    """Which card ends on top of the discard pile is the player's choice."""
    s = play(at("Torturer", hands=[["Torturer"], ["Copper", "Estate"]]), "Torturer")
    s = dominion.step(s, ["discard 2 cards"], 1)
    d = dominion.pending(s)
    assert (d.player, d.purpose, d.min, d.max) == (1, "discard", 2, 2)


def test_an_unknown_card_name_is_quoted_only_so_far():
    with pytest.raises(dominion.UnknownCardError) as e:
        dominion.card("Z" * 100_000)
    assert len(str(e.value)) < 2_000


def test_an_illegal_selection_is_quoted_only_so_far():
    s = militia_discard()
    with pytest.raises(IllegalAnswerError) as e:
        dominion.step(s, ["Q" * 100_000, "Copper"], 1)
    assert len(str(e.value)) < 1_000
