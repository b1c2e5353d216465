"""The editor's dry-run plays the files the toolchain resolves, with the editor's unsaved buffers.

Over real stdio (``nova lsp``), in both editors of the conftest. Each case keeps a project on
disk whose imported file says ``north``, opens that file with an unsaved edit saying ``south``,
and dry-runs the entry: the turn must go south, whatever form the import takes. Then the buffers
are saved and ``nova dry-run --json`` of the saved files must give the same result.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from lsprotocol import types
from nova_testing import nova

from .conftest import Editor

pytestmark = pytest.mark.asyncio(loop_scope="module")

TURN = """{imports}
const turn: AndroidTurn = () => {{
  console.log('départ ☕ ' + {name});
  return {{ type: 'android.move', direction: {name} }};
}};
export default turn;
"""

DIRECTION = "export const heading: Direction = '{0}';\n"

# form -> (the entry's import, the name it binds, {file: text} the import reaches on disk; the
# file holding DIRECTION is the one edited)
FORMS = {
    "folder index": ("import { heading } from './a/index';", "heading", {"a/index.ts": None}),
    "parent folder": ("import { heading } from '../x';", "heading", {"../x.ts": None}),
    "js extension of a ts file": (
        "import { heading } from './nav.js';",
        "heading",
        {"nav.ts": None},
    ),
    "re-export": (
        "import * as all from './all';",
        "all.heading",
        {"all.ts": "export * from './direction';\n", "direction.ts": None},
    ),
    "non-ASCII names": (
        "import { heading } from './cartes/navegación';",
        "heading",
        {"cartes/navegación.ts": None},
    ),
}


def _project(editor: Editor, form: str) -> tuple[str, str]:
    """The case's files on disk; returns (entry's relative path, the edited file's)."""
    imports, name, reached = FORMS[form]
    folder = f"imports/{form.replace(' ', '-')}/entrée"
    edited = ""
    for rel, text in reached.items():
        path = f"{folder}/{rel}"
        editor.write(path, text if text is not None else DIRECTION.format("north"))
        edited = path if text is None else edited
    entry = f"{folder}/main.ts"
    editor.write(entry, TURN.format(imports=imports, name=name))
    return entry, edited


async def _same_as_saved(result: dict, entry: str, editor: Editor) -> None:
    run = await asyncio.to_thread(nova, "dry-run", editor.root / entry, "--json")
    assert run.code == 0, run.err
    saved = json.loads(run.out)
    assert {k: v for k, v in result.items() if k not in ("ok", "message")} == saved


@pytest.mark.parametrize("form", list(FORMS))
async def test_an_unsaved_edit_of_an_imported_file_is_what_the_dry_run_plays(
    editor: Editor, form: str
):
    entry, edited = _project(editor, form)
    uri = editor.open(entry, (editor.root / entry).read_text(encoding="utf-8"))
    south = DIRECTION.format("south")
    edited_uri = editor.open(edited, south, save=False)

    result = await editor.command("nova.dryRun", uri)

    assert result["ok"] and result["accepted"], result
    assert result["action"]["direction"] == "south", result  # the buffer, not the disk ('north')
    assert result["logs"] == ["départ ☕ south"]
    editor.close(edited_uri)
    # saved, the command line's dry-run of the files gives the same answer
    editor.write(edited, south)
    await _same_as_saved(result, entry, editor)


async def test_a_file_open_in_the_editor_but_never_saved_can_be_imported(editor: Editor):
    entry = "imports/unsaved/main.ts"
    uri = editor.open(
        entry, TURN.format(imports="import { heading } from './fresh';", name="heading")
    )
    fresh = editor.open("imports/unsaved/fresh.ts", DIRECTION.format("west"), save=False)
    assert not (editor.root / "imports/unsaved/fresh.ts").exists()

    result = await editor.command("nova.dryRun", uri)

    assert result["ok"] and result["action"]["direction"] == "west", result
    editor.close(fresh)


async def test_an_import_of_a_missing_file_is_refused_in_one_sentence_at_that_import(
    editor: Editor,
):
    text = (
        "// the map helpers moved\nimport { heading } from './gone/nowhere';\n"
        "const turn: AndroidTurn = () => ({ type: 'android.move', direction: heading });\n"
        "export default turn;\n"
    )
    uri = editor.open("imports/missing/main.ts", text)
    editor.client.messages.clear()

    result = await editor.command("nova.dryRun", uri)

    assert result["ok"] is False
    message = result["message"]
    assert message.startswith("Dry-run not possible: main.ts:2:25 ") and "./gone/nowhere" in message
    assert "\n" not in message and message.count(". ") == 0 and message.endswith(".")
    assert [m.message for m in editor.client.messages] == [message]
    found = await editor.diagnostics(
        uri, until=lambda ds: any(d.source == "nova dry-run" for d in ds)
    )
    [placed] = [d for d in found if d.source == "nova dry-run"]
    assert placed.severity == types.DiagnosticSeverity.Error and placed.message == message
    assert placed.range.start == types.Position(line=1, character=24)
    assert text.splitlines()[1][24 : placed.range.end.character] == "'./gone/nowhere'"
    # once the import is fixed the refusal goes with the edit
    editor.change(uri, text.replace("./gone/nowhere", "./here"))
    assert not [d for d in await editor.diagnostics(uri) if d.source == "nova dry-run"]
