"""Taking back a move (dominion/undo.py): a seat's own last answer, while it revealed nothing.

Each scenario is a real game (a take-back rebuilds the game from its record), played by a
simple buyer until the situation named arises."""
import random

import pytest

import dominion
from dominion import END_PHASE, PLAY, PLAY_TREASURES, TAKE_BACK, Move
from tests.support import buys, coins, hand, random_answer, supply


def game_fields(state):
    """A state without what a take-back keeps (the record and the log, both append-only)."""
    return state._replace(answers=None, log=None)


def reach(kingdom, wanted, buy=(), seed=1, always_ask=False, players=2):
    """A game played until ``wanted(state, decision)`` holds: Actions are never played,
    Treasures always are, and each seat buys the first of ``buy`` it can afford, else Gold or
    Silver; any other question gets a random answer."""
    state = dominion.new_game(players=players, kingdom=kingdom, seed=seed,
                              always_ask=always_ask, first_player=0)
    rng = random.Random(seed)
    for _ in range(2000):
        decision = dominion.pending(state)
        if wanted(state, decision):
            return state
        moves = decision.moves
        if decision.kind != "turn":
            answer = random_answer(decision, rng)
        elif Move(PLAY_TREASURES) in moves:
            answer = Move(PLAY_TREASURES)
        else:
            affordable = [Move("buy", c) for c in (*buy, "Gold", "Silver") if Move("buy", c) in moves]
            answer = affordable[0] if affordable else Move(END_PHASE)
        state = dominion.step(state, answer, decision.player)
    raise AssertionError("the situation never arose")


def holding(card):
    """Seat 0 is in its Action phase with ``card`` to play."""
    return lambda s, d: d.player == 0 and Move(PLAY, card) in d.moves and \
        d.purpose == "action_phase"


def buy_phase_start(s, d):
    """Seat 0 starts its Buy phase, after the other seat's first turn."""
    return d.player == 0 and d.purpose == "buy_phase" and Move(PLAY_TREASURES) in d.moves \
        and dominion.inspect(s).turn > 1


def refusal(state, seat=0):
    why = dominion.take_back_refusal(state, seat)
    assert why is not None and not dominion.can_take_back(state, seat)
    refused = dominion.TakeBackRefusedError if dominion.pending(state).player == seat else \
        dominion.NotYourDecisionError
    with pytest.raises(refused):
        dominion.step(state, TAKE_BACK, seat)
    return why


def taken_back(state, seat=0):
    assert dominion.can_take_back(state, seat), dominion.take_back_refusal(state, seat)
    return dominion.step(state, TAKE_BACK, seat)


def test_buying_a_silver_can_be_taken_back_restoring_coins_buys_and_the_pile():
    # always_ask: the Buy phase is still asked after the last buy (otherwise the turn ends)
    s = reach("First Game", buy_phase_start, always_ask=True)
    s = dominion.step(s, Move(PLAY_TREASURES), 0)
    before = s
    s = dominion.step(s, Move("buy", "Silver"), 0)
    assert buys(s) == 0 and supply(s)["Silver"] == supply(before)["Silver"] - 1
    back = taken_back(s)
    assert game_fields(back) == game_fields(before)
    assert (coins(back), buys(back), supply(back)["Silver"]) == \
        (coins(before), buys(before), supply(before)["Silver"])
    assert dominion.decision_number(back) == dominion.decision_number(s) + 1   # never goes back
    assert dominion.log_line(back.log[-1], back.config.players, 1) == \
        "Player 1 takes back a move."


def test_buying_with_the_last_buy_ends_the_turn_whose_clean_up_draws_so_it_cannot_be_taken_back():
    s = reach("First Game", buy_phase_start)
    s = dominion.step(s, Move(PLAY_TREASURES), 0)
    s = dominion.step(s, Move("buy", "Silver"), 0)
    assert dominion.pending(s).player == 1
    assert "another seat" in refusal(s)


def test_playing_a_treasure_can_be_taken_back():
    s = reach("First Game", buy_phase_start)
    before = s
    s = dominion.step(s, Move(PLAY, "Copper"), 0)
    assert coins(s) == coins(before) + 1
    assert game_fields(taken_back(s)) == game_fields(before)


def test_playing_smithy_draws_cards_so_it_cannot_be_taken_back():
    s = reach("First Game", holding("Smithy"), buy=("Smithy",))
    s = dominion.step(s, Move(PLAY, "Smithy"), 0)
    assert "drawn" in refusal(s)


def test_playing_a_village_draws_a_card_so_it_cannot_be_taken_back():
    s = reach("First Game", holding("Village"), buy=("Village",))
    s = dominion.step(s, Move(PLAY, "Village"), 0)
    assert dominion.pending(s).player == 0
    assert "drawn" in refusal(s)


def test_chapel_and_its_trash_choice_can_be_taken_back_they_show_only_the_players_own_cards():
    kingdom = ("Chapel", "Cellar", "Moat", "Village", "Workshop", "Smithy", "Market", "Mine",
               "Remodel", "Militia")
    s = reach(kingdom, holding("Chapel"), buy=("Chapel",))
    start = s
    s = dominion.step(s, Move(PLAY, "Chapel"), 0)
    played = s
    trash = [c for c in dominion.pending(s).cards if c in ("Estate", "Copper")][:2]
    s = dominion.step(s, trash, 0)
    assert game_fields(taken_back(s)) == game_fields(played)
    assert game_fields(taken_back(taken_back(s))) == game_fields(start)


def test_an_attack_cannot_be_taken_back_and_answers_after_another_seat_answered_are_not_undoable():
    s = reach("First Game", holding("Militia"), buy=("Militia",))
    s = dominion.step(s, Move(PLAY, "Militia"), 0)
    while dominion.pending(s).player != 0:   # the victim discards (or is not asked)
        d = dominion.pending(s)
        s = dominion.step(s, random_answer(d, random.Random(0)), d.player)
    why = refusal(s)
    assert "seat 1's" in why or "Attack" in why


def test_only_the_seat_asked_can_take_back_and_never_another_seats_answer():
    s = reach("First Game", buy_phase_start)
    s = dominion.step(s, Move(PLAY, "Copper"), 0)
    with pytest.raises(dominion.NotYourDecisionError):
        dominion.step(s, TAKE_BACK, 1)
    assert "another seat" in dominion.take_back_refusal(s, 1)


def test_take_backs_go_back_answer_by_answer_to_the_last_answer_that_revealed_something():
    s = reach("First Game", buy_phase_start)
    start = s
    s = dominion.step(dominion.step(s, Move(PLAY, "Copper"), 0), Move(PLAY, "Copper"), 0)
    s = taken_back(s)
    assert s.log[-1].detail == len(start.log) + 1   # where the second Copper's event is
    s = taken_back(s)
    assert s.log[-1].detail == len(start.log)       # over the first take-back: the first
    assert game_fields(s) == game_fields(start)
    assert "seat 1's" in refusal(s)   # before: the other seat's turn
    # the record keeps the undone answers and the take-backs, and replays exactly
    assert dominion.replay(dominion.record(s)) == s
    data = dominion.record_to_data(dominion.record(s))
    assert data["answers"][-1] == [0, {"take_back": True}]
    assert dominion.record_from_data(data) == dominion.record(s)
    assert len(dominion.kept_answers(s.answers)) == len(s.answers) - 4


def test_a_take_back_entry_is_not_an_answer_that_can_be_taken_back():
    s = reach("First Game", buy_phase_start)
    s = taken_back(dominion.step(s, Move(PLAY, "Copper"), 0))
    assert "seat 1's" in refusal(s)


def test_a_position_built_by_hand_has_no_record_so_nothing_is_taken_back():
    s = dominion.position("First Game", hands=[["Copper"] * 5], phase="buy")
    s = dominion.step(s, Move(PLAY, "Copper"))
    assert "record" in refusal(s)
    assert hand(s) == ["Copper"] * 4


def test_the_state_before_the_answer_spares_the_replay_and_a_wrong_one_is_not_trusted():
    s = reach("First Game", buy_phase_start)
    before = s
    s = dominion.step(s, Move(PLAY, "Copper"), 0)
    assert dominion.can_take_back(s, 0, previous=before)
    other = before._replace(coins=7)   # a state it was not given in
    assert dominion.can_take_back(s, 0, previous=other)   # not its predecessor: replayed
    smithy = reach("First Game", holding("Smithy"), buy=("Smithy",))
    drawn = dominion.step(smithy, Move(PLAY, "Smithy"), 0)
    assert not dominion.can_take_back(drawn, 0, previous=smithy)


def owned(state, seat) -> dict:
    z = dominion.inspect(state).seats[seat]
    counts: dict = {}
    for card in z.hand + z.deck + z.discard + z.in_play + z.aside + z.looking:
        counts[card] = counts.get(card, 0) + 1
    return counts


def test_a_bot_counting_cards_from_the_log_uncounts_what_was_taken_back():
    from dominion.bots.knowledge import Holdings
    from dominion.views import Observation
    kingdom = ("Chapel", "Cellar", "Moat", "Village", "Workshop", "Smithy", "Market", "Mine",
               "Remodel", "Militia")
    s = reach(kingdom, holding("Chapel"), buy=("Chapel",), always_ask=True)
    early = Holdings(2), Holdings(2)   # read before the take-backs, then after them
    for h in early:
        h.observe(dominion.view(s, 1, log_from=0))
    s = dominion.step(s, Move(PLAY, "Chapel"), 0)
    trash = [c for c in dominion.pending(s).cards if c in ("Estate", "Copper")][:2]
    s = taken_back(taken_back(dominion.step(s, trash, 0)))   # the trashing, then Chapel
    s = dominion.step(s, Move(END_PHASE), 0)
    s = dominion.step(s, Move(PLAY_TREASURES), 0)
    s = taken_back(dominion.step(s, Move("buy", "Copper"), 0))   # a buy, taken back
    slow, fast = early
    slow.observe(dominion.view(s, 1, log_from=slow.log_from))
    fast.observe(Observation(s, 1, fast.log_from))
    late = Holdings(2)
    late.observe(dominion.view(s, 1, log_from=0))
    for h in (slow, fast, late):
        assert {c: n for c, n in h.owned[0].items() if n} == owned(s, 0)
