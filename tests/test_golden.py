"""The golden playthroughs: every game in tests/golden/ replays to the same text, and games that
change come with a new ENGINE_VERSION (records of the old version are refused, since their
answers may mean another game). To accept a change: `python scripts/gen_golden.py`, read the
diff, raise `dominion.ENGINE_VERSION`."""
import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import playthrough  # noqa: E402

GAMES = {game.name: game for game in playthrough.GAMES}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_game_plays_as_its_golden_file(name):
    game = GAMES[name]
    expected = playthrough.path(game).read_text()
    actual = playthrough.play(game)
    if actual != expected:
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                    f"golden/{name}.txt", "engine now", lineterm="", n=2)
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{name} plays differently from its golden file (if meant: run "
                    f"scripts/gen_golden.py and raise ENGINE_VERSION):\n{shown}")


def test_golden_files_are_exactly_the_golden_games():
    assert sorted(playthrough.golden_files()) == sorted(GAMES)


def test_golden_files_changed_only_with_a_new_engine_version():
    versions = playthrough.read_versions()
    version = playthrough.current_version()
    assert version in versions, (
        f"ENGINE_VERSION {version!r} has no golden digest: run scripts/gen_golden.py")
    assert versions[version] == playthrough.digest(playthrough.golden_files()), (
        f"the golden files changed but ENGINE_VERSION is still {version!r}: games that change "
        "need a new version (records of the old one are refused)")


def test_golden_games_cover_what_they_promise():
    """Both sets and editions, 2 to 6 players, always_ask on and off, and the cards whose
    suspended work is hardest (Throne Room, Masquerade, Torturer, Library, Sentry, Secret
    Passage) asked about in the files."""
    texts = playthrough.golden_files()
    assert {g.players for g in playthrough.GAMES} == {2, 3, 4, 5, 6}
    assert {g.always_ask for g in playthrough.GAMES} == {True, False}
    kingdoms = " ".join(t.splitlines()[2] for t in texts.values())
    for card in ("Adventurer", "Woodcutter", "Secret Chamber", "Coppersmith", "Sentry",
                 "Courtier"):  # a card of each set and edition
        assert card in kingdoms
    for card in ("Throne Room", "Masquerade", "Torturer", "Library", "Sentry", "Secret Passage"):
        assert any(f" card={card} " in t for t in texts.values()), card
