"""Dominion (base game): the 26 Kingdom cards of the 2nd edition and the 6 of the 1st edition
only (cards.md). Rulings quoted from the rulebooks' card notes decide the details.

How a card is written: simple bonuses are fields of `Card`; the rest is ``effect(w, p, uid)``,
a function on the step's working copy. A question is asked with ``ask_*`` and a registered
continuation that receives the answer; work that must wait for other frames is ``push``-ed.

Visibility (rulebook, "Look at", "Reveal", "Discard"): revealed and set-aside cards are public;
looked-at cards are seen by their owner only; "if you discard multiple cards at once, you do not
need to reveal them all, just the one you put on top" (the view shows every discard pile's top).
"""
from ..card import (ACTION_T, ATTACK_T, BASE_1E, BASE_2E, CARDS, REACTION_T, VICTORY_T, Card,
                    continuation, define)
from ..engine import (Work, ask_may, ask_order, ask_select, ask_yes_no, attacked, cost,
                      discard, draw, each_attacked, empty_piles, gain, gain_from_trash, log,
                      look_at_deck, move, others, play, push, remove, replay, reveal_from_deck,
                      set_effect, set_turn_mark, take_from_deck, to_hand, topdeck, trash,
                      trash_self, turn_mark)
from .common import ask_gain, discard_chosen, distinct, reveal_hand, topdeck_chosen

BOTH = (BASE_2E, BASE_1E)  # a card in both editions' pools
A = (ACTION_T,)
AA = (ACTION_T, ATTACK_T)


def _is_treasure(c) -> bool:
    return c.is_treasure


# --- Cellar -----------------------------------------------------------------------------------

def _cellar(w: Work, p, uid):
    ask_select(w, p, "Cellar: discard any number of cards, then draw that many", "Cellar",
               "discard", w.players[p].hand, 0, len(w.players[p].hand), _cellar_discard, p)


@continuation
def _cellar_discard(w: Work, chosen, p):
    """Rulebook: discard them all at once, then draw as many as you discarded (a shuffle then
    includes them); only the top discarded card and the number need be shown."""
    discard(w, p, chosen)
    draw(w, p, len(chosen))


define(
    Card("Cellar", 2, A, BASE_2E, "+1 Action. Discard any number of cards, then draw that many.",
         editions=BOTH, plus_actions=1, effect=_cellar),
)


# --- Chapel -----------------------------------------------------------------------------------

def _chapel(w: Work, p, uid):
    ask_select(w, p, "Chapel: trash up to 4 cards from your hand", "Chapel", "trash",
               w.players[p].hand, 0, 4, _chapel_trash, p)


@continuation
def _chapel_trash(w: Work, chosen, p):
    trash(w, p, chosen)


define(
    Card("Chapel", 2, A, BASE_2E, "Trash up to 4 cards from your hand.", editions=BOTH,
         effect=_chapel),
)


# --- Moat -------------------------------------------------------------------------------------

def _moat_react(w: Work, p, attacker):
    """Rulebook: revealing Moat makes the Attack not affect you (you still may be asked by
    other Reactions)."""
    set_effect(w, "immune", w.effects.immune + (p,))


def _moat_can_react(w: Work, p):
    """Revealing Moat again against the same Attack would change nothing."""
    return p not in w.effects.immune


define(
    Card("Moat", 2, (ACTION_T, REACTION_T), BASE_2E,
         "+2 Cards. When another player plays an Attack, you may first reveal this from your "
         "hand, to be unaffected by it.", editions=BOTH, plus_cards=2, reaction=_moat_react,
         can_react=_moat_can_react),
)


# --- Harbinger --------------------------------------------------------------------------------

def _harbinger(w: Work, p, uid):
    """Rulebook: after +1 Card +1 Action, look through your discard pile; putting a card from
    it onto your deck is optional."""
    ask_select(w, p, "Harbinger: you may put a card from your discard pile onto your deck",
               "Harbinger", "topdeck", distinct(w.players[p].discard), 0, 1, topdeck_chosen,
               p, "discard")


define(
    Card("Harbinger", 3, A, BASE_2E, "+1 Card, +1 Action. Look through your discard pile. You "
         "may put a card from it onto your deck.", plus_cards=1, plus_actions=1,
         effect=_harbinger),
)


# --- Merchant ---------------------------------------------------------------------------------

def _merchant(w: Work, p, uid):
    """Each Merchant adds $1 to the first Silver played this turn, and to no later one
    (rulebook, Merchant): its mark is (Merchants played, Silvers played) this turn."""
    merchants, silvers = turn_mark(w, "Merchant", (0, 0))
    set_turn_mark(w, "Merchant", (merchants + 1, silvers))


def _merchant_bonus(names: tuple, mark: tuple) -> tuple:
    """+$1 per Merchant played on the first Silver played this turn; Silvers are counted."""
    merchants, silvers = mark
    played = names.count("Silver")
    if not played:
        return 0, mark
    return (merchants if silvers == 0 else 0), (merchants, silvers + played)


define(
    Card("Merchant", 3, A, BASE_2E, "+1 Card, +1 Action. The first time you play a Silver this "
         "turn, +$1.", plus_cards=1, plus_actions=1, coins_up_to=1, effect=_merchant,
         treasure_bonus=_merchant_bonus),
)


# --- Vassal -----------------------------------------------------------------------------------

def _vassal(w: Work, p, uid):
    """Discard the top card of the deck (face up: public). An Action may be played from the
    discard pile; it is optional and uses no Action (rulebook, Vassal)."""
    got = take_from_deck(w, p, 1)
    if not got:
        return
    w.players[p].discard += got
    log(w, "discard", p, got)
    name = got[0]
    if CARDS[name].is_action:
        ask_yes_no(w, p, f"Vassal: play the discarded {name}?", "Vassal", "play",
                   _vassal_play, p, name, about_cards=got)


@continuation
def _vassal_play(w: Work, yes, p, name):
    if yes:
        play(w, p, name, src="discard")


define(
    Card("Vassal", 3, A, BASE_2E, "+$2. Discard the top card of your deck. If it's an Action "
         "card, you may play it.", plus_coins=2, effect=_vassal),
)


# --- Village ----------------------------------------------------------------------------------

define(
    Card("Village", 3, A, BASE_2E, "+1 Card, +2 Actions.", editions=BOTH, plus_cards=1,
         plus_actions=2),
)


# --- Workshop ---------------------------------------------------------------------------------

def _workshop(w: Work, p, uid):
    ask_gain(w, p, "Workshop", 4)


define(
    Card("Workshop", 3, A, BASE_2E, "Gain a card costing up to $4.", editions=BOTH,
         changes_supply=True, effect=_workshop),
)


# --- Bureaucrat -------------------------------------------------------------------------------

def _bureaucrat(w: Work, p, uid):
    """Gain a Silver onto your deck (with an empty deck it becomes the only card there), then
    each other player in turn order topdecks a Victory card or reveals a hand without one."""
    gain(w, p, "Silver", "deck")
    each_attacked(w, p, _bureaucrat_victim)


@continuation
def _bureaucrat_victim(w: Work, victim):
    """A victim with no Victory card reveals their hand (sorted: see `reveal_hand`)."""
    hand = w.players[victim].hand
    victory = distinct(c for c in hand if CARDS[c].is_victory)
    if not victory:
        reveal_hand(w, victim, "no Victory card")
        return
    ask_select(w, victim, "Bureaucrat: reveal a Victory card and put it onto your deck",
               "Bureaucrat", "topdeck", victory, 1, 1, _bureaucrat_topdeck, victim)


@continuation
def _bureaucrat_topdeck(w: Work, chosen, victim):
    log(w, "reveal", victim, chosen)
    topdeck(w, victim, chosen, public=True)


define(
    Card("Bureaucrat", 4, AA, BASE_2E, "Gain a Silver onto your deck. Each other player reveals "
         "a Victory card from their hand and puts it onto their deck (or reveals a hand with no "
         "Victory cards).", editions=BOTH, changes_supply=True, effect=_bureaucrat),
)


# --- Gardens ----------------------------------------------------------------------------------

def _gardens_vp(counts):
    """1 VP per 10 cards, rounded down (rulebook: 37 cards make each Gardens worth 3)."""
    return sum(counts.values()) // 10


define(
    Card("Gardens", 4, (VICTORY_T,), BASE_2E, "Worth 1 VP per 10 cards you have (round down).",
         plural="Gardens", editions=BOTH, victory_points=_gardens_vp),
)


# --- Militia ----------------------------------------------------------------------------------

def _militia(w: Work, p, uid):
    each_attacked(w, p, _militia_victim)


@continuation
def _militia_victim(w: Work, victim):
    """Rulebook: players with 3 or fewer cards in hand discard nothing."""
    hand = w.players[victim].hand
    excess = len(hand) - 3
    if excess > 0:
        ask_select(w, victim, f"Militia: discard down to 3 cards ({excess} to discard)", "Militia",
                   "discard", hand, excess, excess, discard_chosen, victim)


define(
    Card("Militia", 4, AA, BASE_2E, "+$2. Each other player discards down to 3 cards in hand.",
         editions=BOTH, plus_coins=2, effect=_militia),
)


# --- Moneylender ------------------------------------------------------------------------------

def _moneylender(w: Work, p, uid):
    coppers = ("Copper",) if "Copper" in w.players[p].hand else ()
    ask_select(w, p, "Moneylender: you may trash a Copper for +$3", "Moneylender", "trash",
               coppers, 0, 1, _moneylender_trash, p, from_hand=True)


@continuation
def _moneylender_trash(w: Work, chosen, p):
    """Rulebook: the +$3 only if a Copper was actually trashed."""
    if chosen:
        trash(w, p, chosen)
        w.coins += 3


define(
    Card("Moneylender", 4, A, BASE_2E, "You may trash a Copper from your hand for +$3.",
         editions=BOTH, coins_up_to=3, effect=_moneylender),
)


# --- Poacher ----------------------------------------------------------------------------------

def _poacher(w: Work, p, uid):
    """Rulebook: draw first, then discard one card per empty Supply pile (any pile: Curses,
    Coppers, ...); none when no pile is empty; the whole hand if it is too small."""
    n = empty_piles(w)
    if n:
        ask_select(w, p, f"Poacher: discard {n} card(s), one per empty Supply pile", "Poacher",
                   "discard", w.players[p].hand, n, n, discard_chosen, p)


define(
    Card("Poacher", 4, A, BASE_2E, "+1 Card, +1 Action, +$1. Discard a card per empty Supply "
         "pile.", plus_cards=1, plus_actions=1, plus_coins=1, effect=_poacher),
)


# --- Remodel ----------------------------------------------------------------------------------

def _remodel(w: Work, p, uid):
    ask_select(w, p, "Remodel: trash a card from your hand", "Remodel", "trash",
               distinct(w.players[p].hand), 1, 1, _remodel_trash, p)


@continuation
def _remodel_trash(w: Work, chosen, p):
    """Rulebook: no card to trash, no gain; the gain may cost up to $2 more, or less, even a
    copy of the trashed card; nothing is gained if no pile qualifies."""
    if chosen:
        trash(w, p, chosen)
        ask_gain(w, p, "Remodel", cost(w, chosen[0]) + 2, trashed=chosen)


define(
    Card("Remodel", 4, A, BASE_2E, "Trash a card from your hand. Gain a card costing up to $2 "
         "more than it.", editions=BOTH, changes_supply=True, effect=_remodel),
)


# --- Smithy -----------------------------------------------------------------------------------

define(
    Card("Smithy", 4, A, BASE_2E, "+3 Cards.", editions=BOTH, plus_cards=3),
)


# --- Throne Room ------------------------------------------------------------------------------

def _throne_room(w: Work, p, uid):
    actions = distinct(c for c in w.players[p].hand if CARDS[c].is_action)
    ask_select(w, p, "Throne Room: you may play an Action card from your hand twice",
               "Throne Room", "play", actions, 0, 1, _throne_room_play, p, from_hand=True)


@continuation
def _throne_room_play(w: Work, chosen, p):
    """Rulebook: playing a card is optional; the chosen card is played, resolved completely,
    then played again; this uses no Action. The second play happens even if the card left play
    (Feast). Throne Room on Throne Room plays two cards twice each, not one four times."""
    if not chosen:
        return
    name = chosen[0]
    uid = w.next_uid
    push(w, replay, p, name, uid)
    play(w, p, name)


define(
    Card("Throne Room", 4, A, BASE_2E, "You may play an Action card from your hand twice.",
         editions=BOTH, plays_twice=True, effect=_throne_room),
)


# --- Bandit -----------------------------------------------------------------------------------

def _bandit(w: Work, p, uid):
    """Rulebook: gain a Gold (to the discard pile), then each other player in turn order reveals
    their top 2 cards, trashes a revealed Treasure other than Copper of their choice, and
    discards the rest."""
    gain(w, p, "Gold")
    each_attacked(w, p, _bandit_victim)


@continuation
def _bandit_victim(w: Work, victim):
    revealed = reveal_from_deck(w, victim, 2)
    targets = distinct(c for c in revealed if c != "Copper" and CARDS[c].is_treasure)
    ask_select(w, victim, "Bandit: trash a revealed Treasure other than Copper", "Bandit",
               "trash", targets, 1, 1, _bandit_trash, victim, revealed)


@continuation
def _bandit_trash(w: Work, chosen, victim, revealed):
    trash(w, victim, chosen, "aside")
    discard(w, victim, remove(revealed, chosen), "aside")


define(
    Card("Bandit", 5, AA, BASE_2E, "Gain a Gold. Each other player reveals the top 2 cards of "
         "their deck, trashes a revealed Treasure other than Copper, and discards the rest.",
         changes_supply=True, effect=_bandit),
)


# --- Council Room -----------------------------------------------------------------------------

def _council_room(w: Work, p, uid):
    """Rulebook: the other players draw a card whether they want to or not."""
    for other in others(w, p):
        draw(w, other, 1)


define(
    Card("Council Room", 5, A, BASE_2E, "+4 Cards, +1 Buy. Each other player draws a card.",
         editions=BOTH, plus_cards=4, plus_buys=1, effect=_council_room),
)


# --- Festival ---------------------------------------------------------------------------------

define(
    Card("Festival", 5, A, BASE_2E, "+2 Actions, +1 Buy, +$2.", editions=BOTH, plus_actions=2,
         plus_buys=1, plus_coins=2),
)


# --- Laboratory -------------------------------------------------------------------------------

define(
    Card("Laboratory", 5, A, BASE_2E, "+2 Cards, +1 Action.", editions=BOTH, plus_cards=2,
         plus_actions=1),
)


# --- Library ----------------------------------------------------------------------------------

def _library(w: Work, p, uid):
    _library_draw(w, p, ())


@continuation
def _library_draw(w: Work, p, set_aside):
    """Rulebook: look at cards one at a time until you have 7 in hand (none with 7 already);
    only Action cards may be set aside, at your option. Set-aside cards are not shuffled in
    when the deck runs out (they are not in the discard pile) and are discarded at the end;
    drawing stops when deck and discard pile are both empty. When the game asks every question,
    it asks about every card drawn (only "no" for a card that is not an Action), so that the
    others do not learn when an Action was drawn."""
    pl = w.players[p]
    while len(pl.hand) < 7:
        got = take_from_deck(w, p, 1)
        if not got:
            break
        name = got[0]
        if CARDS[name].is_action or w.config.always_ask:
            pl.looking += got
            log(w, "look", p, got, (p,))
            ask_may(w, p, CARDS[name].is_action,
                    f"Library: set aside {name} (no: put it into your hand)?", "Library",
                    "set_aside", _library_choice, p, set_aside, name, about_cards=got)
            return
        pl.hand += got
        log(w, "draw", p, got, (p,))
    discard(w, p, set_aside, "aside")


@continuation
def _library_choice(w: Work, yes, p, set_aside, name):
    if yes:
        move(w, p, (name,), "looking", "aside", "set_aside")  # set aside face up: public
        set_aside += (name,)
    else:
        move(w, p, (name,), "looking", "hand", "draw", (p,))
    _library_draw(w, p, set_aside)


define(
    Card("Library", 5, A, BASE_2E, "Draw until you have 7 cards in hand, skipping any Action "
         "cards you choose to; set those aside, discarding them afterwards.", editions=BOTH,
         effect=_library),
)


# --- Market -----------------------------------------------------------------------------------

define(
    Card("Market", 5, A, BASE_2E, "+1 Card, +1 Action, +1 Buy, +$1.", editions=BOTH,
         plus_cards=1, plus_actions=1, plus_buys=1, plus_coins=1),
)


# --- Mine -------------------------------------------------------------------------------------

def _mine(w: Work, p, uid):
    treasures = distinct(c for c in w.players[p].hand if CARDS[c].is_treasure)
    ask_select(w, p, "Mine: you may trash a Treasure from your hand", "Mine", "trash",
               treasures, 0, 1, _mine_trash, p, from_hand=True)


@continuation
def _mine_trash(w: Work, chosen, p):
    """Rulebook: trashing is optional; no Treasure trashed, none gained. The gained Treasure
    (up to $3 more, or the same or a cheaper one) goes to the hand and can be played."""
    if chosen:
        trash(w, p, chosen)
        ask_gain(w, p, "Mine", cost(w, chosen[0]) + 3, "hand", _is_treasure, chosen)


define(
    Card("Mine", 5, A, BASE_2E, "You may trash a Treasure from your hand. Gain a Treasure to your "
         "hand costing up to $3 more than it.", editions=BOTH, changes_supply=True, effect=_mine),
)


# --- Sentry -----------------------------------------------------------------------------------

def _sentry(w: Work, p, uid):
    """Rulebook: after +1 Card +1 Action, look at the top 2 cards; trash and/or discard any of
    them; put the rest back in any order."""
    seen = look_at_deck(w, p, 2)
    ask_select(w, p, "Sentry: trash any of these cards", "Sentry", "trash", seen, 0, len(seen),
               _sentry_trash, p, seen)


@continuation
def _sentry_trash(w: Work, chosen, p, seen):
    trash(w, p, chosen, "looking")
    rest = remove(seen, chosen)
    ask_select(w, p, "Sentry: discard any of these cards", "Sentry", "discard", rest, 0,
               len(rest), _sentry_discard, p, rest)


@continuation
def _sentry_discard(w: Work, chosen, p, rest):
    discard(w, p, chosen, "looking")
    ask_order(w, p, "Sentry: put these back onto your deck (first on top)", "Sentry",
              remove(rest, chosen), topdeck_chosen, p, "looking")


define(
    Card("Sentry", 5, A, BASE_2E, "+1 Card, +1 Action. Look at the top 2 cards of your deck. "
         "Trash and/or discard any number of them. Put the rest back on top in any order.",
         plus_cards=1, plus_actions=1, effect=_sentry),
)


# --- Witch ------------------------------------------------------------------------------------

def _witch(w: Work, p, uid):
    """Rulebook: Curses are given out in turn order, so when they run out the later players get
    none; with none left Witch still draws."""
    for victim in attacked(w, p):
        gain(w, victim, "Curse")


define(
    Card("Witch", 5, AA, BASE_2E, "+2 Cards. Each other player gains a Curse.", editions=BOTH,
         plus_cards=2, changes_supply=True, effect=_witch),
)


# --- Artisan ----------------------------------------------------------------------------------

def _artisan(w: Work, p, uid):
    """Rulebook: gain a card costing up to $5 to your hand, then put a card from your hand
    (the gained one or another) onto your deck."""
    push(w, _artisan_topdeck, p)
    ask_gain(w, p, "Artisan", 5, "hand")


@continuation
def _artisan_topdeck(w: Work, p):
    ask_select(w, p, "Artisan: put a card from your hand onto your deck", "Artisan", "topdeck",
               distinct(w.players[p].hand), 1, 1, topdeck_chosen, p)


define(
    Card("Artisan", 6, A, BASE_2E, "Gain a card to your hand costing up to $5. Put a card from "
         "your hand onto your deck.", changes_supply=True, effect=_artisan),
)


# --- Chancellor (1st edition) -----------------------------------------------------------------

def _chancellor(w: Work, p, uid):
    if w.players[p].deck:
        ask_yes_no(w, p, "Chancellor: put your deck into your discard pile?", "Chancellor",
                   "discard_deck", _chancellor_answer, p)


@continuation
def _chancellor_answer(w: Work, yes, p):
    """Rulebook (1st ed.): you discard your deck "by flipping it into your Discard pile" and
    may not look through it, so the log names no card, only how many. Flipped over, the deck's
    bottom card ends face up on top of the discard pile."""
    if yes:
        pl = w.players[p]
        n = len(pl.deck)
        pl.discard += pl.deck[::-1]
        pl.deck = ()
        log(w, "discard_deck", p, (), None, n)


define(
    Card("Chancellor", 3, A, BASE_1E, "+$2. You may immediately put your deck into your discard "
         "pile.", plus_coins=2, effect=_chancellor),
)


# --- Woodcutter -------------------------------------------------------------------------------

define(
    Card("Woodcutter", 3, A, BASE_1E, "+1 Buy, +$2.", plus_buys=1, plus_coins=2),
)


# --- Feast (1st edition) ----------------------------------------------------------------------

def _feast(w: Work, p, uid):
    """Rulebook (1st ed.): gaining does not depend on trashing; under Throne Room Feast is
    trashed once and gains twice."""
    trash_self(w, p, "Feast", uid)
    ask_gain(w, p, "Feast", 5)


define(
    Card("Feast", 4, A, BASE_1E, "Trash this card. Gain a card costing up to $5.",
         changes_supply=True, effect=_feast),
)


# --- Spy (1st edition) ------------------------------------------------------------------------

def _spy(w: Work, p, uid):
    """Rulebook (1st ed.): each player, you too, reveals the top card of their deck (you first,
    then the others in turn order; a player who revealed Moat is skipped); you choose for each
    whether it is discarded or put back."""
    targets: list[int] = [p] + attacked(w, p)
    for target in reversed(targets):
        push(w, _spy_reveal, target, p)


@continuation
def _spy_reveal(w: Work, target, spy):
    got = reveal_from_deck(w, target, 1)
    if got:
        whose = "your" if target == spy else f"{w.config.players[target]}'s"
        ask_yes_no(w, spy, f"Spy: discard {whose} revealed {got[0]}? (no: put it back)", "Spy",
                   "discard", _spy_answer, target, got[0], about_cards=got,
                   about_player=None if target == spy else target)


@continuation
def _spy_answer(w: Work, yes, target, name):
    if yes:
        discard(w, target, (name,), "aside")
    else:
        topdeck(w, target, (name,), "aside", public=True)


define(
    Card("Spy", 4, AA, BASE_1E, "+1 Card, +1 Action. Each player (including you) reveals the top "
         "card of their deck and either discards it or puts it back, your choice.",
         plus_cards=1, plus_actions=1, effect=_spy),
)


# --- Thief (1st edition) ----------------------------------------------------------------------

def _thief(w: Work, p, uid):
    _thief_next(w, p, tuple(attacked(w, p)), ())


@continuation
def _thief_next(w: Work, thief, victims, trashed):
    """Rulebook (1st ed.): each other player in turn order reveals their top 2 cards; of the
    revealed Treasures the attacker chooses one they trash; they discard the rest. Then the
    attacker may gain any or all of the Treasures trashed this way (from the trash)."""
    if not victims:
        ask_select(w, thief, "Thief: gain any of the trashed Treasures", "Thief", "gain",
                   trashed, 0, len(trashed), _thief_gain, thief)
        return
    victim = victims[0]
    revealed = reveal_from_deck(w, victim, 2)
    treasures = distinct(c for c in revealed if CARDS[c].is_treasure)
    ask_select(w, thief, f"Thief: choose the Treasure {w.config.players[victim]} trashes",
               "Thief", "trash", treasures, 1, 1, _thief_trash, thief, victim, revealed,
               victims[1:], trashed, about_player=victim)


@continuation
def _thief_trash(w: Work, chosen, thief, victim, revealed, victims, trashed):
    trash(w, victim, chosen, "aside")
    discard(w, victim, remove(revealed, chosen), "aside")
    _thief_next(w, thief, victims, trashed + chosen)


@continuation
def _thief_gain(w: Work, chosen, thief):
    for name in chosen:
        gain_from_trash(w, thief, name)


define(
    Card("Thief", 4, AA, BASE_1E, "Each other player reveals the top 2 cards of their deck. If "
         "they revealed any Treasure cards, they trash one of them that you choose. You may gain "
         "any or all of these trashed cards. They discard the other revealed cards.",
         plural="Thieves", effect=_thief),
)


# --- Adventurer (1st edition) -----------------------------------------------------------------

def _adventurer(w: Work, p, uid):
    """Rulebook (1st ed.): reveal until 2 Treasures; a shuffle on the way does not include the
    revealed cards; if the cards run out, you get the Treasures found."""
    revealed: tuple = ()
    treasures: tuple = ()
    while len(treasures) < 2:
        got = reveal_from_deck(w, p, 1)
        if not got:
            break
        revealed += got
        if CARDS[got[0]].is_treasure:
            treasures += got
    to_hand(w, p, treasures, "aside")
    discard(w, p, remove(revealed, treasures), "aside")


define(
    Card("Adventurer", 6, A, BASE_1E, "Reveal cards from your deck until you reveal 2 Treasure "
         "cards. Put those Treasure cards into your hand and discard the other revealed cards.",
         effect=_adventurer),
)
