"""Taking back a move in random games: whenever it is allowed, it restores the position before
the answer exactly (and so do take-backs in a row), and the answer it takes back told no other
seat anything that is not public (so nothing hidden leaks through a move then taken back)."""
import random

from hypothesis import HealthCheck, given, settings

import dominion
from tests.support import game_specs, property_examples, random_answer

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHECKED = 12   # answers checked per game (each check replays the game so far)
ANSWERS = 400  # answers played per game: enough for many turns of every seat


def random_states(spec) -> list:
    """The states of ``spec``'s game, random answers, for at most ANSWERS answers."""
    rng = random.Random(spec.answer_seed)
    states = [spec.new_game()]
    while len(states) <= ANSWERS and (d := dominion.pending(states[-1])) is not None:
        states.append(dominion.step(states[-1], random_answer(d, rng), d.player))
    return states


def private_part(view, seat):
    """What ``seat``'s view holds beyond a spectator's: its own hand and looked-at cards and
    its decision."""
    me = view.players[seat]
    return me.hand, me.looking, view.decision


def new_events(state, start, viewer):
    return [dominion.visible_event(e, viewer) for e in state.log[start:]]


@settings(max_examples=property_examples(25), **SLOW)
@given(game_specs(max_players=4))
def test_a_take_back_restores_the_position_and_the_answer_it_takes_back_leaked_nothing(spec):
    states = random_states(spec)
    candidates = [i for i in range(1, len(states))
                  if (d := dominion.pending(states[i])) is not None
                  and d.player == dominion.pending(states[i - 1]).player]
    for i in random.Random(spec.answer_seed).sample(candidates, min(CHECKED, len(candidates))):
        before, after = states[i - 1], states[i]
        seat = dominion.pending(before).player
        why = dominion.take_back_refusal(after, seat)
        assert (why is None) == (dominion.reveals(before, after, seat) is None), why
        if why is not None:
            continue
        back = dominion.step(after, dominion.TAKE_BACK, seat)
        assert back._replace(answers=before.answers, log=before.log) == before
        # the answer's events stay, then the take-back names where they began
        assert list(back.log) == [*after.log, dominion.Event("take_back", seat,
                                                             detail=len(before.log))]
        assert back.answers == after.answers.append((seat, dominion.TAKE_BACK))
        assert dominion.replay(dominion.record(back)) == back
        # take-backs in a row go back answer by answer, each naming where its events began
        j, again = i - 1, back
        while j > 0 and dominion.can_take_back(again, seat):
            again = dominion.step(again, dominion.TAKE_BACK, seat)
            j -= 1
            assert again._replace(answers=states[j].answers, log=states[j].log) == states[j]
            assert again.log[-1].detail == len(states[j].log)
        for other in range(len(before.players)):
            if other == seat:
                continue
            assert private_part(dominion.view(after, other), other) == \
                private_part(dominion.view(before, other), other)
            assert new_events(after, len(before.log), other) == \
                new_events(after, len(before.log), None)
            assert dominion.view(back, other)._replace(log=()) == \
                dominion.view(before, other)._replace(log=())
