"""Wire messages (``dominion.v1``) to engine values, and engine answers to wire answers: so that
a client can hand the server's decisions and views to any `dominion.bots` bot unchanged."""
from __future__ import annotations

from operator import attrgetter
from typing import Optional

import dominion
from dominion_proto import dominion_pb2 as pb

_PHASES = {pb.PHASE_ACTION: dominion.ACTION, pb.PHASE_BUY: dominion.BUY,
           pb.PHASE_CLEANUP: dominion.CLEANUP, pb.PHASE_OVER: dominion.OVER}


def verb_from_pb(value: int) -> str:
    """``VERB_END_PHASE`` is the engine's ``"end_phase"``."""
    return pb.Verb.Name(value)[len("VERB_"):].lower()


def verb_to_pb(verb: str) -> int:
    return pb.Verb.Value("VERB_" + verb.upper())


def move_from_pb(move: pb.Move) -> dominion.Move:
    return dominion.Move(verb_from_pb(move.verb), move.card or None)


def kind_of(decision: pb.Decision) -> str:
    """The engine's decision kind (``dominion.TURN`` ...) of a wire decision."""
    return decision.WhichOneof("kind")


# A turn's moves repeat from decision to decision: their conversion is kept, keyed by their
# serialized form (emptied when it grows past this many entries).
_CACHED = 4096
_moves: dict = {}


def _moves_from_pb(turn: pb.TurnDecision) -> tuple:
    key = turn.SerializeToString()
    moves = _moves.get(key)
    if moves is None:
        if len(_moves) >= _CACHED:
            _moves.clear()
        moves = _moves[key] = tuple(move_from_pb(m) for m in turn.moves)
    return moves


def decision_from_pb(msg: pb.Decision) -> dominion.Decision:
    kind = kind_of(msg)
    player, prompt, card, purpose, about_cards = _decision_fields(msg)
    common = {"player": player, "kind": kind, "prompt": prompt, "card": card or None,
              "purpose": purpose, "about_cards": tuple(about_cards),
              "about_player": msg.about_player if msg.HasField("about_player") else None}
    if kind == dominion.TURN:
        return dominion.Decision(**common, moves=_moves_from_pb(msg.turn), min=1, max=1)
    if kind == dominion.SELECT:
        select = msg.select
        return dominion.Decision(**common, cards=tuple(select.cards), min=select.min,
                                 max=select.max)
    if kind == dominion.CHOOSE:
        choose = msg.choose
        return dominion.Decision(**common, options=tuple(choose.options), min=choose.min,
                                 max=choose.max)
    if kind == dominion.ORDER:
        cards = tuple(msg.order.cards)
        return dominion.Decision(**common, cards=cards, min=len(cards), max=len(cards))
    raise ValueError(f"a decision of a kind this client does not know: {kind!r}")


# Fields read together (one C call each): a view is converted at every decision.
_decision_fields = attrgetter("player", "prompt", "card", "purpose", "about_cards")
_event_fields = attrgetter("kind", "player", "cards", "detail")
_supply_fields = attrgetter("name", "count", "cost")
_player_fields = attrgetter("name", "hand_visible", "hand", "hand_size", "deck_size",
                            "discard_size", "discard_top", "in_play", "aside", "looking",
                            "looking_size", "turns_taken", "vp")


def event_from_pb(msg: pb.Event) -> dominion.Event:
    """An engine event; hidden cards keep the engine's redacted shape (no cards, the count in
    ``detail``), so `dominion.render` reads it."""
    kind, player, cards, detail = _event_fields(msg)
    if cards:
        return dominion.Event(kind, player, tuple(cards), None, detail or None)
    hidden = msg.hidden_count
    if hidden:
        if kind in dominion.game.PUBLIC_DETAIL and detail.isdigit():
            return dominion.Event(kind, player, (), (), int(detail))
        return dominion.Event(kind, player, (), (), hidden)
    return dominion.Event(kind, player, (), None, detail or None)


def _player_from_pb(msg: pb.PlayerView) -> dominion.PlayerView:
    (name, visible, hand, hand_size, deck_size, discard_size, discard_top, in_play, aside,
     looking, looking_size, turns_taken, vp) = _player_fields(msg)
    return dominion.PlayerView(
        name=name, hand=tuple(hand) if visible else None, hand_size=hand_size,
        deck_size=deck_size, discard_size=discard_size, discard_top=discard_top or None,
        in_play=tuple(in_play), aside=tuple(aside), looking=tuple(looking) if visible else None,
        looking_size=looking_size, turns_taken=turns_taken, vp=vp)


def view_from_pb(msg: pb.View, decision=None, log: Optional[tuple] = None,
                 log_start: int = 0) -> dominion.View:
    """``decision``: `msg.decision` converted already, when the caller has it. ``log`` and
    ``log_start``: the view's log when the caller has it already converted (the events of
    the stream since the last decision), instead of `msg.log`."""
    over = msg.game_over
    if log is None:
        log = tuple(event_from_pb(e) for e in msg.log)
        log_start = msg.log[0].index if msg.log else 0
    return dominion.View(
        player=msg.viewer if msg.HasField("viewer") else None, kingdom=tuple(msg.kingdom),
        supply=tuple(map(_supply_fields, msg.supply)), trash=tuple(msg.trash),
        players=tuple(map(_player_from_pb, msg.players)), current=msg.current,
        phase=_PHASES.get(msg.phase, ""), turn=msg.turn, actions=msg.actions, buys=msg.buys,
        coins=msg.coins,
        decision=(decision or decision_from_pb(msg.decision)) if msg.HasField("decision")
        else None,
        waiting_for=msg.waiting_for if msg.HasField("waiting_for") else None,
        log=log, log_start=log_start, game_over=over,
        scores=tuple(msg.scores) if over else None, winners=tuple(msg.winners) if over else None,
        waiting=public_decision_from_pb(msg.waiting) if msg.HasField("waiting") else None)


def public_decision_from_pb(msg: pb.PublicDecision) -> dominion.PublicDecision:
    return dominion.PublicDecision(msg.player, msg.kind, msg.card or None, msg.purpose, msg.min,
                                   msg.max, msg.text)


def answer_to_pb(kind: str, answer, sequence: int) -> pb.Answer:
    """The wire answer to a decision of ``kind``: a `dominion.Move` (or ``(verb, card)``) for
    TURN, card names for SELECT and ORDER, options (or one option) for CHOOSE."""
    msg = pb.Answer(sequence=sequence)
    if kind == dominion.TURN:
        move = answer if isinstance(answer, dominion.Move) else dominion.Move(*answer)
        msg.move.verb = verb_to_pb(move.verb)
        msg.move.card = move.card or ""
        return msg
    items = (answer,) if isinstance(answer, str) else tuple(answer)
    if kind == dominion.CHOOSE:
        msg.options.SetInParent()
        msg.options.options.extend(items)
    elif kind in (dominion.SELECT, dominion.ORDER):
        field = msg.cards if kind == dominion.SELECT else msg.order
        field.SetInParent()
        field.cards.extend(items)
    else:
        raise ValueError(f"unknown decision kind {kind!r}")
    return msg


def answer_from_pb(msg: pb.Answer):
    """The engine answer carried by a wire answer (e.g. from a game record)."""
    field = msg.WhichOneof("value")
    if field == "move":
        return move_from_pb(msg.move)
    if field == "options":
        return tuple(msg.options.options)
    if field in ("cards", "order"):
        return tuple(getattr(msg, field).cards)
    if field == "take_back":
        return dominion.TAKE_BACK
    if field == "resign":
        return dominion.RESIGN
    raise ValueError("the answer carries no value")


def record_from_pb(msg: pb.GetRecordResponse) -> dominion.Record:
    """A `dominion.Record`, ready for `dominion.replay`."""
    c = msg.config
    config = dominion.Config(tuple(c.players), tuple(c.kingdom), c.seed, c.first_player,
                             c.always_ask)
    return dominion.Record(config, tuple((a.seat, answer_from_pb(a.answer)) for a in msg.answers))
