"""Golden playthroughs: seeded games written out as text, the engine's behaviour in a form a
reviewer reads (design.md, "Golden playthroughs"; OpenSpiel keeps one such file per game).

Each game is played by `Chooser`, a seeded answerer defined here and nowhere else, so a file
changes only when the engine does (not when a bot's strategy is tuned). For every decision the
file has one line of the decision (seat, kind, card, purpose, pool/options/moves, min..max), its
answer, and the log lines since the decision before, as seat 0 and as a spectator read them
(one line when they agree); then the final scores.

    python scripts/gen_golden.py    # rewrites tests/golden/*.txt from GAMES
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import NamedTuple, Optional

import dominion
from dominion import CHOOSE, ORDER, SELECT, TURN, Move

GOLDEN_DIR = Path(__file__).resolve().parent

# A runaway game (a rules change that stops games from ending) fails instead of running forever.
MAX_DECISIONS = 6000


class Game(NamedTuple):
    """One golden game: its file's name, and `dominion.new_game`'s arguments."""
    name: str
    players: int
    kingdom: object
    seed: int
    always_ask: bool = False
    sets: Optional[tuple] = None


GAMES = (
    Game("base2e-2p-throne-library-sentry", 2,
         ("Throne Room", "Library", "Sentry", "Militia", "Moat", "Witch", "Bandit", "Vassal",
          "Harbinger", "Merchant"), seed=1),
    Game("base1e-3p-always-ask", 3,
         ("Adventurer", "Chancellor", "Feast", "Spy", "Thief", "Woodcutter", "Throne Room",
          "Library", "Moat", "Gardens"), seed=2, always_ask=True),
    Game("intrigue2e-2p-masquerade-torturer-passage", 2,
         ("Masquerade", "Torturer", "Secret Passage", "Courtier", "Lurker", "Patrol", "Replace",
          "Diplomat", "Mill", "Wishing Well"), seed=3, always_ask=True),
    Game("intrigue1e-4p-secret-chamber", 4,
         ("Masquerade", "Torturer", "Secret Chamber", "Saboteur", "Scout", "Tribute",
          "Coppersmith", "Great Hall", "Harem", "Nobles"), seed=4),
    Game("mixed-5p-throne-masquerade-torturer", 5,
         ("Throne Room", "Masquerade", "Torturer", "Library", "Sentry", "Secret Passage",
          "Bridge", "Conspirator", "Moat", "Duke"), seed=5),
    Game("random-6p-all-sets-always-ask", 6, "random", seed=6, always_ask=True,
         sets=("base-2e", "base-1e", "intrigue-2e", "intrigue-1e")),
    Game("first-game-2p", 2, "First Game", seed=7),
    Game("best-wishes-1e-3p-always-ask", 3, "Best Wishes (1st edition)", seed=8,
         always_ask=True),
    Game("plot-thickens-4p", 4, "The Plot Thickens", seed=9),
)


class Chooser:
    """Seeded answers that make games of a sensible length: in the Action phase it plays an
    Action when it can; in the Buy phase it plays its Treasures, then buys one of the dearest
    cards it can afford (now and then it ends the phase instead); every card's question gets a
    uniformly random legal answer."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def answer(self, decision: dominion.Decision, state: dominion.State):
        kind = decision.kind
        if kind == TURN:
            return self.turn(decision, state)
        if kind == SELECT:
            pool = list(decision.cards)
            n = decision.min + self.rng.randrange(decision.max - decision.min + 1)
            return tuple(pool.pop(self.rng.randrange(len(pool))) for _ in range(n))
        if kind == CHOOSE:
            options = list(decision.options)
            n = decision.min + self.rng.randrange(decision.max - decision.min + 1)
            return tuple(options.pop(self.rng.randrange(len(options))) for _ in range(n))
        if kind == ORDER:
            cards = list(decision.cards)
            return tuple(cards.pop(self.rng.randrange(len(cards))) for _ in range(len(cards)))
        raise ValueError(f"unknown decision kind {kind!r}")

    def turn(self, decision: dominion.Decision, state: dominion.State) -> Move:
        moves = decision.moves
        plays = [m for m in moves if m.verb == "play"]
        if any(m.verb == "play_treasures" for m in moves):
            return Move("play_treasures")
        buys = [m for m in moves if m.verb == "buy"]
        if plays and not buys:
            return self.pick(plays)
        if buys and self.rng.randrange(8):
            costs = {name: cost for name, _, cost in dominion.view(state, None).supply}
            dearest = sorted(set(costs.values()), reverse=True)[:2]
            return self.pick([m for m in buys if costs[m.card] in dearest and m.card != "Curse"]
                             or buys)
        return Move("end_phase")


def show_answer(answer) -> str:
    if isinstance(answer, Move):
        return str(answer)
    return "[" + ", ".join(answer) + "]"


def show_decision(number: int, d: dominion.Decision) -> str:
    if d.kind == TURN:
        pool = "moves: " + " | ".join(str(m) for m in d.moves)
    elif d.kind == CHOOSE:
        pool = "options: " + " | ".join(d.options)
    else:
        pool = "cards: " + ", ".join(d.cards)
    about = ""
    if d.about_cards:
        about += " about: " + ", ".join(d.about_cards)
    if d.about_player is not None:
        about += f" about_player: {d.about_player}"
    return (f"#{number} seat {d.player} {d.kind} card={d.card or '-'} "
            f"purpose={d.purpose or '-'} {d.min}..{d.max} {pool}{about}")


def log_lines(state: dominion.State, start: int) -> list:
    """The log from ``start`` as seat 0 and a spectator read it: one line when they agree."""
    names = state.config.players
    seat0 = dominion.view(state, 0, log_from=start).log
    spectator = dominion.view(state, None, log_from=start).log
    out = []
    for mine, theirs in zip(seat0, spectator):
        a = dominion.log_line(mine, names, 0)
        b = dominion.log_line(theirs, names, None)
        if a == b:
            out.append(f"    | {a}")
        else:
            out.append(f"  0 | {a}")
            out.append(f"  - | {b}")
    return out


def play(game: Game) -> str:
    """The game's golden text."""
    state = dominion.new_game(players=game.players, kingdom=game.kingdom, sets=game.sets,
                              seed=game.seed, always_ask=game.always_ask)
    config = state.config
    chooser = Chooser(game.seed)
    lines = [f"# {game.name}: engine version {dominion.ENGINE_VERSION}",
             f"# players: {', '.join(config.players)}; first player: seat "
             f"{config.first_player}; seed {config.seed}; always_ask {config.always_ask}",
             f"# kingdom: {', '.join(config.kingdom)}"]
    logged = 0
    lines += log_lines(state, logged)
    logged = len(dominion.view(state, None, log_from=0).log)
    while (decision := dominion.pending(state)) is not None:
        number = dominion.decision_number(state)
        if number >= MAX_DECISIONS:
            raise RuntimeError(f"{game.name}: no end after {MAX_DECISIONS} decisions")
        answer = chooser.answer(decision, state)
        lines.append(show_decision(number, decision))
        lines.append(f"  -> {show_answer(answer)}")
        state = dominion.step(state, answer, decision.player, number=number)
        lines += log_lines(state, logged)
        logged = len(dominion.view(state, None, log_from=0).log)
    names = config.players
    lines.append("# scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, dominion.score(state))))
    lines.append("# winners: " + ", ".join(names[w] for w in dominion.winners(state)))
    turns = (str(p.turns_taken) for p in dominion.view(state, None).players)
    lines.append(f"# turns taken: {', '.join(turns)}")
    return "\n".join(lines) + "\n"


def path(game: Game) -> Path:
    return GOLDEN_DIR / f"{game.name}.txt"


VERSIONS = GOLDEN_DIR / "versions.json"


def golden_files() -> dict:
    """The golden files on disk: {game name: text}."""
    return {p.stem: p.read_text() for p in sorted(GOLDEN_DIR.glob("*.txt"))}


def current_version() -> str:
    return dominion.ENGINE_VERSION


def digest(texts: dict) -> str:
    """One digest of a set of golden texts (by game name)."""
    import hashlib
    h = hashlib.sha256()
    for name in sorted(texts):
        h.update(name.encode() + b"\0" + texts[name].encode() + b"\0")
    return h.hexdigest()


def read_versions() -> dict:
    import json
    return json.loads(VERSIONS.read_text()) if VERSIONS.exists() else {}


def write_versions(versions: dict) -> None:
    import json
    VERSIONS.write_text(json.dumps(versions, indent=2, sort_keys=True) + "\n")
