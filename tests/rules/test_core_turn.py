"""The turn structure and the engine contract, on the simplest cards."""
import pytest

import dominion
from dominion import BUY, END_PHASE, PLAY, PLAY_TREASURES, Move
from tests.support import actions, at, current, hand, phase, play, zone


def test_smithy_draws_three_and_uses_the_action():
    s = at("Smithy", hands=[["Smithy", "Copper", "Copper", "Estate", "Estate"]],
           decks=[["Gold", "Silver", "Copper", "Estate"]])
    s = play(s, "Smithy")
    assert hand(s) == sorted(["Copper", "Copper", "Estate", "Estate", "Gold", "Silver", "Copper"])
    assert actions(s) == 0
    assert phase(s) == "buy"  # no Action left: the Action phase is over by itself


def test_no_treasure_may_be_played_after_the_first_buy():
    s = at(hands=[["Copper", "Copper", "Silver", "Estate", "Estate"]], phase="buy", buys=2)
    s = dominion.step(s, Move(PLAY, "Silver"))
    s = dominion.step(s, Move(BUY, "Estate"))
    moves = dominion.pending(s).moves
    assert Move(PLAY, "Copper") not in moves and Move(PLAY_TREASURES) not in moves
    assert Move(BUY, "Copper") in moves


def test_step_never_changes_its_input():
    s = at("Smithy", hands=[["Smithy", "Copper", "Copper", "Estate", "Estate"]])
    before = (s, hash(s))
    play(s, "Smithy")
    assert (s, hash(s)) == before


def test_illegal_answer_raises_and_names_the_legal_ones():
    s = at(hands=[["Copper"] * 5], phase="buy")
    with pytest.raises(dominion.IllegalAnswerError, match="legal moves"):
        dominion.step(s, Move(BUY, "Province"))


def test_answer_from_a_seat_not_asked_is_refused():
    s = at(hands=[["Copper"] * 5], phase="buy")
    with pytest.raises(dominion.NotYourDecisionError):
        dominion.step(s, Move(END_PHASE), player=1)


def test_cleanup_draws_five_and_passes_the_turn():
    s = at(hands=[["Copper"] * 5], decks=[["Estate"] * 6], phase="buy")
    s = dominion.step(s, Move(END_PHASE))
    assert current(s) == 1
    assert hand(s, 0) == ["Estate"] * 5
    assert zone(s, "discard", 0)[-5:] == ("Copper",) * 5


def test_turn_decisions_equal_the_same_decision_built_field_by_field():
    s = at(hands=[["Copper", "Village"]])
    d = dominion.pending(s)
    assert d == dominion.Decision(d.player, dominion.TURN, d.prompt, purpose=d.purpose,
                                  moves=d.moves, min=1, max=1)
