"""Issue 9 through the real `nova` command: nothing a script, a rules file or a game file can do
stops a game. Each hostile input is a failed turn with a reason code, or one sentence on stderr;
the game file stays valid UTF-8 JSON that loads, and the same hostile game played twice gives
the same bytes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from nova_testing import nova, sha, wanderer

# One android script that is hostile in a different way on each turn (its android number shifts
# the cycle, so two androids cover every case within a few rounds).
HOSTILE = r"""
const deep = (n: number): unknown => { let v: unknown = 1; for (let i = 0; i < n; i++) v = [v]; return v; };
const hostile: AndroidTurn = () => {
  const kind = (turn + Number(androidId.split('-')[1])) % 9;
  console.log('a lone half \uD800 in a log line', { text: '\uDC00' });
  if (kind === 0) return { type: 'android.wait', memory: 'cut \uD83D', recording: 'log \uDE00 end' };
  if (kind === 1) return { type: 'android.broadcast', content: '\uDFFF\uD800' };
  if (kind === 2) throw new Error('half \uD800 and ' + 'm'.repeat(3 << 20));  // 6 MB of UTF-16
  if (kind === 3) return deep(3000) as Action;
  if (kind === 4) {
    const e = new Error('x');
    Object.defineProperty(e, 'message', { get() { throw new Error('no'); } });
    Object.defineProperty(e, 'name', { get() { throw e; } });
    throw e;
  }
  if (kind === 5) return { type: 'android.wait', memory: '\u{1F600}'.repeat(2049) };  // .length 4098
  if (kind === 6) { const a: any = { type: 'android.wait' }; a.self = a; return a; }
  if (kind === 7) throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; } });
  return { type: 'android.wait', memory: 'ok \u{1F600}', recording: 'x'.repeat(3 << 20) } as Action;
};
export default hostile;
"""

EXPECTED_CODES = {"not-an-action", "script-error", "memory-too-long"}


def _one_sentence(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def _strict_json(raw: bytes) -> object:
    """The file as a strict JSON reader sees it: UTF-8, no NaN or Infinity."""

    def refuse(name: str) -> object:
        raise AssertionError(f"{name} in a game file")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


def play_hostile_game(folder: Path) -> Path:
    game = folder / "game.json"
    script = folder / "hostile.ts"
    script.write_text(HOSTILE, encoding="utf-8")
    assert nova("create-game", "--file", game, "--seed", 11).code == 0
    uploaded = nova("upload", "--file", game, "--player", "mallory", script)
    assert uploaded.code == 0, uploaded.err
    assert nova("upload", "--file", game, "--player", "alice", wanderer(folder)).code == 0
    for player, sid in (("mallory", "script-1"), ("mallory", "script-1"), ("alice", "script-2")):
        launched = nova("launch", "--file", game, "--player", player, "--script", sid)
        assert launched.code == 0, launched.err
    for _ in range(2):  # two runs: the second replays the first's hostile turns from the file
        ran = nova("run", "--file", game, "--rounds", 5)
        assert ran.code == 0, ran.err
        assert "Traceback" not in ran.err
    return game


@pytest.fixture(scope="module")
def hostile_games(tmp_path_factory) -> tuple[Path, Path]:
    return play_hostile_game(tmp_path_factory.mktemp("first")), play_hostile_game(
        tmp_path_factory.mktemp("second")
    )


def test_a_hostile_game_is_failed_turns_with_reason_codes_and_a_valid_game_file(hostile_games):
    game, _ = hostile_games
    data = _strict_json(game.read_bytes())
    turns = [e for e in data["events"] if e["type"] == "turn" and e["android"] != "android-3"]
    assert len(turns) == 20
    failed = {e["code"] for e in turns if e["outcome"] != "accepted"}
    assert EXPECTED_CODES <= failed, failed
    reasons = " | ".join(e.get("reason", "") for e in turns)
    assert "nested more than 32 levels deep" in reasons
    assert "memory holds at most 4096 characters, got 4098" in reasons
    assert "threw Error: half \ufffd and mmmm" in reasons  # a 6 MB message: described, clipped
    assert "threw [unreadable]: [unreadable]" in reasons  # getters that throw
    assert "threw [unprintable object]" in reasons  # a proxy whose every trap throws
    assert max(len(e.get("reason", "")) for e in turns) < 1000
    accepted = [e for e in turns if e["outcome"] == "accepted"]
    assert any(
        e["action"].get("memory") == "cut \ufffd" for e in accepted
    )  # the lone half, replaced
    assert any(e["action"].get("content") == "\ufffd\ufffd" for e in accepted)
    status = nova("status", "--file", game, "--json")
    assert status.code == 0 and json.loads(status.out)["round"] == 10
    android = nova("android", "--file", game, "android-1", "--json")
    assert android.code == 0
    _strict_json(android.out.encode("utf-8"))


def test_the_same_hostile_game_played_twice_gives_byte_identical_files(hostile_games):
    first, second = hostile_games
    assert first.read_bytes() == second.read_bytes()


def test_dry_run_of_a_hostile_script_answers_in_well_formed_json(tmp_path):
    script = tmp_path / "halves.ts"
    script.write_text(
        "const t: AndroidTurn = () => { console.log('\\uD800', '\\uDC00x'); throw new Error('bad \\uDBFF'); };\nexport default t;\n",
        encoding="utf-8",
    )
    result = nova("dry-run", script, "--json")
    assert result.code == 2, result.err
    shown = _strict_json(result.out.encode("utf-8"))
    assert shown["code"] == "script-error"
    assert shown["reason"].startswith("threw Error: bad \ufffd")
    assert shown["logs"][0] == "\ufffd \ufffdx"
    deep = tmp_path / "deep.ts"
    deep.write_text(
        "const t: AndroidTurn = () => { let v: any = 1; for (let i = 0; i < 3000; i++) v = [v]; return v; };\nexport default t;\n"
    )
    result = nova("dry-run", deep, "--json")
    assert result.code == 2, result.err
    assert json.loads(result.out)["code"] == "not-an-action"


def test_a_game_file_nested_thousands_deep_is_one_sentence(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    raw = game.read_bytes()
    game.write_bytes(
        raw.replace(b'"seed":', b'"deep":' + b"[" * 5000 + b"]" * 5000 + b',"seed":', 1)
    )
    before = sha(game)
    result = nova("status", "--file", game)
    assert result.code == 1
    assert "nested more than 64 levels deep" in _one_sentence(result.err)
    assert sha(game) == before


@pytest.mark.parametrize(
    "damage, says",
    [
        (
            lambda raw: raw.replace(b'"seed":', b'"note":"\\ud800","seed":', 1),
            "lone UTF-16 surrogate",
        ),
        (
            lambda raw: raw.replace(b'"seed":', b'"note":1e400,"seed":', 1),
            "1e400, a number too large for JSON",
        ),
        (lambda raw: raw.replace(b'"seed":', b'"note":NaN,"seed":', 1), "NaN, which is not JSON"),
    ],
    ids=["lone-surrogate", "huge-number", "nan"],
)
def test_a_game_file_json_cannot_carry_is_one_sentence(tmp_path, damage, says):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    game.write_bytes(damage(game.read_bytes()))
    result = nova("status", "--file", game)
    assert result.code == 1
    assert says in _one_sentence(result.err)


@pytest.mark.parametrize(
    "rules, path, says",
    [
        ('{"script": {"memory": 2147483648}}', "script.memory", "less than or equal to"),
        ('{"android": {"decayPerRound": 1e400}}', "", "1e400 is too large a number"),
        ('{"android": {"decayPerRound": 1e300}}', "android.decayPerRound", "at most 2,147,483,647"),
        ('{"script": {"fuel": 5000}}', "script.fuel", "the clock never to decide a turn"),
        ('{"script": {"timeoutMs": 2000}}', "script.timeoutMs", "raise script.timeoutMs to"),
        ('{"script": {"fuel": 1000000000}}', "script.fuel", "less than or equal to 20000"),
        ('{"script": {"timeoutMs": 86400000}}', "script.timeoutMs", "less than or equal to 600000"),
        (
            '{"world": {"generation": {"pods": {"count": 1000000000}}}}',
            "world.generation.pods.count",
            "less than or equal to",
        ),
        (
            '{"android": {"sight": {"shape": "disc", "range": 1000000}}}',
            "android.sight.range",
            "less than or equal to 512",
        ),
        ('{"a":' * 3000 + "1" + "}" * 3000, "", "nested more than 64 levels deep"),
        ('{"android": {"memoryLimit": "\\ud800"}}', "", "surrogate pair with no second half"),
    ],
    ids=[
        "memory-over-1-gib",
        "1e400",
        "1e300",
        "fuel-beyond-timeout",
        "timeout-below-fuel",
        "fuel-huge",
        "timeout-a-day",
        "pods-count",
        "sight-range",
        "nested",
        "lone-surrogate",
    ],
)
def test_rules_that_validate_but_cannot_be_played_are_refused_with_the_path(
    tmp_path, rules, path, says
):
    file = tmp_path / "rules.json"
    file.write_text(rules, encoding="utf-8")
    result = nova("rules", "validate", file)
    assert result.code == 1
    sentence = _one_sentence(result.err)
    assert f"{file}: {path}" in sentence and says in sentence
    created = nova("create-game", "--file", tmp_path / "game.json", "--rules", file)
    assert created.code == 1 and says in _one_sentence(created.err)
    assert not (tmp_path / "game.json").exists()


def test_the_default_budgets_keep_the_clock_out_and_say_so(tmp_path):
    file = tmp_path / "rules.json"
    file.write_text('{"script": {"fuel": 400, "timeoutMs": 30000}}')
    assert nova("rules", "validate", file).code == 0
    shown = json.loads(nova("rules", "show").out)["script"]
    assert shown["timeoutMs"] >= 4 * 1000 and shown["fuel"] == 200


def test_writes_through_a_symlink_go_to_the_real_game(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    link = tmp_path / "link.json"
    link.symlink_to(games / "real.json")
    assert nova("create-game", "--file", link, "--seed", 3).code == 0
    assert nova("upload", "--file", link, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("launch", "--file", link, "--player", "alice", "--script", "script-1").code == 0
    assert nova("run", "--file", link, "--rounds", 2).code == 0
    assert link.is_symlink() and link.resolve() == games / "real.json"
    assert json.loads(nova("status", "--file", games / "real.json", "--json").out)["round"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot.ts", "games", "link.json"]


def test_a_lock_file_that_is_a_symlink_is_refused_and_nothing_is_created_through_it(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    (root / "game.json.lock").symlink_to(outside / "planted")
    result = nova("create-game", "--file", root / "game.json")
    assert result.code == 1
    assert "is a symbolic link" in _one_sentence(result.err)
    assert list(outside.iterdir()) == []
    assert not (root / "game.json").exists()


def test_a_game_file_from_before_rules_were_data_opens_under_the_shipped_defaults(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game, "--seed", 4).code == 0
    assert nova("upload", "--file", game, "--player", "alice", wanderer(tmp_path)).code == 0
    assert nova("launch", "--file", game, "--player", "alice", "--script", "script-1").code == 0
    assert nova("run", "--file", game, "--rounds", 3).code == 0
    data = json.loads(game.read_text())
    played = nova("status", "--file", game, "--json").out
    del data["rules"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    assert nova("status", "--file", old, "--json").out == played
    shown = nova("rules", "show", "--file", old)
    assert shown.code == 0 and json.loads(shown.out) == json.loads(nova("rules", "show").out)
    ran = nova("run", "--file", old, "--rounds", 1)
    assert ran.code == 0, ran.err


def test_an_upload_that_bundles_beyond_the_sandbox_limit_is_one_sentence(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    big = tmp_path / "big.ts"
    big.write_text(
        "const s = '"
        + "a" * (1100 * 1024)
        + "';\nconst t: AndroidTurn = () => ({ type: 'android.wait', memory: s.slice(0, 1) });\nexport default t;\n"
    )
    before = sha(game)
    result = nova("upload", "--file", game, "--player", "p", big)
    assert result.code == 1
    assert (
        "a script may be at most 1,048,576 bytes once bundled" in result.err
        and "Traceback" not in result.err
    )
    assert sha(game) == before


def test_upload_with_a_file_name_or_script_name_that_is_not_utf8_is_one_sentence(tmp_path):
    game = tmp_path / "game.json"
    assert nova("create-game", "--file", game).code == 0
    before = sha(game)
    odd = tmp_path / os.fsdecode(
        b"bot\xff.ts"
    )  # a name as a Latin-1 file system would hand it over
    odd.write_text(wanderer(tmp_path).read_text())
    result = nova("upload", "--file", game, "--player", "p", odd)
    assert result.code == 1
    assert "has a name that is not valid UTF-8; rename the file" in _one_sentence(result.err)
    named = nova(
        "upload",
        "--file",
        game,
        "--player",
        "p",
        wanderer(tmp_path),
        "--name",
        os.fsdecode(b"n\xffame"),
    )
    assert named.code == 1
    assert "is not a usable script name" in _one_sentence(named.err)
    assert sha(game) == before
    assert nova("status", "--file", game).code == 0
