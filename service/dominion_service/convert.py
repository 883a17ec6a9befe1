"""Engine values to wire messages (decisions, views, events, records), and wire answers to
engine answers. The one place the service translates between `dominion` and `dominion.v1`."""
from __future__ import annotations

from typing import Optional

import dominion
from dominion_proto import dominion_pb2 as pb

from .wire import (DECISION_SEQUENCE, EVENT_INDEX, UPDATE_EVENTS, VIEW_DECISION, VIEW_WAITING,
                   field, tag, varint)


class AnswerShapeError(ValueError):
    """A wire answer whose shape does not fit the pending decision (a malformed request)."""


_ANSWER_FIELD = {dominion.TURN: "move", dominion.SELECT: "cards", dominion.CHOOSE: "options",
                 dominion.ORDER: "order"}
_PHASES = {dominion.ACTION: pb.PHASE_ACTION, dominion.BUY: pb.PHASE_BUY,
           dominion.CLEANUP: pb.PHASE_CLEANUP, dominion.OVER: pb.PHASE_OVER}


def verb_to_pb(verb: str) -> int:
    """The `Verb` value of an engine verb: ``"end_phase"`` is ``VERB_END_PHASE``."""
    return pb.Verb.Value("VERB_" + verb.upper())


_VERBS = {value: name[len("VERB_"):].lower() for name, value in pb.Verb.items()
          if value != pb.VERB_UNSPECIFIED}


def verb_from_pb(value: int) -> str:
    verb = _VERBS.get(value)
    if verb is None:
        raise AnswerShapeError(f"the move has no verb; verbs are "
                               f"{', '.join(n for n in pb.Verb.keys() if n != 'VERB_UNSPECIFIED')}")
    return verb


def move_to_pb(move: dominion.Move) -> pb.Move:
    return pb.Move(verb=verb_to_pb(move.verb), card=move.card or "")


# Views and decisions are built at every decision a stream sends; most of their parts repeat
# (the same moves, an unchanged Supply or seat, the same question), so those parts are kept
# serialized and joined as bytes (the wire format of a message is the concatenation of its
# fields, in any order) instead of being built field by field. The keys are immutable engine
# values; each cache is emptied when it grows past _CACHED entries.
_CACHED = 4096
_move_bytes: dict = {}      # Move -> one TurnDecision.moves entry, serialized
_supply_bytes: dict = {}    # supply listing -> the View.supply entries, serialized
_player_bytes: dict = {}    # (seat, bot, PlayerView) -> one View.players entry, serialized
_decision_bytes: dict = {}  # Decision -> the Decision message but its sequence, serialized
_waiting_bytes: dict = {}   # PublicDecision -> the PublicDecision message, serialized
_view_head: dict = {}       # (game id, Kingdom) -> View.game_id and View.kingdom, serialized


def _cached(cache: dict, key, make):
    value = cache.get(key)
    if value is None:
        if len(cache) >= _CACHED:
            cache.clear()
        value = cache[key] = make()
    return value


def _moves_to_bytes(moves) -> bytes:
    get = _move_bytes.get
    parts = [get(m) or _cached(_move_bytes, m, lambda m=m: pb.TurnDecision(
        moves=[move_to_pb(m)]).SerializeToString()) for m in moves]
    return b"".join(parts)


def decision_to_pb(decision: dominion.Decision, sequence: int) -> pb.Decision:
    msg = pb.Decision(sequence=sequence, player=decision.player, prompt=decision.prompt,
                      card=decision.card or "", purpose=decision.purpose,
                      about_cards=decision.about_cards, about_player=decision.about_player)
    kind = decision.kind
    if kind == dominion.TURN:
        msg.turn.SetInParent()
        msg.turn.MergeFromString(_moves_to_bytes(decision.moves))
    elif kind == dominion.SELECT:
        msg.select.cards.extend(decision.cards)
        msg.select.min, msg.select.max = decision.min, decision.max
    elif kind == dominion.CHOOSE:
        msg.choose.options.extend(decision.options)
        msg.choose.min, msg.choose.max = decision.min, decision.max
    elif kind == dominion.ORDER:
        msg.order.cards.extend(decision.cards)
    else:
        raise AssertionError(f"unknown decision kind {kind!r}")
    return msg


def decision_to_bytes(decision: dominion.Decision, sequence: int) -> bytes:
    """`decision_to_pb`, serialized: the same question comes again and again (a Buy phase
    with the same $ and hand), so all of it but its sequence number is kept serialized."""
    try:
        rest = _decision_bytes.get(decision)
    except TypeError:   # a decision holding something unhashable: not kept
        return decision_to_pb(decision, sequence).SerializeToString()
    if rest is None:
        rest = _cached(_decision_bytes, decision,
                       lambda: decision_to_pb(decision, 0).SerializeToString())
    return DECISION_SEQUENCE + varint(sequence) + rest if sequence else rest


def answer_from_pb(decision: dominion.Decision, answer: pb.Answer):
    """The engine answer for ``decision`` carried by ``answer``; its legality is the engine's
    to judge (`dominion.step`), only its shape is checked here."""
    field = answer.WhichOneof("value")
    if field == "take_back":   # whatever the question: it takes back the answer before it
        return dominion.TAKE_BACK
    if field == "resign":   # to no decision: any seat, at any time
        return dominion.RESIGN
    expected = _ANSWER_FIELD[decision.kind]
    if field is None:
        raise AnswerShapeError(f"the answer carries no value; this {decision.kind} decision "
                               f"takes Answer.{expected}")
    if field != expected:
        raise AnswerShapeError(f"this is a {decision.kind} decision: answer with "
                               f"Answer.{expected}, not Answer.{field}")
    if field == "move":
        verb = verb_from_pb(answer.move.verb)
        return dominion.Move(verb, answer.move.card or None)
    if field == "options":
        return tuple(answer.options.options)
    return tuple(getattr(answer, field).cards)


def answer_to_pb(kind: str, answer, sequence: int) -> pb.Answer:
    """The wire form of an engine answer to a decision of ``kind`` (for game records)."""
    msg = pb.Answer(sequence=sequence)
    if isinstance(answer, dominion.Resign):
        msg.resign.SetInParent()
        return msg
    field = _ANSWER_FIELD[kind]
    if answer.__class__ is dominion.TakeBack:
        msg.take_back.SetInParent()
    elif field == "move":
        msg.move.CopyFrom(move_to_pb(answer))
    elif field == "options":
        msg.options.SetInParent()
        msg.options.options.extend(answer)
    else:
        getattr(msg, field).SetInParent()
        getattr(msg, field).cards.extend(answer)
    return msg


def event_to_pb(event: dominion.Event, index: int, viewer: Optional[int],
                names: tuple) -> pb.Event:
    """One log event as ``viewer`` may see it (`dominion.visible_event` decides; cards hidden
    from the viewer become a count), with its line of text for that viewer (`dominion.render`,
    the engine's one renderer); ``names`` are the seats' names."""
    seen = dominion.visible_event(event, viewer)
    text = dominion.render(seen, names)
    if len(seen.cards) < len(event.cards):
        detail = str(seen.detail) if event.kind in dominion.game.PUBLIC_DETAIL else ""
        return pb.Event(index=index, kind=event.kind, player=event.player,
                        hidden_count=len(event.cards), detail=detail, text=text)
    return pb.Event(index=index, kind=event.kind, player=event.player, cards=event.cards,
                    detail="" if event.detail is None else str(event.detail), text=text)


def events_to_bytes(log: tuple, start: int, end: int, viewer: Optional[int], names: tuple,
                    cache: dict) -> bytes:
    """Events ``start`` to ``end`` of ``log`` as ``viewer`` may see them, serialized as field 1
    (`events`) of StreamEventsResponse, PlayResponse and SeatUpdate, ready to merge into one.
    ``cache`` (one per game) keeps each event's bytes: an event seen whole is the same for
    every viewer who sees it whole, and one hidden the same for every viewer it is hidden
    from, so the seats and spectators of a game convert each event at most twice; and an
    event alike to an earlier one of the game ("Ann plays 3 Coppers.") is not converted again,
    only its index is put in front of the rest of it."""
    parts = []
    get = cache.get
    for i in range(start, end):
        event = log[i]
        whole = event.seen_by is None or not event.cards or (
            viewer is not None and viewer in event.seen_by)
        key = i if whole else -1 - i
        part = get(key)
        if part is None:
            part = cache[key] = _event_bytes(event, i, whole, viewer, names, cache)
        parts.append(part)
    return b"".join(parts)


def _event_bytes(event: dominion.Event, index: int, whole: bool, viewer: Optional[int],
                 names: tuple, cache: dict) -> bytes:
    """One event as field 1 of a PlayResponse: its index, then the rest of the Event message,
    which is kept in ``cache`` by the event's content and whether it is seen whole."""
    try:   # an event hidden from the viewer is alike to others of its size
        content = (True, event) if whole else (False, dominion.visible_event(event, viewer))
        rest = cache.get(content)
    except TypeError:   # an event detail that cannot be a key: converted each time
        content, rest = None, None
    if rest is None:
        rest = event_to_pb(event, 0, viewer, names).SerializeToString()
        if content is not None:
            cache[content] = rest
    return field(UPDATE_EVENTS, EVENT_INDEX + varint(index) + rest if index else rest)


def public_decision_to_pb(waiting: dominion.PublicDecision) -> pb.PublicDecision:
    return pb.PublicDecision(player=waiting.player, kind=waiting.kind, card=waiting.card or "",
                             purpose=waiting.purpose, min=waiting.min, max=waiting.max,
                             text=waiting.text)


def public_decision_to_bytes(waiting: dominion.PublicDecision) -> bytes:
    """`public_decision_to_pb`, serialized (kept: the same few come again and again)."""
    part = _waiting_bytes.get(waiting)
    if part is None:
        part = _cached(_waiting_bytes, waiting,
                       lambda: public_decision_to_pb(waiting).SerializeToString())
    return part


_PLANNING_PERCENT = tag(pb.PublicDecision, "planning_percent")


def waiting_to_bytes(waiting: dominion.PublicDecision, planning: Optional[int]) -> bytes:
    """What the game waits for, serialized, with how far its deciding bot's planning is
    (``planning``: `table.Game.planning`) while it plans."""
    part = public_decision_to_bytes(waiting)
    return part if planning is None else part + _PLANNING_PERCENT + varint(planning)


def _supply_to_bytes(supply: tuple) -> bytes:
    return pb.View(supply=[pb.SupplyPile(name=n, count=c, cost=k)
                           for n, c, k in supply]).SerializeToString()


def _player_to_bytes(key: tuple) -> bytes:
    seat, bot, p = key
    return pb.View(players=[pb.PlayerView(
        seat=seat, name=p.name, bot=bot, hand_visible=p.hand is not None,
        hand=p.hand or (), hand_size=p.hand_size, deck_size=p.deck_size,
        discard_size=p.discard_size, discard_top=p.discard_top or "", in_play=p.in_play,
        aside=p.aside, looking=p.looking or (), looking_size=p.looking_size,
        turns_taken=p.turns_taken, vp=p.vp)]).SerializeToString()


def view_to_bytes(game_id: str, state: dominion.State, viewer: Optional[int], bots: tuple,
                  decision: Optional[bytes] = None,
                  view: Optional[dominion.View] = None, can_undo: bool = False,
                  planning: Optional[int] = None) -> bytes:
    """What ``viewer`` (None: a spectator) may see of ``state``, without the log, as a
    serialized View. ``decision``: the pending decision serialized (`decision_to_bytes`) when
    the caller has made it already (it is the viewer's); ``view``: ``dominion.view(state,
    viewer)`` when the caller has it; ``can_undo``: the viewer may take back its last answer
    (`table.Game.can_undo`); ``planning``: `table.Game.planning` (`waiting_to_bytes`)."""
    v = view if view is not None else dominion.view(state, viewer, log_from=None)
    sequence = dominion.decision_number(state)
    parts = [
        _view_head.get((game_id, v.kingdom)) or _cached(
            _view_head, (game_id, v.kingdom),
            lambda: pb.View(game_id=game_id, kingdom=v.kingdom).SerializeToString()),
        pb.View(viewer=viewer, trash=v.trash, current=v.current,
                phase=_PHASES.get(v.phase, pb.PHASE_UNSPECIFIED), turn=v.turn,
                actions=v.actions, buys=v.buys, coins=v.coins, sequence=sequence,
                game_over=v.game_over, waiting_for=v.waiting_for, scores=v.scores,
                winners=v.winners).SerializeToString(),
        _supply_bytes.get(v.supply) or _cached(_supply_bytes, v.supply,
                                               lambda: _supply_to_bytes(v.supply))]
    get = _player_bytes.get
    for key in zip(range(len(v.players)), bots, v.players):
        parts.append(get(key) or _cached(_player_bytes, key,
                                         lambda key=key: _player_to_bytes(key)))
    if v.waiting is not None:
        parts.append(field(VIEW_WAITING, waiting_to_bytes(v.waiting, planning)))
    if v.decision is not None:
        parts.append(field(VIEW_DECISION, decision if decision is not None else
                           decision_to_bytes(v.decision, sequence)))
    if can_undo:
        parts.append(_CAN_UNDO)
    return b"".join(parts)


_CAN_UNDO = pb.View(can_undo=True).SerializeToString()


def view_to_pb(game_id: str, state: dominion.State, viewer: Optional[int], bots: tuple,
               log_from: Optional[int], decision: Optional[bytes] = None,
               can_undo: bool = False, planning: Optional[int] = None) -> pb.View:
    """What ``viewer`` (None: a spectator) may see of ``state``, with the log from ``log_from``
    (None: no log). ``decision``, ``can_undo``, ``planning``: as for `view_to_bytes`."""
    msg = pb.View.FromString(view_to_bytes(game_id, state, viewer, bots, decision,
                                           can_undo=can_undo, planning=planning))
    if log_from is not None:
        log = state.log
        names = state.config.players
        msg.log.extend(event_to_pb(log[i], i, viewer, names) for i in range(log_from, len(log)))
    return msg


def abandoned_view(msg: pb.View) -> pb.View:
    """The view of a game the server ended as abandoned: over, with no decision pending and
    no scores or winners (it did not end by the rules)."""
    msg.game_over = True
    for name in ("decision", "waiting", "waiting_for", "scores", "winners"):
        msg.ClearField(name)
    return msg


def config_to_pb(config: dominion.Config) -> pb.GameConfig:
    return pb.GameConfig(players=config.players, kingdom=config.kingdom, seed=config.seed,
                         first_player=config.first_player, always_ask=config.always_ask)
