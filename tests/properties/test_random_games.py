"""Properties of whole random games: random Kingdoms from every playable combination of sets,
2-6 players, uniformly random legal answers. Each failure names the `GameSpec` that replays it."""
from operator import attrgetter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominion
from dominion import BUY, CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN, Move
from dominion import engine
from dominion.bots import make_bot
from tests.support import (GameSpec, at, card_counts, game_specs, log_events, phase,
                           property_examples, random_trajectory, supply, turn)

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# What counts something in a game (`inspect`): none may ever drop below zero.
COUNTERS = ("actions", "buys", "coins", "turn", "effects.actions_played",
            "effects.cost_reduction")


@settings(max_examples=property_examples(600), **SLOW)
@given(game_specs())
def test_every_random_game_ends(spec):
    game = random_trajectory(spec)  # fails naming the spec past the turn cap
    final = game.states[-1]
    if game.stalemate:
        # Random answers buy a $0 card whenever one is left; only a game without one can stall.
        turn_start = final._replace(effects=dominion.TurnEffects())  # before any Bridge
        free = [name for name, n in supply(final).items()
                if n and dominion.cost(turn_start, name) == 0]
        assert not free, f"{spec} stalled with {free} left in the Supply"
        return
    assert dominion.is_over(final) and phase(final) == dominion.OVER
    assert dominion.winners(final)
    provinces = supply(final)["Province"]
    empty = sum(1 for n in supply(final).values() if n == 0)
    assert provinces == 0 or empty >= (4 if spec.players >= 5 else 3) or \
        engine.deadlocked(final), f"{spec} ended with Provinces left and {empty} empty piles"


def test_a_game_where_no_decision_can_ever_come_ends():
    """No player has an Action or a Treasure and nothing costs $0: no answer could ever be
    asked again, so instead of passing turns forever the game ends."""
    state = at(hands=[["Duchy"], ["Estate", "Curse"]], supply={"Copper": 0, "Curse": 0})
    assert dominion.is_over(state)
    assert dominion.winners(state) == (0,)


def test_a_game_with_a_copper_left_goes_on():
    state = at(hands=[["Estate"], ["Estate"]], supply={"Copper": 1, "Curse": 0})
    assert dominion.pending(state).moves == (Move(BUY, "Copper"), Move(END_PHASE))


@settings(max_examples=property_examples(400), **SLOW)
@given(game_specs())
def test_cards_are_conserved_after_every_step(spec):
    _, states, answers, _ = random_trajectory(spec)
    start = card_counts(states[0])
    n = spec.players
    assert start["Copper"] == (120 if n >= 5 else 60) and start["Estate"] == 3 * n + \
        (8 if n == 2 else 12)
    for i, state in enumerate(states):
        now = card_counts(state)
        assert now == start, (f"{spec}: after step {i} ({answers[i - 1] if i else 'setup'}) "
                              f"created {now - start}, lost {start - now}")


def negative_counters(state) -> list:
    """Descriptions of every counter of ``state`` that is below zero."""
    seen = dominion.inspect(state)
    counts = {name: attrgetter(name)(seen) for name in COUNTERS}
    counts.update((f"mark {name}", value) for name, value in seen.effects.marks)
    bad = [f"{name}={n}" for name, n in counts.items()
           if any(k < 0 for k in (n if isinstance(n, tuple) else (n,)))]
    bad += [f"supply {name}={n}" for name, n, _ in seen.supply if n < 0]
    bad += [f"turns_taken[{s}]={z.turns_taken}" for s, z in enumerate(seen.seats)
            if z.turns_taken < 0]
    bad += [f"cost of {name}={cost}" for name, _, cost in seen.supply if cost < 0]
    return bad


@settings(max_examples=property_examples(300), **SLOW)
@given(game_specs())
def test_no_counter_ever_goes_negative(spec):
    _, states, answers, _ = random_trajectory(spec)
    for i, state in enumerate(states):
        after = answers[i - 1] if i else "setup"
        assert not negative_counters(state), f"{spec}: after step {i} ({after}): " \
            f"{negative_counters(state)}"
        seen = dominion.inspect(state)
        assert seen.turn == sum(z.turns_taken for z in seen.seats)
        assert 0 <= seen.current < spec.players


def malformed(state, d) -> str:
    """Why decision ``d`` cannot be answered as it says, or "" if it is well formed."""
    seen = dominion.inspect(state)
    if not 0 <= d.player < len(seen.seats):
        return "no such player"
    if d.kind == TURN:
        if not d.moves or len(set(d.moves)) != len(d.moves):
            return "no moves, or repeated moves"
        if d.player != seen.current:
            return "a turn decision for a player whose turn it is not"
        hand = seen.seats[d.player].hand
        supply = {name: (left, cost) for name, left, cost in seen.supply}
        for m in d.moves:
            if m.verb == PLAY and m.card not in hand:
                return f"{m} but the card is not in hand"
            if m.verb == BUY and (seen.buys < 1 or supply[m.card][1] > seen.coins or
                                  supply[m.card][0] == 0):
                return f"{m} without a Buy, the coins or a card in the pile"
            if m.verb not in (PLAY, BUY, PLAY_TREASURES, END_PHASE):
                return f"unknown verb in {m}"
        return ""
    if d.kind == SELECT:
        ok = 0 <= d.min <= d.max <= len(d.cards) and d.max >= 1
    elif d.kind == CHOOSE:
        ok = 0 <= d.min <= d.max <= len(d.options) and d.max >= 1 and \
            len(set(d.options)) == len(d.options)
    elif d.kind == ORDER:
        ok = d.min == d.max == len(d.cards) >= 2
    else:
        return f"unknown kind {d.kind!r}"
    return "" if ok else f"bounds {d.min}..{d.max} do not fit its cards/options"


@settings(max_examples=property_examples(250), **SLOW)
@given(game_specs())
def test_every_pending_decision_has_legal_answers_it_describes(spec):
    states = random_trajectory(spec).states
    for state in states[:-1]:
        d = dominion.pending(state)
        assert not malformed(state, d), f"{spec}: {malformed(state, d)}: {d}"


def play_with_bots(spec: GameSpec, turns: int = 500) -> dominion.State:
    """Play ``spec``'s game with one `random` bot per seat, each seeing only its own view, to
    its end or its turn ``turns``."""
    state = spec.new_game()
    bots = [make_bot("random", spec.answer_seed + seat) for seat in range(spec.players)]
    while (d := dominion.pending(state)) is not None and turn(state) <= turns:
        answer = bots[d.player].answer(d, dominion.view(state, d.player, log_from=None))
        state = dominion.step(state, answer, d.player)
    return state


@settings(max_examples=property_examples(100), **SLOW)
@given(game_specs())
def test_the_same_seed_and_answers_give_the_same_game(spec):
    first, second = play_with_bots(spec), play_with_bots(spec)
    assert first == second
    assert log_events(first) == log_events(second)
    assert dominion.record(first) == dominion.record(second)


@settings(max_examples=property_examples(200), deadline=None)
@given(st.sampled_from(tuple(dominion.RECOMMENDED)), st.integers(0, 2 ** 64 - 1),
       st.integers(1, 2 ** 64 - 1))
def test_different_seeds_give_different_shuffles(kingdom, seed, delta):
    """Six players' starting hands and decks coincide for two seeds with probability
    120**-6 (each deck is one of C(10, 3) = 120 orders) if the seeds' shuffles are independent."""
    other = (seed + delta) % 2 ** 64

    def openings(s):
        state = dominion.new_game(players=6, kingdom=kingdom, seed=s)
        return tuple((z.hand, z.deck) for z in dominion.inspect(state).seats)

    assert openings(seed) != openings(other)


def test_a_game_of_chapels_with_nothing_left_at_0_ends():
    """Everyone has trashed down to a Chapel and the Copper and Curse piles are empty: no card
    can ever be bought or gained, so the game could never end by its rules; it ends instead of
    asking for Actions and Buys forever."""
    state = at("Chapel", hands=[["Chapel"], ["Chapel"]], supply={"Copper": 0, "Curse": 0})
    assert dominion.pending(state).purpose == "action_phase"      # a real decision
    state = dominion.step(state, Move(PLAY, "Chapel"))
    assert dominion.is_over(state)


def test_a_game_where_a_card_can_still_be_bought_goes_on():
    """Poachers can make $2 together, and an Estate costs $2: not stuck."""
    state = at("Chapel", "Poacher", hands=[["Chapel", "Poacher"], ["Poacher"]],
               supply={"Copper": 0, "Curse": 0})
    state = dominion.step(state, Move(END_PHASE))
    state = dominion.step(state, Move(END_PHASE))
    assert not dominion.is_over(state)


def test_a_game_where_someone_can_still_gain_a_card_goes_on():
    state = at("Chapel", "Workshop", hands=[["Chapel"], ["Workshop"]],
               supply={"Copper": 0, "Curse": 0})
    state = dominion.step(state, Move(END_PHASE))
    assert not dominion.is_over(state)


def test_a_throne_room_counts_double_when_weighing_what_could_be_bought():
    """One Poacher makes $1 (< $2 for an Estate), but played twice by a Throne Room it makes $2."""
    hands = [["Chapel", "Poacher", "Throne Room"], ["Chapel"]]
    state = at("Chapel", "Poacher", "Throne Room", hands=hands,
               supply={"Copper": 0, "Curse": 0})
    state = dominion.step(state, Move(END_PHASE))
    assert not dominion.is_over(state)
    alone = at("Chapel", "Poacher", hands=[["Chapel", "Poacher"], ["Chapel"]],
               supply={"Copper": 0, "Curse": 0})
    assert dominion.is_over(dominion.step(alone, Move(END_PHASE)))


@settings(max_examples=property_examples(150), **SLOW)
@given(game_specs())
def test_the_victory_points_kept_in_the_state_are_the_cards_score_after_every_step(spec):
    """`State.vp` is updated only when cards change owner (gain, trash, pass); it must always
    equal the score counted from every card (Gardens and Duke included)."""
    game = random_trajectory(spec)
    for i, state in enumerate(game.states):
        assert state.vp == dominion.score(state), (spec, i, game.answers[i - 1] if i else None)
