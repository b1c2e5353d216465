"""The same games as Ray tasks, on a real local Ray instance with two CPUs."""

from __future__ import annotations

import json

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
    assert run.err.strip() == "nova compare: cannot reach the Ray cluster at '127.0.0.1:1' (Connection refused)"
    run = nova("compare", THROWER, THROWER, "--seeds", "1", "--rounds", 2, "--ray", "nowhere")
    assert run.code == 1 and "is not a Ray address" in run.err
