"""`nova compare` as a player runs it: real processes, real scripts, real worker pools."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arena_scripts import HOARDER, STARTER, STARTER_V1, THROWER, without_timing
from nova_testing import nova


def compare_json(*args: object) -> dict:
    run = nova("compare", *args, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


@pytest.fixture(scope="module")
def starter_mirror() -> tuple[dict, dict]:
    """The starter against itself over 4 seeds, with one worker and with two."""
    args = (STARTER, STARTER, "--seeds", "1-4", "--rounds", 30)
    return compare_json(*args, "--jobs", 1), compare_json(*args, "--jobs", 2)


def test_the_starter_against_itself_plays_8_games_with_equal_mean_scores(starter_mirror) -> None:
    report, _ = starter_mirror
    assert report["games"] == 8 and report["complete"]
    assert [r["seed"] for r in report["results"]] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [r["seats"] for r in report["results"][:2]] == [
        ["starter", "starter#2"],
        ["starter#2", "starter"],
    ]
    a, b = report["scripts"]
    assert (a["name"], b["name"]) == ("starter", "starter#2")
    assert (
        a["meanScore"] == b["meanScore"] > 4
    )  # identical scripts, both seat orders, and they build
    assert (
        a["wins"] == b["wins"]
        and a["losses"] == b["losses"]
        and a["draws"] == b["draws"] == report["draws"]
    )
    # the same script twice makes the same moves from each seat: the report says so, not "+0.00"
    assert report["difference"]["mean"] == 0 and report["verdict"] == (
        "the games were identical in both seat orders (the two scripts made the same moves)"
    )
    assert report["map"] == {"width": 12, "height": 12, "symmetry": "rotational"}
    # single games say little: the seats fared differently on some seed, and the report says so
    assert any(r["scores"][0] != r["scores"][1] for r in report["results"])
    swing = next(w for w in report["warnings"] if "favours one seat" in w)
    # the warning blames the map, and its two scores are that script's, seated first and second
    found = re.match(
        r"seed (\d+)'s map favours one seat: the same (\S+) scored (\S+) seated first and (\S+) "
        r"seated second",
        swing,
    )
    assert found, swing
    seed, name = int(found[1]), found[2]
    games = [r for r in report["results"] if r["seed"] == seed]
    first = next(r["scores"][0] for r in games if r["seats"][0] == name)
    second = next(r["scores"][1] for r in games if r["seats"][1] == name)
    assert (float(found[3]), float(found[4])) == (first, second) and first != second


def test_the_report_is_the_same_with_one_worker_or_two(starter_mirror) -> None:
    one, two = starter_mirror
    assert without_timing(one) == without_timing(two)
    assert (one["timing"]["workers"], two["timing"]["workers"]) == (1, 2)


def test_a_script_that_beats_another_wins_with_an_interval_that_excludes_zero() -> None:
    """The starter against the one it replaced (bench/androids/starter-v1), which builds later and
    leaves half-paid sites: over 40-round games the starter outscores it."""
    report = compare_json(STARTER, STARTER_V1, "--seeds", "1-8", "--rounds", 40, "--jobs", 2)
    starter, old = report["scripts"]
    assert report["games"] == 16 and (starter["name"], old["name"]) == ("starter", "starter-v1")
    assert starter["wins"] > old["wins"] and starter["meanScore"] > old["meanScore"]
    difference = report["difference"]
    assert difference["of"] == "starter - starter-v1" and difference["seeds"] == 8
    assert (
        0 < difference["low"] < difference["mean"] < difference["high"]
        and difference["excludesZero"]
    )
    assert report["verdict"] == "starter scores more than starter-v1"


def test_a_script_that_throws_every_turn_loses_every_game_and_its_failures_are_counted(
    tmp_path,
) -> None:
    # health 100, 10 per failed turn: each game's android fails 10 turns, then it is a wreck
    report = compare_json(THROWER, STARTER, "--seeds", "1-2", "--rounds", 40, "--jobs", 2)
    thrower, starter = report["scripts"]
    assert (thrower["wins"], thrower["draws"], thrower["losses"]) == (0, 0, 4)
    assert thrower["failedTurnsByReason"] == {"script-error": 40} and starter["failedTurns"] == 0
    assert all(r["winner"] == "starter" for r in report["results"])
    assert [r["failedTurns"] for r in report["results"]] == [[10, 0], [0, 10], [10, 0], [0, 10]]


def test_kept_game_files_replay_with_the_reported_scores(tmp_path) -> None:
    out = tmp_path / "games"
    report = compare_json(
        HOARDER, THROWER, "--seeds", "3", "--rounds", 12, "--jobs", 1, "--out", out
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "seed-3-hoarder-vs-thrower.json",
        "seed-3-thrower-vs-hoarder.json",
    ]
    for result in report["results"]:
        status = nova("status", "--file", result["file"], "--json")
        assert status.code == 0, status.err
        data = json.loads(status.out)
        assert data["round"] == 12 and data["finalTurn"] == 12
        # each seat's player is named after its script
        assert [p["id"] for p in data["players"]] == list(result["seats"])
        assert [p["score"] for p in data["players"]] == result["scores"]
    # and `nova play` draws them
    played = nova("play", "--file", report["results"][0]["file"], "--round", 12)
    assert played.code == 0 and "Round 12" in played.out


def test_the_text_report_names_the_verdict_and_the_seeds_that_differ_most() -> None:
    run = nova("compare", HOARDER, THROWER, "--seeds", "1-2", "--rounds", 20, "--jobs", 2)
    assert run.code == 0, run.err
    lines = run.out.splitlines()
    assert (
        lines[0]
        == "hoarder vs thrower: 4 games (2 seeds x 2 seat orders, 20 rounds, rotational 12x12 maps)"
    )
    rows = {line.split()[0]: line for line in lines[3:5]}  # after the header and its rule
    assert rows["hoarder"].split()[1:4] == ["4", "0", "0"]  # wins, draws, losses
    assert rows["thrower"].split()[1:4] == ["0", "0", "4"] and rows["thrower"].endswith(
        "40 (script-error 40)"
    )
    assert any(line.startswith("hoarder - thrower: +") and "95% interval" in line for line in lines)
    assert any(line.startswith("Seeds that differ most: ") for line in lines)
    assert any(line.startswith("warning: only 2 seed(s)") for line in lines)
    assert lines[-1].startswith("Played on 2 local worker processes in ")
    # in a pipe, no bar but a line per finished game on stderr, so a slow run never looks hung
    progress = run.err.splitlines()
    assert [line.split(" games done")[0] for line in progress] == ["1/4", "2/4", "3/4", "4/4"]
    assert progress[0].endswith(" left") and progress[-1].endswith(" s")


def test_two_scripts_that_make_the_same_moves_are_said_to_have_played_identical_games(
    tmp_path,
) -> None:
    # the same android written differently (indented) is a different script with the same moves
    twin = tmp_path / "twin.ts"
    twin.write_text("".join("  " + line for line in HOARDER.read_text().splitlines(keepends=True)))
    run = nova("compare", HOARDER, twin, "--seeds", "1-2", "--rounds", 10)
    assert run.code == 0, run.err
    assert (
        "hoarder - twin: the games were identical in both seat orders (the two scripts made the "
        "same moves), so there is no difference to measure." in run.out.splitlines()
    )
    assert "no clear difference" not in run.out and "+0.00" not in run.out


def without_progress(stderr: str) -> str:
    """stderr less the progress lines a pipe gets, one per finished game."""
    return "".join(
        line for line in stderr.splitlines(keepends=True) if not PROGRESS_LINE.match(line)
    )


PROGRESS_LINE = re.compile(r"\d+/\d+ games done, ")


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ("--seeds", "9-2"),
            "nova compare: the seed range '9-2' must run upwards, from 0 to 2^63 - 1",
        ),
        (("--jobs", "0"), "nova compare: --jobs must be at least 1, not 0"),
        (("--rounds", "0"), "nova compare: the number of rounds must be from 1 to 100000, not 0"),
    ],
)
def test_bad_options_are_one_sentence(args, message) -> None:
    run = nova("compare", THROWER, THROWER, *args)
    assert run.code == 1 and run.err.strip() == message


def test_a_script_that_does_not_compile_or_exist_is_one_sentence(tmp_path) -> None:
    broken = tmp_path / "broken.ts"
    broken.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.fly' });\nexport default t;\n"
    )
    run = nova("compare", broken, THROWER, "--seeds", "1")
    assert (
        run.code == 1
        and "broken.ts" in run.err
        and "Traceback" not in run.err
        and len(run.err.strip().splitlines()) <= 3
    )
    run = nova("compare", tmp_path / "missing.ts", THROWER)
    assert (
        run.code == 1
        and run.err.strip() == f"nova compare: the script {tmp_path / 'missing.ts'} does not exist"
    )
    run = nova("compare", THROWER)
    assert run.code == 2 and "exactly two scripts" in run.err


@pytest.mark.parametrize(
    "how",
    [
        pytest.param("ctrl-c", id="ctrl-c"),
        # what `timeout`, `kill` or a cancelled CI job sends, to the command alone
        pytest.param("sigterm", id="sigterm"),
    ],
)
def test_ctrl_c_stops_cleanly_and_reports_the_games_played(tmp_path, how: str) -> None:
    out = tmp_path / "games"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nova_tools.cli",
            "compare",
            str(STARTER),
            str(STARTER),
            "--seeds",
            "1-30",
            "--rounds",
            "40",
            "--jobs",
            "2",
            "--out",
            str(out),
        ]
        + (["--json"] if how == "ctrl-c" else []),  # the report in JSON, or in words
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job has
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (
        out.exists() and any(p.suffix == ".json" for p in out.iterdir())
    ):
        time.sleep(0.2)
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: SIGINT to the whole foreground group
    else:
        proc.terminate()
    stdout, stderr = proc.communicate(timeout=60)
    stderr = without_progress(stderr)
    assert proc.returncode == (130 if how == "ctrl-c" else 143), stderr
    assert (
        "Traceback" not in stderr and "KeyboardInterrupt" not in stderr and "leaked" not in stderr
    )
    said = "interrupted" if how == "ctrl-c" else "terminated"
    games = int(stderr.split(" after ")[1].split()[0])
    assert 1 <= games < 60
    assert (
        stderr.strip() == f"nova compare: {said} after {games} of 60 games; the report covers those"
    )
    if how == "ctrl-c":
        report = json.loads(stdout)
        assert not report["complete"] and report["planned"] == 60 and report["games"] == games
        assert report["warnings"][0] == f"interrupted: {games} of 60 games were played"
    else:  # the report in words says how many of the planned games it covers
        lines = stdout.splitlines()
        assert (
            lines[0]
            == f"starter vs starter#2: {games} of 60 games (30 seeds x 2 seat orders, 40 rounds, rotational 12x12 maps)"
        )
        assert f"warning: interrupted: {games} of 60 games were played" in lines

    # no worker is left behind
    def group_alive() -> bool:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 10
    while group_alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not group_alive()
    # every finished game was kept whole; nothing half-written
    kept = sorted(p.name for p in out.iterdir())
    assert all(name.endswith(".json") and not name.startswith(".") for name in kept)
    assert len(kept) >= games


def test_a_terminal_shows_games_done_and_an_eta() -> None:
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command, in a real terminal
        os.execv(
            sys.executable,
            [
                sys.executable,
                "-m",
                "nova_tools.cli",
                "compare",
                str(THROWER),
                str(THROWER),
                "--seeds",
                "1-2",
                "--rounds",
                "3",
                "--jobs",
                "1",
            ],
        )
    data = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        data += chunk
    _, status = os.waitpid(pid, 0)
    text = data.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "1/4 games  ETA 0:" in text and "4/4 games" in text
    assert "thrower vs thrower#2: 4 games" in text


def test_a_worker_killed_mid_run_ends_the_comparison_in_one_sentence(tmp_path) -> None:
    """A worker that dies (the OOM killer, a kill -9) used to leave `nova compare` waiting forever
    for the game it was playing (multiprocessing.Pool never notices); now it ends at once."""
    out = tmp_path / "games"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nova_tools.cli",
            "compare",
            str(STARTER),
            str(STARTER),
            "--seeds",
            "1-30",
            "--rounds",
            "40",
            "--jobs",
            "2",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (
        out.exists() and any(p.suffix == ".json" for p in out.iterdir())
    ):
        time.sleep(0.2)
    workers = [
        pid
        for pid in _children(proc.pid)
        if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    ]
    assert workers, "no worker process found"
    os.kill(workers[0], signal.SIGKILL)
    try:
        stdout, stderr = proc.communicate(timeout=60)
        stderr = without_progress(stderr)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(
            "nova compare still waits for the game of a worker that died"
        ) from None
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr and stdout == ""
    assert re.fullmatch(
        r"nova compare: a worker process ended abruptly \(killed, or out of memory\) after \d+ of 60 games; "
        r"nothing was reported \(the games finished so far are in --out, if given\)",
        stderr.strip(),
    ), stderr
    # no process of the command's session is left (the surviving worker was stopped too)
    deadline = time.monotonic() + 10
    while _session(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _session(proc.pid)


def _session(sid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == sid:
                    found.append(int(entry))
            except ProcessLookupError:
                continue
    return found


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def test_detail_prints_every_game_and_adds_its_facts_to_the_json(tmp_path) -> None:
    args = (THROWER, STARTER, "--seeds", "1", "--rounds", 40, "--jobs", 1)
    shown = nova("compare", *args, "--detail")
    assert shown.code == 0, shown.err
    assert "Every game (first seat / second seat):" in shown.out
    assert re.search(r"^\s*1\s+thrower vs starter\s+\S+ / \S+", shown.out, re.M)
    assert "script-error 10 / 0" in shown.out
    plain = compare_json(*args)
    detailed = compare_json(*args, "--detail")
    first = detailed["results"][0]
    assert first["margin"] == first["scores"][0] - first["scores"][1]
    assert first["failedByReason"] == [{"script-error": 10}, {}]
    assert first["players"] == ["thrower", "starter"]
    assert len(first["firstExtractor"]) == 2
    # without --detail, the documented shape as it was
    assert set(plain["results"][0]) == {
        "seed",
        "seats",
        "scores",
        "winner",
        "failedTurns",
        "stateHash",
    }
