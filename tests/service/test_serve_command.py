"""`dominion serve` and `dominion bot` as a person starts them: every way the server cannot start
is one line and exit code 2, never a traceback, and never a server that seems to run."""
from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONUNBUFFERED="1")


def dominion(*args, timeout=30):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=ENV)


def start_serve(*args, env=None) -> tuple:
    """A running `dominion serve` on a free port: (process, "127.0.0.1:PORT"); ``env``: more
    environment variables."""
    proc = subprocess.Popen([sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0",
                             "--web-port", "0",
                             *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=dict(ENV, **(env or {})))
    line = proc.stdout.readline()
    assert "listening on 127.0.0.1:" in line, proc.stderr.read()
    return proc, line.split("listening on ", 1)[1].split()[0]


def stop(proc) -> None:
    proc.terminate()
    assert proc.wait(15) == 0


def refused(result, *words) -> None:
    """Exit code 2 and one line on stderr containing ``words``, no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for w in words:
        assert w in lines[0], lines[0]


@pytest.mark.parametrize("port", ["70000", "-1", "65536"])
def test_a_port_out_of_range_is_refused(port, tmp_path):
    refused(dominion("serve", "--port", port, "--db", str(tmp_path / "g.db")), "--port", port)


def test_a_port_another_server_holds_is_refused(tmp_path):
    first, target = start_serve("--db", str(tmp_path / "a.db"))
    try:
        port = target.rsplit(":", 1)[1]
        refused(dominion("serve", "--port", port, "--db", str(tmp_path / "b.db")),
                "cannot listen", port)
    finally:
        stop(first)


def test_serve_prints_the_web_address_and_serves_the_page_there(tmp_path):
    proc, _ = start_serve("--db", str(tmp_path / "w.db"))
    try:
        line = proc.stdout.readline()
        assert line.startswith("Web page, Connect and gRPC-Web on http://127.0.0.1:"), line
        address = line.split(" on ", 1)[1].strip()
        with urllib.request.urlopen(address, timeout=10) as page:
            assert b"app.js" in page.read()
    finally:
        stop(proc)


def test_no_web_serves_native_grpc_only(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "dominion_client.cli", "serve", "--port", "0",
                             "--no-web", "--db", str(tmp_path / "n.db")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=ENV)
    assert "listening on" in proc.stdout.readline()
    stop(proc)
    assert "Web page" not in proc.stdout.read()


@pytest.mark.parametrize("port", ["70000", "-1"])
def test_a_web_port_out_of_range_is_refused(port, tmp_path):
    refused(dominion("serve", "--port", "0", "--web-port", port, "--db",
                     str(tmp_path / "g.db")), "--web-port", port)


def test_the_same_port_for_both_doors_is_refused(tmp_path):
    refused(dominion("serve", "--port", "7311", "--web-port", "7311", "--db",
                     str(tmp_path / "g.db")), "--web-port must differ")


def test_a_web_port_another_server_holds_is_refused_and_nothing_is_left_running(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = str(holder.getsockname()[1])
        refused(dominion("serve", "--port", "0", "--web-port", port, "--db",
                         str(tmp_path / "g.db")), "cannot listen", port)
    second, _ = start_serve("--db", str(tmp_path / "g.db"))   # the database was let go
    stop(second)


def test_a_database_another_server_holds_is_refused(tmp_path):
    db = tmp_path / "games.db"
    first, _ = start_serve("--db", str(db))
    try:
        refused(dominion("serve", "--port", "0", "--db", str(db)), "in use by another server")
    finally:
        stop(first)
    second, _ = start_serve("--db", str(db))     # free again once the first has stopped
    stop(second)


def test_an_address_that_is_not_one_is_refused(tmp_path):
    refused(dominion("serve", "--host", "999.1.1.1", "--port", "0", "--db",
                     str(tmp_path / "g.db")), "cannot listen", "999.1.1.1")


def test_a_folder_as_the_database_is_refused(tmp_path):
    refused(dominion("serve", "--port", "0", "--db", str(tmp_path)), "is a folder")


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("these are not games\n" * 100)
    refused(dominion("serve", "--port", "0", "--db", str(junk)), "cannot be used", "notes.txt")


def test_a_database_in_a_folder_that_does_not_exist_says_it_made_the_folder(tmp_path):
    db = tmp_path / "new" / "deeper" / "games.db"
    proc, _ = start_serve("--db", str(db))
    stop(proc)
    assert "created the folder" in proc.stderr.read() and db.exists()


def test_a_read_only_database_is_refused_before_serving(tmp_path):
    db = tmp_path / "games.db"
    sqlite3.connect(db).close()
    proc, _ = start_serve("--db", str(db))     # makes it a games database
    stop(proc)
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    made_read_only = subprocess.run(["chattr", "+i", str(db)], capture_output=True)
    if made_read_only.returncode != 0:   # root ignores file modes; only an immutable file
        pytest.skip(f"chattr cannot make a file immutable here: {made_read_only.stderr!r}")
    try:
        refused(dominion("serve", "--port", "0", "--db", str(db)), "cannot be used")
    finally:
        subprocess.run(["chattr", "-i", str(db)], check=True)


def test_bot_with_a_wrong_address_fails_fast_with_a_message():
    result = dominion("bot", "--server", "127.0.0.1:9", "--game", "x", "--token", "y",
                      "--connect-timeout", "1", timeout=20)
    refused(result, "127.0.0.1:9: no Dominion server answers there")
