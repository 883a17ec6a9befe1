"""One clear line where a server cannot be reached or a database cannot be used: a TLS server
asked in clear, a certificate not trusted, a server in clear asked over TLS, a --db that is
neither a file nor PostgreSQL, and a refused --db that leaves no lock file behind."""
from __future__ import annotations

from dominion_service import SqliteStorage
from dominion_service.local import LocalServer
from tests.service.test_public_server import certificate  # noqa: F401  (a fixture)
from tests.service.test_serve_command import dominion, refused


def bot(server: str, *extra):
    return dominion("bot", "--server", server, *extra, "--game", "x", "--token", "y",
                    "--connect-timeout", "1", timeout=30)


def test_a_tls_server_asked_in_clear_or_without_its_certificate_says_what_to_do(
        certificate):  # noqa: F811
    cert, key = certificate
    with LocalServer(SqliteStorage(":memory:"), tls=(cert, key)) as server:
        refused(bot(server.target), f"this server speaks TLS: use https://{server.target}")
        untrusted = bot(f"https://{server.target}")
        refused(untrusted, "the server's certificate is not trusted: give --ca-file")
        assert "ssl_transport_security" not in untrusted.stderr   # gRPC's own lines are not shown
        reached = bot(f"https://{server.target}", "--ca-file", cert)
        assert "no game 'x'" in reached.stderr


def test_a_server_in_clear_asked_over_tls_says_so():
    with LocalServer(SqliteStorage(":memory:")) as server:
        refused(bot(f"https://{server.target}"),
                f"this server does not speak TLS: use http://{server.target}")


def test_serve_refuses_a_db_address_that_is_not_postgresql_and_creates_nothing(tmp_path):
    result = dominion("serve", "--port", "0", "--no-web", "--db", "mysql://u@host/x")
    refused(result, "--db takes a file path or postgresql://", "not a mysql:// address")


def test_a_refused_db_file_leaves_no_lock_file_beside_it(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database, " * 400)
    refused(dominion("serve", "--port", "0", "--no-web", "--db", str(text)),
            "cannot be used as the games database")
    refused(dominion("db", "copy", str(text), str(tmp_path / "copy.db")),
            "cannot be used as the games database")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
