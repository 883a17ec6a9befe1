"""Under ``always_ask`` the public part of every question (`View.waiting`, the PublicDecision
the wire sends everyone: who, on which card, what for, how many cards, the sentence) is the
same whatever the asked hand holds (README, "Hidden information": "Nothing is then learned from
who is asked").

Twin states: a game and a `determinize` sample of it for the seat answering, which deals every
card that seat cannot see anew (other seats' hands and decks). Both get the same answer; when
a spectator sees the same table in both (the same log, sizes and piles), the question asked
next must look the same too, even where the asked hands differ (a Moat in one, none in the
other)."""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominion
from tests.support import property_examples, random_answer

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Every Reaction of the sets, and the cards whose "you may" question picks its pool out of the
# hand (Moneylender's Coppers, Mine's Treasures, Throne Room's Actions) or asks of every card
# drawn (Library), of an Estate (Baron), of a Victory card (Bureaucrat), and Attacks that ask.
KINGDOM = ("Moat", "Secret Chamber", "Diplomat", "Moneylender", "Mine", "Throne Room", "Militia",
           "Library", "Baron", "Bureaucrat")


def public(state):
    """What a spectator sees of the table, apart from the pending question."""
    return dominion.view(state, None, log_from=0)._replace(waiting=None)


@settings(max_examples=property_examples(30), **SLOW)
@given(seed=st.integers(0, 2 ** 64 - 1), answers=st.integers(0, 2 ** 32 - 1),
       players=st.integers(2, 4), kingdom=st.sampled_from([list(KINGDOM), "random"]))
def test_the_public_part_of_a_question_is_the_same_whatever_the_asked_hand_holds(
        seed, answers, players, kingdom):
    """Over games of the Kingdom above and random Kingdoms of every set."""
    rng = random.Random(answers)
    state = dominion.new_game(players=players, kingdom=kingdom, seed=seed, always_ask=True)
    compared = 0
    for _ in range(600):
        d = dominion.pending(state)
        if d is None:
            break
        twin = dominion.determinize(state, d.player, rng.randrange(2 ** 64))
        answer = random_answer(d, rng)
        after, twin_after = (dominion.step(s, answer, d.player) for s in (state, twin))
        if dominion.pending(after) is not None and public(after) == public(twin_after):
            compared += 1
            waiting = dominion.view(after, None).waiting
            assert waiting == dominion.view(twin_after, None).waiting, (seed, answers)
            asked = dominion.pending(after)   # the wire's PublicDecision says the same
            assert dominion.public_decision(asked, after.config.players, len(
                after.players[asked.player].hand)) == waiting
        state = after
    assert compared > 0


def test_moneylender_without_a_copper_is_asked_as_with_one():
    """The case that told: "trashing 0 cards" without a Copper, "up to a card" with one."""
    def asked(hand):
        s = dominion.position(KINGDOM, hands=[["Moneylender"] + hand, ["Copper"] * 5],
                              always_ask=True)
        s = dominion.step(s, dominion.Move("play", "Moneylender"))
        return dominion.view(s, 1).waiting, dominion.pending(s)
    (with_copper, mine), (without, none) = asked(["Copper", "Estate"]), asked(["Silver"] * 2)
    assert with_copper == without
    assert with_copper.text == "Player 1 is trashing up to a card for Moneylender."
    assert (mine.max, none.max, none.cards) == (1, 0, ())   # the asked seat's own bounds


def test_a_victim_without_a_reaction_is_asked_as_one_holding_a_moat():
    def asked(victim_hand):
        s = dominion.position(KINGDOM, hands=[["Militia"] + ["Copper"] * 4, victim_hand],
                              always_ask=True)
        s = dominion.step(s, dominion.Move("play", "Militia"))
        return dominion.view(s, 0).waiting
    assert asked(["Moat"] + ["Copper"] * 4) == asked(["Estate"] + ["Copper"] * 4)
