"""`dominion play` keeps one screen that fits 80x24: the screen builder over random games of
every set at 2 to 6 players, card help, Treasures played by themselves, and the real command in
a pseudo-terminal of 80x24."""
import fcntl
import os
import pty
import random
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

import dominion
from dominion_client.terminal import HEIGHT, WIDTH, card_help, screen
from tests.support import random_answer

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_screen_of_a_random_game_fits_80_by_24(players):
    rng = random.Random(players)
    state = dominion.new_game(players=players, kingdom="random", seed=players)
    log = []
    while (d := dominion.pending(state)) is not None and state.turn < 60:
        view = dominion.view(state, d.player, log_from=max(0, len(state.log) - 12))
        log = [dominion.render(e, state.config.players) for e in view.log]
        lines = screen(view, d, log)
        assert len(lines) <= HEIGHT - 1, len(lines)
        assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
        refused = screen(view, d, log, "Not allowed: " + "a long reason " * 20)
        assert len(refused) <= HEIGHT - 1, len(refused)   # wrapped only as far as it fits
        text = "\n".join(lines)
        me = view.players[d.player]
        current = view.players[view.current]
        assert lines[0].startswith(f"Turn {current.turns_taken} - {current.name}")
        assert f"You: {me.vp} VP" in lines[0]
        assert f"{view.supply[0][0]} ${view.supply[0][2]} ({view.supply[0][1]})" in text
        assert all(f"{p.name}: {p.vp} VP" in text for s, p in enumerate(view.players)
                   if s != d.player)
        assert d.prompt[:40] in text and "Hand: " in text
        state = dominion.step(state, random_answer(d, rng), d.player)


def test_help_shows_a_cards_text():
    assert card_help("sentry").startswith("Sentry ($5, Action): +1 Card, +1 Action.")
    assert "No card is called" in card_help("Nonsense")


def _run_in_terminal(answers: list, timeout: float = 60.0, record: str = "-") -> str:
    """`dominion play` in a pseudo-terminal of 80x24, answering each '> ' prompt in turn
    (keeping the record in ``record``, none by default)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(ROOT)
        os.execvp(sys.executable, [sys.executable, "-m", "dominion_client.cli", "play",
                                   "--seed", "3", "--name", "Tester", "--record", record])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", HEIGHT, WIDTH, 0, 0))
    out, pending = b"", list(answers)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            # The prompt is "> " at the end (an answer typed as '>' echoes "> >" and a newline)
            if out.endswith(b"> ") and pending:
                os.write(fd, (pending.pop(0) + "\n").encode())
            elif out.endswith(b"> "):
                os.write(fd, b"1\n")
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return out.decode(errors="replace")


def test_the_real_command_keeps_one_80_by_24_screen():
    text = _run_in_terminal(["help Smithy", "auto"], timeout=90)
    assert "Smithy ($4, Action): +3 Cards." in text
    assert "Treasures are now played by themselves." in text or "[auto Treasures on]" in text
    screens = [s for s in text.split("\x1b[2J\x1b[H") if s.strip()]
    assert len(screens) > 5
    for s in screens[1:-1]:   # the last one is followed by the result
        shown = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", s).replace("\r", "")
        lines = shown.rstrip("\n").split("\n")
        assert len(lines) <= HEIGHT, len(lines)   # the screen, and the line typed at "> "
        assert all(len(line) <= WIDTH for line in lines), max(lines, key=len)
    assert "Game over." in text


def screens_of(text: str) -> list:
    """The screens `dominion play` drew, escapes and carriage returns taken out."""
    return [re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", s).replace("\r", "")
            for s in text.split("\x1b[2J\x1b[H") if s.strip()]


def test_the_log_pages_back_and_forth_and_long_hints_wrap():
    """'<' shows the log half a screen further back (the rule says which lines, and how to
    page), '>' forward again, an answer back to the tail; the help line wraps, not cut."""
    log = [f"line {i}" for i in range(1, 101)]
    state = dominion.new_game(players=4, kingdom="First Game", seed=1)
    d = dominion.pending(state)
    view = dominion.view(state, d.player)
    tail = screen(view, d, log)
    back = screen(view, d, log, back=8)
    for lines in (tail, back):
        assert len(lines) <= HEIGHT - 1 and all(len(line) <= WIDTH for line in lines)
    shown = [line.strip() for line in tail if line.strip().startswith("line ")]
    assert shown[-1] == "line 100"
    earlier = [line.strip() for line in back if line.strip().startswith("line ")]
    assert earlier[-1] == "line 92" and len(earlier) == len(shown)
    assert f"log {101 - len(shown) - 8}-92 of 100 | '<' back, '>' forward" in "\n".join(back)
    hint = "\n".join(tail)
    assert "'<' and '>': page the log." in " ".join(hint.split())   # the whole hint
    assert not any(line.endswith("...") for line in tail)


def test_the_real_command_pages_the_log_and_keeps_a_record_dominion_replay_reads(tmp_path,
                                                                                   capsys):
    record = tmp_path / "game.json"
    # A few turns in (the log is longer than its room), two pages back and one forward.
    text = _run_in_terminal(["1"] * 30 + ["<", "<", ">"], timeout=120, record=str(record))
    screens = screens_of(text)
    paged = [s for s in screens if "'<' back, '>' forward" in s]
    assert len(paged) == 3, len(paged)   # after each '<' and the '>'; an answer ends paging
    ends = [int(re.search(r"log \d+-(\d+) of \d+", s).group(1)) for s in paged]
    assert ends[1] == ends[0] - 8 and ends[2] == ends[0], ends
    for s in screens[1:-1]:
        lines = s.rstrip("\n").split("\n")
        assert len(lines) <= HEIGHT and all(len(line) <= WIDTH for line in lines), "\n".join(lines)
    assert "Game over." in text and f"record is in {record}" in " ".join(text.split())
    from dominion_client.cli import main
    assert main(["replay", str(record)]) == 0
    replayed = capsys.readouterr().out
    assert "Tester draws 5 cards." in replayed and "Scores: Tester" in replayed
