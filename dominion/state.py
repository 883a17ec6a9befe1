"""The immutable values of a game: configuration, state, players, decisions, moves and events.

Everything is a NamedTuple of ints, strings, tuples and pyrsistent vectors: a state can be compared
with ``==``, hashed, pickled, sent to another process and resumed there. Zones are tuples of card
names; the *last* element of a deck or discard pile is its top card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple, Optional

from pyrsistent import PVector

# Phases of a turn (rulebook: "Action, then Buy, then Clean-up"). The constants are Final: the
# compiled engine (setup.py) inlines them.
ACTION: Final = "action"
BUY: Final = "buy"
CLEANUP: Final = "cleanup"
OVER: Final = "over"

# Kinds of decision. The answer's shape depends on the kind (see `Decision`).
TURN: Final = "turn"      # answer: one Move from `moves`
SELECT: Final = "select"  # answer: a tuple of card names, a sub-multiset of `cards`, min..max
CHOOSE: Final = "choose"  # answer: a tuple of distinct strings from `options`, min..max
ORDER: Final = "order"    # answer: a permutation of `cards`; the first card ends on top

# Verbs of a Move (the answers to the turn's standing decision); BUY ("buy", above) buys the
# named card from the Supply.
PLAY: Final = "play"              # play the named Action (Action phase) or Treasure (Buy phase)
PLAY_TREASURES: Final = "play_treasures"  # play every Treasure in hand, as if one at a time
END_PHASE: Final = "end_phase"    # end the Action phase, or the Buy phase (and the turn)


class Config(NamedTuple):
    """A game's setup, fully resolved: replaying a record starts from this.

    ``players`` are the seat names in seat order; ``kingdom`` the 10 Kingdom card names;
    ``seed`` drives every shuffle; ``first_player`` is the seat that takes the first turn.
    ``always_ask``: ask every question that could arise, even when its answer is forced, so
    that nobody learns anything about a hidden hand from who is asked what (see the README,
    "Hidden information"); the default skips forced questions.
    """
    players: tuple
    kingdom: tuple
    seed: int
    first_player: int
    always_ask: bool = False


class Move(NamedTuple):
    """An answer to a TURN decision, e.g. ``Move("buy", "Gold")`` or ``Move("end_phase")``."""
    verb: str
    card: Optional[str] = None

    def __str__(self):
        return self.verb if self.card is None else f"{self.verb} {self.card}"


@dataclass(frozen=True)
class TakeBack:
    """A record entry that takes back its seat's last answer (``undo.py``): not an answer to a
    question, but it goes through `step` like one, so a record holding it replays exactly.
    A class of its own (not a tuple) so that it never equals an answer, e.g. an empty
    selection."""

    def __str__(self):
        return "take back"


TAKE_BACK: Final = TakeBack()
class Resign:
    """A seat's resignation: an answer any seat of a game not over may give at any time, out of
    turn too (`game.step`). It ends the game; the resigning seat is among no winners
    (`game.winners`). In the record it is the last answer, so a replay ends the same way. Not a
    tuple: it must never equal an answer of cards or options (an empty selection is ``()``,
    and answers are keys of caches)."""


RESIGN: Final = Resign()


class Decision(NamedTuple):
    """The one question the game waits for.

    ``player`` must answer it. ``kind`` says the answer's shape (TURN, SELECT, CHOOSE, ORDER).
    ``card`` is the card whose text asks (None for the turn's own decision); ``purpose`` is a
    stable word for what the answer is used for (``"discard"``, ``"trash"``, ``"gain"``,
    ``"topdeck"``, ``"react"``, ``"play"``, ...) so that bots can apply a default policy.
    ``cards`` is the pool for SELECT and ORDER (may repeat names), ``options`` the labels for
    CHOOSE, ``moves`` the legal moves for TURN; ``min``/``max`` bound the answer's size.
    ``about_cards`` names the cards the question is about when they are not the pool to choose
    from (Spy's revealed card, Vassal's discarded card, Library's drawn Action, the card a gain
    is based on: Remodel's or Swindler's trashed card, ...); the pool of SELECT and ORDER is never
    repeated there. ``about_player`` is the seat the question concerns when it is not the
    answering player (whose card Spy revealed, the victim of Swindler or Thief, Masquerade's
    receiver, the attacker a Reaction answers), else None. Bots and front ends read these fields,
    never the prompt text. The decision is shown only to ``player``, so ``about_cards`` holds
    only cards that player may see. ``shown``: the (min, max) the others are told, when they
    differ from ``min``/``max``: a pool picked out of a hidden hand (Moneylender's Coppers, the
    Reactions a victim may reveal) bounds the answer, but the others are told the card's
    bounds clipped only by the hand's size, which tells them nothing of what the hand holds.
    """
    player: int
    kind: str
    prompt: str
    card: Optional[str] = None
    purpose: str = ""
    cards: tuple = ()
    options: tuple = ()
    moves: tuple[Move, ...] = ()   # (typed: the compiled engine and bots read a Move's fields
    min: int = 0                   # by index, not by name)
    max: int = 0
    about_cards: tuple = ()
    about_player: Optional[int] = None
    shown: tuple = ()


class PublicDecision(NamedTuple):
    """What everyone at the table may know of the pending decision: the seat deciding, on which
    card (None: the turn itself), for what `purpose`, its kind, how many cards (``min``/``max``,
    for a select; 0 otherwise) and a sentence for people. Never its options or pool."""
    player: int
    kind: str
    card: Optional[str]
    purpose: str
    min: int
    max: int
    text: str


class Event(NamedTuple):
    """One entry of the game log, recorded as data and formatted only when asked.

    ``seen_by`` is None when the event is public; otherwise the players who may see its
    ``cards`` (everyone else sees only how many cards there were).
    """
    kind: str
    player: int
    cards: tuple = ()
    seen_by: Optional[tuple] = None
    detail: object = None


# Private events whose ``detail`` is public (not a count): a pass names its receiving seat.
PUBLIC_DETAIL: Final = ("pass",)
# A trash event's ``detail`` when the card came from the Supply, not from its player (Lurker).
FROM_SUPPLY: Final = "supply"


class PlayerState(NamedTuple):
    """One player's zones. ``aside`` holds set-aside and revealed cards (public);
    ``looking`` holds cards taken from the deck that only this player has looked at."""
    hand: tuple = ()
    deck: tuple = ()
    discard: tuple = ()
    in_play: tuple = ()
    aside: tuple = ()
    looking: tuple = ()


class TurnEffects(NamedTuple):
    """What this turn's plays leave behind for later plays to read; the turn's start and its
    Clean-up reset it whole (`engine.reset_turn`). The engine's own rules read the first five
    fields; ``marks`` belong to cards: (card name, value) per card with a turn-long effect of
    its own, sorted by name, read and written only by that card's module (`engine.turn_mark`,
    `engine.set_turn_mark`); a card's ``treasure_bonus`` turns its mark into $ when Treasures
    are played (Coppersmith: the Coppersmiths played; Merchant: (Merchants played, Silvers
    played))."""
    actions_played: int = 0   # Action cards played this turn (Conspirator counts every play)
    cost_reduction: int = 0   # every cost is this much lower this turn, not below 0 (Bridge)
    bought: bool = False      # a card was bought this turn: no more Treasures may be played
    left_play: tuple = ()     # instance ids of played cards that have left play this turn
    immune: tuple = ()        # seats unaffected by the Attack being resolved (Moat)
    marks: tuple = ()         # (card name, value) per card with a turn-long effect, by name


NO_EFFECTS: Final = TurnEffects()


class State(NamedTuple):
    """A whole game at one moment. Treat as opaque: read it through the public functions."""
    config: Config
    pile_names: tuple        # Supply piles in a fixed order; `supply` counts are indexed alike
    supply: tuple
    trash: tuple
    players: tuple           # PlayerState per seat
    current: int             # the seat whose turn it is
    phase: str
    actions: int
    buys: int
    coins: int
    turn: int                # turns started in the whole game (1 for the first turn)
    turns_taken: tuple       # turns started, per seat (ties go to fewer turns)
    effects: TurnEffects     # what this turn's plays left behind (Bridge, Merchant, Moat, ...)
    next_uid: int
    stack: tuple             # suspended work: frames, the top one last
    rng: int
    log: PVector
    answers: PVector         # (seat, answer) per step: with `config`, the game's record
    vp: tuple                # each seat's victory points now, kept up to date when cards
                             # change owner (gain, trash, pass)
    hidden_passes: tuple     # (giver, receiver, card, seen_by) per card passed face down
                             # (Masquerade) that can change a score: a view's VP undoes the
                             # ones its viewer did not see (`views.known_vp`)
