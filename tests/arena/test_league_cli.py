"""`nova league` through the real CLI: add, play only what is missing, survive kill -9 and SIGTERM,
two runs at once, and a table that does not depend on where the games ran."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from arena_scripts import HOARDER, STARTER_V1, THROWER
from nova_testing import nova, sha

QUICK = ("--seeds", "1-2", "--rounds", "10")
# throws, but only from its second round on: a different bundle from the thrower
LATE_THROWER = """\
const late: AndroidTurn = () => {
  if (world.round > 1) throw new Error('from round 2 this android fails');
  return { type: 'android.wait' };
};
export default late;
"""


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A league of four entries, none of their games played (each test plays a copy)."""
    league = tmp_path_factory.mktemp("four") / "ligue-été.league"  # non-ASCII, file and entries
    for name, script in (
        ("starter", "house:starter"),
        ("lanceur", THROWER),
        ("hoarder", HOARDER),
        ("starter-v1", STARTER_V1),
    ):
        run = nova("league", "add", "--league", league, name, script)
        assert run.code == 0, run.err
    return league


@pytest.fixture
def league_of_four(four: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(four, tmp_path / four.name))


def _table(league: Path) -> dict:
    run = nova("league", "table", "--league", league, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def _play(league: Path, *more: object) -> dict:
    run = nova("league", "play", "--league", league, *QUICK, *more, "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def _done_games(league: Path) -> list[tuple]:
    with sqlite3.connect(league) as db:
        return db.execute(
            "SELECT first, second, seed, rounds FROM games WHERE state = 'done'"
        ).fetchall()


def test_adding_a_version_to_a_league_of_four_plays_only_its_pairings(
    league_of_four: Path, tmp_path: Path
) -> None:
    league = league_of_four
    first = _play(league, "--jobs", "2")
    # 6 pairs x 2 seeds x 2 seat orders
    assert (first["wanted"], first["already"], first["planned"], first["played"]) == (24, 0, 24, 24)
    assert first["complete"] and not first["interrupted"]

    bot = tmp_path / "bot.ts"
    bot.write_text(LATE_THROWER, encoding="utf-8")
    added = nova("league", "add", "--league", league, "tardif", bot, "--json")
    assert added.code == 0, added.err
    assert json.loads(added.out)["entries"] == 5
    second = _play(league, "--jobs", "2")
    # only the new entry's pairings: 4 opponents x 2 seeds x 2 seat orders
    assert (second["wanted"], second["already"], second["planned"], second["played"]) == (
        40,
        24,
        16,
        16,
    )
    again = _play(league, "--jobs", "1")
    assert (again["planned"], again["played"], again["already"]) == (0, 0, 40)

    games = _done_games(league)
    assert len(games) == len(set(games)) == 40
    table = _table(league)
    assert table["games"] == 40
    assert {e["name"] for e in table["entries"]} == {
        "starter",
        "lanceur",
        "hoarder",
        "starter-v1",
        "tardif",
    }
    assert all(e["games"] == 16 for e in table["entries"])
    assert [e["rank"] for e in table["entries"]] == [1, 2, 3, 4, 5]
    ratings = [e["rating"] for e in table["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    tardif = next(e for e in table["entries"] if e["name"] == "tardif")
    assert {h["opponent"] for h in tardif["against"]} == {
        "starter",
        "lanceur",
        "hoarder",
        "starter-v1",
    }
    assert all(h["games"] == 4 for h in tardif["against"])
    assert sum(h["wins"] + h["draws"] + h["losses"] for h in tardif["against"]) == 16

    # the text table names every entry and its record against the others
    text = nova("league", "table", "--league", league)
    assert text.code == 0 and "tardif" in text.out and "Head to head" in text.out


def test_a_league_keeps_bundles_and_refuses_a_name_or_a_version_twice(tmp_path: Path) -> None:
    league = tmp_path / "l.league"
    bot = tmp_path / "bot.ts"
    bot.write_text(LATE_THROWER, encoding="utf-8")
    assert nova("league", "add", "--league", league, "v1", bot).code == 0
    before = sha(league)

    twice = nova("league", "add", "--league", league, "v2", bot)
    assert twice.code == 1
    assert twice.err.strip() == (
        f"nova league: the league already has this version of {bot} as 'v1' (the same bundle); "
        "change the script to add a new version"
    )
    bot.write_text(LATE_THROWER.replace("world.round > 1", "world.round > 2"), encoding="utf-8")
    name_again = nova("league", "add", "--league", league, "v1", bot)
    assert name_again.code == 1
    assert name_again.err.strip() == (
        f"nova league: the league already has an entry named 'v1' (from {bot}); "
        "give the new version another name"
    )
    missing = nova("league", "add", "--league", league, "x", tmp_path / "gone.ts")
    unknown = nova("league", "add", "--league", league, "x", "house:nobody")
    assert missing.code == unknown.code == 1
    assert (
        "does not exist" in missing.err
        and "there is no house android 'house:nobody'" in unknown.err
    )
    assert "Traceback" not in missing.err + unknown.err + twice.err
    assert sha(league) == before  # every refusal left the file as it was

    # the edited file is a new version; the first version's bundle is the one kept for v1
    assert nova("league", "add", "--league", league, "v2", bot).code == 0
    entries = {e["name"]: e for e in _table(league)["entries"]}
    assert entries["v1"]["sha256"] != entries["v2"]["sha256"]

    one = nova("league", "play", "--league", tmp_path / "none.league")
    assert one.code == 1 and one.err.strip() == (
        f"nova league: there is no league at {tmp_path / 'none.league'} (nova league add creates one)"
    )
    junk = tmp_path / "junk.league"
    junk.write_text("not a league\n")
    bad = nova("league", "table", "--league", junk)
    assert bad.code == 1 and "is not a league file" in bad.err
    assert junk.read_text() == "not a league\n"


def _start_play(league: Path, *more: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "nova_tools.cli", "league", "play", "--league", str(league), *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_games(proc: subprocess.Popen, games: int) -> list[str]:
    """Read the play's progress lines (stderr is not a terminal: one line per game) until
    ``games`` have been committed."""
    lines: list[str] = []
    assert proc.stderr is not None
    while len(lines) < games:
        line = proc.stderr.readline()
        assert line, f"the play ended early: {lines}"
        if line.startswith("game "):
            lines.append(line)
    return lines


def test_kill_9_during_play_keeps_every_finished_game_and_the_next_play_completes(
    league_of_four: Path,
) -> None:
    league = league_of_four
    proc = _start_play(league, *QUICK, "--jobs", "1")
    seen = _wait_for_games(proc, 3)
    assert seen[0].startswith("game 1/24: seed 1, ")
    proc.kill()  # SIGKILL: nothing of the play's own runs after this
    _, rest = proc.communicate(timeout=60)
    printed = len(seen) + rest.count("\ngame ") + rest.startswith("game ")
    kept = len(_done_games(league))
    # every game it reported is kept (a game committed just before the kill may not be reported)
    assert printed <= kept <= printed + 1

    after = _play(league, "--jobs", "1")
    assert after["already"] == kept
    assert after["takenOver"] == after["planned"] == after["played"] == 24 - kept
    assert after["complete"]
    games = _done_games(league)
    assert len(games) == len(set(games)) == 24


def test_sigterm_stops_play_between_games_and_gives_back_its_claims(
    league_of_four: Path, tmp_path: Path
) -> None:
    league = league_of_four
    proc = _start_play(league, "--seeds", "1", "--rounds", "10", "--jobs", "1", "--json")
    _wait_for_games(proc, 2)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    report = json.loads(out)
    assert report["interrupted"] and not report["complete"]
    assert f"terminated after {report['played']} of 12 games" in err
    assert len(_done_games(league)) == report["played"]
    after = _play(league, "--jobs", "1", "--seeds", "1")
    assert after["takenOver"] == 0  # the stopped run gave its claims back
    assert after["played"] == 12 - report["played"]


def test_two_plays_at_once_on_one_league_play_each_pairing_once(
    league_of_four: Path, tmp_path: Path
) -> None:
    league = league_of_four
    runs = [_start_play(league, *QUICK, "--jobs", "1", "--json") for _ in range(2)]
    reports = []
    for proc in runs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reports.append(json.loads(out))
    assert sum(r["played"] for r in reports) == 24
    assert all(r["played"] == r["planned"] for r in reports)
    assert sum(r["elsewhere"] for r in reports) + sum(r["already"] for r in reports) == 24
    games = _done_games(league)
    assert len(games) == len(set(games)) == 24
    assert _table(league)["games"] == 24
    with sqlite3.connect(league) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM games WHERE state != 'done'").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (0,)


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    league = tmp_path_factory.mktemp("three") / "three.league"
    for entry, script in (("hoarder", HOARDER), ("starter", "house:starter"), ("lanceur", THROWER)):
        assert nova("league", "add", "--league", league, entry, script).code == 0
    return league


def _same_league(three: Path, tmp_path: Path, name: str) -> Path:
    return Path(shutil.copy(three, tmp_path / name))


def test_the_table_is_the_same_with_one_or_two_workers(three: Path, tmp_path: Path) -> None:
    one, two = (
        _same_league(three, tmp_path, "one.league"),
        _same_league(three, tmp_path, "two.league"),
    )
    assert _play(one, "--jobs", "1")["played"] == 12
    assert _play(two, "--jobs", "2")["played"] == 12
    assert _table(one) == _table(two)


@pytest.mark.realpart
def test_the_table_is_the_same_on_a_local_ray_instance(three: Path, tmp_path: Path) -> None:
    one, ray = (
        _same_league(three, tmp_path, "one.league"),
        _same_league(three, tmp_path, "ray.league"),
    )
    assert _play(one, "--jobs", "1")["played"] == 12
    rayed = _play(ray, "--ray", "local", "--jobs", "2")
    assert rayed["played"] == 12 and rayed["where"] == "on a local Ray instance (2 CPUs)"
    assert _table(one) == _table(ray)


def test_a_league_needs_two_entries_and_good_seeds(tmp_path: Path) -> None:
    league = tmp_path / "l.league"
    assert nova("league", "add", "--league", league, "solo", "house:starter").code == 0
    alone = nova("league", "play", "--league", league, *QUICK)
    assert alone.code == 1 and "add at least two" in alone.err
    bad = nova("league", "play", "--league", league, "--seeds", "9-1")
    assert bad.code == 1 and "must run upwards" in bad.err
    assert nova("league", "add", "--league", league, "lanceur", THROWER).code == 0
    huge = nova("league", "play", "--league", league, "--seeds", "1-60000")
    assert huge.code == 1 and huge.err.strip() == (
        "nova league: 2 entries on 60000 seeds make 120000 pairings; "
        "one play may ask for at most 100000 (give fewer seeds)"
    )
    assert os.path.exists(league)


def test_a_play_with_nothing_left_to_play_says_so_in_words(tmp_path: Path) -> None:
    league = tmp_path / "ligue.league"
    added = nova("league", "add", "--league", league, "starter", "house:starter")
    assert added.code == 0 and "to " + str(league) + ": 1 entry. " in added.out, added.out
    one = nova("league", "table", "--league", league)
    assert one.code == 0 and f"{league}: 1 entry, 0 games" in one.out, one.out
    assert nova("league", "add", "--league", league, "lanceur", THROWER).code == 0
    first = _play(league)
    assert first["played"] == 4 and first["seeds"] == [1, 2]  # a list, as compare's --json gives
    again = nova("league", "play", "--league", league, *QUICK)
    assert again.code == 0, again.err
    assert again.out.strip() == (
        "Nothing to play: the league already has all 4 games asked for (2 seeds, 10 rounds); "
        f"`nova league table --league {league}` shows them."
    )
    assert "nowhere" not in again.out + again.err


def test_a_huge_seed_range_is_warned_of_in_one_sentence_before_the_first_game(
    tmp_path: Path,
) -> None:
    league = tmp_path / "big.league"
    for name, script in (("lanceur", THROWER), ("hoarder", HOARDER)):
        assert nova("league", "add", "--league", league, name, script).code == 0
    proc = _start_play(league, "--seeds", "1-40000", "--rounds", "1", "--jobs", "1")
    try:
        assert proc.stderr is not None
        warning = proc.stderr.readline().strip()
        assert warning == (
            "nova league play: 80000 new games to play (2 entries on 40000 seeds, both seat "
            "orders) take hours; Ctrl-C stops between games and keeps every finished one, or "
            "give fewer seeds (like 1-20)"
        )
        _wait_for_games(proc, 1)  # the warning came before the first game, which then plays
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143
    small = nova("league", "play", "--league", tmp_path / "big.league", *QUICK)
    assert small.code == 0 and "new games to play" not in small.err
