"""The wire carries decisions, views and answers without loss: a bot over the network sees
exactly the `dominion.Decision` and `dominion.View` it would see in process."""
from __future__ import annotations

import random

import dominion
from dominion_client import convert as client_side
from dominion_proto import dominion_pb2 as pb
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


def _view_built_field_by_field(game_id, state, viewer, bots):
    """The View message as the wire defines it, built from `dominion.view` one field at a time
    (the reference for the serialized form the server joins from cached parts)."""
    v = dominion.view(state, viewer)
    msg = pb.View(game_id=game_id, kingdom=v.kingdom, trash=v.trash, current=v.current,
                  phase=server_side._PHASES[v.phase], turn=v.turn, actions=v.actions,
                  buys=v.buys, coins=v.coins, sequence=dominion.decision_number(state),
                  game_over=v.game_over)
    if viewer is not None:
        msg.viewer = viewer
    for name, count, cost in v.supply:
        msg.supply.add(name=name, count=count, cost=cost)
    for seat, (bot, p) in enumerate(zip(bots, v.players)):
        msg.players.add(seat=seat, name=p.name, bot=bot, hand_visible=p.hand is not None,
                        hand=p.hand or (), hand_size=p.hand_size, deck_size=p.deck_size,
                        discard_size=p.discard_size, discard_top=p.discard_top or "",
                        in_play=p.in_play, aside=p.aside, looking=p.looking or (),
                        looking_size=p.looking_size, turns_taken=p.turns_taken, vp=p.vp)
    if v.waiting_for is not None:
        msg.waiting_for = v.waiting_for
    if v.waiting is not None:
        w = v.waiting
        msg.waiting.CopyFrom(pb.PublicDecision(player=w.player, kind=w.kind, card=w.card or "",
                                               purpose=w.purpose, min=w.min, max=w.max,
                                               text=w.text))
    if v.decision is not None:
        msg.decision.CopyFrom(server_side.decision_to_pb(v.decision,
                                                         dominion.decision_number(state)))
    if v.game_over:
        msg.scores.extend(v.scores)
        msg.winners.extend(v.winners)
    return msg


def test_serialized_views_decisions_and_events_are_the_messages_field_by_field(kingdom):
    """The server joins views, decisions and events from cached serialized parts; parsed, each
    is the message built field by field, for every viewer, from the first decision to the
    end (an event repeated in the game is taken from the cache with its own index)."""
    rng = random.Random(3)
    bots = ("", "big-money", "")
    state = dominion.new_game(players=3, kingdom=kingdom, seed=3)
    names = state.config.players
    cache: dict = {}
    sent = {viewer: 0 for viewer in (0, 1, 2, None)}
    while True:
        decision = dominion.pending(state)
        number = dominion.decision_number(state)
        for viewer in sent:
            view = pb.View.FromString(server_side.view_to_bytes("g", state, viewer, bots))
            assert view == _view_built_field_by_field("g", state, viewer, bots)
            assert server_side.view_to_pb("g", state, viewer, bots, None) == view
            log = state.log
            got = pb.PlayResponse.FromString(server_side.events_to_bytes(
                log, sent[viewer], len(log), viewer, names, cache))
            assert list(got.events) == [server_side.event_to_pb(log[i], i, viewer, names)
                                        for i in range(sent[viewer], len(log))]
            sent[viewer] = len(log)
        if decision is None:
            break
        wire = pb.Decision.FromString(server_side.decision_to_bytes(decision, number))
        assert wire == server_side.decision_to_pb(decision, number)
        state = dominion.step(state, random_answer(decision, rng), decision.player)
    assert dominion.decision_number(state) > 100
    assert view.game_over and list(view.scores) == list(dominion.score(state))
