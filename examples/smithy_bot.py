"""A complete bot as a Python class: Big Money with one Smithy per 11 cards, plays its Smithies
and buys by the coins it has. Use it anywhere a bot is taken:

    dominion simulate --games 200 --bots examples.smithy_bot:SmithyBot,big-money
    dominion play --bots examples.smithy_bot:SmithyBot
    dominion bot --server HOST:PORT --game ID --token T --bot examples.smithy_bot:SmithyBot

(run from the project folder, or put the module on PYTHONPATH). The protocol: ``Class(seed)``
makes one bot for one seat of one game; ``answer(decision, view)`` returns a legal answer;
``log_from`` is the first log index not read yet (the view then carries the new events), so the
bot can count its cards; ``kingdom_cards`` puts its cards into the default Kingdom.
"""
import random

from dominion import BUY, CHOOSE, END_PHASE, ORDER, PLAY, PLAY_TREASURES, SELECT, TURN, Move


class SmithyBot:
    name = "smithy-class"
    kingdom_cards = ("Smithy",)

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self.log_from = 0          # read the whole log once, then only what is new
        self.cards = 10            # cards owned: the starting deck
        self.smithies = 0

    def _read(self, view) -> None:
        """Count the cards this seat gains and trashes (every gain and trash is public)."""
        for event in view.log:
            if event.player != view.player:
                continue
            if event.kind in ("buy", "gain"):
                self.cards += len(event.cards)
                self.smithies += event.cards.count("Smithy")
            elif event.kind == "trash":
                self.cards -= len(event.cards)
        self.log_from = view.log_start + len(view.log)

    def answer(self, decision, view):
        self._read(view)
        if decision.kind == TURN:
            return self._turn(decision.moves)
        if decision.kind in (SELECT, CHOOSE):   # anything a card asks: the least we may
            pool = decision.cards if decision.kind == SELECT else decision.options
            return list(pool[:decision.min])
        if decision.kind == ORDER:
            return list(decision.cards)
        raise ValueError(decision.kind)

    def _turn(self, moves):
        if Move(PLAY, "Smithy") in moves:
            return Move(PLAY, "Smithy")
        if Move(PLAY_TREASURES) in moves:
            return Move(PLAY_TREASURES)
        for card in ("Province", "Gold", "Smithy", "Silver"):
            if card == "Smithy" and self.smithies * 11 >= self.cards:
                continue
            if Move(BUY, card) in moves:
                return Move(BUY, card)
        return Move(END_PHASE)
