"""Files a command writes, written whole or not at all.

A command's output file is written beside its place (a hidden ``.NAME.*.partial`` file in the
same folder) and renamed over it only when the command has finished: a run that fails or is
killed leaves the file that was there as it was. An existing file is refused unless the person
asks to replace it (``--overwrite``) or to add to it (``--append``: the old lines are copied
first, so an appended file, too, appears whole or not at all)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Optional


class OutputError(Exception):
    """An output file that cannot be written, as one line for the person who asked for it."""


def add_write_options(parser) -> None:
    """``--overwrite`` and ``--append``, for a command that writes files."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--overwrite", action="store_true",
                       help="replace output files that exist (default: an existing file is "
                            "refused)")
    group.add_argument("--append", action="store_true",
                       help="add to output files that exist, after their lines")


def write_mode(args) -> str:
    """"overwrite", "append" or "new" (refuse an existing file), from the command line."""
    return "overwrite" if args.overwrite else "append" if args.append else "new"


class OutputFile:
    """One file written beside its place and renamed over it at `commit`; `discard` (or
    leaving a ``with`` block by an exception) removes what was written and leaves the file
    that was there untouched. ``header``: what an existing file to append to must begin with
    (a CSV's columns); `empty` says when the caller writes it. ``appendable``: the command
    offers --append (a refusal names it)."""

    def __init__(self, path: str, option: str, mode: str, header: Optional[str] = None,
                 appendable: bool = True):
        self.path = Path(path)
        if self.path.is_dir():
            raise OutputError(f"{option} {path}: is a folder, not a file")
        exists = self.path.exists()
        if exists and mode == "new":
            raise OutputError(f"{option} {path}: the file exists; give --overwrite to replace "
                              "it" + (" or --append to add to it" if appendable else ""))
        old = b""
        if exists and mode == "append":
            try:
                with open(self.path, "rb") as f:
                    old = f.read(len(header.encode()) + 2) if header is not None else b""
            except OSError as e:
                raise OutputError(f"{option} {path}: cannot read it: {e.strerror}") from None
            if header is not None and old and not old.decode("utf-8", "replace").startswith(
                    header):
                raise OutputError(f"{option} {path}: it does not begin with the columns this "
                                  f"command writes ({header}), so it is not appended to")
        try:
            fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.",
                                        suffix=".partial")
        except OSError as e:
            raise OutputError(f"{option} {path}: cannot write in {self.path.parent}: "
                              f"{e.strerror}") from None
        os.close(fd)
        self.temp = Path(temp)
        try:
            if exists and mode == "append":
                shutil.copyfile(self.path, self.temp)
            _give_mode(self.temp, self.path if exists else None)
            self.file = open(self.temp, "a", encoding="utf-8", newline="")
        except OSError as e:
            self.temp.unlink(missing_ok=True)
            raise OutputError(f"{option} {path}: {e.strerror}") from None
        self.empty = self.file.tell() == 0   # the caller writes its header line then

    def commit(self) -> None:
        """Put the finished file in its place (one rename: readers see the old or the new)."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.temp, self.path)

    def discard(self) -> None:
        self.file.close()
        self.temp.unlink(missing_ok=True)

    def __enter__(self) -> "OutputFile":
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if not self.file.closed:
            self.discard()


def _give_mode(temp: Path, existing: Optional[Path]) -> None:
    """The permissions the file would have had: the existing file's, or a new file's."""
    if existing is not None:
        shutil.copymode(existing, temp)
        return
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temp, 0o666 & ~umask)
