"""The build: the engine's hot modules compiled to C with mypyc, or left pure Python.

mypyc (the compiler that ships mypy itself compiled) turns these modules, unchanged, into C
extensions about twice as fast; the Python sources stay the reference and the fallback. Set
``DOMINION_PURE=1`` to install without compiling; a machine without a C compiler gets the pure
modules with a warning. ``dominion/__init__.py`` falls back to the sources at import when the
compiled modules were built from other sources (an edited checkout: the build records each
source's SHA-256 in ``dominion/_compiled_sources.py``), so an editable install never runs stale
code.
"""
import hashlib
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules every step and every bot decision runs through (one list: dominion/__init__.py
# reads the same names from dominion/_compiled.py).
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "dominion"))
from _compiled import COMPILED_MODULES, GROUP  # noqa: E402

sys.path.pop(0)
STAMP = os.path.join(HERE, "dominion", "_compiled_sources.py")


def write_stamp() -> None:
    """Record the SHA-256 of each source compiled (``dominion/_native.py`` compares)."""
    lines = ['"""Written by setup.py: the sources the compiled engine was built from."""',
             "SOURCES = {"]
    for name in COMPILED_MODULES:
        with open(os.path.join(HERE, *name.split(".")) + ".py", "rb") as f:
            lines.append(f"    {name!r}: {hashlib.sha256(f.read()).hexdigest()!r},")
    lines.append("}")
    with open(STAMP, "w") as f:
        f.write("\n".join(lines) + "\n")


def remove_stamp() -> None:
    if os.path.exists(STAMP):
        os.remove(STAMP)


class OptionalBuildExt(build_ext):
    """Build the extensions if possible; otherwise install the pure-Python engine."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: the sources work as they are
            remove_stamp()
            print(f"warning: the compiled engine was not built ({exc}); "
                  "installing the pure-Python engine", file=sys.stderr)


def extensions() -> list:
    if os.environ.get("DOMINION_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        print(f"warning: mypyc is missing ({exc}); installing the pure-Python engine",
              file=sys.stderr)
        return []
    paths = [name.replace(".", "/") + ".py" for name in COMPILED_MODULES]
    try:
        modules = mypycify(paths, opt_level="3", group_name=GROUP)
    except BaseException as exc:  # mypyc refuses the sources: they still run as they are
        remove_stamp()
        print(f"warning: mypyc failed ({exc!r}); installing the pure-Python engine",
              file=sys.stderr)
        return []
    write_stamp()
    # The compiled engine's NamedTuple builder (dominion/_native.py, `tuple_maker`).
    return modules + [Extension("dominion._tuples", ["dominion/_tuples.c"])]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
