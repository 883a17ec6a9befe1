"""Dominion (base game): the 26 Kingdom cards of the 2nd edition and the 6 of the 1st edition
only (cards.md). Rulings quoted from the rulebooks' card notes decide the details.

How a card is written: simple bonuses are fields of `Card`; the rest is ``effect(w, p, uid)``,
a function on the step's working copy. A question is asked with ``ask_*`` and a registered
continuation that receives the answer; work that must wait for other frames is ``push``-ed.
"""
from ..card import (ACTION_T, ATTACK_T, BASE_1E, BASE_2E, CARDS, REACTION_T, VICTORY_T, Card,
                    continuation, define)
from ..engine import (ask_select, attacked, discard, draw, each_attacked, gain, gainable, others,
                      play, push, replay, trash)

BOTH = (BASE_2E, BASE_1E)  # a card in both editions' pools
A = (ACTION_T,)
AA = (ACTION_T, ATTACK_T)


# --- Cellar ---------------------------------------------------------------------------------

def _cellar(w, p, uid):
    ask_select(w, p, "Cellar: discard any number of cards, then draw that many", "Cellar",
               "discard", w.players[p].hand, 0, 99, _cellar_discard, p)


@continuation
def _cellar_discard(w, chosen, p):
    discard(w, p, chosen)
    draw(w, p, len(chosen))


# --- Chapel ---------------------------------------------------------------------------------

def _chapel(w, p, uid):
    ask_select(w, p, "Chapel: trash up to 4 cards from your hand", "Chapel", "trash",
               w.players[p].hand, 0, 4, _chapel_trash, p)


@continuation
def _chapel_trash(w, chosen, p):
    trash(w, p, chosen)


# --- Moat -----------------------------------------------------------------------------------

def _moat_react(w, p, attacker):
    """Rulebook: revealing Moat makes the Attack not affect you (you still may be asked by
    other Reactions)."""
    w.immune += (p,)


def _moat_can_react(w, p):
    return p not in w.immune


# --- Workshop -------------------------------------------------------------------------------

def _workshop(w, p, uid):
    ask_select(w, p, "Workshop: gain a card costing up to $4", "Workshop", "gain",
               gainable(w, 4), 1, 1, _gain_chosen, p)


@continuation
def _gain_chosen(w, chosen, p):
    """Gain the one chosen Supply card to the discard pile (shared by gain-a-card effects)."""
    if chosen:
        gain(w, p, chosen[0])


# --- Gardens --------------------------------------------------------------------------------

def _gardens_vp(counts):
    return sum(counts.values()) // 10


# --- Militia --------------------------------------------------------------------------------

def _militia(w, p, uid):
    each_attacked(w, p, _militia_victim)


@continuation
def _militia_victim(w, victim):
    hand = w.players[victim].hand
    excess = len(hand) - 3
    if excess > 0:
        ask_select(w, victim, f"Militia: discard down to 3 cards ({excess} to discard)", "Militia",
                   "discard", hand, excess, excess, _discard_chosen, victim)


@continuation
def _discard_chosen(w, chosen, p):
    discard(w, p, chosen)


# --- Throne Room ----------------------------------------------------------------------------

def _throne_room(w, p, uid):
    actions = [c for c in w.players[p].hand if CARDS[c].is_action]
    ask_select(w, p, "Throne Room: you may play an Action card from your hand twice",
               "Throne Room", "play", actions, 0, 1, _throne_room_play, p)


@continuation
def _throne_room_play(w, chosen, p):
    """Rulebook: the chosen card is played, resolved completely, then played again; playing it
    uses no Action. The second play happens even if the card left play (Feast)."""
    if not chosen:
        return
    name = chosen[0]
    uid = w.next_uid
    push(w, replay, p, name, uid)
    play(w, p, name)


# --- Council Room ---------------------------------------------------------------------------

def _council_room(w, p, uid):
    for other in others(w, p):
        draw(w, other, 1)


# --- Witch ----------------------------------------------------------------------------------

def _witch(w, p, uid):
    """Curses are handed out in turn order, so when they run out the later players get none."""
    for victim in attacked(w, p):
        gain(w, victim, "Curse")


define(
    Card("Cellar", 2, A, BASE_2E, "+1 Action. Discard any number of cards, then draw that many.",
         editions=BOTH, plus_actions=1, effect=_cellar),
    Card("Chapel", 2, A, BASE_2E, "Trash up to 4 cards from your hand.", editions=BOTH,
         effect=_chapel),
    Card("Moat", 2, (ACTION_T, REACTION_T), BASE_2E,
         "+2 Cards. When another player plays an Attack, you may first reveal this from your "
         "hand, to be unaffected by it.", editions=BOTH, plus_cards=2, reaction=_moat_react,
         can_react=_moat_can_react),
    Card("Village", 3, A, BASE_2E, "+1 Card, +2 Actions.", editions=BOTH, plus_cards=1,
         plus_actions=2),
    Card("Workshop", 3, A, BASE_2E, "Gain a card costing up to $4.", editions=BOTH,
         effect=_workshop),
    Card("Gardens", 4, (VICTORY_T,), BASE_2E, "Worth 1 VP per 10 cards you have (round down).",
         editions=BOTH, victory_points=_gardens_vp),
    Card("Militia", 4, AA, BASE_2E, "+$2. Each other player discards down to 3 cards in hand.",
         editions=BOTH, plus_coins=2, effect=_militia),
    Card("Smithy", 4, A, BASE_2E, "+3 Cards.", editions=BOTH, plus_cards=3),
    Card("Throne Room", 4, A, BASE_2E, "You may play an Action card from your hand twice.",
         editions=BOTH, effect=_throne_room),
    Card("Council Room", 5, A, BASE_2E, "+4 Cards, +1 Buy. Each other player draws a card.",
         editions=BOTH, plus_cards=4, plus_buys=1, effect=_council_room),
    Card("Festival", 5, A, BASE_2E, "+2 Actions, +1 Buy, +$2.", editions=BOTH, plus_actions=2,
         plus_buys=1, plus_coins=2),
    Card("Laboratory", 5, A, BASE_2E, "+2 Cards, +1 Action.", editions=BOTH, plus_cards=2,
         plus_actions=1),
    Card("Market", 5, A, BASE_2E, "+1 Card, +1 Action, +1 Buy, +$1.", editions=BOTH,
         plus_cards=1, plus_actions=1, plus_buys=1, plus_coins=1),
    Card("Witch", 5, AA, BASE_2E, "+2 Cards. Each other player gains a Curse.", editions=BOTH,
         plus_cards=2, effect=_witch),
    Card("Woodcutter", 3, A, BASE_1E, "+1 Buy, +$2.", plus_buys=1, plus_coins=2),
)
