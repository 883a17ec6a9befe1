"""`determinize` for information-set search: the sample is a state the player cannot tell apart
from the real one (their view is the same), it holds the same cards, it plays on to the end, and
it really redistributes what the player cannot see."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominion
from tests.properties.test_known_vp import MAX_DECISIONS, masquerade_game
from tests.support import (card_counts, game_specs, property_examples, random_answer,
                           random_trajectory, turn, zone)

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=property_examples(40), **SLOW)
@given(game_specs())
def test_a_determinized_state_looks_the_same_to_the_player_and_plays_on(spec):
    game = random_trajectory(spec)
    rng = random.Random(spec.answer_seed)
    for i in range(0, len(game.states), max(1, len(game.states) // 12)):
        state = game.states[i]
        for player in range(spec.players):
            sample = dominion.determinize(state, player, rng.randrange(2 ** 64))
            assert dominion.view(sample, player) == dominion.view(state, player), (spec, i)
            assert card_counts(sample) == card_counts(state), (spec, i)
            d = dominion.pending(state)
            if d is not None and d.kind == dominion.TURN and d.player != player:
                # another seat's turn is asked again from the cards dealt to it: its plays
                # and buys are that seat's own; what everyone sees of it (the view) is the same
                assert dominion.pending(sample).purpose == d.purpose
            else:
                assert dominion.pending(sample) == d
        # The sample is a playable game: random answers take it to its end (or far enough).
        sample = dominion.determinize(state, rng.randrange(spec.players), rng.randrange(2 ** 64))
        turns = 0
        while (d := dominion.pending(sample)) is not None and turns < 400:
            sample = dominion.step(sample, random_answer(d, rng), d.player)
            turns = turn(sample) - turn(state)


def test_determinize_redistributes_what_the_player_cannot_see():
    state = dominion.new_game(players=2, seed=8)
    hands = {zone(dominion.determinize(state, 0, seed), "hand", 1) for seed in range(30)}
    decks = {zone(dominion.determinize(state, 0, seed), "deck") for seed in range(30)}
    assert len(hands) > 1 and len(decks) > 1
    assert all(zone(dominion.determinize(state, 0, s), "hand") == zone(state, "hand")
               for s in range(30))


def test_determinize_is_a_pure_function_of_its_seed():
    state = dominion.new_game(players=3, seed=2)
    assert dominion.determinize(state, 1, 77) == dominion.determinize(state, 1, 77)
    assert dominion.determinize(state, 1, 77).rng != state.rng


def test_cards_named_by_work_in_progress_keep_their_places():
    """Library's drawn Action is being looked at: a sample for the other seat keeps it there,
    so that answering the question still works."""
    s = dominion.position(("Library",) + ("Cellar", "Chapel", "Moat", "Village", "Workshop",
                                          "Gardens", "Militia", "Smithy", "Witch"),
                          hands=[["Library"] + ["Copper"] * 5], decks=[["Smithy", "Silver"]])
    s = dominion.step(s, dominion.Move("play", "Library"))
    for seed in range(10):
        sample = dominion.determinize(s, 1, seed)
        assert zone(sample, "looking") == ("Smithy",)
        dominion.step(sample, ["no"])


def test_a_sample_for_another_seat_keeps_the_cards_sentry_is_looking_at():
    """Sentry's frame names the two cards it looks at (a Copper and a Bureaucrat); the Copper in
    the looking zone keeps its place, not a Copper of the same name in the hand, so that
    answering on the sample still works (hypothesis found this)."""
    s = dominion.position(("Sentry", "Bureaucrat", "Cellar", "Chapel", "Moat", "Village",
                           "Workshop", "Gardens", "Militia", "Smithy"),
                          hands=[["Sentry"] + ["Copper"] * 4],
                          decks=[["Silver", "Copper", "Bureaucrat", "Estate", "Estate"]])
    s = dominion.step(s, dominion.Move("play", "Sentry"))
    assert sorted(zone(s, "looking")) == ["Bureaucrat", "Copper"]
    for seed in range(20):
        sample = dominion.determinize(s, 1, seed)
        assert sorted(zone(sample, "looking")) == ["Bureaucrat", "Copper"]
        sample = dominion.step(sample, [])          # trash nothing
        sample = dominion.step(sample, [])          # discard nothing
        dominion.step(sample, ["Copper", "Bureaucrat"])   # put both back


def test_a_sample_keeps_the_card_harbinger_may_take_from_the_discard_pile():
    """Harbinger's question names the discard pile's cards; an Estate of the same name in hand
    must not keep its place instead of the one in the discard pile (hypothesis found this)."""
    s = dominion.position(("Harbinger", "Cellar", "Chapel", "Moat", "Village", "Workshop",
                           "Gardens", "Militia", "Smithy", "Witch"),
                          hands=[["Harbinger", "Estate", "Copper", "Copper", "Copper"]],
                          decks=[["Silver", "Gold", "Copper"]],
                          discards=[["Copper", "Estate", "Duchy", "Silver"]])
    s = dominion.step(s, dominion.Move("play", "Harbinger"))
    assert dominion.pending(s).cards == ("Copper", "Duchy", "Estate", "Silver")
    for seed in range(20):
        dominion.step(dominion.determinize(s, 1, seed), ["Estate"])


@pytest.mark.parametrize("bad", [(5, 1), (-1, 1), (True, 1), (0, -1), (0, 2 ** 64)])
def test_determinize_refuses_a_bad_seat_or_seed(bad):
    with pytest.raises(dominion.InvalidConfigError):
        dominion.determinize(dominion.new_game(seed=1), *bad)


@settings(max_examples=property_examples(25), **SLOW)
@given(game_specs())
def test_a_sample_carries_nothing_the_player_may_not_see(spec):
    """The sample's log is the player's view of the log (another seat's private draws, passes
    and topdecks removed), other seats' answers are gone, and two states the player cannot
    tell apart (the real one and a sample) give the same sample for the same seed at the
    player's own turn, where no work in progress pins a card."""
    game = random_trajectory(spec)
    rng = random.Random(spec.answer_seed)
    for i in range(0, len(game.states), max(1, len(game.states) // 10)):
        state = game.states[i]
        d = dominion.pending(state)
        if d is None:
            continue
        player = d.player
        sample = dominion.determinize(state, player, rng.randrange(2 ** 64))
        for event in sample.log:   # a hidden pass names the card the sample drew, no secret:
            # the identity below shows it depends only on what the player knows
            assert event.seen_by is None or player in event.seen_by or not event.cards \
                or event.kind == "pass", (spec, i, event)
        assert len(sample.answers) == len(state.answers)
        assert all(a is None for seat, a in sample.answers if seat != player)
        if d.kind == dominion.TURN:
            seed = rng.randrange(2 ** 64)
            assert dominion.determinize(sample, player, seed) == \
                dominion.determinize(state, player, seed), (spec, i)


def test_a_buy_phase_pins_no_card_of_a_hidden_zone():
    """The Buy phase offers every pile, so its question names Copper, Silver, Estate...: none
    of them may keep its real place in another seat's hand or the player's own deck."""
    state = dominion.new_game(players=2, seed=3)
    while dominion.pending(state).purpose != "buy_phase" or dominion.pending(state).player != 0:
        d = dominion.pending(state)
        state = dominion.step(state, d.moves[-1])
    hands = {dominion.determinize(state, 0, seed).players[1].hand for seed in range(40)}
    decks = {dominion.determinize(state, 0, seed).players[0].deck[-1] for seed in range(40)}
    assert len(hands) > 5 and decks == {"Copper", "Estate"}


@settings(max_examples=property_examples(40), **SLOW)
@given(players=st.integers(3, 6), variable=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_samples_depend_only_on_what_the_seat_has_seen_after_unseen_passes(players, variable,
                                                                           seed):
    """Twin games: at each Masquerade pass with a choice, a twin where the giver passed another
    card, both then given the same answers. A seat that saw neither pass cannot tell them
    apart (its view, log included, is the same), so at its own turn's decision (nothing
    half-resolved pins a card) it must get the same sample for the same seed."""
    rng = random.Random(seed)
    state = masquerade_game(players, variable, seed)
    twins = []   # (twin, giver, receiver)
    for _ in range(MAX_DECISIONS):
        d = dominion.pending(state)
        if d is None:
            break
        if d.kind == dominion.TURN and len(state.stack) == 1:
            seat = d.player
            for twin, giver, receiver in twins:
                if seat in (giver, receiver) or dominion.view(twin, seat, log_from=0) != \
                        dominion.view(state, seat, log_from=0):
                    continue
                k = rng.randrange(2 ** 64)
                assert dominion.determinize(twin, seat, k) == \
                    dominion.determinize(state, seat, k), (players, variable, seed)
        ans = random_answer(d, rng)
        kept = []
        for twin, giver, receiver in twins:
            t = dominion.pending(twin)
            if t is not None and t.kind == d.kind and t.player == d.player:
                try:
                    kept.append((dominion.step(twin, ans, d.player), giver, receiver))
                except dominion.IllegalAnswerError:
                    pass   # the twins part: the one holds a card the other does not
        twins = kept[-6:]
        if d.purpose == "pass" and len(set(d.cards)) > 1:
            other = rng.choice([c for c in d.cards if c != ans[0]])
            twins.append((dominion.step(state, [other], d.player), d.player, d.about_player))
        state = dominion.step(state, ans, d.player)


def another_seats_turn(deck, phase="buy", hand=("Estate", "Estate", "Village", "Smithy",
                                                 "Cellar"), always_ask=False):
    """Seat 1 is asked its turn's decision ($6: Gold among its buys); seat 0 determinizes."""
    return dominion.position("First Game", players=2, current=1, phase=phase, coins=6,
                             always_ask=always_ask, hands=[["Copper"] * 5, list(hand)],
                             decks=[["Silver"] * 3 + ["Copper"] * 4, deck],
                             discards=[[], ["Copper", "Copper"]])


def test_another_seats_pending_turn_pins_none_of_its_cards():
    """Seat 1's Buy phase offers a Gold; its deck's top card, a Gold, is hidden from seat 0.
    Pinning the names the decision offers kept that Gold on top in every sample."""
    s = another_seats_turn(["Gold", "Copper", "Copper", "Market", "Estate"])
    samples = [dominion.determinize(s, 0, seed) for seed in range(200)]
    tops = {zone(sample, "deck", 1)[-1] for sample in samples}   # the deck's top: its end
    assert len(tops) > 3
    for sample in samples[:40]:
        assert dominion.view(sample, 0, log_from=0) == dominion.view(s, 0, log_from=0)
        d = dominion.pending(sample)
        assert (d.player, d.purpose) == (1, "buy_phase")
        buys = [m for m in d.moves if m.verb == "buy"]   # public: the coins and the Supply
        assert buys == [m for m in dominion.pending(s).moves if m.verb == "buy"]


def test_samples_of_another_seats_turn_depend_only_on_what_the_seat_sees():
    a = another_seats_turn(["Gold", "Copper", "Copper", "Market", "Estate"])
    b = another_seats_turn(["Copper", "Market", "Estate", "Gold", "Copper"])
    assert all(dominion.determinize(a, 0, k) == dominion.determinize(b, 0, k)
               for k in range(30))


def test_another_seats_action_phase_is_dealt_an_action_to_play():
    """Asked in its Action phase (no question skipped), seat 1 holds an Action: every sample
    deals it one, so the sample asks the same phase and plays on."""
    s = another_seats_turn(["Gold", "Copper", "Copper", "Market", "Estate"], phase="action")
    assert dominion.pending(s).purpose == "action_phase"
    for seed in range(40):
        sample = dominion.determinize(s, 0, seed)
        d = dominion.pending(sample)
        assert d.purpose == "action_phase" and any(m.verb == "play" for m in d.moves)
        assert dominion.view(sample, 0, log_from=0) == dominion.view(s, 0, log_from=0)
        sample = dominion.step(sample, d.moves[-1], 1)   # end the phase: the sample plays on
