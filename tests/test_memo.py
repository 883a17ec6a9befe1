"""The engine's memo tables (`dominion.engine.Memo`): values found by key or by identity, never
another key's, and bounded."""
from __future__ import annotations

import dominion
from dominion import engine
from dominion.engine import END_THE_PHASE, Memo, turn_decision


def test_a_memo_drops_every_value_when_full_and_keeps_the_new_one():
    memo = Memo(2)
    memo.keep("a", 1)
    memo.keep("b", 2)
    assert memo.keep("c", 3) == 3
    assert memo.values == {"c": 3}


def test_a_value_kept_by_identity_is_not_given_to_an_equal_other_object():
    memo = Memo(8)
    first, second = tuple(["Copper", "Silver"]), tuple(["Copper", "Silver"])
    assert first == second and first is not second
    made = []

    def make(owner):
        made.append(owner)
        return len(made)

    assert memo.of(first, make) == 1
    assert memo.of(first, make) == 1          # the last one asked for
    assert memo.of(second, make) == 2         # equal, but another object: made anew
    assert memo.of(first, make) == 1          # found again by its identity
    assert [id(o) for o in made] == [id(first), id(second)]


def test_a_turn_decision_is_found_again_only_for_the_same_seat_phase_and_moves():
    plays = engine.treasure_moves(("Copper", "Silver"))
    buys = engine.affordable_moves(dominion.new_game(seed=1).pile_names, 0, 3)
    d = turn_decision(0, "buy_phase", plays, buys)
    assert d.moves == plays + buys + (END_THE_PHASE,) and d.player == 0
    assert turn_decision(0, "buy_phase", plays, buys) is d
    other_seat = turn_decision(1, "buy_phase", plays, buys)
    assert other_seat.player == 1 and other_seat.moves == d.moves
    fresh = turn_decision(0, "buy_phase", plays, tuple(buys))   # an equal tuple: same value
    assert fresh == d
    action = turn_decision(0, "action_phase", engine.action_moves(("Smithy",)), ())
    assert action.purpose == "action_phase" and action.moves[-1] == END_THE_PHASE


def test_the_affordable_buys_of_one_game_do_not_answer_for_another_kingdom():
    cheap = dominion.new_game(kingdom="First Game", seed=1).pile_names
    other = dominion.new_game(kingdom=["Chapel", "Village", "Smithy", "Market", "Mine", "Moat",
                                       "Militia", "Witch", "Laboratory", "Festival"],
                              seed=1).pile_names
    assert [m.card for m in engine.affordable_moves(cheap, 0, 2)] == [
        n for n in cheap if dominion.CARDS[n].cost <= 2]
    assert [m.card for m in engine.affordable_moves(other, 0, 2)] == [
        n for n in other if dominion.CARDS[n].cost <= 2]
    assert "Chapel" in [m.card for m in engine.affordable_moves(other, 0, 2)]

