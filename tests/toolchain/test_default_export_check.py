"""The upload's type check covers the default export: a turn written with no type, whose action
would be refused every round in play, is refused at upload, at the player's own line, through the
CLI and the MCP server alike (the language server's side: tests/lsp/test_turn_check_and_hover_format.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nova_testing import nova

from nova_tools.toolchain import CompileError, compile_sources

UNTYPED = (
    "// alice's first android\nexport default () => ({ type: 'android.move', direction: 'up' });\n"
)
TYPED = "const turn: AndroidTurn = () => ({ type: 'android.move', direction: 'east' });\nexport default turn;\n"
NAMED = "const go = () => 42;\nexport { go as default };\n"
# a non-ASCII name and a comment before the export: the line is still the player's own
ÉCLAIREUR = "/* éclaireur — « scout » */\nconst x = 1;\nexport default { type: 'android.wait' };\n"


def test_the_cli_refuses_an_untyped_default_export_at_its_line_and_leaves_the_game_as_it_was(
    tmp_path: Path,
):
    game = tmp_path / "g.json"
    assert nova("create-game", "--file", game).code == 0
    before = game.read_bytes()
    script = tmp_path / "untyped.ts"
    script.write_text(UNTYPED, encoding="utf-8")

    refused = nova("upload", "--file", game, "--player", "alice", script)

    assert refused.code == 1 and "Traceback" not in refused.err
    assert "untyped.ts:2:1 the default export is not an AndroidTurn" in refused.err
    assert "const turn: AndroidTurn" in refused.err
    assert game.read_bytes() == before

    fixed = tmp_path / "typed.ts"
    fixed.write_text(TYPED, encoding="utf-8")
    accepted = nova("upload", "--file", game, "--player", "alice", fixed, "--json")
    assert accepted.code == 0, accepted.err
    assert json.loads(accepted.out)["scriptId"]


@pytest.mark.parametrize(
    ("source", "line"), [(UNTYPED, 2), (NAMED, 2), (ÉCLAIREUR, 3)], ids=["arrow", "named", "object"]
)
def test_in_memory_sources_name_the_export_line(source: str, line: int):
    with pytest.raises(CompileError) as refused:
        compile_sources({"main.ts": source}, "main.ts")
    [error] = refused.value.diagnostics
    assert (error.file, error.line, error.col) == ("main.ts", line, 1)
    assert error.message.startswith("the default export is not an AndroidTurn")


def test_a_typed_turn_and_one_from_another_file_still_compile():
    compile_sources({"main.ts": TYPED}, "main.ts")
    files = {
        "main.ts": "import turn from './lib/turn';\nexport default turn;\n",
        "lib/turn.ts": TYPED.replace("export default turn;", "export default turn;"),
    }
    compile_sources(files, "main.ts")


def test_no_default_export_is_still_told_by_the_bundler_once():
    with pytest.raises(CompileError) as refused:
        compile_sources({"main.ts": "const x = 1;\n"}, "main.ts")
    [error] = refused.value.diagnostics
    assert error.code == "no-default-export"
