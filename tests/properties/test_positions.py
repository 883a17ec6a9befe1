"""`position` can start from any turn position a real game reaches, and `inspect` reads a whole
state in the order `position` takes: rebuilding a random game's turn positions from their
inspection gives the same zones, Supply, trash, counters and pending decision."""
from hypothesis import HealthCheck, given, settings

import dominion
from tests.support import game_specs, property_examples, random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def comparable(inspection):
    """An inspection without what a position cannot carry: the answers taken so far."""
    return inspection._replace(decision_number=0, config=inspection.config._replace(
        seed=0, first_player=0))


@settings(max_examples=property_examples(40), **SLOW)
@given(game_specs())
def test_every_turn_position_of_a_random_game_rebuilds_from_its_inspection(spec):
    game = random_trajectory(spec)
    checked = 0
    for state in game.states[::7]:
        d = dominion.pending(state)
        if d is None or d.kind != dominion.TURN or len(state.stack) != 1:
            continue                     # in the middle of a card: not a turn's position
        seen = dominion.inspect(state)
        rebuilt = dominion.position(**seen.position_args())
        assert comparable(dominion.inspect(rebuilt)) == comparable(seen), spec
        checked += 1
    assert checked or len(game.states) < 20


def test_inspect_lists_piles_top_card_first_as_position_takes_them():
    s = dominion.position("First Game", decks=[["Gold", "Copper"]],
                          discards=[["Province", "Estate"]], hands=[["Village"]])
    seat = dominion.inspect(s).seats[0]
    assert (seat.deck, seat.discard) == (("Gold", "Copper"), ("Province", "Estate"))
    assert dominion.view(s, 1).players[0].discard_top == "Province"


def test_a_position_carries_this_turns_effects():
    effects = dominion.TurnEffects(actions_played=3, cost_reduction=2,
                                   marks=(("Coppersmith", 1), ("Merchant", (1, 0))))
    s = dominion.position("First Game", hands=[["Copper", "Silver"]], phase="buy",
                          effects=effects, turns_taken=(4, 3), coins=1)
    assert dominion.inspect(s).effects == effects
    s = dominion.step(s, dominion.Move("play_treasures"))
    seen = dominion.inspect(s)
    # Copper 1 + Coppersmith 1, Silver 2 + Merchant 1, and the coin already there.
    assert seen.coins == 6 and seen.effects.actions_played == 3
    assert seen.effects.marks == (("Coppersmith", 1), ("Merchant", (1, 1)))   # a Silver played
    assert dict((n, c) for n, _, c in seen.supply)["Gold"] == 4   # Bridge: $6 - 2
    assert [z.turns_taken for z in seen.seats] == [4, 3]


def test_a_position_can_set_cards_aside_and_the_trash_from_any_sequence():
    s = dominion.position("First Game", aside=[["Smithy"]], looking=[[], ["Gold"]],
                          trash=iter(["Estate", "Copper"]))
    seen = dominion.inspect(s)
    assert seen.seats[0].aside == ("Smithy",) and seen.seats[1].looking == ("Gold",)
    assert seen.trash == ("Estate", "Copper")


def test_a_bad_position_is_refused_with_a_message():
    import pytest
    effects = dominion.TurnEffects
    for bad in (dict(turns_taken=(1,)), dict(effects=effects(bought="yes")),
                dict(effects=effects(actions_played=-1)), dict(effects={"bought": True}),
                dict(effects=effects(marks=(("Merchant", (1, 0)), ("Coppersmith", 1)))),
                dict(effects=effects(immune=(2,))),
                dict(aside=[[], [], []])):
        with pytest.raises(dominion.InvalidPositionError):
            dominion.position("First Game", **bad)
    with pytest.raises(dominion.UnknownCardError):
        dominion.position("First Game", effects=effects(marks=(("Nonesuch", 1),)))


def test_a_step_works_on_a_copy_that_freezes_back_into_the_same_state():
    """`engine.Work` unpacks a state by position and `freeze` packs it again: every field,
    each set to a value no other field has, comes back in its place."""
    from dominion.engine import Work
    s = dominion.position("First Game", players=3, hands=[["Copper"], ["Estate"], ["Silver"]],
                          current=1, phase="buy", actions=2, buys=3, coins=4,
                          turns_taken=(5, 6, 4), trash=["Curse"],
                          effects=dominion.TurnEffects(actions_played=7, cost_reduction=1,
                                                       bought=True, left_play=(1001,),
                                                       immune=(2,), marks=(("Merchant", (1, 0)),)))
    assert Work(s).freeze() == s


def test_a_rebuilt_position_gives_new_cards_ids_that_no_card_that_left_play_has():
    """The first Mining Village trashed itself (its id is in `left_play`); rebuilt from its
    inspection, the turn's next Mining Village must still be offered its own trash."""
    from tests.support import kingdom_with
    s = dominion.position(kingdom_with("Mining Village"),
                          hands=[["Mining Village", "Mining Village"]], decks=[["Copper"] * 5])
    s = dominion.step(s, dominion.Move("play", "Mining Village"))
    s = dominion.step(s, ["yes"])
    assert dominion.inspect(s).effects.left_play and dominion.inspect(s).coins == 2
    for state in (s, dominion.position(**dominion.inspect(s).position_args())):
        asked = dominion.pending(dominion.step(state, dominion.Move("play", "Mining Village")))
        assert (asked.card, asked.purpose) == ("Mining Village", "trash")


def test_a_gardens_outside_the_kingdom_trashed_from_a_position_scores_as_counted():
    """First Game has no Gardens pile; a position may still hold one. Trashing it used to add
    the internal marker of cards whose VP depends on the others (2**40) to the views' VP."""
    s = dominion.position("First Game", hands=[["Remodel", "Gardens", "Duke", "Duchy"]],
                          decks=[["Copper"] * 5])
    assert dominion.score(s) == (4, 0)   # Duke 1 (a Duchy) and the Duchy 3; Gardens 0
    s = dominion.step(s, dominion.Move("play", "Remodel"))
    s = dominion.step(dominion.step(s, ["Gardens"]), ["Silver"])
    assert dominion.score(s) == (4, 0)
    for viewer in (None, 0, 1):
        assert [p.vp for p in dominion.view(s, viewer).players] == [4, 0]
