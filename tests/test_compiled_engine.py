"""The compiled engine (mypyc, `setup.py`) and its Python sources are the same engine: CI runs
the compiled one, both play the same games from the same seeds, and a source edited after the
build runs as the source, never as the stale compiled module."""
import json
import os
import subprocess
import sys

import pytest

import dominion
from dominion import _native
from dominion._compiled import COMPILED_MODULES
from dominion.simulate import Setup, labels_for, play_game

needs_compiled = pytest.mark.skipif(not dominion.COMPILED,
                                    reason="the engine is not compiled in this install")

# Random Kingdoms from every set, 2 to 5 players, bots that play Attacks, Reactions and
# everything else (the random bot answers every kind of question).
GAMES = [
    (("random", "big-money", "militia-big-money"), "random", 11),
    (("witch-big-money", "random"), "random", 12),
    (("masquerade-big-money", "torturer-big-money", "random", "courtyard-big-money"), "random", 13),
    (("random",) * 5, "random", 14),
    (("smithy-big-money", "big-money-ultimate"), "First Game", 15),
]
PLAY = """
import json, sys
from dominion.simulate import Setup, labels_for, play_game
out = []
for bots, kingdom, seed in json.loads(sys.argv[1]):
    setup = Setup(tuple(bots), labels_for(bots), kingdom, None, seed, True)
    out.append([play_game(setup, i) for i in range(4)])
print(json.dumps(out))
"""


def _results() -> list:
    out = []
    for bots, kingdom, seed in GAMES:
        setup = Setup(bots, labels_for(bots), kingdom, None, seed, True)
        out.append([play_game(setup, i) for i in range(4)])
    return json.loads(json.dumps(out))


def test_ci_runs_the_compiled_engine():
    """CI installs with a C compiler: a build that fell back to the sources must not pass."""
    if os.environ.get("CI") != "true":
        pytest.skip("outside CI a pure-Python install is allowed")
    assert dominion.COMPILED, "the install fell back to the pure-Python engine"
    assert all(sys.modules[name].__file__.endswith(".so") for name in COMPILED_MODULES
               if name in sys.modules)


@needs_compiled
def test_the_compiled_and_the_pure_engine_play_the_same_games():
    pure = subprocess.run([sys.executable, "-c", PLAY, json.dumps(GAMES)], check=True,
                          capture_output=True, text=True,
                          env=dict(os.environ, DOMINION_PURE="1"))
    ours = _results()
    assert all("error" not in r for games in ours for r in games)
    assert json.loads(pure.stdout) == ours


def test_dominion_pure_runs_the_sources():
    code = ("import dominion, dominion.engine as e, dominion.bots.policy as p; "
            "print(dominion.COMPILED, e.__file__, p.__file__)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=dict(os.environ, DOMINION_PURE="1")).stdout.split()
    assert out[0] == "False" and out[1].endswith("engine.py") and out[2].endswith("policy.py")


@needs_compiled
def test_a_source_changed_since_the_build_runs_as_the_source(monkeypatch):
    assert _native._why_not_compiled() is None
    real = _native.source_digest
    monkeypatch.setattr(_native, "source_digest",
                        lambda name: "edited" if name == "dominion.engine" else real(name))
    assert "dominion.engine changed since the engine was compiled" in \
        _native._why_not_compiled()


@needs_compiled
def test_an_edited_checkout_warns_and_plays_from_its_sources(tmp_path):
    """A copy of the installed package whose engine.py was edited after the build: importing
    it says so, runs every compiled module from its source, and plays."""
    import shutil
    package = os.path.dirname(dominion.__file__)
    shutil.copytree(package, tmp_path / "dominion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    with open(tmp_path / "dominion" / "engine.py", "a") as f:
        f.write("\n# edited after the build\n")
    code = ("import dominion, dominion.engine as e, dominion.game as g; "
            "s = dominion.new_game(seed=3); s = dominion.step(s, dominion.pending(s).moves[0]); "
            "print(dominion.COMPILED, e.__file__, g.__file__)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert run.returncode == 0, run.stderr
    assert "dominion.engine changed since the engine was compiled" in run.stderr
    compiled, engine, game = run.stdout.split()
    assert compiled == "False" and engine == str(tmp_path / "dominion" / "engine.py")
    assert game.endswith("game.py")


@needs_compiled
def test_the_compiled_engine_builds_its_named_tuples_with_the_c_builder_as_tuple_new_would():
    """`dominion._tuples.new` (the compiled engine's, `_native.tuple_maker`) returns what
    ``tuple.__new__`` returns, from a tuple or any iterable, and refuses what it refuses."""
    from dominion import engine, views
    from dominion._tuples import new
    from dominion.state import Event, Move
    assert engine._new_tuple is new and views._new_tuple is new
    fields = ("gain", 1, ("Gold",), None, None)
    for given in (fields, list(fields), iter(fields)):
        made = new(Event, given)
        assert type(made) is Event and made == tuple.__new__(Event, fields)
        assert made.cards == ("Gold",) and made._replace(player=0).player == 0
    assert new(tuple, [1, 2]) == (1, 2) and type(new(tuple, [1, 2])) is tuple
    for bad in ((dict, ()), (Move, 3), ("Move", ())):
        with pytest.raises(TypeError):
            tuple.__new__(*bad)
        with pytest.raises(TypeError):
            new(*bad)
    with pytest.raises(TypeError):
        new(Move)


def test_the_pure_engine_builds_its_named_tuples_with_tuple_new():
    """The pure engine runs no C of ours: its builder is ``tuple.__new__``."""
    code = "import dominion.engine as e, dominion.views as v; " \
           "print(e._new_tuple is tuple.__new__ and v._new_tuple is tuple.__new__)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=dict(os.environ, DOMINION_PURE="1")).stdout.split()
    assert out == ["True"]
