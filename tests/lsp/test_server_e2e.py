"""The real server over stdio, for a pulling (VS Code-like) and a pushing (Neovim-like) editor."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from nova_tools import api

from .conftest import Editor, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

TWO_ERRORS = """\
const capacity = rules.android.cargoCapacty;
const act: AndroidTurn = () => ({ type: 'android.move', direction: 'up' });
export default act;
"""


def errors(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]


def at(diagnostics, line: int, character: int) -> list[types.Diagnostic]:
    return [
        d
        for d in diagnostics
        if d.range.start.line == line
        and d.range.start.character <= character < d.range.end.character
    ]


async def test_only_a_client_that_can_be_asked_to_pull_again_is_offered_pull_diagnostics(
    editor: Editor,
):
    offered = editor.server_capabilities.diagnostic_provider is not None
    assert offered is editor.pull  # VS Code pulls; Neovim 0.11 (no refresh) is pushed to


async def test_a_script_gets_both_type_errors_at_their_ranges(editor: Editor):
    uri = editor.open("bare/two_errors.ts", TWO_ERRORS)
    found = errors(await editor.diagnostics(uri))
    assert len(found) == 2, found
    typo = position_of(TWO_ERRORS, "cargoCapacty")
    [misspelt] = at(found, typo.line, typo.character)
    assert misspelt.range.end.character - misspelt.range.start.character == len("cargoCapacty")
    assert "cargoCapacity" in misspelt.message  # tsc's "did you mean"
    up = position_of(TWO_ERRORS, "direction: 'up'")
    [direction] = at(found, up.line, up.character)
    assert "Direction" in direction.message


async def test_hover_on_a_rule_shows_its_meaning_and_value(editor: Editor):
    text = "const c = rules.android.cargoCapacity;\nexport default (): Action => ({ type: 'android.wait' });\n"
    uri = editor.open("bare/hover.ts", text)
    where = position_of(text, "cargoCapacity", 3)
    hover = await editor.hover(uri, where.line, where.character)
    body = hover.contents.value
    assert "rules.android.cargoCapacity" in body
    assert "`12`" in body
    assert "Most material units an android can carry" in body
    assert hover.range.start == position_of(text, "cargoCapacity")


async def test_hover_shows_the_value_of_the_workspace_rules_file(editor: Editor):
    text = "const c = rules.android.cargoCapacity;\nexport default (): Action => ({ type: 'android.wait' });\n"
    uri = editor.open("bare/hover_rules.ts", text)
    rules = editor.write("rules.json", '{ "android": { "cargoCapacity": 6 } }\n')
    try:
        where = position_of(text, "cargoCapacity", 1)
        body = (await editor.hover(uri, where.line, where.character)).contents.value
        assert "`6`" in body and "rules.json" in body and "`12`" in body
    finally:
        rules.unlink()


async def test_hover_on_an_action_type_says_what_it_does_and_what_a_refusal_costs(editor: Editor):
    text = "export default (): Action => ({ type: 'android.move', direction: 'east' });\n"
    uri = editor.open("bare/hover_action.ts", text)
    where = position_of(text, "android.move", 2)
    body = (await editor.hover(uri, where.line, where.character)).contents.value
    assert "Move one tile" in body and "Refused (off-map, no-battery)" in body
    assert "failedTurnHealthPenalty" in body and "(10)" in body


async def test_a_rules_file_with_a_partial_leaf_is_flagged_at_its_key(editor: Editor):
    text = '{ "android": { "sight": { "range": 6 } } }\n'
    uri = editor.open("partial.nova-rules.json", text)
    [problem] = await editor.diagnostics(uri)
    assert problem.range.start == position_of(text, '"sight"')
    assert problem.range.end == position_of(text, '"sight"', len('"sight"'))
    assert "given whole" in problem.message


async def test_a_rules_file_gets_key_hover_and_completion(editor: Editor):
    text = '{ "android": { "cargoCapacity": 6 } }\n'
    uri = editor.open("complete.nova-rules.json", text)
    where = position_of(text, "cargoCapacity", 2)
    body = (await editor.hover(uri, where.line, where.character)).contents.value
    assert (
        "Most material units" in body and "Default: `12`" in body and "This file sets `6`" in body
    )
    typing = '{ "android": { "cargoCapacity": 6, "" } }\n'
    editor.change(uri, typing)
    result = await editor.client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri), position=position_of(typing, '""', 1)
        )
    )
    labels = [item.label for item in result.items]
    assert "memoryLimit" in labels and "cargoCapacity" not in labels


async def test_completion_offers_directions_from_the_typings(editor: Editor):
    text = "export default (): Action => ({ type: 'android.move', direction: '' });\n"
    uri = editor.open("bare/complete.ts", text)
    where = position_of(text, "direction: '", len("direction: '"))
    result = await editor.client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri),
            position=where,
            context=types.CompletionContext(
                trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character="'"
            ),
        )
    )
    items = result.items if isinstance(result, types.CompletionList) else result
    assert {"north", "south", "east", "west"} <= {item.label for item in items}


async def test_a_dry_run_in_a_fresh_world_reports_a_refusal(editor: Editor):
    # In a fresh world the android stands on its initial charger, which can never be salvaged.
    text = "const act: AndroidTurn = () => ({ type: 'android.salvage' });\nexport default act;\n"
    uri = editor.open("bare/salvage.ts", text)
    lenses = await editor.client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(uri))
    )
    [lens] = lenses
    assert lens.command.command == "nova.dryRun" and lens.range.start.line == 1
    editor.client.messages.clear()
    result = await editor.command("nova.dryRun", *lens.command.arguments)
    assert result["ok"] and not result["accepted"]
    assert result["outcome"] == "refused" and result["code"] == "initial-charger"
    assert result["penalty"] == 10 and result["ticks"] == 0
    assert any("refused" in m.message for m in editor.client.messages)
    if editor.pull:  # VS Code is asked to pull again, and to redraw the lens with the verdict
        assert editor.client.diagnostic_refresh_count >= 1
        assert editor.client.code_lens_refreshes >= 1
    [lens] = await editor.client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier(uri))
    )
    assert "initial-charger" in lens.command.title
    diagnostics = await editor.diagnostics(
        uri, until=lambda ds: any(d.source == "nova dry-run" for d in ds)
    )
    [refusal] = [d for d in diagnostics if d.source == "nova dry-run"]
    assert refusal.range.start == position_of(text, "export default")
    assert "initial charger" in refusal.message and "10 health" in refusal.message


async def test_a_dry_run_of_a_move_off_the_map_in_the_configured_game(editor: Editor):
    # A 2x2 board: every tile is on an edge, so moving away from the middle always leaves the map.
    game = editor.root / "tiny.json"
    text = (
        "const me = () => world.androids.find((a) => a.id === androidId)!;\n"
        "const act: AndroidTurn = () => ({ type: 'android.move', direction: me().position.x === 0 ? 'west' : 'east' });\n"
        "export default act;\n"
    )
    await asyncio.to_thread(_tiny_game, game, text)
    uri = editor.open("bare/off_map.ts", text)
    await editor.settings(gameFile="tiny.json")
    try:
        result = await editor.command("nova.dryRun", uri)
    finally:
        await editor.settings()
    assert result["ok"] and result["outcome"] == "refused" and result["code"] == "off-map"
    assert "2x2 map" in result["reason"] and result["action"]["type"] == "android.move"


def _tiny_game(game, text: str) -> None:
    api.create_game(game, rules={"world": {"width": 2, "height": 2}}, force=True)
    uploaded = api.upload_script(game, "you", files={"main.ts": text}, entry_name="main.ts")
    api.launch_android(game, "you", uploaded.script_id)


async def test_a_syntax_error_keeps_the_server_alive(editor: Editor):
    broken = "const act: AndroidTurn = () => ({ type: 'android.wait' ;\nexport default act\n}}}} /* never closed"
    uri = editor.open("bare/broken.ts", broken)
    assert errors(await editor.diagnostics(uri))
    assert await editor.command("nova.dryRun", uri)  # a compile error is an answer, not a crash
    fixed = "const c = rules.android.cargoCapacity;\nexport default (): Action => ({ type: 'android.wait' });\n"
    editor.change(uri, fixed)
    assert errors(await editor.diagnostics(uri)) == []
    where = position_of(fixed, "cargoCapacity", 1)
    assert "`12`" in (await editor.hover(uri, where.line, where.character)).contents.value


async def test_turn_read_as_a_number_under_a_module_level_turn_is_flagged_with_a_fix(
    editor: Editor,
):
    text = (
        "const turn: AndroidTurn = () => ({ type: 'android.wait' });\n"
        "const even = () => turn % 2 === 0;\n"
        "export default turn;\n"
    )
    uri = editor.open("bare/shadow.ts", text)
    diagnostics = await editor.diagnostics(uri)
    [shadow] = [d for d in diagnostics if d.code == "turn-shadows-round"]
    assert shadow.range.start == position_of(text, "turn % 2")
    actions = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=shadow.range,
            context=types.CodeActionContext(diagnostics=[shadow]),
        )
    )
    [rename] = [a for a in actions if "Rename" in a.title]
    edits = rename.edit.changes[uri]
    assert len(edits) == 2  # the declaration and the export, not the round counter
    assert all(e.new_text == "act" for e in edits)


async def test_a_literal_equal_to_a_rule_gets_a_quick_fix_to_read_the_rule(editor: Editor):
    text = (
        "const me = () => world.androids.find((a) => a.id === androidId)!;\n"
        "const full = () => (me().cargo.metal ?? 0) >= 12;\n"
        "export default (): Action => (full() ? { type: 'android.wait' } : { type: 'android.collect' });\n"
    )
    uri = editor.open("bare/literal.ts", text)
    [literal] = [d for d in await editor.diagnostics(uri) if d.code == "rule-literal"]
    assert literal.range.start == position_of(text, "12")
    actions = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=literal.range,
            context=types.CodeActionContext(diagnostics=[literal]),
        )
    )
    [fix] = actions
    [edit] = fix.edit.changes[uri]
    assert edit.new_text == "rules.android.cargoCapacity" and edit.range == literal.range


async def test_a_project_with_its_own_tsconfig_is_checked_by_it(editor: Editor):
    import json

    from nova_tools.toolchain.typecheck import COMPILER_OPTIONS, typings_path

    editor.write(
        "project/tsconfig.json",
        json.dumps({"compilerOptions": COMPILER_OPTIONS, "include": ["src", "nova.d.ts"]}),
    )
    editor.write("project/nova.d.ts", typings_path().read_text(encoding="utf-8"))
    editor.write(
        "project/src/nav.ts",
        "export const towards = (x: number): Direction => (x > 0 ? 'east' : 'west');\n",
    )
    text = (
        "import { towards } from './nav';\n"
        "const n: number = towards(1);\n"
        "export default (): Action => ({ type: 'android.move', direction: towards(-1) });\n"
    )
    uri = editor.open("project/src/main.ts", text)
    [wrong] = errors(await editor.diagnostics(uri))
    assert wrong.range.start.line == 1 and "not assignable to type 'number'" in wrong.message


async def test_a_scaffolded_starter_project_checks_clean_and_its_turn_is_accepted(editor: Editor):
    from nova_tools.starter import scaffold

    scaffold(editor.root / "starter")  # what `nova new-android` writes: tsconfig + nova.d.ts + src/
    main = editor.root / "starter" / "src" / "main.ts"
    uri = editor.open("starter/src/main.ts", main.read_text(encoding="utf-8"))
    assert errors(await editor.diagnostics(uri)) == []
    result = await editor.command("nova.dryRun", uri)  # bundles main.ts with the files it imports
    assert result["ok"] and result["accepted"], result


async def test_a_bare_script_may_print_with_console_without_errors(editor: Editor):
    # the editor's inferred project for a bare file also carries lib.dom's console: the typings'
    # declaration must merge with it, not clash
    text = (
        "const act: AndroidTurn = () => {\n"
        "  console.log('round', turn, world.tiles.length);\n"
        "  return { type: 'android.wait' };\n"
        "};\nexport default act;\n"
    )
    uri = editor.open("bare/console.ts", text)
    assert errors(await editor.diagnostics(uri)) == []


async def test_a_bare_script_using_the_dom_is_warned_that_upload_will_refuse_it(editor: Editor):
    text = "const act: AndroidTurn = () => {\n  document.title = 'x';\n  return { type: 'android.wait' };\n};\nexport default act;\n"
    uri = editor.open("bare/dom.ts", text)
    found = [d for d in await editor.diagnostics(uri) if d.code == "host-global"]
    assert len(found) == 1
    assert found[0].range.start == position_of(text, "document")
    assert "nova upload" in found[0].message


async def test_a_dry_run_that_throws_in_an_imported_file_puts_a_diagnostic_at_that_line(
    editor: Editor,
):
    from nova_testing import THROWER_FILES, THROWN_AT

    editor.write("thrower/lib/nav.ts", THROWER_FILES["lib/nav.ts"])  # on disk, not open
    uri = editor.open("thrower/main.ts", THROWER_FILES["main.ts"])
    nav = (editor.root / "thrower" / "lib" / "nav.ts").resolve().as_uri()
    editor.client.diagnostics.pop(nav, None)

    result = await editor.command("nova.dryRun", uri)

    assert result["ok"] and result["code"] == "script-error"
    assert (result["stack"][0]["file"], result["stack"][0]["line"]) == THROWN_AT
    assert "lib/nav.ts:4:" in result["reason"]
    # the file the editor has not opened gets the diagnostic pushed, at the throw
    async with asyncio.timeout(30):
        while not editor.client.diagnostics.get(nav):
            await asyncio.sleep(0.01)
    [pushed] = editor.client.diagnostics[nav]
    throw = position_of(THROWER_FILES["lib/nav.ts"], "throw")
    assert (
        pushed.range.start.line == throw.line == THROWN_AT[1] - 1
        and pushed.source == "nova dry-run"
    )
    assert pushed.severity == types.DiagnosticSeverity.Error and "no way north" in pushed.message
    # opened, it keeps it (pulled or pushed, as the editor takes them); the entry is not blamed twice
    nav_uri = editor.open("thrower/lib/nav.ts", THROWER_FILES["lib/nav.ts"], save=False)
    assert nav_uri == nav
    found = await editor.diagnostics(
        nav, until=lambda ds: any(d.source == "nova dry-run" for d in ds)
    )
    assert [d.range.start.line for d in found if d.source == "nova dry-run"] == [THROWN_AT[1] - 1]
    entry = await editor.diagnostics(
        uri, until=lambda ds: any(d.source == "nova dry-run" for d in ds)
    )
    assert [d.range.start.line for d in entry if d.source == "nova dry-run"] == [
        position_of(THROWER_FILES["main.ts"], "export default").line
    ]
    # an edit of the file where it failed clears it there
    editor.change(nav, THROWER_FILES["lib/nav.ts"].replace("round >= 1", "round < 0"))
    assert not [d for d in await editor.diagnostics(nav) if d.source == "nova dry-run"]


async def test_a_dry_run_counts_a_memory_of_three_emoji_as_six(editor: Editor):
    """The editor's dry-run measures text as the script does (UTF-16 units, like `.length`)."""
    text = (
        "const t: AndroidTurn = () => ({ type: 'android.wait', memory: '\\u{1F916}\\u{1F680}"
        "\\u{1F30D}', recording: 'caf\\u00e9' });\nexport default t;\n"
    )
    uri = editor.open("bare/emoji.ts", text)
    editor.client.messages.clear()
    result = await editor.command("nova.dryRun", uri)
    assert result["ok"] and result["accepted"], result
    assert any(
        "memory 6 characters, recording 4 characters" in m.message for m in editor.client.messages
    ), [m.message for m in editor.client.messages]
