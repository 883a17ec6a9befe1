"""The game in words: the one renderer of log events and of what a pending decision is about,
used by the terminal, the web page and the wire alike (`Event.text`, `PublicDecision.text`).

Lines follow Dominion Online's style: "Ann plays a Village.", "Bob buys and gains a Gold.",
"Cid draws 3 Coppers and 2 Estates." for Cid and "Cid draws 5 cards." for everyone else, the
turn header "Turn 3 - Ann" numbering each player's own turns. An event is rendered for one
viewer: cards hidden from that viewer become a count (`views.visible_event` decides), so a line
never tells a viewer what the rules hide from them.
"""
from __future__ import annotations

from typing import Optional

from .card import CARDS, regular_plural

_VOWELS = "AEIOU"


def plural(name: str) -> str:
    """The plural of a card name ("Duchies", "Witches", "Gardens"); one place: the card's."""
    c = CARDS.get(name)
    return c.plural if c is not None else regular_plural(name)


def a_card(name: str) -> str:
    """The card name with its article: "a Village", "an Estate"."""
    return ("an " if name[:1] in _VOWELS else "a ") + name


def card_count(n: int, name: str) -> str:
    """"a Gold", "3 Coppers"."""
    return a_card(name) if n == 1 else f"{n} {plural(name)}"


def and_list(parts) -> str:
    """"x", "x and y", "x, y and z"."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def card_list(cards) -> str:
    """Card names as words, counted in the order first seen: "3 Coppers and an Estate";
    "" for none."""
    counts: dict = {}
    for name in cards:
        counts[name] = counts.get(name, 0) + 1
    return and_list(card_count(n, name) for name, n in counts.items())


def cards_count(n: int) -> str:
    """"a card", "5 cards" (for cards the viewer may not see)."""
    return "a card" if n == 1 else f"{n} cards"


def log_line(event, player_names, viewer: Optional[int] = None) -> str:
    """One log event as a line of text for ``viewer`` (a seat, or None for a spectator): the
    event's hidden cards are shown only to the seats that may see them."""
    from .views import visible_event  # the one rule of who sees what
    event = visible_event(event, viewer)
    return render(event, player_names)


def render(event, player_names) -> str:
    """A line for an event as its viewer has it (hidden cards already replaced by their count
    in ``detail``, as `views.visible_event` and the wire deliver them)."""
    kind, player, cards, detail = event.kind, event.player, event.cards, event.detail
    who = player_names[player] if 0 <= player < len(player_names) else f"Seat {player}"
    hidden = not cards and isinstance(detail, int) and kind not in _COUNT_DETAIL
    what = cards_count(detail) if hidden else card_list(cards)
    if kind == "turn":
        return f"Turn {detail} - {who}"
    if kind == "game_over":
        return "The game is over."
    if kind == "shuffle":
        return f"{who} shuffles their deck."
    if kind == "cleanup":
        return f"{who} ends their turn."
    if kind == "discard_deck":
        return f"{who} puts their deck ({cards_count(detail or 0)}) into their discard pile."
    if kind == "insert":
        if not cards:
            return f"{who} puts a card into their deck."
        above = "on top" if detail == 0 else f"with {cards_count(detail)} above it"
        return f"{who} puts {what} into their deck, {above}."
    if kind == "pass":
        to = player_names[detail] if isinstance(detail, int) and 0 <= detail < len(
            player_names) else "the next player"
        if not cards:  # the count is not carried for a pass: it is always one card
            return f"{who} passes a card to {to}."
        return f"{who} passes {what} to {to}."
    if kind == "play":
        return f"{who} plays {what}{' again' if detail == 'again' else ''}."
    if kind == "buy":
        return f"{who} buys and gains {what}."
    if kind == "gain":
        return f"{who} gains {what}{_GAIN_PLACES.get(detail, '')}."
    if kind == "trash":
        return f"{who} trashes {what}{' from the Supply' if detail == 'supply' else ''}."
    if kind == "reveal":
        if detail == "hand":
            return f"{who} reveals their hand: {what}." if what else f"{who} reveals their hand."
        if detail == "no Victory card":
            return f"{who} reveals a hand with no Victory card: {what}."
        return f"{who} reveals {what}."
    if kind == "name":
        return f"{who} names {a_card(cards[0]) if cards else 'a card'}."
    verb = _VERBS.get(kind)
    if verb is None:
        return f"{who}: {kind.replace('_', ' ')} {what}.".replace(" .", ".")
    return f"{who} {verb[0]} {what}{verb[1]}."


# kind -> (verb, words after the cards)
_VERBS = {
    "draw": ("draws", ""),
    "discard": ("discards", ""),
    "topdeck": ("puts", " onto their deck"),
    "to_hand": ("puts", " into their hand"),
    "look": ("looks at", ""),
    "set_aside": ("sets aside", ""),
}
_GAIN_PLACES = {"hand": " into their hand", "deck": " onto their deck"}
# Kinds whose int ``detail`` is not a count of hidden cards.
_COUNT_DETAIL = ("turn", "discard_deck", "pass", "insert")


def describe_waiting(decision, player_names, hand_size: Optional[int] = None) -> str:
    """What everyone may know of a pending decision, in words: "Bob is discarding 2 cards for
    Militia.", "Ann is in the Buy phase." Built only from the decision's public parts (who,
    which card, what for, how many cards), never its options or its pool."""
    who = player_names[decision.player]
    purpose, card = decision.purpose, decision.card
    if purpose == "action_phase":
        return f"{who} is in the Action phase."
    if purpose == "buy_phase":
        return f"{who} is in the Buy phase."
    how_many = _how_many(decision)
    if decision.kind == "choose" and purpose in _WHETHER:
        text = f"{who} is deciding whether to {_WHETHER[purpose]}"
    elif purpose == "discard" and card == "Militia" and hand_size is not None:
        text = f"{who} is discarding down to {hand_size - decision.min}"
    elif how_many and purpose in _COUNTED:
        text = f"{who} is {_COUNTED[purpose]} {how_many}"
    else:
        text = f"{who} is {_DOING.get(purpose, 'deciding')}"
    return f"{text} for {card}." if card else f"{text}."


def _how_many(decision) -> str:
    if decision.kind != "select":
        return ""
    lo, hi = decision.min, decision.max
    if lo == hi:
        return cards_count(lo)
    if lo == 0:
        return f"up to {cards_count(hi)}"
    return f"{lo} to {hi} cards"


# Purposes whose select question says how many cards: "Ann is trashing up to 4 cards".
_COUNTED = {"discard": "discarding", "trash": "trashing"}
# Yes/no questions: "Ann is deciding whether to discard for Baron."
_WHETHER = {"discard": "discard", "trash": "trash", "play": "play a card",
            "set_aside": "set aside a card", "discard_deck": "discard their deck"}
_DOING = {
    "react": "deciding whether to reveal a Reaction",
    "discard": "discarding",
    "trash": "trashing",
    "gain": "choosing a card to gain",
    "give": "choosing a card to give",
    "topdeck": "choosing a card to put onto their deck",
    "insert": "choosing a card to put into their deck",
    "position": "choosing where to put a card",
    "order": "ordering cards to put back",
    "play": "choosing an Action to play",
    "choose": "choosing",
    "reveal": "choosing a card to reveal",
    "pass": "choosing a card to pass",
    "name": "naming a card",
}
