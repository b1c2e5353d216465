"""The same games as Ray tasks, on a real local Ray instance with two CPUs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

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
    assert (
        stderr.strip()
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
