"""compile_android with an overlay: the tools resolve the imports; a replaced file's text wins,
and the result is byte for byte what the same files saved give."""

from __future__ import annotations

from pathlib import Path

import pytest

from nova_tools.toolchain.compile import compile_android
from nova_tools.toolchain.diagnostics import CompileError

MAIN = (
    "import * as all from '../shared/all.js';\n"
    "const turn: AndroidTurn = () => ({ type: 'android.move', direction: all.heading });\n"
    "export default turn;\n"
)


def _project(root: Path) -> Path:
    (root / "bot").mkdir()
    (root / "shared" / "dir").mkdir(parents=True)
    (root / "shared" / "all.ts").write_text("export * from './dir/index';\n", encoding="utf-8")
    (root / "shared" / "dir" / "index.ts").write_text(
        "export const heading: Direction = 'north'; // nord\n", encoding="utf-8"
    )
    entry = root / "bot" / "main.ts"
    entry.write_text(MAIN, encoding="utf-8")
    return entry


def test_a_replaced_file_reached_through_a_re_export_is_bundled_as_if_saved(tmp_path):
    entry = _project(tmp_path)
    edited = tmp_path / "shared" / "dir" / "index.ts"
    south = "export const heading: Direction = 'south'; // süd ☕\n"

    overlaid = compile_android(entry, {edited: south, tmp_path / "elsewhere.ts": "x"})
    assert "'north'" not in overlaid.bundle and '"south"' in overlaid.bundle
    assert edited.read_text(encoding="utf-8").endswith("'north'; // nord\n")  # disk untouched

    edited.write_text(south, encoding="utf-8")
    saved = compile_android(entry)
    assert (overlaid.bundle, overlaid.sha256, overlaid.entry) == (
        saved.bundle,
        saved.sha256,
        saved.entry,
    )
    assert overlaid.source_map == saved.source_map
    assert saved.source_map is not None and "../shared/dir/index.ts" in saved.source_map["sources"]


def test_a_type_error_in_a_replaced_file_names_the_real_file(tmp_path):
    entry = _project(tmp_path)
    edited = tmp_path / "shared" / "dir" / "index.ts"
    with pytest.raises(CompileError) as raised:
        compile_android(entry, {edited: "export const heading: Direction = 'up';\n"})
    [error] = raised.value.diagnostics
    assert (error.file, error.line) == (str(edited), 1) and "nova-shadow" not in str(raised.value)
