"""A view's VP tells no secret: a card passed face down (Masquerade) moves no VP that a seat who
did not see it, or a spectator, can read (rulebook, 1st ed., "Pass": a passed card is not
revealed to the other players).

Two checks over random 3-6 player games full of Masquerades, with and without cards whose VP
depends on the owner's other cards (Duke, Gardens):
- at each hidden pass, a twin game where the giver passed another card looks the same to every
  seat that is neither giver nor receiver, and to a spectator (VP included);
- at every state, for every seat, `determinize` samples (which trade the cards passed unseen
  between the two seats) give the same `view` as the real state.
"""
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dominion
from tests.support import answer, at, play, property_examples, random_answer

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

FIXED_VP_KINGDOM = ("Masquerade", "Cellar", "Chapel", "Moat", "Village", "Workshop", "Militia",
                    "Smithy", "Throne Room", "Witch")
VARIABLE_VP_KINGDOM = ("Masquerade", "Duke", "Gardens", "Cellar", "Chapel", "Moat", "Village",
                       "Workshop", "Smithy", "Witch")
POOL = ("Masquerade", "Masquerade", "Copper", "Silver", "Estate", "Duchy", "Province", "Curse")
MAX_DECISIONS = 250


def masquerade_game(players: int, variable: bool, seed: int,
                    always_ask: bool = False) -> dominion.State:
    """A Buy-phase-free start: every seat holds a Masquerade and four cards with and without VP,
    decks full of Masquerades and Victory cards."""
    rng = random.Random(seed)
    pool = POOL + (("Duke", "Gardens") if variable else ())
    hands = [["Masquerade"] + [rng.choice(pool) for _ in range(4)] for _ in range(players)]
    decks = [[rng.choice(pool) for _ in range(12)] for _ in range(players)]
    return dominion.position(VARIABLE_VP_KINGDOM if variable else FIXED_VP_KINGDOM,
                             players=players, hands=hands, decks=decks, seed=seed % 2 ** 32,
                             always_ask=always_ask)


def views(state, seats):
    return [dominion.view(state, seat, log_from=0) for seat in seats]


@settings(max_examples=property_examples(25), **SLOW)
@given(players=st.integers(3, 6), variable=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_a_card_passed_face_down_moves_no_vp_that_others_see(players, variable, seed):
    rng = random.Random(seed)
    state = start = masquerade_game(players, variable, seed)
    twins = []          # (twin state, giver, receiver) while the passes are being chosen
    hidden_passes = 0
    for i in range(MAX_DECISIONS):
        d = dominion.pending(state)
        if d is None:
            break
        if i % 7 == 0 or twins:
            for seat in range(players):
                sample = dominion.determinize(state, seat, rng.randrange(2 ** 64), start)
                assert dominion.view(sample, seat, log_from=0) == \
                    dominion.view(state, seat, log_from=0), (players, variable, seed, i, seat)
        ans = random_answer(d, rng)
        twins = [(answer(t, ans, d.player), g, r) for t, g, r in twins]
        if d.purpose == "pass" and len(set(d.cards)) > 1:
            other = rng.choice([c for c in d.cards if c != ans[0]])
            twins.append((dominion.step(state, [other], d.player), d.player, d.about_player))
        state = answer(state, ans, d.player)
        after = dominion.pending(state)
        if twins and (after is None or after.purpose != "pass"):   # every pass has moved
            for twin, giver, receiver in twins:
                third = [s for s in range(players) if s not in (giver, receiver)] + [None]
                assert views(twin, third) == views(state, third), (players, variable, seed, i)
                hidden_passes += 1
            twins = []
    assert hidden_passes or dominion.pending(state) is None or i < MAX_DECISIONS - 1


def test_a_curse_passed_face_down_moves_no_vp_a_third_seat_or_spectator_sees():
    """Ann passes a Curse to Bob, Bob a Copper to Cid, Cid an Estate to Ann: Cid saw only the
    Copper he received and his Estate, a spectator none of them. Each reads the VP of the cards
    it saw move, the others as if never passed; Ann and Bob read their own true VP."""
    start = at("Masquerade", players=3, hands=[["Masquerade", "Curse", "Copper"],
                                              ["Copper", "Silver"], ["Estate", "Silver"]],
               decks=[["Gold", "Gold", "Duchy", "Duchy"], [], []])
    s = answer(answer(answer(play(start, "Masquerade"), ["Curse"]), ["Copper"], 1), ["Estate"], 2)
    true = dominion.score(s)
    assert true == (7, -1, 0)
    vp = {viewer: [p.vp for p in dominion.view(s, viewer).players] for viewer in (None, 0, 1, 2)}
    assert vp[None] == [5, 0, 1]         # no pass seen: every card counts for its giver
    assert vp[0] == [7, -1, 0]           # Ann gave the Curse and received the Estate
    assert vp[1] == [6, -1, 1]           # Bob: the Curse came, the Estate is still Cid's
    assert vp[2] == [6, 0, 0]            # Cid: his Estate went to Ann; the Curse is Ann's
    assert [vp[seat][seat] for seat in range(3)] == list(true)
    # Cid's samples draw the card Ann passed from her hidden cards with the Curse among them
    # (the Curse, or one of her Duchies in the deck, ...): the samples' true scores differ from
    # the game's and from each other, Cid's view does not.
    samples = [dominion.determinize(s, 2, seed, origin=start) for seed in range(20)]
    scores = {dominion.score(sample) for sample in samples}
    assert (3, 3, 0) in scores and len(scores) > 1
    assert all(dominion.view(sample, 2, log_from=0) == dominion.view(s, 2, log_from=0)
               for sample in samples)


def test_at_the_end_every_view_shows_the_true_scores():
    s = at("Masquerade", players=3, hands=[["Masquerade", "Curse", "Copper"], ["Copper", "Silver"],
                                          ["Estate", "Silver"]],
           supply={"Province": 1}, coins=8)
    s = answer(answer(answer(play(s, "Masquerade"), ["Curse"]), ["Copper"], 1), ["Estate"], 2)
    s = answer(s, [])                                          # trash nothing
    while (d := dominion.pending(s)) is not None and d.player == 0:
        s = answer(s, dominion.Move("buy", "Province") if dominion.Move("buy", "Province")
                   in d.moves else dominion.Move("end_phase"))
    assert dominion.pending(s) is None
    for viewer in (None, 0, 1, 2):
        assert tuple(p.vp for p in dominion.view(s, viewer).players) == dominion.score(s)


def test_a_seat_that_saw_one_of_two_passes_counts_every_seats_cards_as_the_table_shows():
    """Gardens counts every card, and how many cards each seat has is public. Ann saw the
    Copper she gave Bob and the one Cid gave her, not the one Bob gave Cid: Bob still has 19
    cards (one Gardens: 1 VP) and Cid 20 (2 VP). Counting Bob's unseen pass as not made gave
    Bob 20 cards and Cid 19 in Ann's view, one card from the counts on the table."""
    s = at("Masquerade", "Gardens", players=3,
           hands=[["Masquerade", "Copper"], ["Copper", "Gardens"], ["Copper", "Gardens"]],
           decks=[["Silver", "Silver"], ["Copper"] * 17, ["Copper"] * 18])
    s = answer(answer(answer(play(s, "Masquerade"), ["Copper"]), ["Copper"], 1), ["Copper"], 2)
    assert dominion.score(s) == (0, 1, 2)
    for viewer in (None, 0, 1, 2):
        assert tuple(p.vp for p in dominion.view(s, viewer).players) == (0, 1, 2), viewer
