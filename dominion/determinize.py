"""Determinization for information-set search (ISMCTS and its kin): a full game state that one
player cannot tell apart from the real one, drawn at random among such states.

What the player is taken to know is what their `view` shows now: their own hand, every zone's
size, the tops of the discard piles, everything in play, set aside and in the trash, and the
Supply. Everything else is redistributed: the order of their own deck, and, for each other
seat, the cards of its hand, deck, `looking` and discard pile below its top card, shuffled
together and dealt back in the same sizes. The player's own discard pile stays as it is (they
put every card there themselves). Inferences a program draws from the log's history (a card an
opponent gained into their hand, a Victory card Bureaucrat put on a deck) are not applied: a
search that tracks them can reject samples that contradict them.

A card passed face down between two other seats (Masquerade) is one the player did not see: every
such pass is drawn anew from the giver's hidden cards as the player counts them (the VP the
player's view shows counts such a card for its giver, so it stays the same).
Once the game is over every seat's cards are public (the scores count them), so no pass moves.

Cards named by work in progress (a card half-resolved: a Masquerade pass already chosen, a
Library draw being looked at) keep their places, so that the state stays playable; the
player's own pending decision pins nothing (it names only cards the player sees, and pinning
its names would keep real cards of hidden zones in place: a Buy phase offers every pile), nor
does another seat's pending turn decision, which each sample asks again from the cards dealt
to that seat (`Determinizer.sample`). Another seat's pending question of a card names cards of
its hidden hand or of the cards it looks at (and a gain's question names Supply piles, whose
names used to keep hidden cards of those names in place): it pins nothing either. The sample
is then drawn at the last decision before it that is sampled whole (the player's own, or a
turn's, where no work in progress pins a card), from the game's history (`new_game` of the
config, or the ``origin`` given: a position is no record), and played forward to now: the
player's own answers and the turns' moves as they were, every other answer drawn among those
that leave the player's view as it was at each step (`_Chain`), deals that cannot show what
the player saw drawn again. The question is then the one the sample's cards ask. After
`CHAIN_DEALS` deals without one (a question skipped because the hand could answer it only one
way tells that hand, and a deal that matches may be rare: a game that asks every question
avoids it), the cards of the stack keep their places as before.

A sample carries nothing the player may not see: the log is the player's own view of it (other
seats' private cards removed, as `view` shows them), and the answers of other seats are
replaced by None (a Masquerade pass or a Courtyard topdeck would tell a card), so that a bot
that reads the log of a sample (the built-in bots count cards from it) learns nothing hidden.
The hidden cards are dealt from a canonical (sorted) order, so two states the player cannot
tell apart (with the same view history, while another seat answers a question) give the same
sample for the same seed, unless work in progress pins cards (then
which copy keeps its place may differ). The result is not a record: `replay(record(...))`
gives the real game, not the sample.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations, islice, permutations, product
from typing import Optional

from pyrsistent import pvector

from . import rng
from .card import CARDS
from .engine import (ORDERED_PURPOSES, Memo, Work, action_phase, buy_phase, scores_by_pass,
                     zones_score)
from .errors import DominionError, IllegalAnswerError, InvalidConfigError
from .game import check_seed, new_game, step
from .views import _view, visible_event
from .state import ACTION, CHOOSE, ORDER, TURN, Decision, State


def determinize(state: State, player: int, seed: int, origin: Optional[State] = None) -> State:
    """A state ``player`` cannot tell apart from ``state`` (see the module's docstring), drawn
    with ``seed``; its random generator is reseeded with ``seed`` too, so that the sample's
    future shuffles are not the real game's. Pure: ``state`` is not changed.

    ``origin``: where the game's history starts, needed only while another seat answers a
    card's question (the sample is then drawn before it and played forward): by default the
    game's start (``new_game(state.config)``); a `position` is no record, so a state played
    from one gives the position here."""
    return Determinizer(state, player, origin).sample(seed)


class Determinizer:
    """`determinize` for many seeds of one state: what every sample shares (the log and answers
    as ``player`` sees them, the pinned cards, the unseen passes) is worked out once, here
    (the passes when first needed). Its samples never change."""
    __slots__ = ("state", "player", "_real", "_pinned", "_first", "_turn", "_all_pinned",
                 "_chain", "_plans")

    def __init__(self, state: State, player: int, origin: Optional[State] = None):
        n = len(state.players)
        if type(player) is not int or not 0 <= player < n:
            raise InvalidConfigError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
        stack = state.stack
        asked = stack[-1][1] if stack and stack[-1][0] == "?" else None
        # Another seat's turn decision (its plays and buys) is asked again in each sample from
        # the cards dealt there (`_turn_asked_again`), so that, like the player's own question,
        # it pins nothing.
        self._turn = asked is not None and asked.player != player and asked.kind == TURN
        work = _work(state, player)
        self._pinned = Counter(_card_names(work))
        self._all_pinned = Counter(_card_names(stack))   # when no deal can ask the turn again
        self._first = _zones_in_work(work)
        self.player = player
        self._plans: dict = {}   # pinned is self._pinned -> `_unseen_passes`
        self._real = state   # passes the player did not see are swapped on the real log
        self.state = state._replace(log=_seen_log(state.log, player),
                                    answers=_seen_answers(state.answers, player))
        # Another seat's question of a card names its hidden cards: drawn before it (`_Chain`).
        self._chain = _Chain(state, player, origin) if _asks_another(state, player) else None

    def sample(self, seed: int) -> State:
        """One sample, drawn with ``seed`` (see `determinize`). While another seat's turn
        decision is pending, the deal is drawn again until that seat's turn asks the same
        public question (the Action phase needs an Action in its hand, unless the game asks
        every question); after `TURN_DEALS` deals, the cards the decision names keep their
        places."""
        check_seed(seed)
        if self._chain is not None:
            found = self._chain.sample(seed)
            if found is not None:
                return found
        generator = rng.seed_state(seed ^ 0x44455445524D)
        if not self._turn:
            return self._deal(generator, self._pinned)._replace(rng=rng.seed_state(seed))
        real = self._real
        for _ in range(TURN_DEALS):
            generator, dealt = rng.next_u64(generator)
            again = _turn_asked_again(self._deal(dealt, self._pinned))
            if again is not None and again.phase == real.phase and \
                    again.stack[-1][1].purpose == real.stack[-1][1].purpose:
                return again._replace(rng=rng.seed_state(seed))
        return self._deal(generator, self._all_pinned)._replace(rng=rng.seed_state(seed))

    def _deal(self, generator: int, pinned: Counter) -> State:
        """The unseen passes drawn and the hidden cards dealt with ``generator``, the cards
        named in ``pinned`` kept in their places."""
        state, player = self.state, self.player
        kept: frozenset = frozenset()
        if self._real.stack:   # once the game is over, every seat's cards are public (scores)
            key = pinned is self._pinned
            if key not in self._plans:
                self._plans[key] = _unseen_passes(self._real, player, pinned)
            plan = self._plans[key]
            if plan is not None:
                generator, drawn, kept = _swap_unseen_passes(self._real, generator, pinned,
                                                             plan)
        if kept:   # the drawn passes' zones, VP and log events
            state = drawn._replace(log=_seen_log(drawn.log, player, kept),
                                   answers=state.answers)
        players = []
        for seat, ps in enumerate(state.players):
            if seat == player:
                generator, (deck,) = _redeal(generator, (ps.deck,), pinned)
                players.append(ps._replace(deck=deck))
                continue
            under, top = ps.discard[:-1], ps.discard[-1:]
            generator, (hand, deck, looking, under) = _redeal(
                generator, (ps.hand, ps.deck, ps.looking, under), pinned, self._first)
            players.append(ps._replace(hand=hand, deck=deck, looking=looking,
                                       discard=under + top))
        return state._replace(players=tuple(players))


TURN_DEALS = 64   # deals tried for another seat's pending turn before its cards are pinned


def _turn_asked_again(state: State):
    """``state`` with its current seat's pending turn decision asked again from the cards its
    seat holds now, or None when that turn would not stop at a question of the same phase."""
    w = Work(state)
    w.stack.pop()
    phase = w.phase
    (action_phase if phase == ACTION else buy_phase)(w)
    if w.events or w.phase != phase or not w.stack or w.stack[-1][0] != "?":
        return None
    return w.freeze()


CHAIN_DEALS = 1024  # deals tried before another seat's question before its cards are pinned
CHAIN_ANSWERS = 512   # answers tried at most for one step of another seat in a sample
CHAIN_TRIES = 8   # times the other seats' answers are drawn again on one deal
ANCHORS = 8   # decisions looked back at for one where work in progress pins no card


def _work(state: State, player: int) -> tuple:
    """The frames whose cards a sample keeps in place: every frame, but of a question asked
    of the player or of another seat's turn only its continuation's args."""
    stack = state.stack
    asked = stack[-1][1] if stack and stack[-1][0] == "?" else None
    if asked is not None and (asked.player == player or asked.kind == TURN):
        # the player's own question names only what they see: its args may still name
        # another seat's hidden cards (Masquerade's passes already chosen)
        return stack[:-1] + (("?", None, stack[-1][2], stack[-1][3]),)
    return stack


def _work_pins(state: State, player: int) -> bool:
    """Whether work in progress keeps a card in place in a sample for ``player``."""
    return next(_card_names(_work(state, player)), None) is not None


def _asks_another(state: State, player: int) -> bool:
    """Whether another seat than ``player`` is asked a card's question (not its turn's)."""
    stack = state.stack
    if not stack:
        return False
    asked = stack[-1][1]
    return asked.player != player and asked.kind != TURN


class _Chain:
    """While another seat answers a card's question, the question names that seat's hidden
    cards (its hand, what it looks at), and only that seat's cards could answer it. So the
    sample is drawn at the last decision that `determinize` samples whole (the player's own,
    or a turn's, where no work in progress pins a card), the anchor, and played forward from
    there to now: the player's own answers as given, and so a turn's moves (everyone sees
    them), every other seat's answer to a card's question drawn among the sample's legal
    answers that leave the player's view as the real game left it (public answers are thus
    the real ones, hidden ones any that fits); answers, then the deal, are drawn again when
    the play cannot show what the player saw. The sample's question is then the one its own
    cards ask. A function of the player's view history: the anchor's sample is, and so is
    every step's target view."""
    __slots__ = ("player", "anchor", "log_from", "steps")

    def __init__(self, state: State, player: int, origin: Optional[State]):
        states = _history(state, origin)
        anchors = list(islice((i for i in range(len(states) - 1, -1, -1)
                               if states[i].stack and not _asks_another(states[i], player)),
                              ANCHORS))
        if not anchors:
            raise InvalidConfigError("the game's history starts with another seat's question: "
                                     "give an origin at a turn or at the seat's own decision")
        # the last one whose work in progress pins no card (the cards another seat has chosen
        # to pass would stay in its hand), else the last one
        a = next((i for i in anchors if not _work_pins(states[i], player)), anchors[0])
        self.anchor = anchor = Determinizer(states[a], player)
        self.player = player
        self.log_from = log_from = len(anchor._real.log)
        base = len(states[0].answers)
        self.steps = tuple((state.answers[base + i], _view(states[i + 1], player, log_from))
                           for i in range(a, len(states) - 1))

    def sample(self, seed: int) -> Optional[State]:
        """The sample for ``seed``, or None when no deal in `CHAIN_DEALS` plays to what the
        player saw."""
        player = self.player
        generator = rng.seed_state(seed ^ 0x434841494E)
        for _ in range(CHAIN_DEALS):
            generator, dealt = rng.next_u64(generator)
            anchor = self.anchor.sample(dealt)
            for _ in range(CHAIN_TRIES):
                generator, state, chose = self._follow(anchor, generator)
                if state is not None:
                    return state._replace(log=_seen_log(state.log, player, start=self.log_from),
                                          answers=_seen_answers(state.answers, player),
                                          rng=rng.seed_state(seed))
                if not chose:
                    break   # no answer was drawn before it failed: another deal
        return None

    def _follow(self, state: State, generator: int) -> tuple:
        """(generator, ``state`` played to now or None, whether an answer was drawn among
        several before it failed): each other seat's answer to a card's question is the first,
        in an order drawn, after which the player sees what it saw. A hidden answer whose
        effect shows only later (a Masquerade pass is seen when every pass is chosen) may make
        a later step fail: `sample` then draws the answers again, on the same deal."""
        player, log_from = self.player, self.log_from
        chose = False
        for (seat, answer), seen in self.steps:
            d = state.stack[-1][1]
            if seat == player or d.kind == TURN:
                candidates: tuple = (answer,)   # the player's own, or a move everyone sees
            else:
                generator, candidates = _answers(d, generator)
            found = None
            for k, candidate in enumerate(candidates):
                try:
                    after = step(state, candidate, d.player)
                except IllegalAnswerError:
                    continue
                if _view(after, player, log_from) == seen:
                    found = after
                    chose = chose or k + 1 < len(candidates)
                    break
            if found is None:
                return generator, None, chose
            state = found
        return generator, state, chose


def choose_answers(d: Decision) -> tuple:
    """Every legal answer to a CHOOSE decision: each set of ``min`` to ``max`` of its options,
    in the options' order."""
    return tuple(c for k in range(d.min, d.max + 1) for c in combinations(d.options, k))


def _answers(d: Decision, generator: int) -> tuple:
    """(generator, up to `CHAIN_ANSWERS` legal answers to ``d`` in an order drawn with
    ``generator``). A select whose chosen cards land on a pile in order (discard, topdeck) is
    tried with each of its cards last, the others sorted: only the top card of such a pile is
    ever seen."""
    if d.kind == TURN:
        options: tuple = d.moves
    elif d.kind == CHOOSE:
        options = choose_answers(d)
    elif d.kind == ORDER:
        options = tuple(sorted(set(permutations(d.cards))))[:CHAIN_ANSWERS]
    else:
        options = _selections(d)
    return rng.shuffled(generator, options)


def _selections(d: Decision) -> tuple:
    """The distinct answers to the select ``d`` (its pool's sub-multisets of an allowed size,
    sorted; for a pile in order, each with each of its cards last), at most `CHAIN_ANSWERS`."""
    counts = sorted(Counter(d.cards).items())
    picks = []
    for numbers in product(*(range(n + 1) for _, n in counts)):
        if d.min <= sum(numbers) <= d.max:
            picks.append(tuple(c for (c, _), k in zip(counts, numbers) for _ in range(k)))
            if len(picks) >= CHAIN_ANSWERS:
                break
    if d.purpose not in ORDERED_PURPOSES:
        return tuple(picks)
    ordered = []
    for pick in picks:
        for last in sorted(set(pick)):
            rest = list(pick)
            rest.remove(last)
            ordered.append(tuple(rest) + (last,))
    return tuple(ordered[:CHAIN_ANSWERS])


_HISTORIES = Memo(16)   # (config, origin) -> the last histories replayed from there
HISTORIES_KEPT = 4   # of one game (twins that part at a hidden answer share their start)


def _history(state: State, origin: Optional[State]) -> list:
    """The states from ``origin`` (None: the game's start) to ``state``, replayed from its
    answers; the last few histories replayed of a game are kept, and the one that shares the
    most answers with ``state`` is continued. InvalidConfigError when its answers do not take
    ``origin`` to ``state`` (a position, a sample)."""
    start = new_game(state.config) if origin is None else origin
    base = len(start.answers)
    answers = state.answers
    key = (state.config, origin)
    kept = [h for h in _HISTORIES.values.get(key, ()) if h[0] == start]
    states, shared = [start], 0
    for history in kept:
        last = history[-1].answers
        n = min(len(last), len(answers)) - base
        p = 0
        while p < n and last[base + p] == answers[base + p]:
            p += 1
        if p > shared or len(states) == 1:
            states, shared = history[:p + 1], p
    try:
        if len(answers) < base:
            raise IllegalAnswerError("the origin is later than the state")
        for seat, answer in answers[base + len(states) - 1:]:
            states.append(step(states[-1], answer, seat))
    except DominionError:
        states = []
    if not states or states[-1] != state:
        where = "the game's start" if origin is None else "the given origin"
        raise InvalidConfigError(
            f"seat {state.stack[-1][1].player} is answering a card's question, so the sample "
            f"is drawn from the game's history, and this state's answers do not lead to it "
            f"from {where} (a position or a sample: give origin, the state it was played from)")
    others = [h for h in kept if h[-1] is not states[-1]][:HISTORIES_KEPT - 1]
    _HISTORIES.keep(key, [states] + others)
    return states


def _seen_log(log, player: int, kept: frozenset = frozenset(), start: int = 0):
    """The log as ``player`` sees it (`visible_event`), the same events kept where nothing is
    hidden from them and at the indices ``kept`` (passes whose card `_swap_unseen_passes`
    drew: not the real one), from ``start`` on."""
    hidden = [i for i in range(start, len(log)) if (e := log[i])[3] is not None
              and player not in e[3] and e[2] and i not in kept]
    if not hidden:
        return log
    evolver = log.evolver()
    for i in hidden:
        evolver[i] = visible_event(log[i], player)
    return evolver.persistent()


def _seen_answers(answers, player: int):
    """The answers with every other seat's answer replaced by None (their number stays: it is
    public how many decisions the game has taken)."""
    if all(seat == player for seat, _ in answers):
        return answers
    return pvector((seat, answer if seat == player else None) for seat, answer in answers)


def _unseen_passes(state: State, player: int, pinned: Counter) -> Optional[tuple]:
    """What `_swap_unseen_passes` draws from, the same for every draw: (each seat's hidden
    zones, their cards, the cards as the player counts them, the passes undone, the forced
    ones, the cards kept for them), or None when no pass is drawn anew."""
    log = state.log
    passes = [(i, e) for i, e in enumerate(log)   # (a log the player sees names no card)
              if e.kind == "pass" and e.seen_by is not None and player not in e.seen_by
              and e.cards]
    if not passes:
        return None
    zones = [[list(ps.hand), list(ps.deck), list(ps.looking), list(ps.discard[:-1])]
             for ps in state.players]
    start = [Counter(card for zone in seat for card in zone) for seat in zones]
    hidden = [Counter(c) for c in start]
    undone = [(i, event) for i, event in passes if not pinned[event.cards[0]]]
    if not undone:
        return None
    for _, event in undone:   # every pass undone: each seat's cards as the player counts them
        hidden[event.detail][event.cards[0]] -= 1
        hidden[event.player][event.cards[0]] += 1
    forced, reserved = _forced_passes(hidden, undone)
    if forced is None:
        return None   # a history no drawing explains: the passes stay
    return zones, start, hidden, undone, forced, reserved


def _swap_unseen_passes(state: State, generator: int, pinned: Counter, plan: tuple) -> tuple:
    """(generator, state, the log indices of the passes drawn) with every card passed face down
    that the player did not see (Masquerade between two other seats) drawn anew. Every such
    pass is first undone on each seat's hidden cards, which gives each seat's hidden cards as
    the player counts them (as if never passed: a function of what the player saw, whatever
    the real cards were); then each is made again, in order, with a card drawn from the giver's
    hidden cards in sorted order (or the card a seat has since shown that it did not have as
    counted: `_forced_passes`), and the log's pass event names it. The draws depend only on what
    the player knows, so two states they cannot tell apart give the same sample, and the cards
    each seat is publicly known to hold, and so the VP their view shows (`views.known_vp`),
    stay the same. A sample's log names
    the cards drawn (no secret: draws, not the real cards), so a sample of a sample is drawn
    alike. Cards named by work in progress (``pinned``) never move. ``plan``: what
    `_unseen_passes` found, copied here before the draws change it."""
    zones, start, hidden, undone, forced, reserved = plan
    zones = [[list(zone) for zone in seat] for seat in zones]
    hidden = [Counter(c) for c in hidden]
    reserved = [Counter(c) for c in reserved]
    drawn = []
    for i, event in undone:
        giver, receiver = event.player, event.detail
        card = forced.get(i)
        if card is None:
            # the j-th of the giver's free cards in sorted order, counted by name
            free = sorted((card, n - reserved[giver][card]) for card, n in hidden[giver].items()
                          if n - reserved[giver][card] > 0 and not pinned[card])
            if not free:
                return generator, state, ()
            generator, j = rng.below(generator, sum(n for _, n in free))
            for card, n in free:
                if j < n:
                    break
                j -= n
        else:   # it leaves the giver as it was kept for, and is kept by the receiver
            reserved[giver][card] -= 1
            reserved[receiver][card] += 1
        hidden[giver][card] -= 1
        hidden[receiver][card] += 1
        drawn.append((i, event._replace(cards=(card,))))
    if any(n < 0 for seat in hidden for n in seat.values()):
        return generator, state, ()
    for seat, zone_list in enumerate(zones):   # each seat's cards out and in, slot for slot
        out = start[seat] - hidden[seat]
        new = sorted((hidden[seat] - start[seat]).elements())
        for zone in zone_list:
            for k, card in enumerate(zone):
                if out[card] > 0:
                    out[card] -= 1
                    zone[k] = new.pop()
    evolver = state.log.evolver()
    for i, event in drawn:
        evolver[i] = event
    log = evolver.persistent()
    players = tuple(ps._replace(hand=tuple(hand), deck=tuple(deck), looking=tuple(looking),
                                discard=tuple(under) + ps.discard[-1:])
                    for ps, (hand, deck, looking, under) in zip(state.players, zones))
    # The scoring passes (`engine.pass_card`): the drawn ones' cards changed, the others kept
    # (a sample's log names no card of those); sorted, so that a sample of a sample is alike.
    pile_names = state.pile_names
    passed = Counter(state.hidden_passes)
    for (_, was), (_, now) in zip(undone, drawn):
        for event, sign in ((was, -1), (now, 1)):
            if scores_by_pass(pile_names, event.cards[0]):
                passed[(event.player, event.detail, event.cards[0], event.seen_by)] += sign
    return generator, state._replace(players=players, log=log,
                                     hidden_passes=tuple(sorted(passed.elements())),
                                     vp=tuple(zones_score(ps) for ps in players)), \
        frozenset(i for i, _ in drawn)


def _forced_passes(hidden: list, passes: list) -> tuple:
    """(log index -> card, cards kept per seat) for the passes that must carry a given card:
    where a seat holds fewer of a card than the player counts it having (``hidden`` below 0:
    it showed one it got by a pass), the passes into it, last first, bring one, and where their
    giver did not have it as counted either, the passes into the giver before do, and so on.
    The cards a forced pass takes are kept (`reserved`) from the random draws until it is
    made. (None, None) when no passes can explain the counts. A function of ``hidden`` and the
    passes' seats only: of what the player knows."""
    need = [Counter({c: -n for c, n in seat.items() if n < 0}) for seat in hidden]
    have = [Counter({c: n for c, n in seat.items() if n > 0}) for seat in hidden]
    reserved: list = [Counter() for _ in hidden]
    forced = {}
    for i, event in reversed(passes):
        giver, receiver = event.player, event.detail
        wanted = sorted(need[receiver].elements())
        if not wanted:
            continue
        card = wanted[0]
        forced[i] = card
        need[receiver][card] -= 1
        if have[giver][card] > 0:
            have[giver][card] -= 1
            reserved[giver][card] += 1
        else:
            need[giver][card] += 1
    if any(+seat for seat in need):
        return None, None
    return forced, reserved


# Another seat's zones as `determinize` redeals them, by index: hand, deck, looking, and the
# discard pile under its top card; the names frames give them.
_ZONE_INDEX = {"hand": 0, "deck": 1, "looking": 2, "discard": 3}
_DEFAULT_ORDER = (2, 0, 3, 1)   # looking first: Sentry's and Library's cards are looked at


def _zones_in_work(stack: tuple) -> tuple:
    """The order in which to look for pinned cards: first the zones that frames name (Harbinger
    takes its card from the discard pile, and an Estate there must keep its place rather than
    an Estate in hand), then the others, looking first."""
    named = []
    for frame in stack:   # (name, *args), or ("?", decision, name, args): the args only
        for value in _strings(frame[3] if frame[0] == "?" else frame[1:]):
            i = _ZONE_INDEX.get(value)
            if i is not None and i not in named:
                named.append(i)
    return tuple(named) + tuple(i for i in _DEFAULT_ORDER if i not in named)


def _strings(value):
    """Every string anywhere inside ``value``, tuples opened."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _strings(item)


def _redeal(generator: int, zones: tuple, pinned: Counter, order: tuple = (0,)) -> tuple:
    """Shuffle the cards of ``zones`` together and deal them back into the same places, except
    the ones named in ``pinned`` (up to its counts, per call), which keep their places. Pinned
    names are looked for in the zones in ``order`` first (the zones work in progress takes its
    cards from), then in the others."""
    keep = pinned.copy()
    kept = [[False] * len(zone) for zone in zones]
    for z in tuple(order) + tuple(i for i in range(len(zones)) if i not in order):
        for i, card in enumerate(zones[z]):
            if keep[card] > 0:
                keep[card] -= 1
                kept[z][i] = True
    # dealt from a sorted order: the sample depends on which cards are hidden, not on where
    free = tuple(sorted(card for zone, marks in zip(zones, kept)
                        for card, mark in zip(zone, marks) if not mark))
    generator, dealt = rng.shuffled(generator, free)
    out, k = [], 0
    for zone, marks in zip(zones, kept):
        new = []
        for card, mark in zip(zone, marks):
            if mark:
                new.append(card)
            else:
                new.append(dealt[k])
                k += 1
        out.append(tuple(new))
    return generator, tuple(out)


def _card_names(value):
    """Every card name anywhere inside ``value`` (frames are tuples of names, numbers, tuples,
    decisions and moves)."""
    return (s for s in _strings(value) if s in CARDS)
