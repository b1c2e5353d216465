"""An 8 MB rules buffer is answered like a small one, and an edit is never answered from the
parse of the text before it (the server keeps the last parses; speed is in bench/lsp_bench.py)."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types

from .conftest import Editor

pytestmark = pytest.mark.asyncio(loop_scope="module")


def big(capacity: int) -> str:
    body = {"android": {"cargoCapacity": capacity}, "match": {"finalRound": 7}}
    text = json.dumps(body, indent=2)
    return text[:-1] + "  // " + "é" * (8 * 1024 * 1024) + "\n}\n"


async def test_an_8_mb_rules_buffer_answers_hover_and_completion_of_its_latest_text(
    editor: Editor,
):
    uri = editor.open("big/rules.json", big(10), language="json")
    assert not [d for d in await editor.diagnostics(uri) if d.severity == 1]
    for capacity in (10, 13):
        if capacity != 10:
            editor.change(uri, big(capacity))
        hover = await editor.hover(uri, 2, 6)
        assert hover is not None and f"This file sets `{capacity}`" in hover.contents.value, hover
    completion = await editor.client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(2, 4)
        )
    )
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert {"memoryLimit", "batteryCapacity"} <= {i.label for i in items or []}
    editor.change(uri, big(13).replace('"cargoCapacity": 13', '"cargoCapacty": 13'))
    found = await editor.diagnostics(uri, until=lambda ds: bool(ds))
    assert any("cargoCapacty" in d.message for d in found), found
