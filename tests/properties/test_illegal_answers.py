"""Bad answers at random moments of random games: each raises its typed error and changes
nothing, and the game then goes on exactly as if it had never been tried."""
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominion
from dominion import (BUY, CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN,
                      GameOverError, IllegalAnswerError, Move, NotYourDecisionError)
from tests.support import game_specs, property_examples, random_answer, random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
TRIES_PER_GAME = 12

NAMES = dominion.card_names() + ("Nonexistent", "", "copper", "GOLD")
JUNK = (None, 0, 7, -1, 2.5, b"Copper", {"no such card": 1}, object(), [[]], [None], [3, 4])


def too_many(d, rng):
    """More cards than allowed, drawn from the pool (with repeats when it runs out)."""
    return [rng.choice(d.cards or NAMES) for _ in range(d.max + 1 + rng.randrange(3))]


def too_few(d, rng):
    return rng.sample(d.cards, rng.randrange(d.min)) if d.min > 0 else None


def with_a_foreign_card(d, rng):
    """A legal-sized answer with one card that the pool does not hold (so often)."""
    size = rng.randint(max(1, d.min), d.max)
    picked = rng.sample(d.cards, size - 1) + [rng.choice(NAMES)]
    extra = picked[-1]
    return picked if picked.count(extra) > d.cards.count(extra) else None


def illegal_select(d, rng):
    return rng.choice((too_many, too_few, with_a_foreign_card))(d, rng)


def illegal_choose(d, rng):
    options = list(d.options)
    kind = rng.randrange(4)
    if kind == 0:  # a repeated option
        return [options[0]] * 2
    if kind == 1:  # an option that does not exist
        return [rng.choice(("", "maybe", "YES", "+$9")) + "?"]
    if kind == 2 and d.min > 0:
        return []
    return options + ["extra"]  # one more than there are


def illegal_order(d, rng):
    cards = list(d.cards)
    rng.shuffle(cards)
    kind = rng.randrange(3)
    if kind == 0:
        return cards[1:]
    if kind == 1:
        return cards + [rng.choice(cards)]
    wrong = rng.choice([n for n in NAMES if n != cards[0]])
    return [wrong] + cards[1:]


def illegal_move(d, rng):
    move = Move(rng.choice((PLAY, BUY, PLAY_TREASURES, END_PHASE, "gain", "pass")),
                rng.choice(NAMES + (None,)))
    return move if move not in d.moves else None


ILLEGAL = {TURN: illegal_move, SELECT: illegal_select, CHOOSE: illegal_choose,
           ORDER: illegal_order}


def illegal_answer(d, rng):
    """An answer that ``d`` does not allow: junk of the wrong type, or a near miss."""
    while True:
        answer = rng.choice(JUNK) if rng.random() < 0.2 else ILLEGAL[d.kind](d, rng)
        if answer is not None:
            return answer


def sampled_moments(game, rng):
    """Up to TRIES_PER_GAME random moments of a game: (index, state, its pickle taken before
    any answer is tried, the pending decision)."""
    for i in rng.sample(range(len(game.answers)), min(TRIES_PER_GAME, len(game.answers))):
        state = game.states[i]
        yield i, state, pickle.dumps(state), dominion.pending(state)


@settings(max_examples=property_examples(100), **SLOW)
@given(game_specs(), st.integers(0, 2 ** 32 - 1))
def test_an_illegal_answer_raises_and_changes_nothing(spec, try_seed):
    game = random_trajectory(spec)
    rng = random.Random(try_seed)
    for i, state, snapshot, d in sampled_moments(game, rng):
        answer = illegal_answer(d, rng)
        with pytest.raises(IllegalAnswerError):
            dominion.step(state, answer)
        with pytest.raises(IllegalAnswerError) as error:
            dominion.step(state, answer, d.player)
        allowed = str(d.moves[0]) if d.kind == TURN else (d.options or d.cards)[0]
        assert allowed in str(error.value), f"{error.value} does not say what is allowed"
        assert state == pickle.loads(snapshot)
        assert dominion.step(state, game.answers[i]) == game.states[i + 1]


@settings(max_examples=property_examples(60), **SLOW)
@given(game_specs(), st.integers(0, 2 ** 32 - 1))
def test_an_answer_from_a_seat_not_asked_raises_and_changes_nothing(spec, try_seed):
    game = random_trajectory(spec)
    rng = random.Random(try_seed)
    for i, state, snapshot, d in sampled_moments(game, rng):
        seat = rng.choice([s for s in range(spec.players) if s != d.player])
        with pytest.raises(NotYourDecisionError):
            dominion.step(state, random_answer(d, rng), seat)
        assert state == pickle.loads(snapshot)
        assert dominion.step(state, game.answers[i], d.player) == game.states[i + 1]
    final = game.states[-1]
    if not game.stalemate:
        with pytest.raises(GameOverError):
            dominion.step(final, Move(END_PHASE))
