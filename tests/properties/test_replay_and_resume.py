"""A game is a value: its record replays it exactly, in this process or a fresh one with another
hash seed, and a state pickled in the middle of any card resumes exactly where it stood."""
import hashlib
import os
import pickle
import random
import subprocess
import sys
import textwrap

from hypothesis import HealthCheck, given, settings

import dominion
from tests.support import GameSpec, game_specs, playable_set_choices, property_examples, \
    random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
RESUMED_STEPS = 60  # steps compared after resuming a restored state


def digest(state) -> str:
    """A fingerprint of a whole state that is the same in every process (``repr`` has no
    hash-order or object-identity dependence; pickle bytes may depend on string interning)."""
    return hashlib.sha256(repr(state).encode()).hexdigest()


def mid_card_indices(states) -> list:
    """Indices of states waiting on a question asked by a card's text."""
    return [i for i, s in enumerate(states)
            if (d := dominion.pending(s)) is not None and d.card is not None]


@settings(max_examples=property_examples(180), **SLOW)
@given(game_specs())
def test_replaying_the_record_gives_an_equal_state(spec):
    game = random_trajectory(spec)
    final = game.states[-1]
    assert dominion.replay(dominion.record(final)) == final
    middle = game.states[random.Random(spec.seed).randrange(len(game.states))]
    assert dominion.replay(dominion.record(middle)) == middle


@settings(max_examples=property_examples(160), **SLOW)
@given(game_specs())
def test_a_state_restored_in_the_middle_of_a_card_resumes_identically(spec):
    game = random_trajectory(spec)
    states, answers = game.states, game.answers
    candidates = mid_card_indices(states[:-1])
    picker = random.Random(spec.answer_seed)
    chosen = picker.sample(candidates, min(4, len(candidates)))
    chosen.append(picker.randrange(len(answers)))  # and any state at all
    for i in chosen:
        restored = pickle.loads(pickle.dumps(states[i]))
        assert restored == states[i] and hash(restored) == hash(states[i])
        assert dominion.pending(restored) == dominion.pending(states[i])
        for j in range(i, min(i + RESUMED_STEPS, len(answers))):
            restored = dominion.step(restored, answers[j])
            assert restored == states[j + 1], f"{spec}: resumed at step {i}, differs after {j}"


# The fresh process replays each record and resumes each pickled state with its answers, and
# prints the digests of the results.
CHILD = textwrap.dedent("""
    import hashlib, pickle, sys
    import dominion
    cases = pickle.load(sys.stdin.buffer)
    for record, state_bytes, answers in cases:
        state = pickle.loads(state_bytes)
        for answer in answers:
            state = dominion.step(state, answer)
        for result in (dominion.replay(record), state):
            print(hashlib.sha256(repr(result).encode()).hexdigest())
""")


def test_replay_and_resume_agree_in_a_fresh_process_with_another_hash_seed():
    choices = playable_set_choices()
    specs = [GameSpec(choices[k % len(choices)], players, 1000 + players, players)
             for k, players in enumerate(range(2, 7))]
    cases, expected = [], []
    for spec in specs:
        game = random_trajectory(spec)
        states, answers = game.states, game.answers
        middle = (mid_card_indices(states[:-1]) or [len(answers) // 2])[0]
        cases.append((dominion.record(states[-1]), pickle.dumps(states[middle]),
                      answers[middle:]))
        expected += [digest(states[-1]), digest(states[-1])]
    here = os.environ.get("PYTHONHASHSEED", "")
    env = dict(os.environ, PYTHONHASHSEED="1" if here != "1" else "2")
    child = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps(cases), env=env,
                           capture_output=True, check=True, cwd=os.getcwd(), timeout=120)
    assert child.stdout.decode().split() == expected
