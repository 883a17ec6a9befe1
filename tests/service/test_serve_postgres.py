"""``dominion serve --db postgresql://...``: it serves from PostgreSQL, shows the database
without its password, and holds the database (a second server is refused in one line)."""
from __future__ import annotations

from dominion_client.client import connect
from tests.postgres_server import PASSWORD
from tests.service.test_serve_command import dominion, refused, start_serve, stop


def test_serve_on_postgres_masks_the_password_and_refuses_a_second_server(pg_url, kingdom):
    proc, target = start_serve("--no-web", "--db", pg_url)
    try:
        with connect(target) as client:
            client.wait_ready(10)
            game = client.create_game(["A", "B"], bots={1: "big-money"}, kingdom=kingdom)
            assert client.spectate(game.game_id).view().waiting_for == 0
        second = dominion("serve", "--port", "0", "--no-web", "--db", pg_url)
        refused(second, "in use by another server", "postgres:***@")
        assert PASSWORD not in second.stderr
    finally:
        stop(proc)
    out, err = proc.communicate(timeout=10)
    assert PASSWORD not in out + err
    proc, target = start_serve("--no-web", "--db", pg_url)
    try:
        with connect(target) as client:
            assert [g.game_id for g in client.list_games()] == [game.game_id]
    finally:
        stop(proc)
