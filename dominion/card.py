"""What a card is, and the two registries that make states pure data.

A card is defined once, as a `Card` value in its set's module (``dominion/cards/``). States hold
only card *names*; effects that must stop to ask a question leave frames on the state's stack that
name a continuation function registered here, never a closure, so any state can be serialized.
Both registries are filled once when ``dominion.cards`` is imported and never change afterwards.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .errors import UnknownCardError

# Card types.
ACTION_T, TREASURE_T, VICTORY_T, CURSE_T, ATTACK_T, REACTION_T = (
    "Action", "Treasure", "Victory", "Curse", "Attack", "Reaction")

# Sets (cards.md): where a card comes from, and which editions' card pools include it.
BASIC, BASE_2E, BASE_1E, INTRIGUE_2E, INTRIGUE_1E = (
    "basic", "base-2e", "base-1e", "intrigue-2e", "intrigue-1e")
SETS = (BASE_2E, BASE_1E, INTRIGUE_2E, INTRIGUE_1E)


@dataclass(frozen=True, slots=True)   # slots: its fields, read at every step, are read faster
class Card:
    """One card: its printed facts, its simple bonuses, and the functions for its text.

    ``effect(w, player, uid)`` runs after the +Cards/+Actions/+Buys/+$ bonuses (the order of the
    card texts in scope); ``uid`` identifies this physical card while it is in play, so that a
    card that trashes itself does so only once under Throne Room. ``reaction(w, player, attacker)``
    runs when the card is revealed against an Attack; ``can_react(w, player)`` says whether it may
    be revealed now. ``victory_points(cards)`` computes variable VP from all the owner's cards.
    ``editions`` are the sets whose Kingdom pool includes the card (shared cards are in both).
    ``treasure_bonus(names, mark) -> (extra $, new mark)``: for a card with a turn-long effect on
    Treasures, what the Treasures ``names`` played together make more while the card has a
    ``mark`` this turn (`TurnEffects.marks`, set by its effect with `engine.set_turn_mark`).

    Facts the end-of-game rule reads (`engine.deadlocked`): ``changes_supply``: the text can
    gain a card from the Supply or trash one from it, for anyone; ``coins_up_to``: the most $
    one play of the card can make (by default its value or +$; None: no bound known, such as
    Bridge lowering costs or Coppersmith); ``plays_twice``: the card plays another card twice
    (Throne Room).
    """
    name: str
    cost: int
    types: tuple
    set: str
    text: str = ""
    editions: tuple = ()
    coins: int = 0                # a Treasure's value
    vp: int = 0                   # fixed victory points
    plus_cards: int = 0
    plus_actions: int = 0
    plus_buys: int = 0
    plus_coins: int = 0
    effect: Optional[Callable] = field(default=None, compare=False)
    reaction: Optional[Callable] = field(default=None, compare=False)
    can_react: Optional[Callable] = field(default=None, compare=False)
    victory_points: Optional[Callable] = field(default=None, compare=False)
    plural: str = ""                          # "": made by `plural_of`'s rule (set below)
    changes_supply: bool = False
    coins_up_to: Optional[int] = -1           # -1: the card's value or +$ (set below)
    plays_twice: bool = False
    treasure_bonus: Optional[Callable] = field(default=None, compare=False)
    # Derived from ``types`` and ``set`` in `__post_init__` (read at nearly every step).
    is_action: bool = field(default=False, init=False, repr=False, compare=False)
    is_treasure: bool = field(default=False, init=False, repr=False, compare=False)
    is_victory: bool = field(default=False, init=False, repr=False, compare=False)
    is_curse: bool = field(default=False, init=False, repr=False, compare=False)
    is_attack: bool = field(default=False, init=False, repr=False, compare=False)
    is_reaction: bool = field(default=False, init=False, repr=False, compare=False)
    is_kingdom: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self):
        if not self.plural:
            object.__setattr__(self, "plural", regular_plural(self.name))
        if self.coins_up_to == -1:
            object.__setattr__(self, "coins_up_to", self.coins + self.plus_coins)
        t = self.types
        object.__setattr__(self, "is_action", ACTION_T in t)
        object.__setattr__(self, "is_treasure", TREASURE_T in t)
        object.__setattr__(self, "is_victory", VICTORY_T in t)
        object.__setattr__(self, "is_curse", CURSE_T in t)
        object.__setattr__(self, "is_attack", ATTACK_T in t)
        object.__setattr__(self, "is_reaction", REACTION_T in t)
        object.__setattr__(self, "is_kingdom", self.set != BASIC)
        if not self.editions:
            object.__setattr__(self, "editions", (self.set,))


def regular_plural(name: str) -> str:
    """English plural of a card name by the regular rules ("Duchies", "Witches", "Coppers");
    cards whose plural is irregular say it in their definition (``plural=``)."""
    if name.endswith("y") and name[-2:-1] not in "aeiou":
        return name[:-1] + "ies"
    if name.endswith(("ch", "sh", "s", "x")):
        return name + "es"
    return name + "s"


CARDS: dict[str, Card] = {}
CONTINUATIONS: dict[str, Callable] = {}
FRAME_NAMES: dict[Callable, str] = {}   # continuation -> its name in frames


def define(*cards: Card) -> None:
    """Add cards to the registry (once each, at import of their set's module)."""
    for c in cards:
        if c.name in CARDS:
            raise RuntimeError(f"card {c.name!r} is defined twice")
        CARDS[c.name] = c


def continuation(fn: Callable) -> Callable:
    """Register ``fn`` so that frames can name it; frames store ``FRAME_NAMES[fn]`` (a table, not
    an attribute of the function: compiled functions take no attributes)."""
    name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"
    if name in CONTINUATIONS:
        raise RuntimeError(f"continuation {name!r} is registered twice")
    CONTINUATIONS[name] = fn
    FRAME_NAMES[fn] = name
    return fn


def card(name: str) -> Card:
    """The card called ``name``; raises UnknownCardError listing what exists if there is none."""
    try:
        return CARDS[name]
    except (KeyError, TypeError):
        text = repr(name)
        text = text if len(text) <= 80 else text[:77] + "..."
        raise UnknownCardError(
            f"unknown card {text}; known cards: {', '.join(sorted(CARDS))}") from None


def card_names() -> tuple:
    """Every card name, sorted."""
    return tuple(sorted(CARDS))
