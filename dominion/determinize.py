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

A card passed face down between two other seats (Masquerade) is one the player did not see: where
the receiver still holds it hidden, it trades places with a card drawn from the giver's hidden
cards (the VP the player's view shows counts such a card for its giver, so it stays the same).

Cards named by work in progress (a card half-resolved: a Masquerade pass already chosen, a
Library draw being looked at) keep their places, so that the state stays playable. The log is
kept as it is (other seats' private events no longer match their cards), and the result is not
a record: `replay(record(...))` gives the real game, not the sample.
"""
from __future__ import annotations

from collections import Counter

from . import rng
from .card import CARDS
from .engine import scores_by_pass, zones_score
from .errors import InvalidConfigError
from .game import check_seed
from .state import State


def determinize(state: State, player: int, seed: int) -> State:
    """A state ``player`` cannot tell apart from ``state`` (see the module's docstring), drawn
    with ``seed``; its random generator is reseeded with ``seed`` too, so that the sample's
    future shuffles are not the real game's. Pure: ``state`` is not changed."""
    n = len(state.players)
    if type(player) is not int or not 0 <= player < n:
        raise InvalidConfigError(f"player must be a seat from 0 to {n - 1}, not {player!r}")
    check_seed(seed)
    pinned = Counter(_card_names(state.stack))
    first = _zones_in_work(state.stack)
    generator = rng.seed_state(seed ^ 0x44455445524D)
    generator, state = _swap_unseen_passes(state, player, generator, pinned)
    players = []
    for seat, ps in enumerate(state.players):
        if seat == player:
            generator, (deck,) = _redeal(generator, (ps.deck,), pinned)
            players.append(ps._replace(deck=deck))
            continue
        under, top = ps.discard[:-1], ps.discard[-1:]
        generator, (hand, deck, looking, under) = _redeal(
            generator, (ps.hand, ps.deck, ps.looking, under), pinned, first)
        players.append(ps._replace(hand=hand, deck=deck, looking=looking, discard=under + top))
    return state._replace(players=tuple(players), rng=rng.seed_state(seed))


def _swap_unseen_passes(state: State, player: int, generator: int, pinned: Counter) -> tuple:
    """(generator, state) with every card passed face down that ``player`` did not see
    (Masquerade between two other seats) replaced, where the receiver still holds it hidden, by
    a card drawn from the giver's hidden cards: the two cards trade places, the log's pass event
    and the scores follow. ``player`` cannot tell which card went; the cards each seat is
    publicly known to hold, and so the VP its view shows (`views.known_vp`), stay the same.
    A card passed face down between two other seats (Masquerade) is one the player did not see: where
the receiver still holds it hidden, it trades places with a card drawn from the giver's hidden
cards (the VP the player's view shows counts such a card for its giver, so it stays the same).

Cards named by work in progress (``pinned``) never move."""
    log = state.log
    passes = [(i, e) for i, e in enumerate(log)
              if e.kind == "pass" and e.seen_by is not None and player not in e.seen_by]
    if not passes:
        return generator, state
    zones = [[list(ps.hand), list(ps.deck), list(ps.looking), list(ps.discard[:-1])]
             for ps in state.players]
    swapped = False
    for i, event in passes:
        giver, receiver, name = event.player, event.detail, event.cards[0]
        if pinned[name]:
            continue
        held = [(z, k) for z, zone in enumerate(zones[receiver])
                for k, card in enumerate(zone) if card == name]
        candidates = [(z, k) for z, zone in enumerate(zones[giver])
                      for k, card in enumerate(zone) if not pinned[card]]
        if not held or not candidates:
            continue
        generator, j = rng.below(generator, len(candidates))
        z, k = candidates[j]
        other = zones[giver][z][k]
        zones[giver][z][k] = name
        rz, rk = held[0]
        zones[receiver][rz][rk] = other
        log = log.set(i, event._replace(cards=(other,)))
        swapped = True
    if not swapped:
        return generator, state
    players = tuple(ps._replace(hand=tuple(hand), deck=tuple(deck), looking=tuple(looking),
                                discard=tuple(under) + ps.discard[-1:])
                    for ps, (hand, deck, looking, under) in zip(state.players, zones))
    pile_names = state.pile_names
    hidden = tuple((e.player, e.detail, e.cards[0], e.seen_by) for e in log
                   if e.kind == "pass" and scores_by_pass(pile_names, e.cards[0]))
    return generator, state._replace(players=players, log=log, hidden_passes=hidden,
                                     vp=tuple(zones_score(ps) for ps in players))


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
    free = tuple(card for zone, marks in zip(zones, kept)
                 for card, mark in zip(zone, marks) if not mark)
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
