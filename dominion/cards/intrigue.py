"""Dominion: Intrigue: the 26 Kingdom cards of the 2nd edition and the 6 of the 1st edition only
(Coppersmith, Great Hall, Saboteur, Scout, Secret Chamber, Tribute; cards.md). The card notes of
the Intrigue rulebooks decide the details; each ruling is cited where it shapes the code.

Two rules hold for every card here (rulebook, Additional rules for Intrigue):
- A player given a choice picks any option, even one they cannot carry out, then does as much of
  it as they can (Steward, Torturer, Minion, Nobles, Pawn, Courtier, Lurker): options are always
  offered, and the chosen one is carried out as far as it goes.
- A card with two types is both types for all purposes (Harem, Mill, Nobles, Great Hall): every
  type check below reads ``is_action``/``is_treasure``/``is_victory`` from the card.

How a card is written: see ``base.py``. CHOOSE options are the stable labels below; bots and
clients answer with them.
"""
from ..card import (ACTION_T, ATTACK_T, CARDS, INTRIGUE_1E, INTRIGUE_2E, REACTION_T, TREASURE_T,
                    VICTORY_T, Card, continuation, define)
from ..engine import (Work, ask_choose, ask_may, ask_order, ask_select, ask_yes_no, attacked, cost,
                      discard, draw, each_attacked, gain, gain_from_trash, gainable,
                      insert_into_deck, log, others, pass_card, push, remove,
                      reveal_from_deck, set_effect, set_turn_mark, still_in_play, to_hand,
                      topdeck, trash, trash_from_supply, trash_self, turn_mark)
from .common import (discard_chosen, distinct, gain_chosen, reveal_hand, topdeck_chosen,
                     trash_chosen)

BOTH = (INTRIGUE_2E, INTRIGUE_1E)  # a card in both editions' pools
A = (ACTION_T,)
AA = (ACTION_T, ATTACK_T)
AV = (ACTION_T, VICTORY_T)
AR = (ACTION_T, REACTION_T)


# --- Shared steps ---------------------------------------------------------------------------

@continuation
def _discard_aside(w: Work, p, cards):
    discard(w, p, cards, "aside")


def _reveal_four_keep(w: Work, p, card_name, keep):
    """Patrol, Scout: reveal the top 4 cards, put those that ``keep`` accepts into the hand
    (all of them: the player cannot leave some on the deck), the rest back in any order."""
    revealed = reveal_from_deck(w, p, 4)
    kept = tuple(c for c in revealed if keep(CARDS[c]))
    to_hand(w, p, kept, "aside")
    rest = remove(revealed, kept)
    ask_order(w, p, f"{card_name}: put the other revealed cards back on your deck in any order",
              card_name, rest, topdeck_chosen, p, "aside")


# Intrigue 2nd edition: the cards of both editions, then the 7 new ones.


# --- Courtyard ------------------------------------------------------------------------------

def _courtyard(w: Work, p, uid):
    """Rulebook: the card put on top does not have to be one of the 3 just drawn."""
    ask_select(w, p, "Courtyard: put a card from your hand onto your deck", "Courtyard",
               "topdeck", distinct(w.players[p].hand), 1, 1, topdeck_chosen, p, "hand")


define(
    Card("Courtyard", 2, A, INTRIGUE_2E, "+3 Cards. Put a card from your hand onto your deck.",
         editions=BOTH, plus_cards=3, effect=_courtyard),
)


# --- Pawn -----------------------------------------------------------------------------------

PAWN_OPTIONS = ("+1 Card", "+1 Action", "+1 Buy", "+$1")


def _pawn(w: Work, p, uid):
    """Rulebook: both options are picked before either is done (one answer with two different
    options), so the drawn card cannot inform the second choice."""
    ask_choose(w, p, "Pawn: choose two different options", "Pawn", "choose", PAWN_OPTIONS, 2, 2,
               _pawn_choice, p)


@continuation
def _pawn_choice(w: Work, chosen, p):
    if "+1 Card" in chosen:
        draw(w, p, 1)
    if "+1 Action" in chosen:
        w.actions += 1
    if "+1 Buy" in chosen:
        w.buys += 1
    if "+$1" in chosen:
        w.coins += 1


define(
    Card("Pawn", 2, A, INTRIGUE_2E, "Choose two different: +1 Card; +1 Action; +1 Buy; +$1.",
         editions=BOTH, coins_up_to=1, effect=_pawn),
)


# --- Masquerade -----------------------------------------------------------------------------

def _masquerade(w: Work, p, uid):
    """Rulebook: all players choose a card to pass at the same time, then the cards move;
    players with no cards in hand are skipped (they neither pass nor receive). The choices are
    asked one player at a time in turn order, but nothing moves until everyone has chosen, so
    nobody sees what they receive before choosing. With fewer than two such players there is no
    one to pass to. Then only the player of Masquerade may trash a card. Not an Attack."""
    n = w.num_players
    passers = tuple(s for s in ((p + i) % n for i in range(n)) if w.players[s].hand)
    if len(passers) < 2:
        _masquerade_offer_trash(w, p)
    else:
        _masquerade_ask(w, p, passers, ())


def _masquerade_ask(w: Work, p, passers, chosen):
    seat = passers[len(chosen)]
    receiver = passers[(len(chosen) + 1) % len(passers)]
    ask_select(w, seat, f"Masquerade: pass a card to {w.config.players[receiver]}",
               "Masquerade", "pass", distinct(w.players[seat].hand), 1, 1, _masquerade_chosen, p,
               passers, chosen, about_player=receiver)


@continuation
def _masquerade_chosen(w: Work, answer, p, passers, chosen):
    chosen += answer
    if len(chosen) < len(passers):
        _masquerade_ask(w, p, passers, chosen)
        return
    k = len(passers)
    for i, seat in enumerate(passers):  # every card leaves its hand before any arrives
        w.players[seat].hand = remove(w.players[seat].hand, (chosen[i],))
    for i, seat in enumerate(passers):
        receiver = passers[(i + 1) % k]
        pass_card(w, seat, receiver, chosen[i])
    _masquerade_offer_trash(w, p)


def _masquerade_offer_trash(w: Work, p):
    ask_select(w, p, "Masquerade: you may trash a card from your hand", "Masquerade", "trash",
               w.players[p].hand, 0, 1, trash_chosen, p)


define(
    Card("Masquerade", 3, A, INTRIGUE_2E,
         "+2 Cards. Each player with any cards in hand passes one to the next such player to "
         "their left, at once. Then you may trash a card from your hand.", editions=BOTH,
         plus_cards=2, effect=_masquerade),
)


# --- Shanty Town ----------------------------------------------------------------------------

def _shanty_town(w: Work, p, uid):
    """Rulebook: reveal the hand; with no Action card in it (Action-Victory cards count), draw 2
    (both, even if the first drawn is an Action)."""
    reveal_hand(w, p)
    if not any(CARDS[c].is_action for c in w.players[p].hand):
        draw(w, p, 2)


define(
    Card("Shanty Town", 3, A, INTRIGUE_2E,
         "+2 Actions. Reveal your hand. If you have no Action cards in hand, +2 Cards.",
         editions=BOTH, plus_actions=2, effect=_shanty_town),
)


# --- Steward --------------------------------------------------------------------------------

STEWARD_CARDS, STEWARD_COINS, STEWARD_TRASH = "+2 Cards", "+$2", "trash 2 cards"


def _steward(w: Work, p, uid):
    ask_choose(w, p, "Steward: choose one", "Steward", "choose",
               (STEWARD_CARDS, STEWARD_COINS, STEWARD_TRASH), 1, 1, _steward_choice, p)


@continuation
def _steward_choice(w: Work, chosen, p):
    """Rulebook: trashing 2 with one card in hand trashes that card; with 2 or more, exactly 2."""
    if chosen[0] == STEWARD_CARDS:
        draw(w, p, 2)
    elif chosen[0] == STEWARD_COINS:
        w.coins += 2
    else:
        ask_select(w, p, "Steward: trash 2 cards from your hand", "Steward", "trash",
                   w.players[p].hand, 2, 2, trash_chosen, p)


define(
    Card("Steward", 3, A, INTRIGUE_2E,
         "Choose one: +2 Cards; or +$2; or trash 2 cards from your hand.", editions=BOTH,
         coins_up_to=2, effect=_steward),
)


# --- Swindler -------------------------------------------------------------------------------

def _swindler(w: Work, p, uid):
    each_attacked(w, p, _swindler_victim, p)


@continuation
def _swindler_victim(w: Work, victim, attacker):
    """Rulebook: in turn order, each victim trashes their top card (shuffling if needed; with no
    card, nothing happens) and gains a card of the same cost (after Bridge) that the attacker
    chooses from the Supply, maybe a Curse for a Copper or another copy of the same card; with
    none at that cost, no card is gained."""
    top = reveal_from_deck(w, victim, 1)
    if not top:
        return
    trash(w, victim, top, "aside")
    ask_select(w, attacker, f"Swindler: choose the card {w.config.players[victim]} gains",
               "Swindler", "give", gainable(w, cost(w, top[0]), exact=True), 1, 1,
               gain_chosen, victim, about_cards=top, about_player=victim)


define(
    Card("Swindler", 3, AA, INTRIGUE_2E,
         "+$2. Each other player trashes the top card of their deck and gains a card with the "
         "same cost that you choose.", editions=BOTH, plus_coins=2, changes_supply=True,
         effect=_swindler),
)


# --- Wishing Well ---------------------------------------------------------------------------

def _wishing_well(w: Work, p, uid):
    """Rulebook: name a card (a name, not a type). Every card of the game has a Supply pile, so
    the names offered are the Supply piles' (one SELECT among ``pile_names``)."""
    ask_select(w, p, "Wishing Well: name a card", "Wishing Well", "name", w.pile_names, 1, 1,
               _wishing_well_named, p)


@continuation
def _wishing_well_named(w: Work, named, p):
    log(w, "name", p, named)
    top = reveal_from_deck(w, p, 1)
    if not top:
        return
    if top[0] == named[0]:
        to_hand(w, p, top, "aside")
    else:
        topdeck(w, p, top, "aside", public=True)


define(
    Card("Wishing Well", 3, A, INTRIGUE_2E,
         "+1 Card, +1 Action. Name a card, then reveal the top card of your deck. If you named "
         "it, put it into your hand.", editions=BOTH, plus_cards=1, plus_actions=1,
         effect=_wishing_well),
)


# --- Baron ----------------------------------------------------------------------------------

def _baron(w: Work, p, uid):
    """Rulebook: discarding an Estate is never forced, but without it you must gain an Estate
    (if any are left)."""
    ask_may(w, p, "Estate" in w.players[p].hand,
            "Baron: discard an Estate for +$4? (if not, gain an Estate)", "Baron", "discard",
            _baron_answer, p, about_cards=("Estate",))


@continuation
def _baron_answer(w: Work, yes, p):
    if yes:
        discard(w, p, ("Estate",))
        w.coins += 4
    else:
        gain(w, p, "Estate")


define(
    Card("Baron", 4, A, INTRIGUE_2E,
         "+1 Buy. You may discard an Estate for +$4. If you don't, gain an Estate.",
         editions=BOTH, plus_buys=1, changes_supply=True, coins_up_to=4, effect=_baron),
)


# --- Bridge ---------------------------------------------------------------------------------

def _bridge(w: Work, p, uid):
    """Rulebook: every card everywhere costs $1 less this turn, cumulatively, never below $0
    (`cost` applies it)."""
    set_effect(w, "cost_reduction", w.effects.cost_reduction + 1)


define(
    Card("Bridge", 4, A, INTRIGUE_2E,
         "+1 Buy, +$1. This turn, cards (everywhere) cost $1 less, but not less than $0.",
         editions=BOTH, plus_buys=1, plus_coins=1, coins_up_to=None, effect=_bridge),
)


# --- Conspirator ----------------------------------------------------------------------------

def _conspirator(w: Work, p, uid):
    """Rulebook: counts Actions played this turn, including this one and every play through
    Throne Room (Throne Room on Conspirator first thing: the second play is the third Action);
    decided when played, never re-evaluated."""
    if w.effects.actions_played >= 3:
        draw(w, p, 1)
        w.actions += 1


define(
    Card("Conspirator", 4, A, INTRIGUE_2E,
         "+$2. If you have played 3 or more Actions this turn (counting this one), +1 Card and "
         "+1 Action.", editions=BOTH, plus_coins=2, effect=_conspirator),
)


# --- Ironworks ------------------------------------------------------------------------------

def _ironworks(w: Work, p, uid):
    ask_select(w, p, "Ironworks: gain a card costing up to $4", "Ironworks", "gain",
               gainable(w, 4), 1, 1, _ironworks_gain, p)


@continuation
def _ironworks_gain(w: Work, chosen, p):
    """Rulebook: a bonus per type of the gained card, both for a card with two types (Mill:
    +1 Card and +1 Action); nothing when no card was gained."""
    if not chosen or not gain(w, p, chosen[0]):
        return
    c = CARDS[chosen[0]]
    if c.is_action:
        w.actions += 1
    if c.is_treasure:
        w.coins += 1
    if c.is_victory:
        draw(w, p, 1)


define(
    Card("Ironworks", 4, A, INTRIGUE_2E,
         "Gain a card costing up to $4. If the gained card is an Action card, +1 Action; a "
         "Treasure card, +$1; a Victory card, +1 Card (each that applies).", plural="Ironworks",
         editions=BOTH,
         changes_supply=True, coins_up_to=1, effect=_ironworks),
)


# --- Mining Village -------------------------------------------------------------------------

def _mining_village(w: Work, p, uid):
    """Rulebook: decide right then whether to trash it for +$2; under Throne Room it can be
    trashed only once (the second play finds it gone and does not ask)."""
    if still_in_play(w, p, "Mining Village", uid):
        ask_yes_no(w, p, "Mining Village: trash it for +$2?", "Mining Village", "trash",
                   _mining_village_answer, p, uid, about_cards=("Mining Village",))


@continuation
def _mining_village_answer(w: Work, yes, p, uid):
    if yes and trash_self(w, p, "Mining Village", uid):
        w.coins += 2


define(
    Card("Mining Village", 4, A, INTRIGUE_2E,
         "+1 Card, +2 Actions. You may trash this for +$2.", editions=BOTH, plus_cards=1,
         plus_actions=2, coins_up_to=2, effect=_mining_village),
)


# --- Duke -----------------------------------------------------------------------------------

def _duke_vp(counts):
    return counts.get("Duchy", 0)


define(
    Card("Duke", 5, (VICTORY_T,), INTRIGUE_2E, "Worth 1 VP per Duchy you have.", editions=BOTH,
         victory_points=_duke_vp),
)


# --- Minion ---------------------------------------------------------------------------------

MINION_COINS, MINION_CARDS = "+$2", "discard your hand, +4 Cards"


def _minion(w: Work, p, uid):
    """Rulebook: Reactions (Moat, Diplomat) come before the choice: the engine resolves them
    before the effect runs."""
    ask_choose(w, p, "Minion: choose one", "Minion", "choose", (MINION_COINS, MINION_CARDS), 1, 1,
               _minion_choice, p)


@continuation
def _minion_choice(w: Work, chosen, p):
    """Each other player with at least 5 cards in hand discards it and draws 4; one who
    revealed Moat neither discards nor draws."""
    if chosen[0] == MINION_COINS:
        w.coins += 2
        return
    _discard_hand_draw_4(w, p)
    for victim in attacked(w, p):
        if len(w.players[victim].hand) >= 5:
            _discard_hand_draw_4(w, victim)


def _discard_hand_draw_4(w, p):
    discard(w, p, w.players[p].hand)
    draw(w, p, 4)


define(
    Card("Minion", 5, AA, INTRIGUE_2E,
         "+1 Action. Choose one: +$2; or discard your hand, +4 Cards, and each other player "
         "with at least 5 cards in hand discards their hand and draws 4 cards.", editions=BOTH,
         plus_actions=1, coins_up_to=2, effect=_minion),
)


# --- Torturer -------------------------------------------------------------------------------

TORTURER_DISCARD, TORTURER_CURSE = "discard 2 cards", "gain a Curse to your hand"


def _torturer(w: Work, p, uid):
    each_attacked(w, p, _torturer_victim)


@continuation
def _torturer_victim(w: Work, victim):
    """Rulebook: in turn order, each victim chooses and suffers before the next chooses; either
    option may be chosen even if it cannot be done (no Curses left, fewer than 2 cards)."""
    ask_choose(w, victim, "Torturer: discard 2 cards, or gain a Curse to your hand", "Torturer",
               "choose", (TORTURER_DISCARD, TORTURER_CURSE), 1, 1, _torturer_choice, victim)


@continuation
def _torturer_choice(w: Work, chosen, victim):
    if chosen[0] == TORTURER_CURSE:
        gain(w, victim, "Curse", "hand")
    else:
        ask_select(w, victim, "Torturer: discard 2 cards", "Torturer", "discard",
                   w.players[victim].hand, 2, 2, discard_chosen, victim)


define(
    Card("Torturer", 5, AA, INTRIGUE_2E,
         "+3 Cards. Each other player either discards 2 cards or gains a Curse to their hand, "
         "their choice.", editions=BOTH, plus_cards=3, changes_supply=True, effect=_torturer),
)


# --- Trading Post ---------------------------------------------------------------------------

def _trading_post(w: Work, p, uid):
    ask_select(w, p, "Trading Post: trash 2 cards from your hand", "Trading Post", "trash",
               w.players[p].hand, 2, 2, _trading_post_trash, p)


@continuation
def _trading_post_trash(w: Work, chosen, p):
    """Rulebook: with one card in hand, trash it and gain nothing; with 2 or more, trash exactly
    2 and gain a Silver to the hand (if any are left)."""
    trash(w, p, chosen)
    if len(chosen) == 2:
        gain(w, p, "Silver", "hand")


define(
    Card("Trading Post", 5, A, INTRIGUE_2E,
         "Trash 2 cards from your hand. If you did, gain a Silver to your hand.", editions=BOTH,
         changes_supply=True, effect=_trading_post),
)


# --- Upgrade --------------------------------------------------------------------------------

def _upgrade(w: Work, p, uid):
    ask_select(w, p, "Upgrade: trash a card from your hand", "Upgrade", "trash",
               distinct(w.players[p].hand), 1, 1, _upgrade_trash, p)


@continuation
def _upgrade_trash(w: Work, chosen, p):
    """Rulebook: gain a card costing exactly $1 more (both costs after Bridge, so with Bridge a
    Copper, still $0, becomes a $1 card); with none at that cost, gain nothing."""
    if not chosen:
        return
    trash(w, p, chosen)
    target = cost(w, chosen[0]) + 1
    ask_select(w, p, f"Upgrade: gain a card costing exactly ${target}", "Upgrade", "gain",
               gainable(w, target, exact=True), 1, 1, gain_chosen, p, about_cards=chosen)


define(
    Card("Upgrade", 5, A, INTRIGUE_2E,
         "+1 Card, +1 Action. Trash a card from your hand. Gain a card costing exactly $1 more "
         "than it.", editions=BOTH, plus_cards=1, plus_actions=1, changes_supply=True,
         effect=_upgrade),
)


# --- Harem ----------------------------------------------------------------------------------

define(
    Card("Harem", 6, (TREASURE_T, VICTORY_T), INTRIGUE_2E, "$2. Worth 2 VP.", editions=BOTH,
         coins=2, vp=2),
)


# --- Nobles ---------------------------------------------------------------------------------

NOBLES_CARDS, NOBLES_ACTIONS = "+3 Cards", "+2 Actions"


def _nobles(w: Work, p, uid):
    ask_choose(w, p, "Nobles: choose one", "Nobles", "choose", (NOBLES_CARDS, NOBLES_ACTIONS),
               1, 1, _nobles_choice, p)


@continuation
def _nobles_choice(w: Work, chosen, p):
    if chosen[0] == NOBLES_CARDS:
        draw(w, p, 3)
    else:
        w.actions += 2


define(
    Card("Nobles", 6, AV, INTRIGUE_2E, "Choose one: +3 Cards; or +2 Actions. Worth 2 VP.",
         plural="Nobles", editions=BOTH, vp=2, effect=_nobles),
)


# --- Lurker ---------------------------------------------------------------------------------

LURKER_TRASH = "trash an Action card from the Supply"
LURKER_GAIN = "gain an Action card from the trash"


def _lurker(w: Work, p, uid):
    ask_choose(w, p, "Lurker: choose one", "Lurker", "choose", (LURKER_TRASH, LURKER_GAIN), 1, 1,
               _lurker_choice, p)


@continuation
def _lurker_choice(w: Work, chosen, p):
    """Rulebook: the card trashed or gained must be an Action card, maybe with other types
    (Nobles); a gained card goes to the discard pile."""
    if chosen[0] == LURKER_TRASH:
        piles = [name for name, n in zip(w.pile_names, w.supply) if n and CARDS[name].is_action]
        ask_select(w, p, "Lurker: trash an Action card from the Supply", "Lurker", "trash",
                   piles, 1, 1, _lurker_trash, p)
    else:
        actions = distinct(c for c in w.trash if CARDS[c].is_action)
        ask_select(w, p, "Lurker: gain an Action card from the trash", "Lurker", "gain",
                   actions, 1, 1, _lurker_gain, p)


@continuation
def _lurker_trash(w: Work, chosen, p):
    if chosen:
        trash_from_supply(w, p, chosen[0])


@continuation
def _lurker_gain(w: Work, chosen, p):
    if chosen:
        gain_from_trash(w, p, chosen[0])


define(
    Card("Lurker", 2, A, INTRIGUE_2E,
         "+1 Action. Choose one: trash an Action card from the Supply; or gain an Action card "
         "from the trash.", plus_actions=1, changes_supply=True, effect=_lurker),
)


# --- Diplomat -------------------------------------------------------------------------------

def _diplomat(w: Work, p, uid):
    """Rulebook: count the hand after drawing 2; with 5 cards or fewer, +2 Actions."""
    if len(w.players[p].hand) <= 5:
        w.actions += 2


def _diplomat_can_react(w: Work, p):
    """Rulebook: only from a hand of at least 5 cards (again, if still 5 or more after one)."""
    return len(w.players[p].hand) >= 5


def _diplomat_react(w: Work, p, attacker):
    """Draw 2, then discard 3 (the Diplomat may be one of them)."""
    draw(w, p, 2)
    ask_select(w, p, "Diplomat: discard 3 cards", "Diplomat", "discard", w.players[p].hand, 3, 3,
               discard_chosen, p)


define(
    Card("Diplomat", 4, AR, INTRIGUE_2E,
         "+2 Cards. If you have 5 or fewer cards in hand (after drawing), +2 Actions. "
         "Reaction: when another player plays an Attack, you may first reveal this from a hand "
         "of 5 or more cards, to draw 2 cards then discard 3.", plus_cards=2, effect=_diplomat,
         reaction=_diplomat_react, can_react=_diplomat_can_react),
)


# --- Mill -----------------------------------------------------------------------------------

def _mill(w: Work, p, uid):
    """Rulebook: you may choose to discard 2 with only one card in hand, but get +$2 only if
    you discarded 2."""
    if w.players[p].hand:
        ask_yes_no(w, p, "Mill: discard 2 cards for +$2?", "Mill", "discard", _mill_answer, p)


@continuation
def _mill_answer(w: Work, yes, p):
    if yes:
        ask_select(w, p, "Mill: discard 2 cards", "Mill", "discard", w.players[p].hand, 2, 2,
                   _mill_discard, p)


@continuation
def _mill_discard(w: Work, chosen, p):
    discard(w, p, chosen)
    if len(chosen) == 2:
        w.coins += 2


define(
    Card("Mill", 4, AV, INTRIGUE_2E,
         "+1 Card, +1 Action. You may discard 2 cards, for +$2. Worth 1 VP.", vp=1,
         plus_cards=1, plus_actions=1, coins_up_to=2, effect=_mill),
)


# --- Secret Passage -------------------------------------------------------------------------

def _secret_passage(w: Work, p, uid):
    """Rulebook: any card from the hand (drawn now or not) goes anywhere in the deck: on top, at
    the bottom or in between; into an empty deck it becomes the only card. The position is a
    CHOOSE among "0" .. str(deck size): how many cards end up above it ("0" = on top)."""
    ask_select(w, p, "Secret Passage: put a card from your hand anywhere in your deck",
               "Secret Passage", "insert", distinct(w.players[p].hand), 1, 1, _secret_passage_card,
               p)


@continuation
def _secret_passage_card(w: Work, chosen, p):
    if not chosen:
        return
    size = len(w.players[p].deck)
    ask_choose(w, p, f"Secret Passage: how many cards go above {chosen[0]} in your deck "
               f"(0 = on top, {size} = at the bottom)?", "Secret Passage", "position",
               tuple(str(i) for i in range(size + 1)), 1, 1, _secret_passage_insert, p, chosen[0],
               about_cards=chosen)


@continuation
def _secret_passage_insert(w: Work, position, p, name):
    insert_into_deck(w, p, name, int(position[0]))


define(
    Card("Secret Passage", 4, A, INTRIGUE_2E,
         "+2 Cards, +1 Action. Take a card from your hand and put it anywhere in your deck.",
         plus_cards=2, plus_actions=1, effect=_secret_passage),
)


# --- Courtier -------------------------------------------------------------------------------

COURTIER_OPTIONS = ("+1 Action", "+1 Buy", "+$3", "gain a Gold")


def _courtier(w: Work, p, uid):
    ask_select(w, p, "Courtier: reveal a card from your hand", "Courtier", "reveal",
               distinct(w.players[p].hand), 1, 1, _courtier_reveal, p)


@continuation
def _courtier_reveal(w: Work, chosen, p):
    """Rulebook: count the revealed card's types (Action, Attack, Curse, Reaction, Treasure,
    Victory), then choose that many different options; a gained Gold goes to the discard pile."""
    if not chosen:
        return
    log(w, "reveal", p, chosen)
    k = len(CARDS[chosen[0]].types)
    types = " and ".join(CARDS[chosen[0]].types)
    ask_choose(w, p, f"Courtier: {chosen[0]} is {types}: choose "
               f"{'one option' if k == 1 else f'{k} different options'}",
               "Courtier", "choose", COURTIER_OPTIONS, k, k, _courtier_choice, p,
               about_cards=chosen)


@continuation
def _courtier_choice(w: Work, chosen, p):
    if "+1 Action" in chosen:
        w.actions += 1
    if "+1 Buy" in chosen:
        w.buys += 1
    if "+$3" in chosen:
        w.coins += 3
    if "gain a Gold" in chosen:
        gain(w, p, "Gold")


define(
    Card("Courtier", 5, A, INTRIGUE_2E,
         "Reveal a card from your hand. For each type it has (Action, Attack, etc.), choose "
         "one: +1 Action; or +1 Buy; or +$3; or gain a Gold. The choices must be different.",
         changes_supply=True, coins_up_to=3, effect=_courtier),
)


# --- Patrol ---------------------------------------------------------------------------------

def _patrol(w: Work, p, uid):
    """Rulebook: after drawing 3, reveal 4; every Victory card and Curse goes to the hand."""
    _reveal_four_keep(w, p, "Patrol", lambda c: c.is_victory or c.is_curse)


define(
    Card("Patrol", 5, A, INTRIGUE_2E,
         "+3 Cards. Reveal the top 4 cards of your deck. Put the Victory cards and Curses into "
         "your hand. Put the rest back in any order.", plus_cards=3, effect=_patrol),
)


# --- Replace --------------------------------------------------------------------------------

def _replace(w: Work, p, uid):
    ask_select(w, p, "Replace: trash a card from your hand", "Replace", "trash",
               distinct(w.players[p].hand), 1, 1, _replace_trash, p)


@continuation
def _replace_trash(w: Work, chosen, p):
    if not chosen:
        return
    trash(w, p, chosen)
    ask_select(w, p, f"Replace: gain a card costing up to ${cost(w, chosen[0]) + 2}", "Replace",
               "gain", gainable(w, cost(w, chosen[0]) + 2), 1, 1, _replace_gain, p,
               about_cards=chosen)


@continuation
def _replace_gain(w: Work, chosen, p):
    """Rulebook: an Action or Treasure goes onto the deck; a Victory card makes each other
    player (not those who revealed Moat) gain a Curse; Harem, Mill and Nobles do both."""
    if not chosen:
        return
    c = CARDS[chosen[0]]
    if not gain(w, p, c.name, "deck" if c.is_action or c.is_treasure else "discard"):
        return
    if c.is_victory:
        for victim in attacked(w, p):
            gain(w, victim, "Curse")


define(
    Card("Replace", 5, AA, INTRIGUE_2E,
         "Trash a card from your hand. Gain a card costing up to $2 more than it. If the gained "
         "card is an Action or Treasure, put it onto your deck; if it's a Victory card, each "
         "other player gains a Curse.", changes_supply=True, effect=_replace),
)


# Intrigue 1st edition only.


# --- Secret Chamber (1st edition) -----------------------------------------------------------

def _secret_chamber(w: Work, p, uid):
    ask_select(w, p, "Secret Chamber: discard any number of cards for +$1 each",
               "Secret Chamber", "discard", w.players[p].hand, 0, 99, _secret_chamber_discard, p)


@continuation
def _secret_chamber_discard(w: Work, chosen, p):
    discard(w, p, chosen)
    w.coins += len(chosen)


def _secret_chamber_react(w: Work, p, attacker):
    """Rulebook (1st ed.): draw 2, then put any 2 cards from the hand (the Secret Chamber too)
    on the deck in any order; allowed even against an Attack that would not affect you."""
    draw(w, p, 2)
    ask_select(w, p, "Secret Chamber: put 2 cards from your hand onto your deck",
               "Secret Chamber", "topdeck", w.players[p].hand, 2, 2, _secret_chamber_put_back, p)


@continuation
def _secret_chamber_put_back(w: Work, chosen, p):
    ask_order(w, p, "Secret Chamber: order the cards you put back", "Secret Chamber", chosen,
              topdeck_chosen, p, "hand")


define(
    Card("Secret Chamber", 2, AR, INTRIGUE_1E,
         "Discard any number of cards. +$1 per card discarded. When another player plays an "
         "Attack card, you may reveal this from your hand. If you do, +2 Cards, then put 2 "
         "cards from your hand on top of your deck.", coins_up_to=None, effect=_secret_chamber,
         reaction=_secret_chamber_react),
)


# --- Great Hall -----------------------------------------------------------------------------

define(
    Card("Great Hall", 3, AV, INTRIGUE_1E, "+1 Card, +1 Action. Worth 1 VP.", vp=1,
         plus_cards=1, plus_actions=1),
)


# --- Coppersmith (1st edition) --------------------------------------------------------------

def _coppersmith(w: Work, p, uid):
    """Rulebook (1st ed.): cumulative; Throne Room on it makes each Copper worth $3. Its mark
    is the Coppersmiths played this turn."""
    set_turn_mark(w, "Coppersmith", turn_mark(w, "Coppersmith", 0) + 1)


def _coppersmith_bonus(names: tuple, mark: int) -> tuple:
    """+$1 per Copper for each Coppersmith played this turn."""
    return names.count("Copper") * mark, mark


define(
    Card("Coppersmith", 4, A, INTRIGUE_1E, "Copper produces an extra $1 this turn.",
         coins_up_to=None, effect=_coppersmith, treasure_bonus=_coppersmith_bonus),
)


# --- Scout (1st edition) --------------------------------------------------------------------

def _scout(w: Work, p, uid):
    """Rulebook (1st ed.): Action-Victory cards are Victory cards, Curses are not; take all the
    Victory cards; the order of the rest is not revealed."""
    _reveal_four_keep(w, p, "Scout", lambda c: c.is_victory)


define(
    Card("Scout", 4, A, INTRIGUE_1E,
         "+1 Action. Reveal the top 4 cards of your deck. Put the revealed Victory cards into "
         "your hand. Put the other cards on top of your deck in any order.", plus_actions=1,
         effect=_scout),
)


# --- Saboteur (1st edition) -----------------------------------------------------------------

def _saboteur(w: Work, p, uid):
    each_attacked(w, p, _saboteur_victim)


@continuation
def _saboteur_victim(w: Work, victim):
    """Rulebook (1st ed.): reveal until a card costing $3 or more (after Bridge); a shuffle to
    continue does not include the revealed cards; with none found, discard all revealed. Else
    trash it, may gain a card costing at most $2 less, then discard the other revealed cards."""
    revealed: tuple = ()
    while True:
        got = reveal_from_deck(w, victim, 1)
        if not got:
            discard(w, victim, revealed, "aside")
            return
        if cost(w, got[0]) >= 3:
            break
        revealed += got
    trashed = got[0]
    trash(w, victim, got, "aside")
    push(w, _discard_aside, victim, revealed)
    ask_select(w, victim, f"Saboteur: you may gain a card costing up to "
               f"${cost(w, trashed) - 2}", "Saboteur", "gain",
               gainable(w, cost(w, trashed) - 2), 0, 1, gain_chosen, victim,
               about_cards=got)


define(
    Card("Saboteur", 5, AA, INTRIGUE_1E,
         "Each other player reveals cards from the top of his deck until revealing one costing "
         "$3 or more. He trashes that card and may gain a card costing at most $2 less than it. "
         "He discards the other revealed cards.", changes_supply=True, effect=_saboteur),
)


# --- Tribute (1st edition) ------------------------------------------------------------------

def _tribute(w: Work, p, uid):
    """Rulebook (1st ed.): the player to the left reveals (shuffling if needed, as many as they
    can up to 2) and discards the top 2 cards. Each differently named card gives a bonus per
    type (Action +2 Actions, Treasure +$2, Victory +2 Cards); a Curse gives nothing."""
    left = others(w, p)[0]
    revealed = reveal_from_deck(w, left, 2)
    discard(w, left, revealed, "aside")
    for name in dict.fromkeys(revealed):
        c = CARDS[name]
        if c.is_action:
            w.actions += 2
        if c.is_treasure:
            w.coins += 2
        if c.is_victory:
            draw(w, p, 2)


define(
    Card("Tribute", 5, A, INTRIGUE_1E,
         "The player to your left reveals then discards the top 2 cards of his deck. For each "
         "differently named card revealed, if it is an Action card, +2 Actions; Treasure card, "
         "+$2; Victory card, +2 Cards.", coins_up_to=4, effect=_tribute),
)
