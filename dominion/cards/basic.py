"""The basic cards, in every game (cards.md, Basic cards)."""
from ..card import BASIC, CURSE_T, TREASURE_T, VICTORY_T, Card, define

define(
    Card("Copper", 0, (TREASURE_T,), BASIC, "$1", coins=1),
    Card("Silver", 3, (TREASURE_T,), BASIC, "$2", coins=2),
    Card("Gold", 6, (TREASURE_T,), BASIC, "$3", coins=3),
    Card("Estate", 2, (VICTORY_T,), BASIC, "1 VP", vp=1),
    Card("Duchy", 5, (VICTORY_T,), BASIC, "3 VP", vp=3),
    Card("Province", 8, (VICTORY_T,), BASIC, "6 VP", vp=6),
    Card("Curse", 0, (CURSE_T,), BASIC, "-1 VP", vp=-1),
)
