"""A throwaway PostgreSQL server for the tests and the storage benchmark: `initdb` in a temporary
folder, `pg_ctl start` on a free port on 127.0.0.1 (and a unix socket in the folder), stopped by
its own `pg_ctl stop` at the end. PostgreSQL refuses to run as root, so as root the cluster
belongs to the ``postgres`` user (``runuser -u postgres --``).

The superuser ``postgres`` has a password (`PASSWORD`): connections over TCP must give it
(scram-sha-256), so the tests can check that a wrong one is refused and never shown."""
from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

PASSWORD = "s3cret-Pw-for-tests"


def find_initdb() -> Optional[str]:
    """initdb on PATH, else in Debian's versioned folder (the postgresql package puts it
    there), else None."""
    found = shutil.which("initdb")
    if found:
        return found
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TemporaryPostgres:
    """``with TemporaryPostgres() as pg:`` a running server; ``pg.url(dbname)`` connects to it
    and ``pg.create_database(name)`` makes a database. ``durable=False`` turns fsync off (the
    tests' speed; the benchmark keeps PostgreSQL's defaults)."""

    def __init__(self, durable: bool = False):
        initdb = find_initdb()
        if initdb is None:
            raise RuntimeError("initdb is not installed (Debian: apt-get install postgresql)")
        self.bin = Path(initdb).resolve().parent
        self.durable = durable
        self.folder: Optional[Path] = None
        self.port = 0
        self.started = False

    def _as_owner(self) -> list:
        return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *args) -> None:
        done = subprocess.run([*self._as_owner(), *map(str, args)], capture_output=True,
                              text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def __enter__(self) -> "TemporaryPostgres":
        self.folder = Path(tempfile.mkdtemp(prefix="dominion-pg-"))
        data = self.folder / "data"
        pwfile = self.folder / "pw"
        pwfile.write_text(PASSWORD + "\n")
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
            shutil.chown(pwfile, "postgres", "postgres")
        try:
            self._run(self.bin / "initdb", "-D", data, "-U", "postgres", "--pwfile", pwfile,
                      "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8",
                      "--no-instructions", *([] if self.durable else ["--no-sync"]))
            self.port = free_port()
            options = (f"-c listen_addresses=127.0.0.1 -p {self.port} "
                       f"-c unix_socket_directories={self.folder} -c max_connections=100")
            if not self.durable:
                options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            self._options = options
            self.start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.started:
            self.stop()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def start(self) -> None:
        """Start the server (again, after `stop`) on its port."""
        self._run(self.bin / "pg_ctl", "start", "-D", self.folder / "data", "-w", "-t", "60",
                  "-l", self.folder / "log", "-o", self._options)
        self.started = True

    def stop(self) -> None:
        """Stop the server (fast: its connections are ended) until `start`: the database is
        away, as in a restart that takes a while."""
        self._run(self.bin / "pg_ctl", "stop", "-D", self.folder / "data", "-m", "fast",
                  "-w", "-t", "60")
        self.started = False

    def restart(self) -> None:
        """Stop the server (fast: its connections are ended) and start it again."""
        self._run(self.bin / "pg_ctl", "restart", "-D", self.folder / "data", "-m", "fast",
                  "-w", "-t", "60", "-l", self.folder / "log")

    def postmaster_pid(self) -> int:
        """The server's main process (the first line of its postmaster.pid)."""
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def url(self, dbname: str = "postgres", password: Optional[str] = PASSWORD) -> str:
        secret = f":{password}" if password is not None else ""
        return f"postgresql://postgres{secret}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its URL."""
        import psycopg
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
