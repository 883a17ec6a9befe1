"""No view or log shown to a player contains a card the rules hide from them.

The view is checked by indistinguishability: a "scrambled" twin of the state deals the viewer's
hidden information differently (same zone sizes), and the viewer's view must not tell the two
apart. Rulebook (2nd edition, Other rules): "You can count the number of cards in your deck at
any time (without looking at the card fronts), but cannot look through or count your discard
pile or another player's deck or discard pile. The number of cards in each player's hand is
public, as is the top card of each discard pile. All cards in play are public"."""
import random

from hypothesis import HealthCheck, given, settings

import dominion
from dominion import TURN
from tests.support import game_specs, property_examples, random_trajectory

SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Log events that move cards the player alone may see: never public.
PRIVATE_KINDS = ("draw", "look")


def deal(rng: random.Random, pool: list, sizes) -> list:
    """``pool`` shuffled and cut into consecutive tuples of ``sizes``."""
    rng.shuffle(pool)
    out, k = [], 0
    for n in sizes:
        out.append(tuple(pool[k:k + n]))
        k += n
    return out


def scrambled(state, viewer, rng: random.Random):
    """``state`` with what ``viewer`` may not know dealt anew: the viewer's deck order; and for
    every other seat the cards of hand, deck, `looking` and discard pile under its top card,
    shuffled together and dealt back in the same sizes."""
    players = []
    for seat, ps in enumerate(state.players):
        if seat == viewer:
            (deck,) = deal(rng, list(ps.deck), (len(ps.deck),))
            players.append(ps._replace(deck=deck))
            continue
        under = ps.discard[:-1]
        hand, deck, looking, under = deal(
            rng, list(ps.hand + ps.deck + ps.looking + under),
            (len(ps.hand), len(ps.deck), len(ps.looking), len(under)))
        players.append(ps._replace(hand=hand, deck=deck, looking=looking,
                                   discard=under + ps.discard[-1:]))
    return state._replace(players=tuple(players))


def cards_known_to(state, viewer) -> set:
    """Names the viewer may see now: all of their own cards, everything public (in play, set
    aside, trash, Supply, tops of discard piles)."""
    known = set(state.pile_names) | set(state.trash)
    for seat, ps in enumerate(state.players):
        known.update(ps.in_play, ps.aside, ps.discard[-1:])
        if seat == viewer:
            known.update(ps.hand, ps.deck, ps.discard, ps.looking)
    return known


@settings(max_examples=property_examples(80), **SLOW)
@given(game_specs())
def test_no_view_tells_apart_states_that_differ_only_in_what_the_viewer_may_not_know(spec):
    game = random_trajectory(spec)
    rng = random.Random(spec.seed)
    viewers = (None,) + tuple(range(spec.players))
    for i, state in enumerate(game.states):
        for viewer in viewers:
            twin = scrambled(state, viewer, rng)
            assert dominion.view(state, viewer, log_from=None) == \
                dominion.view(twin, viewer, log_from=None), \
                f"{spec}: after step {i}, seat {viewer}'s view shows hidden cards"


@settings(max_examples=property_examples(100), **SLOW)
@given(game_specs())
def test_a_viewer_sees_only_their_own_decision_and_its_cards_are_known_to_them(spec):
    game = random_trajectory(spec)
    for i, state in enumerate(game.states):
        d = dominion.pending(state)
        for viewer in (None,) + tuple(range(spec.players)):
            shown = dominion.view(state, viewer, log_from=None).decision
            if d is None or d.player != viewer:
                assert shown is None, f"{spec}: seat {viewer} sees seat {d.player}'s decision"
                continue
            assert shown == d
            named = set(d.cards) | set(d.about_cards)
            if d.kind == TURN:
                named |= {m.card for m in d.moves if m.card is not None}
            unknown = named - cards_known_to(state, viewer)
            assert not unknown, f"{spec}: after step {i}, {d} names hidden cards {unknown}"


@settings(max_examples=property_examples(100), **SLOW)
@given(game_specs())
def test_the_log_shows_a_viewer_only_cards_they_may_see(spec):
    game = random_trajectory(spec)
    for before, after in zip(game.states, game.states[1:]):  # the log only grows
        assert len(after.log) >= len(before.log) and \
            (not before.log or after.log[len(before.log) - 1] == before.log[-1])
    final = game.states[-1]
    for e in final.log:
        if e.kind in PRIVATE_KINDS:
            assert e.seen_by == (e.player,), f"{spec}: {e} is not private to its player"
        if e.seen_by is not None:
            assert all(0 <= s < spec.players for s in e.seen_by), f"{spec}: {e}"
    for viewer in (None,) + tuple(range(spec.players)):
        shown = dominion.view(final, viewer, log_from=0).log
        assert len(shown) == len(final.log)
        for e, raw in zip(shown, final.log):
            if raw.seen_by is None or viewer in raw.seen_by:
                assert e == raw
            else:
                # Hidden cards become their count; a pass keeps its (public) receiving seat.
                detail = raw.detail if raw.kind == "pass" else len(raw.cards)
                assert e.cards == () and e.detail == detail and \
                    (e.kind, e.player) == (raw.kind, raw.player), \
                    f"{spec}: seat {viewer} sees {e} of the hidden {raw}"


# Public events whose kind shows the cards by its nature (a play, a gain from the Supply, a
# reveal, a trashing, a face-up discard or set-aside, a named card; rulebook: "set aside cards
# are normally public"). Any other public event that names cards (a card put onto the deck or
# into the hand, ...) must only name cards that were already public.
SHOWING_KINDS = ("play", "gain", "buy", "reveal", "trash", "discard", "set_aside", "name")


@settings(max_examples=property_examples(100), **SLOW)
@given(game_specs())
def test_a_public_event_that_moves_cards_names_only_cards_already_shown(spec):
    game = random_trajectory(spec)
    for i, (before, after) in enumerate(zip(game.states, game.states[1:])):
        shown = {seat: set(ps.aside) | set(ps.in_play) | set(ps.discard[-1:])
                 for seat, ps in enumerate(before.players)}
        for e in after.log[len(before.log):]:
            if e.seen_by is not None:
                continue
            if e.kind not in SHOWING_KINDS:
                hidden = set(e.cards) - shown[e.player]
                assert not hidden, (f"{spec}: step {i} ({game.answers[i]}) logs {e} publicly "
                                    f"but {hidden} had not been shown")
            shown[e.player].update(e.cards)
