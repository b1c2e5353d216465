"""compile = type check + bundle; every problem is one CompileError with readable diagnostics."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest

from nova_tools.toolchain import (
    CompileError,
    compile_android,
    compile_sources,
    typecheck_file,
    typecheck_sources,
)
from nova_tools.toolchain.typecheck import COMPILER_OPTIONS, parse_tsc_output, tsc_option_args


def test_compile_android_from_disk(project: Path):
    script = compile_android(project)
    assert script.entry == str(project)
    assert script.sha256 == hashlib.sha256(script.bundle.encode()).hexdigest()
    assert "as default" in script.bundle and script.warnings == ()


def test_compile_sources_is_deterministic(good_files):
    a = compile_sources(good_files, "main.ts")
    b = compile_sources(dict(reversed(list(good_files.items()))), "main.ts")
    assert a.sha256 == b.sha256 and a.entry == "main.ts"


def test_type_errors_raise_compile_error_with_every_diagnostic(good_files):
    files = dict(good_files)
    files["lib/nav.ts"] = (
        "export function step(width: number): Action {\n"
        "  const n: number = rules.android.cargoCapacty;\n"
        "  return { type: 'android.move', direction: width > n ? 'up' : 'east' };\n"
        "}\n"
    )
    with pytest.raises(CompileError) as caught:
        compile_sources(files, "main.ts")
    error = caught.value
    assert [(d.file, d.line, d.code) for d in error.diagnostics] == [
        ("lib/nav.ts", 2, "TS2551"),
        ("lib/nav.ts", 3, "TS2322"),
    ]
    text = str(error)
    assert text.startswith("main.ts has 2 type errors:")
    assert (
        "lib/nav.ts:2:35 Property 'cargoCapacty' does not exist on type 'AndroidRules'. Did you mean 'cargoCapacity'?"
        in text
    )


def test_diagnostics_on_disk_name_absolute_files(project: Path):
    (project.parent / "memory.ts").write_text(
        "export interface Note { text: string }\nexport const remember = (_: unknown): Note => ({ text: 1 });\n"
    )
    with pytest.raises(CompileError) as caught:
        compile_android(project)
    [d] = caught.value.diagnostics
    assert d.file == str(project.parent / "memory.ts") and (d.line, d.code) == (2, "TS2322")


def test_syntax_errors_raise_the_same_exception_type():
    with pytest.raises(CompileError) as caught:
        compile_sources({"main.ts": "export default () => ({ type: 'android.wait' }\n"}, "main.ts")
    assert caught.value.diagnostics[0].file == "main.ts" and caught.value.diagnostics[0].line == 2


def test_bare_file_without_tsconfig_is_checked_against_the_typings(tmp_path: Path):
    # A tsconfig that would let DOM globals in must not be used: uploads are checked one way.
    (tmp_path / "tsconfig.json").write_text(
        '{"compilerOptions": {"lib": ["es2022", "dom"], "strict": false}}'
    )
    entry = tmp_path / "bot.ts"
    entry.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.broadcast', content: document.title + world.round });\n"
        "export default t;\n"
    )
    [d] = typecheck_file(entry)
    assert (d.line, d.code) == (1, "TS2584") and "Cannot find name 'document'" in d.message
    fine = tmp_path / "fine.ts"
    fine.write_text(
        "const t: AndroidTurn = () => ({ type: 'android.move', direction: 'west' });\nexport default t;\n"
    )
    assert typecheck_file(fine) == []


def test_typecheck_sources_reports_names_as_given(good_files):
    assert typecheck_sources(good_files, "main.ts") == []


def test_type_reference_outside_the_sources_is_refused_quietly(tmp_path: Path):
    secret = tmp_path / "secret.ts"
    secret.write_text("const password: number = 'hunter2';\n")
    files = {
        "main.ts": f"/// <reference path=\"{secret}\" />\nexport default (): Action => ({{ type: 'android.wait' }});\n"
    }
    with pytest.raises(CompileError) as caught:
        compile_sources(files, "main.ts")
    assert "reaches outside the uploaded sources" in str(caught.value)
    assert "hunter2" not in str(caught.value) and "password" not in str(caught.value)


def test_compile_error_pickles():
    error = CompileError.single("the entry file is missing")
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error) == "the entry file is missing"
    assert copy.diagnostics == error.diagnostics


def test_missing_entry_file(tmp_path: Path):
    with pytest.raises(CompileError, match="does not exist"):
        compile_android(tmp_path / "nope.ts")


def test_a_project_folder_in_place_of_its_entry_file_names_the_entry_file(tmp_path: Path):
    """`nova new-android my-bot` makes a folder: a player who passes it gets told where the entry
    is (it once read 'my-bot does not exist or is not a file')."""
    (tmp_path / "my-bot" / "src").mkdir(parents=True)
    (tmp_path / "my-bot" / "src" / "main.ts").write_text(
        "export default () => ({ type: 'android.wait' });\n"
    )
    with pytest.raises(CompileError) as caught:
        compile_android(tmp_path / "my-bot")
    assert (
        str(caught.value)
        == f"{tmp_path / 'my-bot'} is a folder; give the android's entry file ({tmp_path / 'my-bot' / 'src' / 'main.ts'})"
    )
    with pytest.raises(CompileError) as caught:
        compile_android(tmp_path / "my-bot" / "src")
    assert (
        str(caught.value)
        == f"{tmp_path / 'my-bot' / 'src'} is a folder; give the android's entry file"
    )


def test_parse_tsc_output_handles_chains_and_global_errors(tmp_path: Path):
    output = (
        "src/a.ts(7,3): error TS2345: Argument of type 'X' is not assignable to parameter of type 'Y'.\n"
        "  Types of parameters 'q' and 'q' are incompatible.\n"
        "    Type 'number' is not assignable to type 'string'.\n"
        "error TS5023: Unknown compiler option 'foo'.\n"
        "dir (1)/b c.ts(1,1): warning TS6133: 'x' is declared but its value is never read.\n"
        "\nFound 3 errors.\n"
    )
    a, g, b = parse_tsc_output(output, tmp_path, display=lambda p: p)
    assert (a.file, a.line, a.col, a.code) == ("src/a.ts", 7, 3, "TS2345")
    assert a.message.splitlines()[1:] == [
        "Types of parameters 'q' and 'q' are incompatible.",
        "Type 'number' is not assignable to type 'string'.",
    ]
    assert (g.file, g.line, g.code, g.format()) == (
        "",
        0,
        "TS5023",
        "Unknown compiler option 'foo'.",
    )
    assert (b.file, b.severity) == ("dir (1)/b c.ts", "warning")


def test_compiler_options_as_flags():
    args = tsc_option_args()
    assert (
        args[:1] == ["--strict"]
        and ["--lib", "es2022"] == args[args.index("--lib") : args.index("--lib") + 2]
    )
    assert ["--types", ""] == args[args.index("--types") : args.index("--types") + 2]
    assert COMPILER_OPTIONS["strict"] is True and COMPILER_OPTIONS["types"] == []
