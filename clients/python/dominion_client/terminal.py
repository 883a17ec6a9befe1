"""A plain-text terminal interface for one seat (``dominion play``): it shows the hand, the
Supply, the coins, the question and its legal answers numbered, and reads an answer by number
or by name. A bad answer gets a message saying why, and the question again."""
from __future__ import annotations

import sys
import textwrap
from typing import Callable, Optional, TextIO

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


WIDTH, HEIGHT = 80, 24          # the screen `dominion play` keeps: every line fits
LOG_KEPT = 1000                 # log lines remembered for the screen (and paging back)
PAGE = 8                        # log lines one '<' or '>' moves


def _fit(text: str, width: int = WIDTH) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def _flow(cells, width: int = WIDTH, sep: str = "  ") -> list:
    """Cells laid out left to right in lines of at most ``width`` characters."""
    lines, line = [], ""
    for cell in cells:
        cell = _fit(cell)
        if line and len(line) + len(sep) + len(cell) > width:
            lines.append(line)
            line = cell
        else:
            line = f"{line}{sep}{cell}" if line else cell
    if line:
        lines.append(line)
    return lines


def _wrap(text: str, lines: int, width: int = WIDTH) -> list:
    """``text`` in at most ``lines`` lines of ``width``, broken between words (the last one cut
    with "..." if it still does not fit)."""
    out = textwrap.wrap(text, width) or [""]
    if len(out) > lines:
        out = out[:lines - 1] + [_fit(" ".join(out[lines - 1:]), width)]
    return out


def screen(view: dominion.View, decision: Optional[dominion.Decision], log: list,
           message: str = "", auto_treasures: bool = False, back: int = 0) -> list:
    """The whole screen of `dominion play` for one question: at most HEIGHT - 1 lines (the last
    line of the terminal is the answer's), none wider than WIDTH. Status line (whose turn,
    numbered per player, the phase, Actions/Buys/$), the Supply with costs and counts, each
    opponent with VP and zone sizes, cards in play, the hand, the log in words (its tail, or
    ``back`` lines before it: the rule above it says which lines and how to page), the question
    (wrapped) with numbered answers, and the help or a refusal (wrapped)."""
    me = view.players[view.player]
    current = view.players[view.current]
    status = (f"Turn {current.turns_taken} - {current.name} | {view.phase.capitalize()} phase | "
              f"Actions {view.actions}  Buys {view.buys}  ${view.coins} | You: {me.vp} VP")
    top = [_fit(status)]
    top += _flow([f"{name} ${cost} ({count})" for name, count, cost in view.supply])
    for seat, p in enumerate(view.players):
        if seat != view.player:
            played = f", in play {dominion.card_list(p.in_play)}" if p.in_play else ""
            top.append(_fit(f"{p.name}: {p.vp} VP, hand {p.hand_size}, deck {p.deck_size}, "
                            f"discard {p.discard_size}"
                            + (f" ({p.discard_top} on top)" if p.discard_top else "") + played))
    top.append(_fit("In play: " + (dominion.card_list(me.in_play) or "-")))
    top += _flow([f"Hand: {dominion.card_list(me.hand or ()) or '(empty)'}  (deck "
                  f"{me.deck_size}, discard {me.discard_size})"])[:2]
    if me.looking:
        top.append(_fit(f"Looking at: {dominion.card_list(me.looking)}"))
    def question(prompt_lines: int, hint_lines: int) -> list:
        bottom = []
        if decision is not None:
            about = f" [{decision.card}]" if decision.card else ""
            bottom += _wrap(f"{decision.prompt}{about}", prompt_lines)
            if decision.about_cards or decision.about_player is not None:
                whose = "" if decision.about_player is None else \
                    f" ({view.players[decision.about_player].name})"
                bottom.append(_fit(f"  about: "
                                   f"{dominion.card_list(decision.about_cards) or 'a player'}"
                                   f"{whose}"))
            bottom += _flow([f"{i}) {label}" for i, label in
                             enumerate(choices(decision, view.phase), 1)])[:5]
            bottom += _wrap(message or ("[auto Treasures on] " if auto_treasures else "")
                            + how_to_answer(decision) + HELP_HINT, hint_lines)
        elif view.waiting is not None:
            bottom.append(_fit(view.waiting.text))
        return bottom

    # The question and the hint wrap onto the lines the screen has left (cut when none are).
    for lines in ((2, 3), (2, 2), (1, 2), (1, 1)):
        bottom = question(*lines)
        if len(top) + len(bottom) + 2 <= HEIGHT - 1:
            break
    room = HEIGHT - 1 - len(top) - len(bottom) - 2
    end = max(0, len(log) - back) if room > 0 else 0
    shown = log[max(0, end - room):end] if room > 0 else []
    tail = [_fit("  " + line) for line in shown]
    first = end - len(shown) + 1
    where = f" log {first}-{end} of {len(log)}" if shown else " log"
    keys = " | '<' back, '>' forward " if back else " | '<' pages back "
    rule = _fit(f"---{where}{keys}".ljust(WIDTH, "-") if len(log) > room else "-" * WIDTH)
    return top + [rule] + tail + [""] * max(0, room - len(tail)) + ["-" * WIDTH] + bottom


HELP_HINT = " 'help CARD': its text; 'auto': play Treasures by themselves; '<' and '>': " \
    "page the log."


class TerminalGame:
    """Plays one seat from a terminal (or any text input and output): one screen of 80x24
    redrawn at each question (`screen`)."""

    def __init__(self, seat: Seat, input_fn: Callable[[str], str] = input,
                 out: TextIO = sys.stdout):
        self.seat = seat
        self.input = input_fn
        self.out = out
        self.names: tuple = ()
        self.log: list = []
        self.auto_treasures = False
        self.back = 0               # log lines paged back from its tail ('<', '>')
        self.clear = getattr(out, "isatty", lambda: False)()

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
        self.log.append(dominion.render(event, self.names))
        del self.log[:-LOG_KEPT]

    def draw(self, view: dominion.View, decision, message: str = "") -> None:
        lines = screen(view, decision, self.log, message, self.auto_treasures, self.back)
        self.say(("\x1b[2J\x1b[H" if self.clear else "") + "\n".join(lines))

    def ask(self, pending: PendingDecision) -> None:
        decision, view = pending.decision, pending.view
        auto = Move_play_treasures(decision)
        if self.auto_treasures and auto is not None:
            self.seat.answer(pending, auto)
            return
        message = ""
        while True:
            self.draw(view, decision, message)
            text = self.input("> ")
            word = text.strip().lower()
            if word in ("<", ">"):   # page the log: half a screen at a time
                page = PAGE if word == "<" else -PAGE
                self.back = max(0, min(self.back + page, max(0, len(self.log) - PAGE)))
                message = ""
                continue
            if word.startswith("help"):
                message = card_help(text.strip()[4:].strip())
                continue
            if word == "auto":
                self.auto_treasures = not self.auto_treasures
                message = "Treasures are now played " + \
                    ("by themselves." if self.auto_treasures else "by you.")
                if self.auto_treasures and auto is not None:
                    self.seat.answer(pending, auto)
                    return
                continue
            try:
                answer = parse_answer(decision, text, view.phase)
                self.seat.answer(pending, answer)
                self.back = 0
                return
            except BadAnswer as e:
                message = f"Bad answer: {e}. Try again."
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.INVALID_ARGUMENT:
                    raise
                message = f"Not allowed: {e.details()}. Try again."

    def show_result(self, view: dominion.View) -> None:
        self.say()
        for line in self.log[-6:]:
            self.say("  " + line)
        self.say("Game over.")
        for seat, p in enumerate(view.players):
            mark = "  (wins)" if seat in (view.winners or ()) else ""
            self.say(f"  {p.name}: {view.scores[seat]} VP{mark}")


def Move_play_treasures(decision: dominion.Decision):
    """The "play all Treasures" move when the decision offers it (else None)."""
    if decision.kind == dominion.TURN:
        move = dominion.Move(dominion.PLAY_TREASURES)
        if move in decision.moves:
            return move
    return None


def card_help(name: str) -> str:
    """One card's text for the message line ("help Sentry")."""
    if not name:
        return "Type 'help' and a card's name, e.g. 'help Sentry'."
    match = next((c for c in dominion.CARDS.values() if c.name.lower() == name.lower()), None)
    if match is None:
        return f"No card is called {name[:40]!r}."
    kinds = ", ".join(match.types)
    return f"{match.name} (${match.cost}, {kinds}): {match.text}"
