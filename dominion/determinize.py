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
its hidden hand or of the cards it looks at: those keep their places (a sample that moved them
could not answer the question).

A sample carries nothing the player may not see: the log is the player's own view of it (other
seats' private cards removed, as `view` shows them), and the answers of other seats are
replaced by None (a Masquerade pass or a Courtyard topdeck would tell a card), so that a bot
that reads the log of a sample (the built-in bots count cards from it) learns nothing hidden.
The hidden cards are dealt from a canonical (sorted) order, so two states the player cannot
tell apart give the same sample for the same seed, unless work in progress pins cards (then
which copy keeps its place may differ). The result is not a record: `replay(record(...))`
gives the real game, not the sample.
"""
from __future__ import annotations

from collections import Counter

from pyrsistent import pvector

from . import rng
from .card import CARDS
from .engine import Work, action_phase, buy_phase, scores_by_pass, zones_score
from .errors import InvalidConfigError
from .game import check_seed
from .views import visible_event
from .state import ACTION, TURN, State


def determinize(state: State, player: int, seed: int) -> State:
    """A state ``player`` cannot tell apart from ``state`` (see the module's docstring), drawn
    with ``seed``; its random generator is reseeded with ``seed`` too, so that the sample's
    future shuffles are not the real game's. Pure: ``state`` is not changed."""
    return Determinizer(state, player).sample(seed)


class Determinizer:
    """`determinize` for many seeds of one state: what every sample shares (the log and answers
    as ``player`` sees them, the pinned cards) is worked out once, here. Immutable once made."""
    __slots__ = ("state", "player", "_real", "_pinned", "_first", "_turn", "_all_pinned")

    def __init__(self, state: State, player: int):
        n = len(state.players)
        if type(player) is not int or not 0 <= player < n:
            raise InvalidConfigError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
        stack = state.stack
        asked = stack[-1][1] if stack and stack[-1][0] == "?" else None
        # Another seat's turn decision (its plays and buys) is asked again in each sample from
        # the cards dealt there (`_turn_asked_again`), so that, like the player's own question,
        # it pins nothing.
        self._turn = asked is not None and asked.player != player and asked.kind == TURN
        if asked is not None and (asked.player == player or self._turn):
            # the player's own question names only what they see: its args may still name
            # another seat's hidden cards (Masquerade's passes already chosen)
            work = stack[:-1] + (("?", None, stack[-1][2], stack[-1][3]),)
        else:
            work = stack
        self._pinned = Counter(_card_names(work))
        self._all_pinned = Counter(_card_names(stack))   # when no deal can ask the turn again
        self._first = _zones_in_work(work)
        self.player = player
        self._real = state   # passes the player did not see are swapped on the real log
        self.state = state._replace(log=_seen_log(state.log, player),
                                    answers=_seen_answers(state.answers, player))

    def sample(self, seed: int) -> State:
        """One sample, drawn with ``seed`` (see `determinize`). While another seat's turn
        decision is pending, the deal is drawn again until that seat's turn asks the same
        public question (the Action phase needs an Action in its hand, unless the game asks
        every question); after `TURN_DEALS` deals, the cards the decision names keep their
        places."""
        check_seed(seed)
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
            generator, drawn, kept = _swap_unseen_passes(self._real, player, generator, pinned)
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


def _seen_log(log, player: int, kept: frozenset = frozenset()):
    """The log as ``player`` sees it (`visible_event`), the same events kept where nothing is
    hidden from them and at the indices ``kept`` (passes whose card `_swap_unseen_passes`
    drew: not the real one)."""
    hidden = [i for i, e in enumerate(log) if e[3] is not None and player not in e[3] and e[2]
              and i not in kept]
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


def _swap_unseen_passes(state: State, player: int, generator: int, pinned: Counter) -> tuple:
    """(generator, state, the log indices of the passes drawn) with every card passed face down
    that ``player`` did not see (Masquerade between two other seats) drawn anew. Every such
    pass is first undone on each seat's hidden cards, which gives each seat's hidden cards as
    the player counts them (as if never passed: a function of what the player saw, whatever
    the real cards were); then each is made again, in order, with a card drawn from the giver's
    hidden cards in sorted order (or the card a seat has since shown that it did not have as
    counted: `_forced_passes`), and the log's pass event names it. The draws depend only on what
    the player knows, so two states they cannot tell apart give the same sample, and the cards
    each seat is publicly known to hold, and so the VP their view shows (`views.known_vp`),
    stay the same. A sample's log names
    the cards drawn (no secret: draws, not the real cards), so a sample of a sample is drawn
    alike. Cards named by work in progress (``pinned``) never move."""
    log = state.log
    passes = [(i, e) for i, e in enumerate(log)   # (a log the player sees names no card)
              if e.kind == "pass" and e.seen_by is not None and player not in e.seen_by
              and e.cards]
    if not passes:
        return generator, state, ()
    zones = [[list(ps.hand), list(ps.deck), list(ps.looking), list(ps.discard[:-1])]
             for ps in state.players]
    start = [Counter(card for zone in seat for card in zone) for seat in zones]
    hidden = [Counter(c) for c in start]
    undone = [(i, event) for i, event in passes if not pinned[event.cards[0]]]
    if not undone:
        return generator, state, ()
    for _, event in undone:   # every pass undone: each seat's cards as the player counts them
        hidden[event.detail][event.cards[0]] -= 1
        hidden[event.player][event.cards[0]] += 1
    forced, reserved = _forced_passes(hidden, undone)
    if forced is None:
        return generator, state, ()   # a history no drawing explains: the passes stay
    drawn = []
    for i, event in undone:
        giver, receiver = event.player, event.detail
        card = forced.get(i)
        if card is None:
            pool = sorted(card for card, n in hidden[giver].items()
                          if n - reserved[giver][card] > 0 and not pinned[card]
                          for _ in range(n - reserved[giver][card]))
            if not pool:
                return generator, state, ()
            generator, j = rng.below(generator, len(pool))
            card = pool[j]
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
    evolver = log.evolver()
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
