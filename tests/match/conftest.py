from collections.abc import Iterator

import pytest
from match_testing import Process


@pytest.fixture(autouse=True)
def no_process_outlives_its_test() -> Iterator[None]:
    yield
    while Process.running:
        process = Process.running.pop()
        if process.alive():
            process.kill_and_collect()
