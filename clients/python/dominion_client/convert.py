"""Wire messages (``dominion.v1``) to engine values, and engine answers to wire answers: so that
a client can hand the server's decisions and views to any `dominion.bots` bot unchanged."""
from __future__ import annotations

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
    common = dict(player=msg.player, kind=kind, prompt=msg.prompt, card=msg.card or None,
                  purpose=msg.purpose, about_cards=tuple(msg.about_cards),
                  about_player=msg.about_player if msg.HasField("about_player") else None)
    if kind == dominion.TURN:
        return dominion.Decision(**common, moves=_moves_from_pb(msg.turn), min=1, max=1)
    if kind == dominion.SELECT:
        return dominion.Decision(**common, cards=tuple(msg.select.cards), min=msg.select.min,
                                 max=msg.select.max)
    if kind == dominion.CHOOSE:
        return dominion.Decision(**common, options=tuple(msg.choose.options),
                                 min=msg.choose.min, max=msg.choose.max)
    if kind == dominion.ORDER:
        n = len(msg.order.cards)
        return dominion.Decision(**common, cards=tuple(msg.order.cards), min=n, max=n)
    raise ValueError(f"a decision of a kind this client does not know: {kind!r}")


def event_from_pb(msg: pb.Event) -> dominion.Event:
    """An engine event; hidden cards keep the engine's redacted shape (no cards, the count in
    ``detail``), so `dominion.render` reads it."""
    if msg.hidden_count and not msg.cards:
        if msg.kind in dominion.game.PUBLIC_DETAIL and msg.detail.isdigit():
            return dominion.Event(msg.kind, msg.player, (), (), int(msg.detail))
        return dominion.Event(msg.kind, msg.player, (), (), msg.hidden_count)
    return dominion.Event(msg.kind, msg.player, tuple(msg.cards), None, msg.detail or None)


def view_from_pb(msg: pb.View, decision=None) -> dominion.View:
    """``decision``: `msg.decision` converted already, when the caller has it."""
    players = tuple(dominion.PlayerView(
        name=p.name, hand=tuple(p.hand) if p.hand_visible else None, hand_size=p.hand_size,
        deck_size=p.deck_size, discard_size=p.discard_size, discard_top=p.discard_top or None,
        in_play=tuple(p.in_play), aside=tuple(p.aside),
        looking=tuple(p.looking) if p.hand_visible else None, looking_size=p.looking_size,
        turns_taken=p.turns_taken, vp=p.vp) for p in msg.players)
    over = msg.game_over
    return dominion.View(
        player=msg.viewer if msg.HasField("viewer") else None, kingdom=tuple(msg.kingdom),
        supply=tuple((s.name, s.count, s.cost) for s in msg.supply), trash=tuple(msg.trash),
        players=players, current=msg.current, phase=_PHASES.get(msg.phase, ""), turn=msg.turn,
        actions=msg.actions, buys=msg.buys, coins=msg.coins,
        decision=(decision or decision_from_pb(msg.decision)) if msg.HasField("decision")
        else None,
        waiting_for=msg.waiting_for if msg.HasField("waiting_for") else None,
        log=tuple(event_from_pb(e) for e in msg.log),
        log_start=msg.log[0].index if msg.log else 0, game_over=over,
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
    raise ValueError("the answer carries no value")


def record_from_pb(msg: pb.GetRecordResponse) -> dominion.Record:
    """A `dominion.Record`, ready for `dominion.replay`."""
    c = msg.config
    config = dominion.Config(tuple(c.players), tuple(c.kingdom), c.seed, c.first_player,
                             c.always_ask)
    return dominion.Record(config, tuple((a.seat, answer_from_pb(a.answer)) for a in msg.answers))
