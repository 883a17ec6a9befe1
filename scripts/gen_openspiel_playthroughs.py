"""Write the golden OpenSpiel playthroughs of the Dominion game (tests/openspiel_playthroughs/),
with OpenSpiel's own generator (open_spiel/python/algorithms/generate_playthrough.py): every
state's strings, tensors, legal actions and the action taken, for 2 and 4 players.
tests/test_openspiel.py regenerates them and fails on any difference: a change to the engine,
the encoding or the game shows there as a diff to review (rerun this script to accept it).

    .venv/bin/python scripts/gen_openspiel_playthroughs.py
"""
from __future__ import annotations

import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "openspiel_playthroughs"
# (file, game string, seed of the random actions): short games (a few turns a seat, cut off
# by max_turns), so that a reviewer can read them; the First Game Kingdom.
PLAYTHROUGHS = (
    ("dominion_2p.txt", "dominion(players=2,max_turns=4,seed=3)", 4),
    ("dominion_4p.txt", "dominion(players=4,max_turns=2,seed=4)", 4),
)


def playthrough(game_string: str, seed: int) -> str:
    from open_spiel.python.algorithms import generate_playthrough
    import dominion_rl.openspiel  # noqa: F401  (registers the game)
    return generate_playthrough.playthrough(game_string, None, seed=seed)


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, game_string, seed in PLAYTHROUGHS:
        (FOLDER / name).write_text(playthrough(game_string, seed), encoding="utf-8")
        print(f"wrote {FOLDER / name}", file=sys.stderr)


if __name__ == "__main__":
    main()
