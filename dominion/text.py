"""The game in words: the one renderer of log events and of what a pending decision is about,
used by the terminal, the web page and the wire alike (`Event.text`, `PublicDecision.text`).

Lines follow Dominion Online's style: "Ann plays a Village.", "Bob buys and gains a Gold.",
"Cid draws 3 Coppers and 2 Estates." for Cid and "Cid draws 5 cards." for everyone else, the
turn header "Turn 3 - Ann" numbering each player's own turns. An event is rendered for one
viewer: cards hidden from that viewer become a count (`views.visible_event` decides), so a line
never tells a viewer what the rules hide from them.

Two styles (`STYLES`): ``"engine"``, the default, and ``"dominion-online"``, Dominion Online's
own log format, which its players' tools (log parsers, deck trackers) read: a short prefix per
player derived from the names (`name_prefixes`), header lines (`log_header`), "(+$N)" after
Treasure plays (their printed values: a Coppersmith's or Merchant's bonus is not in the event),
"topdecks", a hidden discard naming the visible top card ("discards a card and a Copper."),
"reacts with a Moat.", a comma before the "and" of a list of three, no line for the Clean-up,
"The game has ended."; `log_lines` writes a whole log, with the "gets +1 Action." lines of
Actions' printed bonuses and another player's Library that "looks at" what it draws.
"""
from __future__ import annotations

from typing import Optional

from .card import CARDS, regular_plural
from .errors import InvalidConfigError
from .state import FROM_SUPPLY

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


def and_list(parts, oxford: bool = False) -> str:
    """"x", "x and y", "x, y and z" (``oxford``, as Dominion Online writes: "x, y, and z")."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    last = ", and " if oxford and len(parts) > 2 else " and "
    return ", ".join(parts[:-1]) + last + parts[-1]


def card_list(cards, oxford: bool = False) -> str:
    """Card names as words, counted in the order first seen: "3 Coppers and an Estate";
    "" for none; ``oxford``: a comma before the "and" of three or more (`and_list`)."""
    counts: dict = {}
    for name in cards:
        counts[name] = counts.get(name, 0) + 1
    return and_list((card_count(n, name) for name, n in counts.items()), oxford)


def cards_count(n: int) -> str:
    """"a card", "5 cards" (for cards the viewer may not see)."""
    return "a card" if n == 1 else f"{n} cards"


ENGINE, DOMINION_ONLINE = "engine", "dominion-online"
STYLES = (ENGINE, DOMINION_ONLINE)


def log_line(event, player_names, viewer: Optional[int] = None, style: str = ENGINE) -> str:
    """One log event as a line of text for ``viewer`` (a seat, or None for a spectator): the
    event's hidden cards are shown only to the seats that may see them. In the
    ``"dominion-online"`` style a line may be empty (an event Dominion Online does not write)."""
    from .views import visible_event  # the one rule of who sees what
    seen = visible_event(event, viewer)
    if style == DOMINION_ONLINE and event.kind == "discard" and len(seen.cards) < len(
            event.cards) and len(event.cards) > 1:
        # Several hidden cards discarded at once: the last one lands on top of the discard
        # pile, where everyone sees it, and Dominion Online names it.
        who = _who(event.player, player_names, style)
        return f"{who} discards {cards_count(len(event.cards) - 1)} and {a_card(event.cards[-1])}."
    return render(seen, player_names, style)


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"no log style {style!r}; the styles are {', '.join(STYLES)}")


def name_prefixes(player_names) -> tuple:
    """Dominion Online's short name per player: the shortest start of the name (spaces left
    out) that starts no other player's name ("Ann", "Bob" -> "A", "B"; "Ann", "Andy" -> "Ann",
    "And"), the whole name when it starts another's, and the seat number added to names that
    are still alike ("Ann", "Ann" -> "Ann1", "Ann2"); unique within the game, one word each.
    Names are told apart by their letters and digits only (`_letters`): a log parser that
    leaves out punctuation must not merge two players ("big-money", "big-money-ultimate" ->
    "big-money", "big-money-u", not "big-money-")."""
    names = ["".join(str(n).split()) for n in player_names]
    names = [n if _letters(n) else f"P{i + 1}" for i, n in enumerate(names)]
    keys = [_letters(n) for n in names]
    out = []
    for i, name in enumerate(names):
        others = [k for j, k in enumerate(keys) if j != i]
        short = next((name[:k] for k in range(1, len(name) + 1) if name[k - 1].isalnum() and
                      not any(o.startswith(_letters(name[:k])) for o in others)), name)
        out.append(short)
    counts: dict = {}
    for p in out:
        counts[_letters(p)] = counts.get(_letters(p), 0) + 1
    taken = {_letters(p) for p in out if counts[_letters(p)] == 1}
    unique = []
    for i, p in enumerate(out):
        if counts[_letters(p)] > 1:   # alike names: the seat's number, again until unique
            p = f"{p}{i + 1}"
            while _letters(p) in taken:
                p += str(i + 1)
            taken.add(_letters(p))
        unique.append(p)
    return tuple(unique)


def _letters(name: str) -> str:
    """A name's letters and digits: what tells two players apart in a log."""
    return "".join(ch for ch in name if ch.isalnum())


def _who(player: int, player_names, style: str) -> str:
    if not 0 <= player < len(player_names):
        return f"Seat {player}"
    if style == DOMINION_ONLINE:
        return name_prefixes(player_names)[player]
    return player_names[player]


def log_header(player_names, style: str = ENGINE, game_number: int = 1,
               ratings=None) -> tuple:
    """The lines before the first event: none in the engine's style; in Dominion Online's, the
    game's number ("Game #12, unrated."), then what each player starts with ("A starts with 7
    Coppers.", "A starts with 3 Estates."). ``ratings``, one number per player, makes it a
    rated game's header, as Dominion Online writes one: "Game #12, rated." and a "name:
    rating" line per player ("Ann: 41.25"), which some log parsers need."""
    _check_style(style)
    if style != DOMINION_ONLINE:
        return ()
    from .game import STARTING_DECK
    counts: dict = {}
    for name in STARTING_DECK:
        counts[name] = counts.get(name, 0) + 1
    if ratings is None:
        lines = [f"Game #{game_number}, unrated.", ""]
    else:
        ratings = tuple(ratings)
        if len(ratings) != len(player_names) or not all(
                isinstance(r, (int, float)) and not isinstance(r, bool) for r in ratings):
            raise InvalidConfigError(f"ratings must be one number per player ({len(player_names)}"
                                     f"), not {ratings!r:.80}")
        lines = [f"Game #{game_number}, rated."]
        lines += [f"{name}: {rating:g}" for name, rating in zip(player_names, ratings)]
        lines.append("")
    for prefix in name_prefixes(player_names):
        lines += [f"{prefix} starts with {card_count(n, name)}." for name, n in counts.items()]
    return tuple(lines)


def log_lines(events, player_names, viewer: Optional[int] = None, style: str = ENGINE,
              game_number: int = 1, ratings=None) -> tuple:
    """A whole log as lines for ``viewer``: `log_header`, then each event's `log_line` (the
    events as recorded; those hidden from ``viewer`` are redacted here). In Dominion Online's
    style a blank line comes before each turn's header, as it does there, and an Action's
    fixed bonuses follow its play as Dominion Online writes them ("A gets +2 Actions.", "A gets
    +1 Buy.", "A gets +$2."), after the draw of its +Cards: the card's printed bonuses (its
    data), not those a choice or a condition gives (Pawn, Steward, Baron's +$4). Another
    player's Library "looks at" the cards it draws there (`log_header` for ``ratings``)."""
    _check_style(style)
    if isinstance(game_number, bool) or not isinstance(game_number, int) or game_number < 0:
        raise InvalidConfigError(f"game_number must be a whole number >= 0, not "
                                 f"{game_number!r:.80}")
    seats = max((event.player for event in events if event.player is not None), default=-1)
    if seats >= len(player_names):
        raise InvalidConfigError(f"the log names seats 0 to {seats}, but player_names has "
                                 f"{len(player_names)} names: give one per seat")
    lines = list(log_header(player_names, style, game_number, ratings))
    online = style == DOMINION_ONLINE
    library = None         # the seat whose Library is drawing, in Dominion Online's style
    gets: list = []        # bonus lines waiting for the draw of the card's +Cards
    drawer = None          # whose draw they wait for
    for event in events:
        if gets and not (event.player == drawer and event.kind in ("shuffle", "draw")):
            lines += gets
            gets = []
        line = log_line(event, player_names, viewer, style)
        if online:
            if event.kind in _ENDS_A_DRAW:
                library = event.player if event.kind == "play" and tuple(event.cards) == (
                    "Library",) else None
            elif event.kind == "draw" and event.player == library and viewer != library:
                line = line.replace(" draws ", " looks at ", 1)   # others see it look
            if not line:
                continue
            if event.kind == "turn":
                lines.append("")
        lines.append(line)
        if gets and event.kind == "draw":
            lines += gets
            gets = []
        if online and event.kind == "play" and len(event.cards) == 1:
            bonus = _bonus_lines(event.cards[0], _who(event.player, player_names, style))
            card = CARDS.get(event.cards[0])
            if bonus and card is not None and card.plus_cards:
                gets, drawer = bonus, event.player
            else:
                lines += bonus
    return tuple(lines + gets)


# Events after which a Library's draws are over (its player's next play, a buy, the turn's end).
_ENDS_A_DRAW = frozenset(("play", "buy", "cleanup", "turn", "game_over"))


def _bonus_lines(name: str, who: str) -> list:
    """Dominion Online's lines for a played Action's printed +Actions, +Buys and +$."""
    c = CARDS.get(name)
    if c is None or not c.is_action:
        return []
    out = []
    if c.plus_actions:
        out.append(f"{who} gets +{c.plus_actions} Action{'s' if c.plus_actions > 1 else ''}.")
    if c.plus_buys:
        out.append(f"{who} gets +{c.plus_buys} Buy{'s' if c.plus_buys > 1 else ''}.")
    if c.plus_coins:
        out.append(f"{who} gets +${c.plus_coins}.")
    return out


def render(event, player_names, style: str = ENGINE) -> str:
    """A line for an event as its viewer has it (hidden cards already replaced by their count
    in ``detail``, as `views.visible_event` and the wire deliver them), in ``style``."""
    kind, player, cards, detail = event.kind, event.player, event.cards, event.detail
    online = style == DOMINION_ONLINE
    if not online:
        _check_style(style)
    who = _who(player, player_names, style)
    hidden = not cards and isinstance(detail, int) and kind not in _COUNT_DETAIL
    what = cards_count(detail) if hidden else card_list(cards, online)
    if kind == "turn":
        full = player_names[player] if 0 <= player < len(player_names) else who
        return f"Turn {detail} - {full}"
    if kind == "game_over":
        return "The game has ended." if online else "The game is over."
    if kind == "take_back":
        return f"{who} takes back a move."
    if kind == "resign":
        return f"{who} resigns."
    if online:
        if kind == "cleanup":
            return ""
        if kind == "topdeck":
            return f"{who} topdecks {what}."
        if kind == "reveal" and detail == "reaction":
            return f"{who} reacts with {what}."
        if kind == "play" and cards and all(c in CARDS and CARDS[c].is_treasure for c in cards):
            coins = sum(CARDS[c].coins for c in cards)   # printed values (see the module doc)
            again = " again" if detail == "again" else ""
            return f"{who} plays {what}{again}. (+${coins})"
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
        to = _who(detail, player_names, style) if isinstance(detail, int) and 0 <= detail < len(
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
        return f"{who} trashes {what}{' from the Supply' if detail == FROM_SUPPLY else ''}."
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
_COUNT_DETAIL = ("turn", "discard_deck", "pass", "insert", "take_back")


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
