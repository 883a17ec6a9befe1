"""A plain-text terminal interface for one seat (``dominion play``): it shows the hand, the
Supply, the coins, the question and its legal answers numbered, and reads an answer by number
or by name. A bad answer gets a message saying why, and the question again."""
from __future__ import annotations

import sys
from typing import Callable, TextIO

import grpc

import dominion

from .client import GameResult, PendingDecision, Seat

_MOVE_LABELS = {dominion.PLAY_TREASURES: "play all Treasures"}


class BadAnswer(ValueError):
    """Input that does not name a legal answer; the message says what would."""


def move_label(move: dominion.Move, phase: str) -> str:
    if move.verb == dominion.END_PHASE:
        return "end the Action phase" if phase == dominion.ACTION else "end your turn"
    return _MOVE_LABELS.get(move.verb, str(move))


def choices(decision: dominion.Decision, phase: str = "") -> list:
    """The numbered items of a decision, as text: moves, pool cards, options or cards."""
    if decision.kind == dominion.TURN:
        return [move_label(m, phase) for m in decision.moves]
    if decision.kind == dominion.CHOOSE:
        return list(decision.options)
    return list(decision.cards)


def _items(text: str) -> list:
    """Split an answer into items: by commas, or by spaces when it is only numbers."""
    if "," in text:
        return [t.strip() for t in text.split(",") if t.strip()]
    words = text.split()
    if words and all(w.isdigit() for w in words):
        return words
    return [text.strip()] if text.strip() else []


def parse_answer(decision: dominion.Decision, text: str, phase: str = ""):
    """The engine answer that ``text`` names, by numbers or names; raises `BadAnswer`."""
    labels = choices(decision, phase)
    if decision.kind == dominion.TURN:
        text = text.strip()
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(labels):
                raise BadAnswer(f"{n} is not one of the numbers 1 to {len(labels)}")
            return decision.moves[n - 1]
        wanted = text.lower()
        exact = [m for m, label in zip(decision.moves, labels)
                 if wanted in (label.lower(), str(m).lower())]
        if exact:
            return exact[0]
        by_card = [m for m in decision.moves if m.card and m.card.lower() == wanted]
        if len(by_card) == 1:
            return by_card[0]
        if by_card:
            raise BadAnswer(f"{text!r} could mean " + " or ".join(repr(str(m)) for m in by_card))
        raise BadAnswer(f"{text!r} is not a legal move; type a number from 1 to {len(labels)}")
    remaining = list(labels)   # each pool item may be named once
    used_numbers = set()
    answer = []
    for item in _items(text):
        if item.isdigit():
            n = int(item)
            if not 1 <= n <= len(labels):
                raise BadAnswer(f"{n} is not one of the numbers 1 to {len(labels)}")
            if n in used_numbers:
                raise BadAnswer(f"{n} is named twice")
            used_numbers.add(n)
            remaining.remove(labels[n - 1])
            answer.append(labels[n - 1])
            continue
        match = next((r for r in remaining if r.lower() == item.lower()), None)
        if match is None:
            raise BadAnswer(f"{item!r} is not one of the choices (or is named too often)")
        remaining.remove(match)
        answer.append(match)
    return tuple(answer)


def how_to_answer(decision: dominion.Decision) -> str:
    if decision.kind == dominion.TURN:
        return "Type a number or a move (e.g. 'buy Silver')."
    if decision.kind == dominion.ORDER:
        return "Type all the numbers or names in order, separated by commas; the first ends on top."
    what = "cards" if decision.kind == dominion.SELECT else "options"
    amount = f"{decision.min}" if decision.min == decision.max \
        else f"{decision.min} to {decision.max}"
    none = " (press Enter for none)" if decision.min == 0 else ""
    return f"Choose {amount} {what}: numbers or names separated by commas{none}."


class TerminalGame:
    """Plays one seat from a terminal (or any text input and output)."""

    def __init__(self, seat: Seat, input_fn: Callable[[str], str] = input,
                 out: TextIO = sys.stdout):
        self.seat = seat
        self.input = input_fn
        self.out = out
        self.names: tuple = ()

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> GameResult:
        """Play until the game ends; EOFError from the input stops it."""
        first = self.seat.view()
        self.names = tuple(p.name for p in first.players)
        self.say(f"Kingdom: {', '.join(first.kingdom)}")
        for pending in self.seat.decisions(on_event=self.show_event):
            self.ask(pending)
        self.show_result(self.seat.view())
        return self.seat.result

    def show_event(self, event: dominion.Event) -> None:
        self.say("  " + dominion.render(event, self.names))

    def show_status(self, view: dominion.View) -> None:
        me = view.players[view.player]
        self.say()
        self.say(f"== Turn {view.turn}: {view.players[view.current].name}, {view.phase} phase "
                 f"| Actions {view.actions}  Buys {view.buys}  Coins ${view.coins} ==")
        self.say("Supply: " + "  ".join(f"{name} ${cost} ({count})"
                                        for name, count, cost in view.supply))
        for seat, p in enumerate(view.players):
            if seat == view.player:
                continue
            top = f", discard top {p.discard_top}" if p.discard_top else ""
            self.say(f"{p.name}: hand {p.hand_size}, deck {p.deck_size}, discard "
                     f"{p.discard_size}{top}" + (f", in play {dominion.card_list(p.in_play)}"
                                                 if p.in_play else ""))
        if me.in_play:
            self.say(f"In play: {dominion.card_list(me.in_play)}")
        self.say(f"Your hand: {dominion.card_list(me.hand) or '(empty)'}   "
                 f"deck {me.deck_size}, discard {me.discard_size}")
        if me.looking:
            self.say(f"Looking at: {dominion.card_list(me.looking)}")

    def ask(self, pending: PendingDecision) -> None:
        decision, view = pending.decision, pending.view
        self.show_status(view)
        about = f" [{decision.card}]" if decision.card else ""
        self.say(f"{decision.prompt}{about}")
        if decision.about_cards or decision.about_player is not None:
            whose = "" if decision.about_player is None else \
                f" ({view.players[decision.about_player].name})"
            cards = dominion.card_list(decision.about_cards) or "a player"
            self.say(f"  about: {cards}{whose}")
        for i, label in enumerate(choices(decision, view.phase), 1):
            self.say(f"  {i}) {label}")
        self.say(how_to_answer(decision))
        while True:
            text = self.input("> ")
            try:
                answer = parse_answer(decision, text, view.phase)
                self.seat.answer(pending, answer)
                return
            except BadAnswer as e:
                self.say(f"Bad answer: {e}. Try again.")
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.INVALID_ARGUMENT:
                    raise
                self.say(f"Not allowed: {e.details()}. Try again.")

    def show_result(self, view: dominion.View) -> None:
        self.say()
        self.say("Game over.")
        for seat, p in enumerate(view.players):
            mark = "  (wins)" if seat in (view.winners or ()) else ""
            self.say(f"  {p.name}: {view.scores[seat]} VP{mark}")

