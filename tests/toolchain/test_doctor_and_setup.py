"""nova doctor says what was found and what to do; nova setup installs the pins with npm."""

from __future__ import annotations

import importlib
import json
import os
import stat
from pathlib import Path

import pytest

from nova_tools.toolchain import paths
from nova_tools.toolchain.setup import SetupError, package_json, setup

# `nova_tools.toolchain.doctor` is also the name of the function the package re-exports.
doc = importlib.import_module("nova_tools.toolchain.doctor")


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_doctor_finds_the_pinned_tools_in_the_checkout(monkeypatch, tmp_path):
    # npm is only needed by `nova setup`; a stand-in keeps this test from starting Node.
    _script(tmp_path / "npm", "echo 10.9.0\n")
    monkeypatch.setenv("PATH", str(tmp_path) + os.pathsep + os.environ.get("PATH", ""))
    checks = {c.name: c for c in doc.doctor()}
    assert checks["tsc"].ok and checks["tsc"].version == paths.PINNED["typescript"]
    assert checks["esbuild"].ok and checks["esbuild"].version == paths.PINNED["esbuild"]
    assert (
        checks["quickjs-wasi"].ok and checks["quickjs-wasi"].version == paths.PINNED["quickjs-wasi"]
    )
    assert checks["typings"].ok
    assert (
        checks["npm"].required is False and checks["npm"].ok and checks["npm"].version == "10.9.0"
    )
    assert doc.healthy(list(checks.values()))
    assert doc.format_report(list(checks.values())).endswith("Everything Nova needs is in place.")


def test_missing_tool_says_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setattr(paths, "node_modules_dirs", lambda: [tmp_path / "node_modules"])
    monkeypatch.delenv("NOVA_ESBUILD", raising=False)
    check = doc.check_esbuild()
    assert not check.ok and check.path is None
    assert (
        "was not found" in check.detail
        and "nova setup" in check.detail
        and "NOVA_ESBUILD" in check.detail
    )
    report = doc.format_report([check])
    assert report.startswith("[missing] esbuild:") and "cannot compile" in report


def test_wrong_version_is_reported_against_the_pin(monkeypatch, tmp_path):
    fake = _script(tmp_path / "tsc", "echo 'Version 6.0.1'\n")
    monkeypatch.setenv("NOVA_TSC", str(fake))
    check = doc.check_tsc()
    assert not check.ok and check.version == "6.0.1"
    assert f"pinned to typescript {paths.PINNED['typescript']}" in check.detail


def test_broken_tool_is_reported(monkeypatch, tmp_path):
    fake = _script(tmp_path / "esbuild", "echo boom >&2; exit 3\n")
    monkeypatch.setenv("NOVA_ESBUILD", str(fake))
    check = doc.check_esbuild()
    assert not check.ok and "is broken" in check.detail and "exit code 3" in check.detail


def test_quickjs_version_comes_from_its_package_json(monkeypatch, tmp_path):
    (tmp_path / "quickjs.wasm").write_bytes(b"\0asm")
    monkeypatch.setenv("NOVA_QUICKJS_WASM", str(tmp_path / "quickjs.wasm"))
    check = doc.check_quickjs()
    assert not check.ok and "no readable package.json" in check.detail
    (tmp_path / "package.json").write_text(
        json.dumps({"name": "quickjs-wasi", "version": paths.PINNED["quickjs-wasi"]})
    )
    assert doc.check_quickjs().ok


FAKE_NPM = """\
echo "$@" > args.txt
pwd > cwd.txt
mkdir -p "node_modules/$(dirname {tsc})" "node_modules/$(dirname {esbuild})" "node_modules/$(dirname {wasm})"
touch "node_modules/{tsc}" "node_modules/{esbuild}" "node_modules/{wasm}"
echo "added 5 packages"
"""


def test_setup_installs_the_exact_pins_with_npm(tmp_path):
    npm = _script(
        tmp_path / "npm",
        FAKE_NPM.format(
            tsc=paths.TSC.relative, esbuild=paths.ESBUILD.relative, wasm=paths.QUICKJS_WASM.relative
        ),
    )
    target = tmp_path / "toolchain"
    result = setup(target, npm=str(npm))
    assert json.loads((target / "package.json").read_text())["dependencies"] == paths.PINNED
    assert (target / "args.txt").read_text().split() == ["install", "--no-audit", "--no-fund"]
    assert Path((target / "cwd.txt").read_text().strip()).resolve() == target.resolve()
    assert (
        set(result.tools) == {t.name for t in paths.ALL_TOOLS}
        and result.output == "added 5 packages"
    )
    assert package_json()["private"] is True


def test_setup_failure_is_explained(tmp_path):
    npm = _script(tmp_path / "npm", "echo 'ERR! network unreachable' >&2; exit 1\n")
    with pytest.raises(SetupError, match="failed .exit code 1.:\nERR! network unreachable"):
        setup(tmp_path / "toolchain", npm=str(npm))
    ok_but_empty = _script(tmp_path / "npm2", "exit 0\n")
    with pytest.raises(SetupError, match="still missing"):
        setup(tmp_path / "toolchain2", npm=str(ok_but_empty))


def test_setup_without_npm_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    check = doc.check_npm()
    assert not check.ok and not check.required and "only needed by `nova setup`" in check.detail
    with pytest.raises(SetupError, match="npm was not found.*nodejs.org"):
        setup(tmp_path / "toolchain")


def test_user_toolchain_dir_is_the_default_target(monkeypatch, tmp_path):
    monkeypatch.setenv("NOVA_TOOLCHAIN_DIR", str(tmp_path / "tc"))
    assert paths.user_toolchain_dir() == tmp_path / "tc"
    assert os.fspath(paths.node_modules_dirs()[-1]) == os.fspath(tmp_path / "tc" / "node_modules")
