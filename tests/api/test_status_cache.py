"""What the status cache must forget: a standing is remembered for the exact bytes of a file and
the exact code that scored it, and outlives neither. Each test makes the cache hold a standing,
then changes one thing it was computed with, and checks that the answer is the new truth."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nova_tools import api
from nova_tools.api import statuscache


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "status-cache"
    monkeypatch.setenv("NOVA_STATUS_CACHE", str(folder))
    return folder


def played(path: Path, rounds: int, seed: int = 3) -> Path:
    api.create_game(path, seed=seed)
    for player in ("ann", "bob"):
        script = api.upload_script(path, player, api.starter_entry()).script_id
        api.launch_android(path, player, script)
    api.run_rounds(path, rounds)
    return path


def truth(path: Path) -> dict:
    """The status read in full, bypassing the cache."""
    return api.status(path).to_json()


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, bytes]:
    """The same seed and scripts after 12 and after 40 rounds: files that begin alike."""
    folder = tmp_path_factory.mktemp("games")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NOVA_STATUS_CACHE", str(folder / "cache"))
        short = played(folder / "short.json", 12)
        long = played(folder / "long.json", 12)
        api.run_rounds(long, 28)
    return {"short": short.read_bytes(), "long": long.read_bytes()}


def test_a_file_replaced_by_a_longer_game_that_begins_alike_gets_its_own_standing(
    tmp_path, games
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(games["short"])
    first = statuscache.status_json(path)
    assert first == truth(path) and first["round"] == 12
    assert len(games["short"]) > 16384  # the two files share their whole beginning
    path.write_bytes(games["long"])  # not through the api: nothing told the cache
    second = statuscache.status_json(path)
    assert second == truth(path) and second["round"] == 40
    assert second["players"] != first["players"]


def test_the_same_size_and_time_with_other_bytes_is_another_file(tmp_path, games) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(games["short"])
    before = os.stat(path)
    statuscache.status_json(path)
    edited = games["short"].replace(b'"seed": 3', b'"seed": 4', 1)
    if edited == games["short"]:
        edited = games["short"].replace(b'"seed":3', b'"seed":4', 1)
    assert edited != games["short"] and len(edited) == len(games["short"])
    path.write_bytes(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert statuscache.status_json(path) == truth(path)


def test_a_standing_in_the_cache_is_used_only_for_the_bytes_it_was_kept_for(
    tmp_path, games
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(games["short"])
    forged = {**truth(path), "round": 999}
    statuscache.remember(games["short"], forged)
    assert statuscache.status_json(path)["round"] == 999  # the cache answers for these bytes...
    path.write_bytes(games["short"] + b"\n")  # ...and for no others
    assert statuscache.status_json(path)["round"] == 12


def test_any_change_to_the_code_that_scored_it_is_a_new_identity(tmp_path, monkeypatch) -> None:
    package = tmp_path / "package"
    (package / "engine").mkdir(parents=True)
    (package / "engine" / "scoring.py").write_text("POINTS = 4\n")
    (package / "api.py").write_text("")
    monkeypatch.setattr(statuscache, "PACKAGE", package)

    def identity() -> str:
        statuscache.code_identity.cache_clear()
        return statuscache.code_identity()

    seen = {identity()}
    (package / "engine" / "scoring.py").write_text("POINTS = 5\n")  # same size, a new time
    os.utime(package / "engine" / "scoring.py", ns=(1, 10**18))
    seen.add(identity())
    (package / "engine" / "rules_extra.py").write_text("")  # a new file in a sub-folder
    seen.add(identity())
    (package / "api.py").unlink()  # a file gone
    seen.add(identity())
    statuscache.code_identity.cache_clear()
    assert len(seen) == 4
