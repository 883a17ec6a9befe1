"""Recommended Kingdoms (from the rulebooks) and Kingdom resolution: 10 names, a preset, or a
random draw from chosen sets."""
from __future__ import annotations

from . import rng
from .card import CARDS, SETS
from .errors import InvalidKingdomError, UnknownCardError, did_you_mean

KINGDOM_SIZE = 10

# name -> (sets it uses, cards). Order as in the rulebooks; 1st-edition sets whose name repeats
# carry the "(1st edition)" suffix.
RECOMMENDED: dict[str, tuple] = {
    "First Game": (("base-2e",), ("Cellar", "Market", "Merchant", "Militia", "Mine", "Moat",
                                  "Remodel", "Smithy", "Village", "Workshop")),
    "Size Distortion": (("base-2e",), ("Artisan", "Bandit", "Bureaucrat", "Chapel", "Festival",
                                       "Gardens", "Sentry", "Throne Room", "Witch", "Workshop")),
    "Deck Top": (("base-2e",), ("Artisan", "Bureaucrat", "Council Room", "Festival", "Harbinger",
                                "Laboratory", "Moneylender", "Sentry", "Vassal", "Village")),
    "Sleight of Hand": (("base-2e",), ("Cellar", "Council Room", "Festival", "Gardens", "Library",
                                       "Harbinger", "Militia", "Poacher", "Smithy",
                                       "Throne Room")),
    "Improvements": (("base-2e",), ("Artisan", "Cellar", "Market", "Merchant", "Mine", "Moat",
                                    "Moneylender", "Poacher", "Remodel", "Witch")),
    "Silver & Gold": (("base-2e",), ("Bandit", "Bureaucrat", "Chapel", "Harbinger", "Laboratory",
                                     "Merchant", "Mine", "Moneylender", "Throne Room", "Vassal")),
    "First Game (1st edition)": (("base-1e",), (
        "Cellar", "Market", "Militia", "Mine", "Moat", "Remodel", "Smithy", "Village",
        "Woodcutter", "Workshop")),
    "Big Money": (("base-1e",), ("Adventurer", "Bureaucrat", "Chancellor", "Chapel", "Feast",
                                 "Laboratory", "Market", "Mine", "Moneylender", "Throne Room")),
    "Interaction": (("base-1e",), ("Bureaucrat", "Chancellor", "Council Room", "Festival",
                                   "Library", "Militia", "Moat", "Spy", "Thief", "Village")),
    "Size Distortion (1st edition)": (("base-1e",), (
        "Cellar", "Chapel", "Feast", "Gardens", "Laboratory", "Thief", "Village", "Witch",
        "Woodcutter", "Workshop")),
    "Village Square": (("base-1e",), ("Bureaucrat", "Cellar", "Festival", "Library", "Market",
                                      "Remodel", "Smithy", "Throne Room", "Village",
                                      "Woodcutter")),
    "Victory Dance": (("intrigue-2e",), ("Baron", "Courtier", "Duke", "Harem", "Ironworks",
                                         "Masquerade", "Mill", "Nobles", "Patrol", "Replace")),
    "The Plot Thickens": (("intrigue-2e",), (
        "Conspirator", "Ironworks", "Lurker", "Pawn", "Mining Village", "Secret Passage",
        "Steward", "Swindler", "Torturer", "Trading Post")),
    "Best Wishes": (("intrigue-2e",), ("Baron", "Conspirator", "Courtyard", "Diplomat", "Duke",
                                       "Secret Passage", "Shanty Town", "Torturer", "Upgrade",
                                       "Wishing Well")),
    "Underlings": (("intrigue-2e", "base-2e"), (
        "Courtier", "Diplomat", "Minion", "Nobles", "Pawn", "Cellar", "Festival", "Library",
        "Sentry", "Vassal")),
    "Grand Scheme": (("intrigue-2e", "base-2e"), (
        "Bridge", "Mill", "Mining Village", "Patrol", "Shanty Town", "Artisan", "Council Room",
        "Market", "Militia", "Workshop")),
    "Deconstruction": (("intrigue-2e", "base-2e"), (
        "Diplomat", "Harem", "Lurker", "Replace", "Swindler", "Bandit", "Mine", "Remodel",
        "Throne Room", "Village")),
    "Victory Dance (1st edition)": (("intrigue-1e",), (
        "Bridge", "Duke", "Great Hall", "Harem", "Ironworks", "Masquerade", "Nobles", "Pawn",
        "Scout", "Upgrade")),
    "Secret Schemes": (("intrigue-1e",), (
        "Conspirator", "Harem", "Ironworks", "Pawn", "Saboteur", "Shanty Town", "Steward",
        "Swindler", "Trading Post", "Tribute")),
    "Best Wishes (1st edition)": (("intrigue-1e",), (
        "Coppersmith", "Courtyard", "Masquerade", "Scout", "Shanty Town", "Steward", "Torturer",
        "Trading Post", "Upgrade", "Wishing Well")),
    "Deconstruction (1st edition)": (("intrigue-1e", "base-1e"), (
        "Bridge", "Mining Village", "Remodel", "Saboteur", "Secret Chamber", "Spy", "Swindler",
        "Thief", "Throne Room", "Torturer")),
    "Hand Madness": (("intrigue-1e", "base-1e"), (
        "Bureaucrat", "Chancellor", "Council Room", "Courtyard", "Mine", "Militia", "Minion",
        "Nobles", "Steward", "Torturer")),
    "Underlings (1st edition)": (("intrigue-1e", "base-1e"), (
        "Baron", "Cellar", "Festival", "Library", "Masquerade", "Minion", "Nobles", "Pawn",
        "Steward", "Witch")),
}

RANDOM = "random"
_KINGDOM_STREAM = 0x4B494E47444F4D  # "KINGDOM": the draw uses its own stream of the seed


def kingdom_pool(sets) -> tuple:
    """The Kingdom cards of the given sets (an edition's pool includes the cards it shares):
    a sequence of set names, or one comma-separated string ("base-2e,intrigue-2e")."""
    sets = tuple(s.strip() for s in sets.split(",")) if isinstance(sets, str) else tuple(sets)
    for s in sets:
        if s not in SETS:
            raise InvalidKingdomError(f"unknown set {s!r}{did_you_mean(s, SETS)}; sets are: "
                                      f"{', '.join(SETS)}")
    return tuple(sorted(n for n, c in CARDS.items()
                        if c.is_kingdom and any(e in sets for e in c.editions)))


def check_kingdom(names) -> tuple:
    """Validate 10 distinct Kingdom card names; returns them as a tuple."""
    names = tuple(names)
    for n in names:
        c = CARDS.get(n)
        if c is None:
            pool = kingdom_pool(SETS)
            raise UnknownCardError(f"unknown card {n!r} in the Kingdom{did_you_mean(n, pool)}; "
                                   f"Kingdom cards are: {', '.join(pool)}")
        if not c.is_kingdom:
            raise InvalidKingdomError(f"{n} is a basic card, always in the Supply; "
                                      "a Kingdom names 10 Kingdom cards")
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise InvalidKingdomError(f"a Kingdom needs 10 different cards; repeated: {', '.join(dup)}")
    if len(names) != KINGDOM_SIZE:
        raise InvalidKingdomError(f"a Kingdom needs exactly {KINGDOM_SIZE} cards, got {len(names)}")
    return names


def resolve_kingdom(kingdom, sets=None, seed: int = 0) -> tuple:
    """Turn a Kingdom request into 10 card names.

    ``kingdom`` is a recommended set's name, ``"random"`` (10 drawn from ``sets`` with the
    seed; all four sets if none are given), a comma-separated string of names, or a sequence of
    10 names.
    """
    if isinstance(kingdom, str):
        if kingdom in RECOMMENDED:
            return RECOMMENDED[kingdom][1]
        if kingdom.lower() == RANDOM:
            pool = kingdom_pool(sets or SETS)
            if len(pool) < KINGDOM_SIZE:
                raise InvalidKingdomError(f"the sets {list(sets)} have only {len(pool)} Kingdom cards")
            _, order = rng.shuffled(rng.seed_state(seed ^ _KINGDOM_STREAM), pool)
            return tuple(order[:KINGDOM_SIZE])
        if "," not in kingdom:
            hint = did_you_mean(kingdom, tuple(RECOMMENDED) + (RANDOM,))
            raise InvalidKingdomError(
                f"unknown Kingdom {kingdom!r}{hint}: give 10 card names separated by commas, "
                f"'random', or a recommended set: {', '.join(RECOMMENDED)}")
        kingdom = [n.strip() for n in kingdom.split(",")]
    return check_kingdom(kingdom)
