"""The wire carries decisions, views and answers without loss: a bot over the network sees
exactly the `dominion.Decision` and `dominion.View` it would see in process."""
from __future__ import annotations

import random

import dominion
from dominion_client import convert as client_side
from dominion_service import convert as server_side
from tests.support import at, play, random_answer


def test_decisions_views_and_answers_round_trip_through_the_wire(kingdom):
    rng = random.Random(8)
    state = dominion.new_game(players=3, kingdom=kingdom, seed=8)
    kinds = set()
    for _ in range(600):
        decision = dominion.pending(state)
        if decision is None:
            break
        number = dominion.decision_number(state)
        wire = server_side.decision_to_pb(decision, number)
        assert client_side.decision_from_pb(wire) == decision
        for viewer in (decision.player, None):
            expected = dominion.view(state, viewer, log_from=None)
            sent = server_side.view_to_pb("g", state, viewer, ("",) * 3, None)
            assert client_side.view_from_pb(sent) == expected
        answer = random_answer(decision, rng)
        sent_answer = client_side.answer_to_pb(decision.kind, answer, number)
        received = server_side.answer_from_pb(decision, sent_answer)
        assert dominion.step(state, received, decision.player) == \
            dominion.step(state, answer, decision.player)
        kinds.add(decision.kind)
        state = dominion.step(state, received, decision.player)
    assert {dominion.TURN, dominion.SELECT} <= kinds


def test_about_cards_and_about_player_cross_the_wire_including_seat_zero():
    """Spy on the attacker's own card (no about_player), on seat 1's card, Swindler's give for
    a victim, and a Reaction about the attacker in seat 0 (an explicit 0, not "unset")."""
    spy = play(at("Spy", players=3, hands=[["Spy"], [], []],
                  decks=[["Copper", "Estate"], ["Gold"], ["Curse"]]), "Spy")
    swindler = play(at("Swindler", hands=[["Swindler"]], decks=[[], ["Silver"]]), "Swindler")
    militia = play(at("Militia", "Moat", hands=[["Militia"], ["Moat", "Estate", "Copper"]]),
                   "Militia")
    decisions = [dominion.pending(s) for s in (spy, dominion.step(spy, "yes"), swindler, militia)]
    assert [(d.about_cards, d.about_player) for d in decisions] == [
        (("Estate",), None), (("Gold",), 1), (("Silver",), 1), ((), 0)]
    for number, decision in enumerate(decisions):
        wire = server_side.decision_to_pb(decision, number)
        assert client_side.decision_from_pb(wire) == decision
