"""Steps that many cards share: the continuations that carry out a chosen answer, and the
"gain a card costing up to $N" question. Defined once here for every set's cards."""
from ..card import continuation
from ..engine import Work, ask_select, discard, gain, gainable, log, topdeck, trash


def distinct(cards) -> tuple:
    """Sorted distinct names: the pool when one card is chosen (copies are interchangeable, and
    a hand of one kind of card is then chosen without asking)."""
    return tuple(sorted(set(cards)))


@continuation
def gain_chosen(w: Work, chosen, p, to="discard"):
    """Gain the one chosen Supply card, if any was chosen."""
    if chosen:
        gain(w, p, chosen[0], to)


@continuation
def discard_chosen(w: Work, chosen, p, src="hand"):
    discard(w, p, chosen, src)


@continuation
def trash_chosen(w: Work, chosen, p, src="hand"):
    trash(w, p, chosen, src)


@continuation
def topdeck_chosen(w: Work, chosen, p, src="hand"):
    """Put the chosen cards onto the deck (first on top); unrevealed, so private."""
    topdeck(w, p, chosen, src)


def ask_gain(w: Work, p, card_name, max_cost, to="discard", pred=None, trashed=()):
    """Ask ``p`` to gain a Supply card costing up to ``max_cost`` (now, through `cost`);
    nothing is asked, and nothing gained, when no pile qualifies. ``trashed`` names the card
    the gain is based on, if any (the Decision's ``about_cards``)."""
    ask_select(w, p, f"{card_name}: gain a card costing up to ${max_cost}", card_name, "gain",
               gainable(w, max_cost, pred), 1, 1, gain_chosen, p, to, about_cards=trashed)


def reveal_hand(w: Work, p, detail="hand"):
    """Reveal the whole hand (public), sorted: revealing shows the cards, not the order they
    came into the hand, which would tell others which card Masquerade passed or where a card
    was put in the deck (Courtyard, Secret Passage)."""
    if w.players[p].hand:
        log(w, "reveal", p, tuple(sorted(w.players[p].hand)), None, detail)
