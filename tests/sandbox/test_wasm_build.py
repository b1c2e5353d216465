"""Our own quickjs.wasm (sandbox/wasm_build.py): the same bytes on every machine, the bytes the
sandbox build records, and nothing else loaded."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from nova_tools.sandbox import SANDBOX_BUILD, Sandbox, SandboxUnavailable, build, wasm_build


def test_the_sandbox_runs_the_pinned_build_and_records_its_digest():
    compiled = build.compiled_quickjs()

    assert compiled.wasm_sha256 == wasm_build.WASM_SHA256 == SANDBOX_BUILD["quickjsWasm"]
    assert SANDBOX_BUILD["quickjs"] == wasm_build.QUICKJS_VERSION
    assert SANDBOX_BUILD["zig"] == wasm_build.ZIG_VERSION


def test_building_afresh_gives_the_pinned_bytes(tmp_path):
    # Another folder, so nothing of the cached build is reused but zig's own libc objects: the
    # sdist is unpacked anew, patched, compiled and linked (`wasm_build --check` also starts zig
    # from an empty cache, as a fresh machine does).
    built = wasm_build.build(tmp_path / "quickjs.wasm", quiet=True)

    assert hashlib.sha256(built.read_bytes()).hexdigest() == wasm_build.WASM_SHA256


def test_bytes_other_than_the_pinned_build_are_refused(tmp_path, monkeypatch):
    other = tmp_path / "quickjs.wasm"
    shutil.copyfile(wasm_build.ensure_built(), other)
    with other.open("ab") as out:
        out.write(b"\0\x05extra")  # a custom section: still a valid module, other bytes
    monkeypatch.setattr(wasm_build, "cached_wasm", lambda: other)
    monkeypatch.setattr(build, "_compiled", None)

    with pytest.raises(SandboxUnavailable) as raised:
        Sandbox()

    assert "not the pinned build" in str(raised.value)
    assert wasm_build.WASM_SHA256[:12] in str(raised.value)


def test_a_patch_that_no_longer_matches_its_source_stops_the_build(tmp_path):
    (tmp_path / "quickjs.c").write_text("/* a QuickJS-NG whose code moved on */\n")

    with pytest.raises(wasm_build.BuildFailed) as raised:
        wasm_build.patch(tmp_path)

    assert "no longer matches" in str(raised.value)


def test_a_missing_compiler_is_said_plainly(monkeypatch):
    monkeypatch.setattr(wasm_build, "ZIG_VERSION", "0.0.1")

    with pytest.raises(wasm_build.BuildFailed) as raised:
        wasm_build.zig_command()

    assert "the build needs 0.0.1" in str(raised.value)


def test_a_process_with_another_home_finds_the_users_build(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    built = wasm_build.ensure_built()  # in the user's own ~/.cache
    monkeypatch.setenv("HOME", str(tmp_path))  # what a test or a Ray worker with its own home has

    assert wasm_build.cached_wasm().is_relative_to(tmp_path)
    assert wasm_build.ensure_built() == built  # found, not built again
    assert not (tmp_path / ".cache").exists()
