"""The VS Code extension packs into a VSIX as a user installs it: `npm run package` with no
terminal, one bundle, no sources of other tools, no dotfiles, a LICENSE; and it takes the same
files for rules files as the server does."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from nova_tools.lsp.context import is_rules_document

from .conftest import REPO

pytestmark = pytest.mark.realpart

EXTENSION = REPO / "editor" / "vscode"
PACKAGE_TIMEOUT_S = 180


def manifest() -> dict:
    return json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def vsix(tmp_path_factory) -> zipfile.ZipFile:
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        message = "the extension's npm packages are not installed (`make test` runs `npm ci` in editor/vscode)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    out = tmp_path_factory.mktemp("vsix") / "nova.vsix"
    try:
        done = subprocess.run(
            ["npm", "run", "package", "--", "--out", str(out)],
            cwd=EXTENSION,
            capture_output=True,
            text=True,
            timeout=PACKAGE_TIMEOUT_S,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`npm run package` did not finish within {PACKAGE_TIMEOUT_S} s")
    assert done.returncode == 0, (
        f"`npm run package` failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    with zipfile.ZipFile(out) as archive:  # a VSIX is a zip
        yield archive


def test_the_vsix_holds_the_bundle_the_manifest_the_readme_the_license_and_the_schema(vsix):
    assert sorted(vsix.namelist()) == sorted(
        [
            "[Content_Types].xml",
            "extension.vsixmanifest",
            "extension/package.json",
            "extension/readme.md",
            "extension/LICENSE.txt",
            "extension/dist/extension.js",
            "extension/schemas/rules.schema.json",
        ]
    )
    assert not [
        name for name in vsix.namelist() if any(part.startswith(".") for part in name.split("/"))
    ]
    assert "MIT License" in vsix.read("extension/LICENSE.txt").decode()


def test_the_packed_manifest_points_at_files_in_the_vsix(vsix):
    packed = json.loads(vsix.read("extension/package.json"))
    assert "extension/" + packed["main"].removeprefix("./") in vsix.namelist()
    [validation] = packed["contributes"]["jsonValidation"]
    assert "extension/" + validation["url"].removeprefix("./") in vsix.namelist()
    assert packed["license"] == "MIT" and packed["repository"]["url"]


def test_the_bundle_carries_its_libraries_and_needs_only_vscode_and_node(vsix, tmp_path: Path):
    bundle = vsix.read("extension/dist/extension.js").decode()
    builtins = set(
        json.loads(
            subprocess.run(
                ["node", "-p", "JSON.stringify(require('module').builtinModules)"],
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            ).stdout
        )
    )
    required = set(re.findall(r"""require\(\s*["']([^"']+)["']\s*\)""", bundle))
    outside = {name for name in required if name.removeprefix("node:") not in builtins}
    assert outside == {"vscode"}, outside
    assert "LanguageClient" in bundle  # vscode-languageclient is inside
    (tmp_path / "extension.js").write_text(bundle, encoding="utf-8")
    checked = subprocess.run(
        ["node", "--check", str(tmp_path / "extension.js")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr


def test_the_packed_schema_is_the_generated_one_allowing_trailing_commas(vsix):
    packed = json.loads(vsix.read("extension/schemas/rules.schema.json"))
    generated = json.loads((REPO / "schemas" / "rules.schema.json").read_text(encoding="utf-8"))
    assert (
        packed.pop("allowTrailingCommas") is True
    )  # the rulebook's rules files end groups with a comma
    assert packed == generated


# --- the manifest: which files are rules files, when the extension wakes up -----------------------

NAMES = [
    "rules.json",
    "rules.jsonc",
    "tiny.nova-rules.json",
    "duel.nova-rules.jsonc",
    "database.rules.json",
    "tiny.rules.json",
    "package.json",
    "tsconfig.json",
    "myrules.json",
]


def vscode_treats_as_rules_file(name: str) -> bool:
    """Whether package.json maps `name` to JSON with comments and the rules schema (VS Code
    matches `filenames` exactly and `filenamePatterns`/`fileMatch` globs against the file name)."""
    [language] = manifest()["contributes"]["languages"]
    as_jsonc = name in language["filenames"] or any(
        fnmatch.fnmatchcase(name, p) for p in language["filenamePatterns"]
    )
    [validation] = manifest()["contributes"]["jsonValidation"]
    validated = any(fnmatch.fnmatchcase(name, p) for p in validation["fileMatch"])
    assert language["id"] == "jsonc" and as_jsonc == validated, name
    return as_jsonc


@pytest.mark.parametrize("name", NAMES)
def test_the_extension_and_the_server_agree_on_what_a_rules_file_is(name):
    assert vscode_treats_as_rules_file(name) == is_rules_document(name, "{}")


def test_firebase_database_rules_are_not_taken_for_nova_rules():
    assert not vscode_treats_as_rules_file("database.rules.json")


def test_vscode_keeps_its_own_typescript_features_unless_asked():
    # Two providers of definitions, symbols, inlay hints... would show everything twice.
    setting = manifest()["contributes"]["configuration"]["properties"]["nova.forwardTypeScript"]
    assert setting["default"] is False
    assert (
        "forwardTypeScript: config.get('forwardTypeScript') === true"
        in (EXTENSION / "src" / "extension.js").read_text()
    )


def test_a_lone_rules_file_wakes_the_extension():
    # A file opened without a folder has no workspace to "contain" it: its language must do it.
    assert "onLanguage:jsonc" in manifest()["activationEvents"]
    assert "onLanguage:typescript" in manifest()["activationEvents"]


def test_the_extension_bundles_with_the_repositorys_pinned_esbuild_and_is_locked():
    root = json.loads((REPO / "package.json").read_text(encoding="utf-8"))
    ours = manifest()
    assert ours["devDependencies"]["esbuild"] == root["dependencies"]["esbuild"]
    assert all(
        re.fullmatch(r"\d+\.\d+\.\d+", v)
        for v in {**ours["dependencies"], **ours["devDependencies"]}.values()
    )
    lock = json.loads((EXTENSION / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"][""]["devDependencies"] == ours["devDependencies"]
    assert (
        lock["packages"]["node_modules/@vscode/vsce"]["version"]
        == ours["devDependencies"]["@vscode/vsce"]
    )
