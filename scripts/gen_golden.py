"""Rewrite the golden playthroughs (tests/golden/*.txt) from the engine as it is.

    python scripts/gen_golden.py

Run it when a change is meant to alter games, read the diff, and raise `dominion.ENGINE_VERSION`
in the same change. The games and their text are defined in tests/golden/playthrough.py.
tests/golden/versions.json keeps, per engine version, a digest of the files that version wrote:
an entry is never rewritten, so games that change under an unchanged version are refused here
and by tests/test_golden.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "golden"))

import playthrough  # noqa: E402


def main() -> int:
    texts = {}
    for game in playthrough.GAMES:
        texts[game.name] = text = playthrough.play(game)
        playthrough.path(game).write_text(text)
        print(f"{playthrough.path(game).relative_to(ROOT)}: {text.count(chr(10))} lines")
    for stale in sorted(set(playthrough.golden_files()) - set(texts)):
        (playthrough.GOLDEN_DIR / f"{stale}.txt").unlink()
        print(f"removed tests/golden/{stale}.txt (no longer a golden game)")
    versions = playthrough.read_versions()
    version, digest = playthrough.current_version(), playthrough.digest(texts)
    if versions.get(version, digest) != digest:
        print(f"error: the games changed, but ENGINE_VERSION is still {version!r}: raise it "
              "(dominion/game.py) and run this again", file=sys.stderr)
        return 1
    versions[version] = digest
    playthrough.write_versions(versions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
