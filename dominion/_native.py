"""Which engine runs: the modules compiled by mypyc (``setup.py``) or their Python sources.

The compiled modules call one another directly, so they are used all together or not at all.
The sources are used when ``DOMINION_PURE=1`` is set, or when a source is not the one that was
compiled (an edited or switched checkout of an editable install: the build recorded each
source's SHA-256 in ``_compiled_sources.py``); then a warning says to rebuild, and the sources,
which are always right, run. This runs once, when ``dominion`` is first imported, before any
of those modules."""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings

from ._compiled import COMPILED_MODULES, GROUP

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # holds the package


def source_path(name: str) -> str:
    return os.path.join(_ROOT, *name.split(".")) + ".py"


def source_digest(name: str) -> str:
    """The SHA-256 of a module's source, as the build records it."""
    with open(source_path(name), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _compiled_file(name: str):
    base = os.path.join(_ROOT, *name.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


class _SourceFinder:
    """Finds the compiled group's modules as their Python sources (ahead of the extensions,
    which Python would otherwise prefer)."""

    def __init__(self, names):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def _why_not_compiled():
    """None when the compiled modules can run; else why not ("" needs no warning)."""
    if os.environ.get("DOMINION_PURE") == "1":
        return ""
    built = [name for name in COMPILED_MODULES if _compiled_file(name)]
    if not built:
        return ""    # a pure install
    if len(built) < len(COMPILED_MODULES) or not _compiled_file(GROUP + "__mypyc"):
        return "only some of the engine's modules are compiled"
    try:
        from ._compiled_sources import SOURCES  # type: ignore[import-not-found]  # (built)
    except ImportError:
        return "the build left no record of the sources it compiled"
    changed = [name for name in COMPILED_MODULES
               if SOURCES.get(name) != source_digest(name)]
    if changed:
        return f"{', '.join(changed)} changed since the engine was compiled"
    return None


def tuple_maker():
    """How the engine builds a NamedTuple from a tuple of its fields (without the class's Python
    ``__new__``): in the compiled engine `dominion._tuples.new` (C, built with it by setup.py:
    ``tuple.__new__`` called from compiled code goes through a generic type call, 12% of a
    compiled simulation's instructions, callgrind 2026-11-27); in the pure engine, which runs
    no C of ours, ``tuple.__new__``. Called after `choose`."""
    if any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        return tuple.__new__
    try:
        from ._tuples import new   # type: ignore[import-not-found]  # (built)
    except ImportError:   # a build from before it existed
        return tuple.__new__
    return new


def choose() -> bool:
    """Arrange for the compiled modules or the sources to be imported; True if compiled."""
    reason = _why_not_compiled()
    if reason is None:
        return True
    if reason:
        warnings.warn(f"dominion: {reason}; running the Python sources (rebuild with "
                      "`pip install -e .`, or set DOMINION_PURE=1 to silence this)",
                      RuntimeWarning, stacklevel=3)
    sys.meta_path.insert(0, _SourceFinder(COMPILED_MODULES))
    return False
