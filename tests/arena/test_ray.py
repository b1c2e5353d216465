"""The same games as Ray tasks, on a real local Ray instance with two CPUs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arena_scripts import HOARDER, STARTER, THROWER, without_timing
from nova_testing import nova


@pytest.mark.realpart
def test_a_local_ray_instance_gives_the_results_of_the_process_pool() -> None:
    args = ("compare", HOARDER, STARTER, "--seeds", "1-2", "--rounds", 15, "--json")
    pool = nova(*args, "--jobs", 2)
    ray = nova(*args, "--ray", "local", "--jobs", 2)
    assert pool.code == 0 and ray.code == 0, pool.err + ray.err
    pooled, rayed = json.loads(pool.out), json.loads(ray.out)
    assert rayed["games"] == 4 and rayed["complete"]
    assert without_timing(rayed) == without_timing(pooled)
    assert rayed["timing"]["where"] == "on a local Ray instance (2 CPUs)"
    assert pooled["timing"]["where"] == "on 2 local worker processes"


def test_an_unreachable_ray_cluster_is_one_sentence_at_once() -> None:
    run = nova("compare", THROWER, THROWER, "--seeds", "1", "--rounds", 2, "--ray", "127.0.0.1:1")
    assert run.code == 1
    assert (
        run.err.strip()
        == "nova compare: cannot reach the Ray cluster at '127.0.0.1:1' (Connection refused)"
    )
    run = nova("compare", THROWER, THROWER, "--seeds", "1", "--rounds", 2, "--ray", "nowhere")
    assert run.code == 1 and "is not a Ray address" in run.err


@pytest.mark.realpart
def test_sigterm_stops_a_local_ray_run_like_ctrl_c_and_leaves_no_ray_behind(tmp_path) -> None:
    """`timeout` or `kill` on `nova compare --ray local`: Ray's own SIGTERM handler used to end the
    command at once with a C++ stack dump on stderr; it is the command's again, so the report of
    the games played comes out and the local instance is shut down."""
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
            "--ray",
            "local",
            "--jobs",
            "2",
            "--out",
            str(out),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not (
        out.exists() and any(p.suffix == ".json" for p in out.iterdir())
    ):
        time.sleep(0.2)
    proc.terminate()
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 143, stderr
    report = json.loads(stdout)
    assert not report["complete"] and 1 <= report["games"] < 60
    *progress, last = stderr.strip().splitlines()  # in a pipe: a line per finished game first
    assert all(re.match(r"\d+/60 games done, ", line) for line in progress), stderr
    assert (
        last
        == f"nova compare: terminated after {report['games']} of 60 games; the report covers those"
    )
    # Ray's processes (raylet, GCS, workers) live in the command's session: none is left
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _session_alive(proc.pid):
        time.sleep(0.2)
    assert not _session_alive(proc.pid)


def _session_alive(session: int) -> bool:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == session:
                    return True
            except ProcessLookupError:
                continue
    return False


@pytest.fixture
def token_cluster(tmp_path):
    """A real local Ray cluster from `ray start` on a machine with `~/.ray/auth_token` (so, with
    Ray 2.60, token authentication on), under a home of its own: the user's `~/.ray` is never
    touched. Its processes are found by its own temp folder and ended by id afterwards."""
    import secrets
    import shutil
    import signal
    import socket

    ray_cli = shutil.which("ray", path=os.path.dirname(sys.executable))
    if ray_cli is None:
        pytest.skip("the ray command is not installed (the dev extra)")
    home = tmp_path / "home"
    (home / ".ray").mkdir(parents=True)
    (home / ".ray" / "auth_token").write_text(secrets.token_hex(32) + "\n")
    import tempfile

    # short: Ray's socket paths must stay under 108 bytes, which a pytest folder is not
    temp = Path(tempfile.mkdtemp(prefix="nray-", dir="/tmp"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")} | {"HOME": str(home)}
    started = subprocess.run(
        [ray_cli, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port)]
        + ["--num-cpus", "1", "--include-dashboard", "false", "--disable-usage-stats"]
        + ["--temp-dir", str(temp)],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    try:
        assert started.returncode == 0, started.stdout[-2000:] + started.stderr[-2000:]
        yield {"address": f"127.0.0.1:{port}", "home": home, "env": env}
    finally:
        found = subprocess.run(["pgrep", "-f", str(temp)], capture_output=True, text=True)
        for pid in map(int, found.stdout.split()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.realpart
def test_a_cluster_with_token_authentication_plays_or_says_it_wants_the_token(token_cluster):
    args = ("compare", HOARDER, THROWER, "--seeds", "1", "--rounds", 3, "--ray")
    # The machine that started it has the token: the client follows (RAY_AUTH_MODE=token).
    played = nova(*args, token_cluster["address"], "--json", env=token_cluster["env"])
    assert played.code == 0, played.err
    assert json.loads(played.out)["games"] == 2

    # Another home, with no token: one sentence naming the token, within 10 s, no Ray log lines.
    stranger = token_cluster["home"].parent / "stranger"
    stranger.mkdir()
    start = time.monotonic()
    refused = nova(
        *args, token_cluster["address"], env={**token_cluster["env"], "HOME": str(stranger)}
    )
    took = time.monotonic() - start
    assert refused.code == 1
    assert refused.err.strip() == (
        f"nova compare: the Ray cluster at '{token_cluster['address']}' wants a token (token "
        "authentication is on); give its token (`ray get-auth-token` on the head node prints it) "
        "in ~/.ray/auth_token or RAY_AUTH_TOKEN, with RAY_AUTH_MODE=token"
    )
    assert took < 10, took
