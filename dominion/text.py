"""Log events as text, formatted only when a person asks (the log itself stays tuples)."""
from __future__ import annotations

from collections import Counter

_VERBS = {
    "draw": "draws", "shuffle": "shuffles their deck", "play": "plays", "buy": "buys",
    "gain": "gains", "trash": "trashes", "discard": "discards", "topdeck": "puts onto their deck",
    "to_hand": "puts into their hand", "reveal": "reveals", "look": "looks at",
    "cleanup": "cleans up", "game_over": "- the game is over",
}
_PLACES = {"hand": " into their hand", "deck": " onto their deck"}


def card_list(cards) -> str:
    """"2 Coppers, Estate"-style text for a list of card names, in first-seen order."""
    counts = Counter(cards)
    parts = []
    for name in dict.fromkeys(cards):
        n = counts[name]
        parts.append(name if n == 1 else f"{n} {name}s")
    return ", ".join(parts)


def format_event(event, player_names) -> str:
    """One line of the log as a person reads it. A redacted event (cards hidden from the
    viewer) shows how many cards there were."""
    who = player_names[event.player] if 0 <= event.player < len(player_names) else "?"
    if event.kind == "turn":
        return f"--- Turn {event.detail}: {who} ---"
    verb = _VERBS.get(event.kind, event.kind.replace("_", " "))
    if event.cards:
        what = " " + card_list(event.cards)
    elif isinstance(event.detail, int) and event.kind not in ("turn",):
        what = f" {event.detail} card{'s' if event.detail != 1 else ''}"
    else:
        what = ""
    where = _PLACES.get(event.detail, "") if event.kind == "gain" else ""
    if event.kind == "play" and event.detail == "again":
        where = " again"
    return f"{who} {verb}{what}{where}"
