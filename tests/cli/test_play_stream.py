"""`nova play` in a pipe streams: each round is printed and let go, so a long game's peak memory
stays near a short one's (it once held every round's frame before writing the first)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from nova_testing import nova

ROUNDS = 2000
# What the child may hold at its peak: the interpreter, the loaded game and one frame. Holding
# every frame of this game, as before, peaked at ~240 MiB; streaming it peaks near 40 MiB.
PEAK_MIB = 100

# Runs `nova play` in a pipe and prints the child's peak resident memory in KiB (Linux counts
# ru_maxrss in KiB), read from this wrapper's own children, so nothing else the test ran counts.
MEASURE = """
import resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "nova_tools.cli", *sys.argv[1:]], stdout=subprocess.PIPE)
sys.stdout.write(done.stdout.decode("utf-8"))
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def long_game(folder: Path) -> Path:
    """Two players who joined and never launched: 2,000 rounds played in a moment, every one a
    whole board to draw."""
    path = folder / "long.json"
    script = folder / "wait.ts"
    script.write_text(
        'export default (() => ({ type: "android.wait" })) as AndroidTurn;\n', encoding="utf-8"
    )
    assert nova("create-game", "--file", path, "--final-round", ROUNDS).code == 0
    for player in ("alice", "bob"):
        uploaded = nova("upload", "--file", path, "--player", player, script)
        assert uploaded.code == 0, uploaded.err
    ran = nova("run", "--file", path, "--rounds", ROUNDS)
    assert ran.code == 0, ran.err
    return path


def test_a_long_game_in_a_pipe_is_printed_round_by_round_in_bounded_memory(tmp_path: Path):
    path = long_game(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, "play", "--file", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    *frames, last = done.stdout.rstrip("\n").split("\n")
    code, peak_kib = map(int, last.split())
    assert code == 0, done.stderr
    headers = [line for line in frames if line.startswith("Round ")]
    assert len(headers) == ROUNDS + 1
    assert headers[0].startswith(f"Round 0  (0/{ROUNDS})")
    assert headers[-1].startswith(f"Round {ROUNDS}  ({ROUNDS}/{ROUNDS})")
    assert peak_kib < PEAK_MIB * 1024, f"nova play peaked at {peak_kib / 1024:.0f} MiB"


def test_one_round_of_a_long_game_is_the_same_frame_as_in_the_whole_stream(tmp_path: Path):
    path = long_game(tmp_path)
    whole = nova("play", "--file", path)
    one = nova("play", "--file", path, "--round", 1234)
    assert whole.code == 0 and one.code == 0, (whole.err, one.err)
    frame = one.out.rstrip("\n")
    assert frame.startswith(f"Round 1234  (1234/{ROUNDS})")
    assert "\n\n" + frame + "\n\n" in whole.out
    missing = nova("play", "--file", path, "--round", ROUNDS + 1)
    assert missing.code == 1
    assert (
        missing.err.strip()
        == f"nova play: {path} has no round {ROUNDS + 1} (it has rounds 0-{ROUNDS})"
    )
