"""`dominion cards`: every card with its cost, types and set."""
import json

import dominion
from dominion_client.cli import main


def test_cards_json_lists_every_card_with_name_cost_types_and_set(capsys):
    assert main(["cards", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == set(dominion.CARDS)
    assert len(rows) == 7 + 64
    for r in rows:
        assert set(r) == {"name", "cost", "types", "set"}
        c = dominion.CARDS[r["name"]]
        assert (r["cost"], tuple(r["types"]), r["set"]) == (c.cost, c.types, c.set)
    by_name = {r["name"]: r for r in rows}
    assert by_name["Witch"]["types"] == ["Action", "Attack"]
    assert by_name["Harem"] == {"name": "Harem", "cost": 6, "types": ["Treasure", "Victory"],
                                "set": "intrigue-2e"}
    assert {r["set"] for r in rows} == {"basic", "base-2e", "base-1e", "intrigue-2e",
                                        "intrigue-1e"}


def test_cards_as_text_has_one_line_per_card(capsys):
    assert main(["cards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(dominion.CARDS) and any(line.startswith("Moat") for line in lines)


def test_help_names_every_command(capsys):
    import pytest
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for command in ("cards", "kingdoms", "simulate", "tournament", "serve", "bot", "play"):
        assert command in out
