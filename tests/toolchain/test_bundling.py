"""Bundling: many files in, one ES module out; forbidden imports and syntax errors refused with
file:line:col; in-memory sources never reach outside their private folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nova_tools.toolchain.bundle import (
    BundleError,
    bundle_file,
    bundle_sources,
    materialize_sources,
)
from nova_tools.toolchain.diagnostics import CompileError


def _no_imports_left(code: str) -> bool:
    return not re.search(r"^\s*import\b|\bimport\s*\(|\brequire\s*\(", code, re.M)


def test_multi_file_android_bundles_into_one_module_with_default_export(project: Path):
    bundle = bundle_file(project)
    assert re.search(r"export\s*\{\s*\w+ as default\s*\}", bundle.code)
    assert _no_imports_left(bundle.code)
    assert "function step" in bundle.code and "function remember" in bundle.code
    assert sorted(Path(p).name for p in bundle.inputs) == ["main.ts", "memory.ts", "nav.ts"]
    assert bundle.warnings == ()


def test_in_memory_sources_bundle_with_names_as_given(good_files):
    bundle = bundle_sources(good_files, "main.ts")
    assert bundle.entry == "main.ts"
    assert sorted(bundle.inputs) == ["lib/nav.ts", "main.ts", "memory.ts"]
    assert _no_imports_left(bundle.code)


def test_bare_package_import_is_refused_with_its_location(tmp_path: Path):
    entry = tmp_path / "main.ts"
    entry.write_text(
        "// a comment\nimport fs from 'fs';\nexport default () => ({ type: 'android.wait' });\n"
    )
    with pytest.raises(BundleError) as caught:
        bundle_file(entry)
    [d] = caught.value.diagnostics
    assert (Path(d.file).name, d.line, d.col, d.code) == ("main.ts", 2, 16, "bare-import")
    assert "bare import of package 'fs' is not allowed" in d.message
    assert isinstance(caught.value, CompileError)
    assert f"{entry}:2:16 bare import" in str(caught.value) or "main.ts:2:16 bare import" in str(
        caught.value
    )


def test_installed_package_is_not_bundled_either(tmp_path: Path):
    # A node_modules folder next to the android must not be swallowed into the bundle.
    pkg = tmp_path / "node_modules" / "helper"
    pkg.mkdir(parents=True)
    (pkg / "package.json").write_text('{"name": "helper", "main": "index.js"}')
    (pkg / "index.js").write_text("export const secret = 42;\n")
    entry = tmp_path / "main.ts"
    entry.write_text(
        "import { secret } from 'helper';\nexport default () => ({ type: 'android.broadcast', content: String(secret) });\n"
    )
    with pytest.raises(BundleError) as caught:
        bundle_file(entry)
    assert [(d.line, d.col, d.code) for d in caught.value.diagnostics] == [(1, 24, "bare-import")]


def test_syntax_error_is_refused_with_its_location():
    files = {
        "main.ts": "import { x } from './lib';\nexport default () => x;\n",
        "lib.ts": "const s = 'héllo€';\nexport const x = (1 +* 2);\n",
    }
    with pytest.raises(BundleError) as caught:
        bundle_sources(files, "main.ts")
    [d] = caught.value.diagnostics
    assert (d.file, d.line, d.col) == ("lib.ts", 2, 22)  # columns in characters, from 1
    assert d.source == "esbuild" and 'Unexpected "*"' in d.message
    assert "lib.ts:2:22 Unexpected" in str(caught.value)


def test_syntax_error_column_counts_characters_not_bytes():
    files = {"main.ts": "const s = 'héllo€'; const t = (1 +* 2);\nexport default () => s;\n"}
    with pytest.raises(BundleError) as caught:
        bundle_sources(files, "main.ts")
    assert (caught.value.diagnostics[0].line, caught.value.diagnostics[0].col) == (1, 35)


def test_type_only_import_of_a_sibling_is_fine():
    files = {
        "main.ts": "import type { Plan } from './plan';\nimport { Plan2 } from './plan';\nconst p: Plan | Plan2 = 1;\n"
        "export default (): Action => ({ type: 'android.broadcast', content: String(p) });\n",
        "plan.ts": "export type Plan = number;\nexport type Plan2 = number;\n",
    }
    assert "export" in bundle_sources(files, "main.ts").code


def test_missing_default_export_is_refused():
    with pytest.raises(BundleError) as caught:
        bundle_sources(
            {"main.ts": "export const turn = () => ({ type: 'android.wait' });\n"}, "main.ts"
        )
    [d] = caught.value.diagnostics
    assert (d.file, d.line, d.col, d.code) == ("main.ts", 1, 1, "no-default-export")


def test_unresolved_relative_import_is_refused():
    with pytest.raises(BundleError) as caught:
        bundle_sources({"main.ts": "import x from './nope';\nexport default x;\n"}, "main.ts")
    [d] = caught.value.diagnostics
    assert (d.file, d.line, d.col) == ("main.ts", 1, 15) and "Could not resolve" in d.message


@pytest.mark.parametrize(
    "source, code",
    [
        ("import x from '../../../../../../etc/hosts';", "outside-import"),
        ("import x from '../outside.ts';", "outside-import"),
        ("import x from '/etc/hosts';", "absolute-import"),
        ("const x = await import('../../../../../etc/hosts');", "outside-import"),
    ],
)
def test_in_memory_sources_cannot_import_outside_their_folder(source, code):
    files = {"main.ts": source + "\nexport default x;\n"}
    with pytest.raises(BundleError) as caught:
        bundle_sources(files, "main.ts")
    [d] = caught.value.diagnostics
    assert d.code == code and d.file == "main.ts" and d.line == 1
    assert "127.0.0.1" not in str(caught.value)  # never quote a file from outside


def test_nested_file_may_import_its_parent():
    files = {
        "main.ts": "import { f } from './lib/a';\nexport default f;\n",
        "lib/a.ts": "import { g } from '../b';\nexport const f = (): Action => g();\n",
        "b.ts": "export const g = (): Action => ({ type: 'android.wait' });\n",
    }
    assert (
        "function" in bundle_sources(files, "main.ts").code
        or "=>" in bundle_sources(files, "main.ts").code
    )


@pytest.mark.parametrize(
    "name",
    [
        "../main.ts",
        "/tmp/main.ts",
        "a/../../b.ts",
        "C:/x.ts",
        "a\\b.ts",
        "",
        "we ird.ts",
        "-x.ts(1,2).ts",
    ],
)
def test_unsafe_file_names_are_refused(name):
    with pytest.raises(CompileError) as caught:
        bundle_sources({name: "export default 1;\n", "main.ts": "export default 1;\n"}, "main.ts")
    assert "file name" in str(caught.value)


def test_entry_must_be_among_the_files():
    with pytest.raises(CompileError, match="the entry file 'main.ts' is not among the sources"):
        bundle_sources({"bot.ts": "export default 1;\n"}, "main.ts")


def test_private_folder_is_removed_afterwards():
    with materialize_sources({"a/main.ts": "export default 1;\n"}, "./a/main.ts") as (root, entry):
        assert entry == "a/main.ts" and (root / "a" / "main.ts").is_file()
        assert (root.stat().st_mode & 0o077) == 0  # private
    assert not root.exists()


def test_a_project_of_too_many_files_is_refused_in_one_sentence():
    # 100,000 one-line files kept an MCP upload busy for more than ten minutes (a quadratic check
    # for names given twice, then a file each written and bundled)
    files = {f"f{i}.ts": "export const x = 1;\n" for i in range(100_000)}
    files["main.ts"] = "export default () => ({ type: 'android.wait' });\n"
    with pytest.raises(
        CompileError, match="100001 source files were given; a script may have at most 500"
    ):
        bundle_sources(files, "main.ts")
    with pytest.raises(CompileError, match=r"file 'A\.ts' is given twice"):
        bundle_sources({"a.ts": "", "A.ts": "", "main.ts": files["main.ts"]}, "main.ts")
