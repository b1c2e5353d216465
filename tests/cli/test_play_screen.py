"""`nova play` drawn for reading, in a real 80x40 pseudo-terminal: separated cells, the players'
marks and colours, a legend, storage and battery beside the board under the ids every other
command uses, and a window over a board bigger than the terminal. In a pipe: the same, plain."""

from __future__ import annotations

import fcntl
import json
import os
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest
from nova_testing import nova, wanderer

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def make_game(folder: Path, size: int) -> Path:
    """alice: an extractor on 2 ore and a depot holding 5 metal and 1 electronics; bob: nothing
    but his charger; a wandering android each, 3 rounds played."""
    from nova_tools import store
    from nova_tools.engine import Scenario
    from nova_tools.rules import Rules, resolve
    from nova_tools.sandbox.build import SANDBOX_BUILD

    rules = resolve({"world": {"width": size, "height": size}}) if size != 12 else Rules()
    world = Scenario(rules)
    world.player("alice", charger_at=(1, 1))
    world.player("bob", charger_at=(size - 2, size - 2))
    world.tile(2, 1, ore=2)
    world.building("extractor", "alice", (2, 1))
    world.building("depot", "alice", (1, 2), storage={"metal": 5, "electronics": 1})
    path = folder / f"game{size}.json"
    store.save(store.new_game(path, rules, 0, SANDBOX_BUILD, initial=world.build()))
    for player in ("alice", "bob"):
        uploaded = nova(
            "upload", "--file", path, "--player", player, wanderer(folder, player), "--json"
        )
        assert uploaded.code == 0, uploaded.err
        assert (
            nova(
                "launch",
                "--file",
                path,
                "--player",
                player,
                "--script",
                json.loads(uploaded.out)["scriptId"],
            ).code
            == 0
        )
    assert nova("run", "--file", path, "--rounds", 3).code == 0
    return path


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[int, Path]:
    folder = tmp_path_factory.mktemp("play")
    return {12: make_game(folder, 12), 24: make_game(folder, 24)}


def screens_of(game: Path, keys: list[str], rows: int = 40, columns: int = 80) -> list[str]:
    """What `nova play` drew in a real pseudo-terminal of ``columns`` x ``rows``: the first screen,
    then one per key pressed (raw: `nova play` reads keys as they come, escape codes and all)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.execv(
            sys.executable, [sys.executable, "-m", "nova_tools.cli", "play", "--file", str(game)]
        )
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def read_until(
        marker: str, timeout: float = 120
    ) -> str:  # a bound, not a wait: a loaded machine starts `nova play` slowly
        data = b""
        end = time.monotonic() + timeout
        while marker.encode() not in data and time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    data += os.read(fd, 65536)
                except OSError:
                    break
        return data.decode("utf-8", "replace")

    screens = []
    try:
        screens.append(read_until("> "))
        for key in keys:
            os.write(fd, key.encode())
            screens.append(read_until("> "))
        os.write(fd, b"q")
        read_until("\x00", timeout=5)
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return screens


def plain_lines(screen: str) -> list[str]:
    return ANSI.sub("", screen).replace("\r", "").split("\n")


def test_an_80x40_terminal_shows_the_board_with_its_legend_storage_and_batteries(games):
    screens = screens_of(games[12], ["3\n"])

    raw = screens[-1]
    lines = plain_lines(raw)
    assert any(line.startswith("Round 3") for line in lines)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert len([line for line in lines if line.strip()]) <= 40
    text = "\n".join(lines)
    # the legend
    assert "players: a alice  b bob" in text
    assert "buildings: C charger D depot E extractor" in text
    assert "loose: $m metal $e electronics" in text
    # storage and batteries beside the board, by the ids nova status and nova android use
    assert "E building-3: 6o" in text  # 2 ore a round for 3 rounds
    assert "D building-4: 5m 1e" in text
    for android in ("android-1", "android-2"):
        at = next(
            i for i, line in enumerate(lines) if re.search(rf"{android} \(\d+,\d+\) hp \d+$", line)
        )
        assert re.search(r"   bat 97(, cargo .*)?$", lines[at + 1])
    # separated cells: alice's buildings in row 1 and 2, a space between every cell
    row1 = next(line for line in lines if line.startswith(" 1 "))
    assert row1[3:].startswith(".   Ca") and " Ea" in row1
    # colours on a terminal (each player has one)
    assert "\x1b[" in raw and re.search(r"\x1b\[[0-9;]*9[1-7]m", raw)
    assert "showing columns" not in text  # a 12x12 board fits whole


def test_an_80x24_terminal_still_shows_the_whole_12x12_board_its_legend_and_the_prompt(games):
    screen = screens_of(games[12], ["3\n"], rows=24)[-1]

    lines = plain_lines(screen)
    shown = lines[max(i for i, line in enumerate(lines) if line.startswith("Round 3")) :]
    assert len(shown) <= 24 and shown[-1].startswith("[space] next"), shown
    assert [line[:3] for line in shown[2:14]] == [
        f"{y:>2} " for y in range(12)
    ]  # every row of the board
    assert "showing columns" not in screen
    text = "\n".join(shown)
    assert (
        "players: a alice  b bob" in text
        and "buildings: C charger D depot" in text
        and "ground: ~ acid" in text
    )
    assert "D building-4: 5m 1e" in text and "events (" in text


def test_four_androids_a_side_still_leave_the_prompt_on_an_80x40_screen(tmp_path):
    """Each player with a second charger (room for four), four wandering androids and three
    depots holding material: the panel beside the board grows past the board, and the round's
    events give way to it."""
    from nova_tools import store
    from nova_tools.engine import Scenario
    from nova_tools.rules import Rules
    from nova_tools.sandbox.build import SANDBOX_BUILD

    world = Scenario(Rules())
    world.player("alice", charger_at=(1, 1))
    world.player("bob", charger_at=(10, 10))
    world.building("charger", "alice", (2, 2))
    world.building("charger", "bob", (9, 9))
    for x in (4, 5, 6):  # three depots a side, each holding something: three more panel lines each
        world.building("depot", "alice", (x, 0), storage={"metal": x})
        world.building("depot", "bob", (x, 11), storage={"ore": x})
    path = tmp_path / "crowd.json"
    store.save(store.new_game(path, Rules(), 0, SANDBOX_BUILD, initial=world.build()))
    for player in ("alice", "bob"):
        uploaded = nova(
            "upload", "--file", path, "--player", player, wanderer(tmp_path, player), "--json"
        )
        for _ in range(4):
            assert (
                nova(
                    "launch",
                    "--file",
                    path,
                    "--player",
                    player,
                    "--script",
                    json.loads(uploaded.out)["scriptId"],
                ).code
                == 0
            )
    assert nova("run", "--file", path, "--rounds", 2).code == 0

    screen = screens_of(path, ["2\n"])[-1]
    lines = plain_lines(screen)
    start = next(i for i, line in enumerate(lines) if line.startswith("Round 2"))
    shown = lines[start:]
    assert len(shown) <= 40 and shown[-1].startswith("[space] next"), shown
    assert all(f"android-{n} (" in screen for n in range(1, 9))  # every android beside the board
    assert "events (" in screen and "more (nova events --round 2)" in screen


def test_a_bigger_board_shows_a_window_that_the_arrow_keys_move(games):
    screens = screens_of(games[24], ["d", "s"])

    first, right, down = ("\n".join(plain_lines(s)) for s in screens)
    assert "showing columns 6-17, rows 2-21 of 24x24" in first
    assert "showing columns 12-23, rows 2-21 of 24x24" in right
    assert "showing columns 12-23, rows 4-23 of 24x24" in down
    for screen in screens:
        lines = plain_lines(screen)
        assert all(len(line) <= 80 for line in lines)
        assert (
            len(lines[lines.index(next(x for x in lines if x.startswith("Round"))) :]) <= 40
        )  # the screen from its title down


def test_the_arrow_keys_move_the_view_and_space_steps_a_round_with_no_enter(games):
    # what tmux sends for the arrows: before raw keys, `nova play` showed them as ^[[C
    screens = screens_of(games[24], ["\x1b[C", "\x1b[B", "\x1b[D", " "])

    first, right, down, left, stepped = ("\n".join(plain_lines(s)) for s in screens)
    assert "showing columns 6-17, rows 2-21 of 24x24" in first
    assert "showing columns 12-23, rows 2-21 of 24x24" in right
    assert "showing columns 12-23, rows 4-23 of 24x24" in down
    assert "showing columns 6-17, rows 4-23 of 24x24" in left
    assert "^[" not in "".join(screens)
    title = [line for line in plain_lines(screens[-1]) if line.startswith("Round ")][-1]
    assert "(2/" in title  # space: the next round, the view kept where the arrows put it
    assert "showing columns 6-17, rows 4-23 of 24x24" in stepped


def test_in_a_pipe_the_frame_is_plain_text_with_the_same_legend_and_panel(games):
    result = nova("play", "--file", games[12], "--round", 3)

    assert result.code == 0, result.err
    assert "\x1b[" not in result.out
    assert "players: a alice  b bob" in result.out
    assert "D building-4: 5m 1e" in result.out
    assert all(len(line) <= 80 for line in result.out.splitlines())

    # bob's android at launch: a two-digit position, full battery and health, none of it cut off
    launched = nova("play", "--file", games[12], "--round", 0)
    assert launched.code == 0, launched.err
    assert re.search(r" android-2 \(10,10\) hp 100\n.* {3}bat 100\n", launched.out)

    wide = nova("play", "--file", games[24], "--round", 3, "--at", "2,2")
    assert wide.code == 0, wide.err
    assert "showing columns 0-11, rows " in wide.out and "Ca" in wide.out
    assert nova("play", "--file", games[24], "--at", "two").code == 2
