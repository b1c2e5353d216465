"""One declaration of the house androids: each is the starter's sources with a few files of its
own in place of the starter's (its raid.ts, and the champion's defence.ts), so a fix to the
starter reaches every one of them."""

from __future__ import annotations

import dataclasses
import shutil

import pytest

from nova_tools.starter.house import ROSTER, STARTER_SOURCES, house

RAIDERS = [a for a in ROSTER if a.name != "starter"]
#: The files a house android may have of its own: the starter's two hooks for them.
OWN = {"raid.ts", "defence.ts"}


@pytest.mark.parametrize("android", RAIDERS, ids=lambda a: a.name)
def test_a_house_android_is_the_starters_sources_but_its_own_few(android) -> None:
    own = {p.name for p in android.folder.glob("*.ts")}
    assert "raid.ts" in own and own <= OWN
    starter = house("house:starter").files()
    mine = android.files()
    assert list(mine)[0] == "main.ts" and set(mine) == set(starter)  # replaces, never adds
    assert {n for n in mine if mine[n] != starter[n]} == own
    assert "RAID_ROUNDS: number = 0;" in starter["raid.ts"]
    assert "RAID_ROUNDS: number = 0;" not in mine["raid.ts"]


def test_only_the_champion_defends_beyond_the_starter() -> None:
    assert [a.name for a in RAIDERS if (a.folder / "defence.ts").is_file()] == ["champion"]
    # the starter's hooks do nothing: no decoy duty, the build order as it is
    hooks = (STARTER_SOURCES / "defence.ts").read_text(encoding="utf-8")
    assert "export const prepare: Duty = () => undefined;" in hooks
    assert "return order;" in hooks


def test_a_change_to_the_starter_reaches_the_house_androids_on_disk(tmp_path) -> None:
    fixed = tmp_path / "src"
    shutil.copytree(STARTER_SOURCES, fixed)
    (fixed / "log.ts").write_text(
        "// fixed: ünïcode\n" + (fixed / "log.ts").read_text("utf-8"), "utf-8"
    )
    champion = dataclasses.replace(house("house:champion"), made_of=fixed)
    entry = champion.entry_path
    assert (entry.parent / "log.ts").read_text("utf-8").startswith("// fixed: ünïcode")
    assert (entry.parent / "raid.ts").read_text("utf-8") == champion.files()["raid.ts"]
    assert entry.name == "main.ts" and champion.entry_path == entry  # written once, then reused
    assert house("house:champion").entry_path.parent != entry.parent  # one folder per content
