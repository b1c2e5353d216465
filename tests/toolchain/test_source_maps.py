"""The bundle's source map: what it holds, what the game file keeps of it, and what it answers.

The map is made by esbuild beside every bundle, compacted (a segment the previous one on its line
predicts is left out), named by the player's relative file names and never by a machine path, and
kept in the game file's script entry. A game file without maps (older, or a peer's script) and a
damaged map still play: a position that cannot be mapped keeps the bundle's line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from nova_testing import THROWER_FILES, write_files

from nova_tools import api, starter
from nova_tools.toolchain.bundle import ESBUILD_FLAGS, bundle_file, bundle_sources
from nova_tools.toolchain.paths import ESBUILD
from nova_tools.toolchain.sourcemap import Place, SourceMap, compact


def test_the_map_names_the_players_files_and_holds_no_source_text():
    bundle = bundle_sources(THROWER_FILES, "main.ts")

    assert bundle.source_map["sources"] == ["lib/nav.ts", "main.ts"]
    assert "sourcesContent" not in bundle.source_map
    assert (
        "sourceMappingURL" not in bundle.code
    )  # the bundle's bytes are what they were without a map
    line = next(
        i for i, text in enumerate(bundle.code.splitlines(), 1) if "throw new Error" in text
    )
    assert SourceMap(bundle.source_map).place(
        line, bundle.code.splitlines()[line - 1].index("throw") + 1
    ) == Place("lib/nav.ts", 4, 5)


def test_a_project_on_disk_is_named_from_the_entrys_folder_even_outside_it(tmp_path):
    write_files(tmp_path / "shared", {"nav.ts": THROWER_FILES["lib/nav.ts"]})
    entry = (
        write_files(
            tmp_path / "bot",
            {"main.ts": THROWER_FILES["main.ts"].replace("./lib/nav", "../shared/nav")},
        )
        / "main.ts"
    )

    sources = bundle_file(entry).source_map["sources"]

    assert sources == ["../shared/nav.ts", "main.ts"]
    assert str(tmp_path) not in json.dumps(sources)


def test_the_compact_map_names_the_same_file_and_line_as_the_whole_map_for_every_position(tmp_path):
    """The starter's map shrinks to a fifth; every position keeps its file and line, and its
    column moves at most back to where that line's code starts in the bundle."""
    root = write_files(tmp_path / "starter", starter.files())
    out = tmp_path / "out" / "bundle.js"
    subprocess.run(
        [
            str(ESBUILD.require()),
            "./main.ts",
            *ESBUILD_FLAGS,
            "--sourcemap=external",
            "--sources-content=false",
            f"--outfile={out}",
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )
    whole = json.loads(out.with_name("bundle.js.map").read_text())
    small = compact(whole)
    lines = SourceMap(whole)._decoded()

    assert len(small["mappings"]) < 0.3 * len(whole["mappings"])
    asked = [
        (n, column + 1 + step)
        for n, (columns, _) in enumerate(lines, 1)
        for column in columns
        for step in (0, 1, 3)
    ]
    assert len(asked) > 10_000
    whole_map, small_map = SourceMap(whole), SourceMap(small)  # each decoded once
    exact, compacted = (
        [whole_map.place(*at) for at in asked],
        [small_map.place(*at) for at in asked],
    )
    assert [(p.file, p.line) for p in compacted] == [(p.file, p.line) for p in exact]
    assert all(c.column <= e.column for c, e in zip(compacted, exact, strict=True))


@pytest.mark.parametrize(
    "damaged",
    [
        {"mappings": "AAAA;;;!!!", "sources": ["main.ts"]},  # not Base64
        {"mappings": "AAAAg", "sources": ["main.ts"]},  # a number cut off
        {"mappings": "AAAA", "sources": "main.ts"},  # sources not a list
        {"mappings": "AgBAA", "sources": ["main.ts"]},  # names a source (16) that is not there
        {"sources": ["main.ts"]},
        "not a map",
    ],
)
def test_a_damaged_map_answers_nothing_rather_than_raising(damaged):
    assert SourceMap(damaged).place(1, 1) is None


def _game_with_the_thrower(tmp_path: Path, rounds: int = 1) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    game = tmp_path / "game.json"
    api.create_game(game, seed=3)
    script = api.upload_script(game, "p", files=THROWER_FILES, entry_name="main.ts").script_id
    api.launch_android(game, "p", script)
    api.run_rounds(game, rounds)
    return game


def _reasons(game: Path) -> list[str]:
    return [e.to_json()["reason"] for e in api.events_page(game, failed_only=True).events]


def test_the_game_file_keeps_the_map_and_logs_the_players_place(tmp_path):
    game = _game_with_the_thrower(tmp_path)
    stored = json.loads(game.read_text())["scripts"]["script-1"]

    assert stored["sourceMap"]["sources"] == ["lib/nav.ts", "main.ts"]
    [reason] = _reasons(game)
    assert " at lib/nav.ts:4:" in reason and ", called from act at main.ts:4:" in reason


@pytest.mark.parametrize("how", ["left out (an older game file)", "damaged"])
def test_a_script_kept_without_a_usable_map_plays_on_and_names_the_bundles_line(tmp_path, how):
    game = _game_with_the_thrower(tmp_path)
    data = json.loads(game.read_text())
    if how == "damaged":
        data["scripts"]["script-1"]["sourceMap"] = {"version": 3, "sources": 5, "mappings": "%%"}
    else:
        del data["scripts"]["script-1"]["sourceMap"]
    game.write_text(json.dumps(data))

    api.run_rounds(game, 1)

    first, second = _reasons(game)
    assert " at lib/nav.ts:4:" in first
    assert (
        second.startswith("threw Error: no way north in round 2 at line ")
        and "nav.ts" not in second
    )


def test_maps_keep_a_game_deterministic(tmp_path):
    one = _game_with_the_thrower(tmp_path / "one", rounds=3)
    two = _game_with_the_thrower(tmp_path / "two", rounds=3)

    assert one.read_bytes() == two.read_bytes()
