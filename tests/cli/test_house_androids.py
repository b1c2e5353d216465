"""The house androids by name (``house:NAME``) wherever the CLI takes a script: `nova compare`,
`nova tournament`, `nova host`/`join` and `nova new-android --from`, with real processes; and an
unknown name is one sentence that lists the house androids, with nothing written."""

from __future__ import annotations

import json

import pytest
from match_testing import game_json, no_traceback, start_host, start_join
from nova_testing import REPO, nova

from nova_tools.starter.house import ROSTER, names
from nova_tools.toolchain import typecheck_project

STARTER = REPO / "nova_tools" / "starter" / "src" / "main.ts"
LISTED = ", ".join(names())


def test_house_starter_is_the_starter_and_keeps_its_name_in_the_report() -> None:
    by_name = nova("compare", "house:starter", STARTER, "--seeds", 1, "--rounds", 12, "--json")
    assert by_name.code == 0, by_name.err
    report = json.loads(by_name.out)
    assert [s["name"] for s in report["scripts"]] == ["house:starter", "starter"]
    # the same script on both sides: the same scores in both seat orders
    assert [r["scores"][0] == r["scores"][1] for r in report["results"]] == [True, True]


def test_a_tournament_takes_house_androids_by_name() -> None:
    last = names()[-1]
    ran = nova("tournament", "house:starter", last, STARTER, "--seeds", 1, "--rounds", 5, "--json")
    assert ran.code == 0, ran.err
    ranked = {entry["name"] for entry in json.loads(ran.out)["ranking"]}
    assert {"house:starter", "starter"} <= ranked and (last in ranked or f"{last}#2" in ranked)


@pytest.mark.parametrize(
    "command",
    [
        ("compare", "house:nobody", STARTER),
        ("tournament", STARTER, "house:nobody"),
        ("host", "--rounds", 3, "--player", "p", "house:nobody", "--file", "m.json"),
        ("join", "ws://127.0.0.1:9", "--player", "p", "house:nobody", "--file", "m.json"),
        ("new-android", "bot", "--from", "house:nobody"),
    ],
    ids=lambda c: c[0],
)
def test_an_unknown_house_android_is_one_sentence_listing_them(tmp_path, command) -> None:
    ran = nova(*command, cwd=tmp_path)
    assert ran.code != 0 and ran.out == ""
    no_traceback(ran)
    assert ran.err.strip() == (
        f"nova {command[0]}: there is no house android 'house:nobody'; the house androids are {LISTED}"
    )
    assert list(tmp_path.iterdir()) == []  # no game file, no project folder


@pytest.mark.parametrize("android", ROSTER, ids=lambda a: a.name)
def test_new_android_from_a_house_android_scaffolds_its_sources_and_type_checks(
    tmp_path, android
) -> None:
    project = tmp_path / "bot"
    made = nova("new-android", project, "--from", android.ref)
    assert made.code == 0, made.err
    assert f"from {android.ref}" in made.out
    written = {p.name: p.read_text(encoding="utf-8") for p in (project / "src").glob("*.ts")}
    assert written == android.files()
    # its own README first (what it changes, and why), then the starter's for the other files
    readme = (project / "README.md").read_text(encoding="utf-8")
    starter = (REPO / "nova_tools" / "starter" / "README.md").read_text(encoding="utf-8")
    if android.name == "starter":
        assert readme == starter
    else:
        assert readme.startswith(f"# {android.ref}: ") and readme.endswith("\n---\n\n" + starter)
        own = readme[: -len(starter)]
        assert "`src/raid.ts`" in own and "(its README follows)" in own
    assert typecheck_project(project) == []
    ran = nova("dry-run", project / "src" / "main.ts", "--json")
    assert ran.code == 0 and json.loads(ran.out)["accepted"] is True, ran.out


def test_a_peer_match_between_two_house_androids(tmp_path) -> None:
    champion = names()[-1]
    host, url = start_host(
        tmp_path,
        "--rounds",
        8,
        "--player",
        "alice",
        champion,
        "--file",
        "alice.json",
        "--wait",
        60,
    )
    join = start_join(tmp_path, url, "--player", "bob", "house:starter", "--file", "bob.json")
    joined, hosted = join.finish(), host.finish()
    no_traceback(joined, hosted)
    assert hosted.code == 0 and joined.code == 0, hosted.err + joined.err
    alice, bob = game_json(tmp_path / "alice.json"), game_json(tmp_path / "bob.json")
    alice.pop("match"), bob.pop("match")
    assert alice == bob
    status = nova("status", "--file", tmp_path / "alice.json", "--json")
    assert status.code == 0 and json.loads(status.out)["round"] == 8, status.err


def test_upload_takes_a_house_android_by_name_and_refuses_an_unknown_one_untouched(
    tmp_path,
) -> None:
    game = tmp_path / "g.json"
    assert nova("create-game", "--file", game, "--seed", 3).code == 0
    last = names()[-1]
    uploaded = nova("upload", "--file", game, "--player", "me", last, "--json")
    assert uploaded.code == 0, uploaded.err
    script = json.loads(uploaded.out)["scriptId"]
    assert nova("launch", "--file", game, "--player", "me", "--script", script).code == 0
    assert nova("run", "--file", game, "--rounds", 3).code == 0
    stored = json.loads(game.read_text(encoding="utf-8"))
    assert [s["name"] for s in stored["scripts"].values()] == [last]
    before = game.read_bytes()
    refused = nova("upload", "--file", game, "--player", "me", "house:nobody")
    assert refused.code != 0 and refused.out == ""
    no_traceback(refused)
    assert refused.err.strip() == (
        f"nova upload: there is no house android 'house:nobody'; the house androids are {LISTED}"
    )
    assert game.read_bytes() == before
