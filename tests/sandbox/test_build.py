"""The sandbox build recorded in game files, the compiled-module cache, and a missing quickjs.wasm."""

from __future__ import annotations

import importlib.metadata

import pytest

from nova_tools.sandbox import SANDBOX_BUILD, Sandbox, SandboxUnavailable, build
from nova_tools.sandbox.guest import Guest
from nova_tools.sandbox.wasi import TurnState
from nova_tools.toolchain.paths import PINNED, Tool


def test_the_build_names_the_pinned_engine_versions():
    assert SANDBOX_BUILD["wasmtime"] == importlib.metadata.version("wasmtime") == "50.0.1"
    assert SANDBOX_BUILD["quickjs-wasi"] == PINNED["quickjs-wasi"] == "3.7.0"
    assert SANDBOX_BUILD["wasmFuelPerTick"] == str(build.WASM_FUEL_PER_TICK)
    assert all(isinstance(v, str) for v in SANDBOX_BUILD.values())


def test_the_build_names_the_quickjs_inside_the_wasm(sandbox: Sandbox):
    guest = Guest(sandbox._engine, sandbox._pre, TurnState())
    version_ptr = guest.call("qjs_get_quickjs_version")
    version = guest.read(version_ptr, 32).split(b"\0")[0].decode()

    assert SANDBOX_BUILD["quickjs"] == version


def test_the_compiled_module_is_cached_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build._load()
    [cached] = (tmp_path / "nova-tools" / "sandbox").glob("*.cwasm")
    written = cached.stat().st_mtime_ns

    build._load()

    assert cached.stat().st_mtime_ns == written


def test_a_damaged_cache_file_is_compiled_over(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build._load()
    [cached] = (tmp_path / "nova-tools" / "sandbox").glob("*.cwasm")
    cached.write_bytes(b"not a compiled module")

    compiled = build._load()

    assert compiled.module is not None
    assert cached.read_bytes() != b"not a compiled module"


def test_an_unwritable_cache_folder_costs_only_a_compile(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder cannot be created under a file")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))

    assert build._load().module is not None


def test_a_missing_quickjs_wasm_makes_the_sandbox_unavailable_with_a_clear_message(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("NOVA_QUICKJS_WASM_TEST", str(tmp_path / "nowhere.wasm"))
    missing = Tool(
        "QuickJS-NG for WASI (quickjs.wasm)",
        "NOVA_QUICKJS_WASM_TEST",
        "no-such-package/quickjs.wasm",
    )
    monkeypatch.setattr(build, "QUICKJS_WASM", missing)
    monkeypatch.setattr(build, "_compiled", None)

    with pytest.raises(SandboxUnavailable) as raised:
        Sandbox()

    assert "quickjs.wasm" in str(raised.value)
    assert "nova setup" in str(raised.value)
