"""Game records out of a simulation, and `dominion replay` showing any of them in words."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import dominion
from dominion.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "dominion_client.cli", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_every_game_of_a_simulation_comes_out_as_a_record_that_replays_to_its_result():
    lines = []
    summary = simulate(["big-money", "smithy-big-money"], 6, seed=4, workers=1,
                       on_record=lines.append)
    assert [line["index"] for line in lines] == list(range(6))
    assert all("record" not in r for r in summary["results"])   # not kept in memory
    for line in lines:
        assert line["engine_version"] == dominion.ENGINE_VERSION
        state = dominion.replay(dominion.record_from_data(json.loads(json.dumps(line))))
        assert list(dominion.score(state)) == line["scores"]
        assert state.config.seed == line["seed"]


def test_simulate_writes_records_and_replay_shows_a_game_for_a_seat_or_a_spectator(tmp_path):
    records = tmp_path / "games.jsonl"
    run = cli("simulate", "--games", "4", "--bots", "big-money,random", "--seed", "9",
              "--workers", "2", "--records", str(records))
    assert run.returncode == 0, run.stderr
    lines = records.read_text().splitlines()
    assert len(lines) == 4
    game = json.loads(lines[1])
    names = game["config"]["players"]
    seat = cli("replay", f"{records}:{game['index']}", "--seat", "0")
    assert seat.returncode == 0, seat.stderr
    text = seat.stdout.splitlines()
    assert f"Turn 1 - {names[game['config']['first_player']]}" in text
    assert text[-2] == "The game is over." and text[-1].startswith("Scores: ")
    own = [t for t in text if t.startswith(f"{names[0]} draws ")]
    other = [t for t in text if t.startswith(f"{names[1]} draws ")]
    assert any("Copper" in t or "Estate" in t for t in own)
    assert other and all(t.endswith(" cards.") or t.endswith(" a card.") for t in other)
    spectator = cli("replay", f"{records}:{game['index']}").stdout
    assert "Copper" not in "".join(t for t in spectator.splitlines() if " draws " in t)
    events = [json.loads(t) for t in
              cli("replay", f"{records}:{game['index']}", "--json").stdout.splitlines()]
    assert events[-1]["kind"] == "game_over" and all("text" in e for e in events)


def test_replay_refuses_a_record_of_another_engine_version_and_a_missing_line(tmp_path):
    records = tmp_path / "games.jsonl"
    simulate(["big-money", "random"], 2, seed=1, workers=1,
             on_record=lambda line: records.open("a").write(json.dumps(line) + "\n"))
    first = json.loads(records.read_text().splitlines()[0])
    first["engine_version"] = "0-older"
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps(first) + "\n")
    refused = cli("replay", str(old))
    assert refused.returncode == 2 and "engine version '0-older'" in refused.stderr
    missing = cli("replay", f"{records}:9")
    assert missing.returncode == 2 and "no game 9" in missing.stderr


def test_replay_plays_again_a_game_of_a_simulation_by_its_seed_and_index(tmp_path):
    records = tmp_path / "g.jsonl"
    assert cli("simulate", "--games", "5", "--bots", "big-money,smithy-big-money", "--seed",
               "12", "--workers", "1", "--records", str(records)).returncode == 0
    lines = records.read_text().splitlines()
    records.write_text("\n".join(reversed(lines)) + "\n")   # as several workers may write them
    from_file = cli("replay", f"{records}:3", "--seat", "1")   # the record whose index is 3
    by_index = cli("replay", "--index", "3", "--bots", "big-money,smithy-big-money", "--seed",
                   "12", "--seat", "1")
    assert by_index.returncode == 0, by_index.stderr
    assert by_index.stdout == from_file.stdout and "Scores:" in by_index.stdout
    refused = cli("replay", "--index", "3")
    assert refused.returncode == 2 and "--bots and --seed" in refused.stderr


def test_record_from_data_reads_a_records_file_line_as_written():
    """README: ``dominion.record_from_data(line)`` takes a line of a records file as it is."""
    lines = []
    simulate(["big-money", "random"], 1, seed=4, workers=1,
             on_record=lambda data: lines.append(json.dumps(data)))
    record = dominion.record_from_data(lines[0])
    assert record == dominion.record_from_data(json.loads(lines[0]))
    assert dominion.replay(record).config.seed == json.loads(lines[0])["seed"]
    with pytest.raises(dominion.InvalidConfigError, match="not a game record"):
        dominion.record_from_data('{"config": ')
