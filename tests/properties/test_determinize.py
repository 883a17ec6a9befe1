"""`determinize` for information-set search: the sample is a state the player cannot tell apart
from the real one (their view is the same), it holds the same cards, it plays on to the end, and
it really redistributes what the player cannot see."""
import random
from collections import Counter

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
            if d is not None and d.player != player:
                # another seat's turn or question is asked again from the cards dealt to it:
                # its options are that seat's own; what everyone sees of it (the view) is the same
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


def test_a_sample_deals_the_card_library_looks_at_among_the_actions_it_could_be():
    """Seat 0's Library drew an Action (it is asked whether to set it aside: everyone sees
    that); seat 1 cannot see which, so its samples deal a Smithy or the Village of seat 0's
    deck there, never a Copper, and the question, now about that card, is answered."""
    start = dominion.position(("Library", "Cellar", "Chapel", "Moat", "Village", "Workshop",
                               "Gardens", "Militia", "Smithy", "Witch"),
                              hands=[["Library"] + ["Copper"] * 5],
                              decks=[["Smithy", "Silver", "Village"]])
    s = dominion.step(start, dominion.Move("play", "Library"))
    looked_at = set()
    for seed in range(20):
        sample = dominion.determinize(s, 1, seed, origin=start)
        assert zone(sample, "looking") in (("Smithy",), ("Village",))
        assert dominion.pending(sample).about_cards == zone(sample, "looking")
        looked_at.add(zone(sample, "looking"))
        dominion.step(sample, ["no"])
    assert len(looked_at) == 2


def test_a_sample_for_another_seat_deals_the_cards_sentry_looks_at_anew():
    """Sentry looks at two cards seat 1 cannot see: its samples deal any two of seat 0's
    hidden cards there, and the sample's questions, about those cards, play on."""
    start = dominion.position(("Sentry", "Bureaucrat", "Cellar", "Chapel", "Moat", "Village",
                               "Workshop", "Gardens", "Militia", "Smithy"),
                              hands=[["Sentry"] + ["Copper"] * 4],
                              decks=[["Silver", "Copper", "Bureaucrat", "Estate", "Estate"]])
    s = dominion.step(start, dominion.Move("play", "Sentry"))
    assert sorted(zone(s, "looking")) == ["Bureaucrat", "Copper"]
    looked_at = set()
    for seed in range(20):
        sample = dominion.determinize(s, 1, seed, origin=start)
        looked_at.add(tuple(sorted(zone(sample, "looking"))))
        assert sorted(dominion.pending(sample).cards) == sorted(zone(sample, "looking"))
        sample = dominion.step(sample, [])          # trash nothing
        sample = dominion.step(sample, [])          # discard nothing
        if (d := dominion.pending(sample)).card == "Sentry":
            dominion.step(sample, list(d.cards))    # put both back
    assert len(looked_at) > 2


def test_a_sample_asks_harbinger_about_the_discard_pile_it_deals():
    """Harbinger's question names the discard pile's cards, hidden below its top from seat
    1: a sample asks about the pile it dealt, and taking a card of it plays on."""
    start = dominion.position(("Harbinger", "Cellar", "Chapel", "Moat", "Village", "Workshop",
                               "Gardens", "Militia", "Smithy", "Witch"),
                              hands=[["Harbinger", "Estate", "Copper", "Copper", "Copper"]],
                              decks=[["Silver", "Gold", "Copper"]],
                              discards=[["Copper", "Estate", "Duchy", "Silver"]])
    s = dominion.step(start, dominion.Move("play", "Harbinger"))
    assert dominion.pending(s).cards == ("Copper", "Duchy", "Estate", "Silver")
    pools = set()
    for seed in range(20):
        sample = dominion.determinize(s, 1, seed, origin=start)
        d = dominion.pending(sample)
        assert d.cards == tuple(sorted(set(zone(sample, "discard")))), seed
        pools.add(d.cards)
        dominion.step(sample, [d.cards[0]])
    assert len(pools) > 1


def test_another_seats_card_question_needs_the_games_history():
    """A position is no record: while another seat answers a card's question, its sample
    needs the state the position started from, and says so rather than guess."""
    start = dominion.position(("Harbinger", "Cellar", "Chapel", "Moat", "Village", "Workshop",
                               "Gardens", "Militia", "Smithy", "Witch"),
                              hands=[["Harbinger", "Estate", "Copper"]], decks=[["Gold"]],
                              discards=[["Copper", "Estate", "Duchy", "Silver"]])
    s = dominion.step(start, dominion.Move("play", "Harbinger"))
    with pytest.raises(dominion.InvalidConfigError, match="give origin"):
        dominion.determinize(s, 1, 5)
    dominion.determinize(s, 0, 5)   # the seat's own question needs no history


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


def twin_games(players: int, variable: bool, seed: int, always_ask: bool = False,
               watch: bool = False):
    """A Masquerade game of random answers and its twins: at each pass with a choice, a twin
    where the giver passed another card, both then given the same answers. Yields, at each
    decision, (rng, the state, its decision, the twins), a twin as (twin state, giver,
    receiver, told); with ``watch``, told holds the seats whose view of it has differed from
    the game's at some decision (a discard pile's top card can show a pass that the log never
    names)."""
    rng = random.Random(seed)
    state = masquerade_game(players, variable, seed, always_ask)
    twins = []
    for _ in range(MAX_DECISIONS):
        d = dominion.pending(state)
        if d is None:
            break
        yield rng, state, d, twins
        ans = random_answer(d, rng)
        kept = []
        for twin, giver, receiver, told in twins:
            t = dominion.pending(twin)
            if t is not None and t.kind == d.kind and t.player == d.player:
                try:
                    twin = dominion.step(twin, ans, d.player)
                except dominion.IllegalAnswerError:
                    continue   # the twins part: the one holds a card the other does not
                kept.append((twin, giver, receiver, told))
        twins = kept[-6:]
        if d.purpose == "pass" and len(set(d.cards)) > 1:
            other = rng.choice([c for c in d.cards if c != ans[0]])
            twins.append((dominion.step(state, [other], d.player), d.player, d.about_player,
                          set()))
        state = dominion.step(state, ans, d.player)
        for twin, _, _, told in twins if watch else ():
            told.update(seat for seat in range(players) if seat not in told and
                        dominion.view(twin, seat) != dominion.view(state, seat))


def same_to(seat, twin, state) -> bool:
    return dominion.view(twin, seat, log_from=0) == dominion.view(state, seat, log_from=0)


@settings(max_examples=property_examples(40), **SLOW)
@given(players=st.integers(3, 6), variable=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_samples_depend_only_on_what_the_seat_has_seen_after_unseen_passes(players, variable,
                                                                           seed):
    """A seat that saw neither of two twins' passes cannot tell them apart (its view, log
    included, is the same), so at its own turn's decision (nothing half-resolved pins a card)
    it must get the same sample for the same seed."""
    for rng, state, d, twins in twin_games(players, variable, seed):
        if d.kind == dominion.TURN and len(state.stack) == 1:
            seat = d.player
            for twin, giver, receiver, _ in twins:
                if seat not in (giver, receiver) and same_to(seat, twin, state):
                    k = rng.randrange(2 ** 64)
                    assert dominion.determinize(twin, seat, k) == \
                        dominion.determinize(state, seat, k), (players, variable, seed)


@settings(max_examples=property_examples(8), **SLOW)
@given(players=st.integers(3, 6), variable=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_samples_at_another_seats_question_depend_only_on_the_seats_view_history(players,
                                                                                 variable, seed):
    """Issue 31 item 4: while another seat answers a card's question (here the Masquerade
    player's trash, every pass made), a seat whose view of two twins was the same all along
    gets the same sample for the same seed (drawn before the question and played forward).
    The games ask every question: where a forced one is skipped, the skip tells the hand (a
    seat holding only Provinces passes one unasked), and a deal that matches may be too rare
    to find before the sample falls back on pinning the question's cards."""
    start = masquerade_game(players, variable, seed, always_ask=True)
    for rng, state, d, twins in twin_games(players, variable, seed, always_ask=True,
                                           watch=True):
        if d.purpose != "trash":
            continue
        seat = rng.choice([s for s in range(players) if s != d.player])
        for twin, giver, receiver, told in twins:
            if seat not in (giver, receiver) and seat not in told and \
                    same_to(seat, twin, state):
                k = rng.randrange(2 ** 64)
                sample = dominion.determinize(state, seat, k, start)
                assert dominion.determinize(twin, seat, k, start) == sample, \
                    (players, variable, seed)
                assert dominion.view(sample, seat) == dominion.view(state, seat)
                break   # one twin per question: its samples are played forward, slower


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


def workshop_game():
    """A seeded game of random answers, stopped where seat 1 is asked what its Workshop gains:
    the question offers every pile up to $4, Village among them, and a Village is the top card
    of seat 1's deck (seat 0 cannot see it; it is in no other zone of seat 1 but the deck)."""
    kingdom = ["Mine", "Artisan", "Remodel", "Workshop", "Village", "Smithy", "Market",
               "Courtyard", "Moat", "Cellar"]
    rng = random.Random(7)
    state = dominion.new_game(players=2, kingdom=kingdom, seed=7)
    for _ in range(69):
        d = dominion.pending(state)
        state = dominion.step(state, random_answer(d, rng), d.player)
    return state


def test_another_seats_card_question_keeps_none_of_its_hidden_cards_in_place():
    """Issue 31 item 4: the names another seat's pending question holds (here the Supply's
    piles a Workshop may gain) kept a card of those names in its real place: seat 1's top-deck
    Village stayed on top in every sample."""
    state = workshop_game()
    d = dominion.pending(state)
    seat1 = state.players[1]
    assert (d.player, d.card, d.purpose) == (1, "Workshop", "gain") and "Village" in d.cards
    assert seat1.deck[-1] == "Village" and "Village" not in seat1.hand + seat1.discard
    samples = [dominion.determinize(state, 0, seed) for seed in range(200)]
    tops = Counter(zone(sample, "deck", 1)[-1] for sample in samples)
    assert tops["Village"] < 100 and len(tops) > 2, tops
    for sample in samples[:20]:
        assert dominion.view(sample, 0, log_from=0) == dominion.view(state, 0, log_from=0)
        assert dominion.pending(sample).purpose == "gain"


def test_samples_at_another_seats_card_question_are_playable_to_the_end():
    """A sample taken while seat 1 answers its Workshop's question is a game the engine plays
    on to its end."""
    state = workshop_game()
    rng = random.Random(1)
    for seed in range(3):
        sample = dominion.determinize(state, 0, seed)
        while (d := dominion.pending(sample)) is not None and turn(sample) < 600:
            sample = dominion.step(sample, random_answer(d, rng), d.player)
        assert dominion.is_over(sample)
