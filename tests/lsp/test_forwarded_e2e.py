"""Every TypeScript feature the server passes on from its tsc child, over real stdio, for a pulling
(VS Code-like) and a pushed-to (Neovim 0.11-like) editor: one server is all a player runs."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from lsprotocol import types

from .conftest import Editor, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

HELPER = "export function double(a: number): number {\n  return a * 2;\n}\n"
SCRIPT = """\
import { double } from './helper';
const capacity: number = rules.android.cargoCapacity;
export function plan(n: number, label: string): number {
  return double(n) + capacity + label.length;
}
const act: AndroidTurn = () => {
  const steps = plan(1, 'a');
  return { type: 'android.move', direction: steps > 2 ? 'north' : 'south' };
};
export default act;
"""
TYPESCRIPT_SETTINGS = {
    "inlayHints": {"parameterNames": {"enabled": "all"}, "variableTypes": {"enabled": True}},
    "referencesCodeLens": {"enabled": True, "showOnAllFunctions": True},
}


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def lines_of(locations) -> set[tuple[str, int]]:
    out = set()
    for location in locations:
        uri = getattr(location, "uri", None) or location.target_uri
        rng = getattr(location, "range", None) or location.target_selection_range
        out.add((uri.rsplit("/", 1)[-1], rng.start.line))
    return out


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def script(editor: Editor) -> str:
    editor.open("fwd/helper.ts", HELPER)
    uri = editor.open("fwd/main.ts", SCRIPT)
    await editor.diagnostics(uri)  # checked once: tsc has the program
    return uri


OFFERED = {
    "definition_provider": "textDocument/definition",
    "type_definition_provider": "textDocument/typeDefinition",
    "implementation_provider": "textDocument/implementation",
    "references_provider": "textDocument/references",
    "document_highlight_provider": "textDocument/documentHighlight",
    "document_symbol_provider": "textDocument/documentSymbol",
    "workspace_symbol_provider": "workspace/symbol",
    "signature_help_provider": "textDocument/signatureHelp",
    "rename_provider": "textDocument/rename",
    "document_formatting_provider": "textDocument/formatting",
    "document_range_formatting_provider": "textDocument/rangeFormatting",
    "document_on_type_formatting_provider": "textDocument/onTypeFormatting",
    "folding_range_provider": "textDocument/foldingRange",
    "selection_range_provider": "textDocument/selectionRange",
    "call_hierarchy_provider": "textDocument/prepareCallHierarchy",
    "inlay_hint_provider": "textDocument/inlayHint",
    "semantic_tokens_provider": "textDocument/semanticTokens/full",
}


async def test_the_server_offers_every_forwarded_feature_tsc_answers(editor: Editor):
    """At once when the editor cannot register it later, else registered once tsc has started
    (with tsc's own options, in the shapes the static offer has)."""
    caps = editor.server_capabilities
    later = {method for name, method in OFFERED.items() if getattr(caps, name) is None}
    registered = await editor.registered(later)
    options = {
        name: getattr(caps, name)
        if getattr(caps, name) is not None
        else registered[OFFERED[name]] or True
        for name in OFFERED
    }
    prepare = options["rename_provider"]
    assert getattr(prepare, "prepare_provider", None) or prepare.get("prepareProvider")
    signature = options["signature_help_provider"]
    triggers = getattr(signature, "trigger_characters", None) or signature["triggerCharacters"]
    assert "(" in triggers
    assert "source.organizeImports" in caps.code_action_provider.code_action_kinds
    assert "quickfix" in caps.code_action_provider.code_action_kinds  # Nova's and tsc's
    assert caps.code_lens_provider is not None
    tokens = options["semantic_tokens_provider"]
    legend = getattr(tokens, "legend", None) or tokens["legend"]
    assert getattr(legend, "token_types", None) or legend["tokenTypes"]  # tsc's legend
    workspace = editor.client_capabilities.workspace
    if workspace.file_operations and workspace.file_operations.will_rename:  # VS Code; not Neovim
        static = caps.workspace and caps.workspace.file_operations
        assert (static and static.will_rename and static.will_rename.filters) or (
            await editor.registered({"workspace/willRenameFiles"})
        )["workspace/willRenameFiles"]["filters"]
    assert caps.linked_editing_range_provider is None  # tsc answers it only inside JSX
    assert "textDocument/linkedEditingRange" not in registered


async def test_go_to_definition_of_a_function_an_import_and_a_game_global(
    editor: Editor, script: str
):
    client = editor.client
    call = position_of(SCRIPT, "plan(1", 1)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(script), position=call)
    )
    assert lines_of(found) == {("main.ts", 2)}
    imported = position_of(SCRIPT, "double(n)", 1)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(script), position=imported)
    )
    assert lines_of(found) == {("helper.ts", 0)}
    global_rules = position_of(SCRIPT, "rules.android", 1)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(script), position=global_rules)
    )
    assert {name for name, _ in lines_of(found)} == {"nova.d.ts"}  # the game's typings


async def test_go_to_type_definition_and_implementation(editor: Editor, script: str):
    client = editor.client
    act = position_of(SCRIPT, "act: AndroidTurn", 1)
    found = await client.text_document_type_definition_async(
        types.TypeDefinitionParams(text_document=doc(script), position=act)
    )
    assert {name for name, _ in lines_of(found)} == {"nova.d.ts"}  # AndroidTurn
    call = position_of(SCRIPT, "plan(1", 1)
    found = await client.text_document_implementation_async(
        types.ImplementationParams(text_document=doc(script), position=call)
    )
    assert lines_of(found) == {("main.ts", 2)}


async def test_references_and_highlights(editor: Editor, script: str):
    client = editor.client
    where = position_of(SCRIPT, "function plan", 10)
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(script),
            position=where,
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert lines_of(found) == {("main.ts", 2), ("main.ts", 6)}
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc(script), position=where)
    )
    assert sorted(h.range.start.line for h in highlights) == [2, 6]


async def test_document_and_workspace_symbols(editor: Editor, script: str):
    client = editor.client
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(script))
    )
    names = {s.name for s in symbols}
    assert {"plan", "act", "capacity"} <= names
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="double"))
    assert any(s.name == "double" and s.location.uri.endswith("helper.ts") for s in found)


async def test_signature_help_inside_a_call(editor: Editor, script: str):
    where = position_of(SCRIPT, "'a')", 1)
    help_ = await editor.client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=doc(script), position=where)
    )
    [signature] = help_.signatures
    assert signature.label == "plan(n: number, label: string): number"
    assert (
        help_.active_parameter if help_.active_parameter is not None else signature.active_parameter
    ) == 1


async def test_rename_a_function_everywhere(editor: Editor, script: str):
    client = editor.client
    where = position_of(SCRIPT, "function plan", 10)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(script), position=where)
    )
    assert prepared is not None
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc(script), position=where, new_name="schedule")
    )
    edits = (
        edit.changes[script]
        if edit.changes
        else [e for c in edit.document_changes for e in c.edits]
    )
    assert sorted(e.range.start.line for e in edits) == [2, 6] and {e.new_text for e in edits} == {
        "schedule"
    }


async def test_formatting_whole_document_a_range_and_on_type(editor: Editor):
    text = "const  a=1;\nfunction f(){return a}\nexport default (): Action => ({ type: 'android.wait' });\n"
    uri = editor.open("fwd/messy.ts", text)
    client = editor.client
    options = types.FormattingOptions(tab_size=2, insert_spaces=True)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(text_document=doc(uri), options=options)
    )
    assert edits and {e.range.start.line for e in edits} >= {0, 1}
    line_1 = types.Range(types.Position(1, 0), types.Position(1, 22))
    edits = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(text_document=doc(uri), range=line_1, options=options)
    )
    assert edits and {e.range.start.line for e in edits} == {1}
    edits = await client.text_document_on_type_formatting_async(
        types.DocumentOnTypeFormattingParams(
            text_document=doc(uri), position=types.Position(1, 22), ch="}", options=options
        )
    )
    assert edits and all(e.range.start.line == 1 for e in edits)


async def test_folding_and_selection_ranges(editor: Editor, script: str):
    client = editor.client
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(doc(script)))
    assert any(f.start_line == 5 and f.end_line >= 7 for f in folds)  # the turn function's body
    where = position_of(SCRIPT, "plan(1", 1)
    [selection] = await client.text_document_selection_range_async(
        types.SelectionRangeParams(text_document=doc(script), positions=[where])
    )
    depth = 0
    while selection is not None:
        depth, selection = depth + 1, selection.parent
    assert depth >= 3  # the name, the call, the statement...


async def test_call_hierarchy_incoming_and_outgoing(editor: Editor, script: str):
    client = editor.client
    where = position_of(SCRIPT, "function plan", 10)
    [item] = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(text_document=doc(script), position=where)
    )
    assert item.name == "plan"
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item)
    )
    assert [call.from_.name for call in incoming] == ["act"]
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(item)
    )
    assert "double" in {call.to.name for call in outgoing}


async def test_semantic_tokens_whole_and_range(editor: Editor, script: str):
    client = editor.client
    full = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(doc(script))
    )
    assert full.data and len(full.data) % 5 == 0
    first_lines = types.Range(types.Position(0, 0), types.Position(2, 0))
    part = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(text_document=doc(script), range=first_lines)
    )
    assert part.data and len(part.data) < len(full.data)


async def test_the_editors_typescript_settings_turn_on_inlay_hints_and_reference_lenses(
    editor: Editor, script: str
):
    client = editor.client
    client.set_configuration(TYPESCRIPT_SETTINGS, section="typescript")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={})
    )  # "pull them again"
    whole = types.Range(types.Position(0, 0), types.Position(10, 0))
    hints = []
    async with asyncio.timeout(10):
        while not hints:
            hints = (
                await client.text_document_inlay_hint_async(
                    types.InlayHintParams(text_document=doc(script), range=whole)
                )
                or []
            )
            await asyncio.sleep(0.05)
    labels = {
        "".join(p.value for p in h.label) if isinstance(h.label, list) else h.label for h in hints
    }
    assert {"n:", "label:"} <= {label.strip() for label in labels}  # plan(1, 'a')
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(doc(script)))
    nova = [lens for lens in lenses if lens.command and lens.command.command == "nova.dryRun"]
    theirs = [lens for lens in lenses if lens.command is None]
    assert len(nova) == 1 and theirs  # Nova's dry-run lens and tsc's reference counts
    resolved = await client.code_lens_resolve_async(theirs[0])
    assert "reference" in resolved.command.title


async def test_code_actions_merge_novas_quick_fixes_and_tscs(editor: Editor, script: str):
    # `double` is not imported (tsc: add the import); 12 next to cargo is a rule's value (Nova).
    text = (
        "const total = double(2) + ((world.androids[0]?.cargo.metal ?? 0) >= 12 ? 1 : 0);\n"
        "export default (): Action => ({ type: 'android.wait' });\n"
    )
    uri = editor.open("fwd/fixes.ts", text)
    diagnostics = await editor.diagnostics(
        uri, until=lambda ds: any(d.code == "rule-literal" for d in ds)
    )
    line = types.Range(types.Position(0, 0), types.Position(0, len(text.splitlines()[0])))
    actions = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(uri),
            range=line,
            context=types.CodeActionContext(
                diagnostics=[d for d in diagnostics if d.range.start.line == 0]
            ),
        )
    )
    titles = [a.title for a in actions]
    assert any("rules.android.cargoCapacity" in t for t in titles), titles  # Nova's
    assert any("import" in t.lower() and "helper" in t for t in titles), titles  # tsc's
    organize = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=doc(script),
            range=line,
            context=types.CodeActionContext(
                diagnostics=[], only=[types.CodeActionKind.SourceOrganizeImports]
            ),
        )
    )
    assert [a.kind for a in organize] == [types.CodeActionKind.SourceOrganizeImports]


async def test_renaming_a_file_updates_its_imports(editor: Editor, script: str):
    workspace = editor.client_capabilities.workspace
    if not (workspace.file_operations and workspace.file_operations.will_rename):
        offered = (
            editor.server_capabilities.workspace
            and editor.server_capabilities.workspace.file_operations
        )
        assert not (offered and offered.will_rename)
        assert "workspace/willRenameFiles" not in editor.client.registrations  # type: ignore[attr-defined]
        return  # an editor that does not say it asks before renaming is not offered it (Neovim)
    old = script.rsplit("/", 1)[0] + "/helper.ts"
    new = script.rsplit("/", 1)[0] + "/helpers.ts"
    edit = await editor.client.workspace_will_rename_files_async(
        types.RenameFilesParams(files=[types.FileRename(old_uri=old, new_uri=new)])
    )
    edits = (
        edit.changes[script]
        if edit.changes
        else [e for c in edit.document_changes if c.text_document.uri == script for e in c.edits]
    )
    assert any("helpers" in e.new_text for e in edits)


async def test_a_rules_file_gets_none_of_the_typescript_features(editor: Editor):
    uri = editor.open("fwd/rules.json", '{ "android": { "cargoCapacity": 6 } }\n')
    found = await editor.client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(uri), position=types.Position(0, 5))
    )
    assert not found
    symbols = await editor.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(doc(uri))
    )
    assert not symbols
