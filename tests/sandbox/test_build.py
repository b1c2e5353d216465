"""The sandbox build recorded in game files, the compiled-module cache, and a quickjs.wasm that
cannot be built."""

from __future__ import annotations

import importlib.metadata

import pytest

from nova_tools.sandbox import SANDBOX_BUILD, Sandbox, SandboxUnavailable, build, wasm_build
from nova_tools.sandbox.guest import Guest
from nova_tools.sandbox.wasi import TurnState


def test_the_build_names_the_pinned_engine_versions():
    assert SANDBOX_BUILD["wasmtime"] == importlib.metadata.version("wasmtime") == "50.0.1"
    assert SANDBOX_BUILD["zig"] == importlib.metadata.version("ziglang") == "0.15.2"
    assert SANDBOX_BUILD["quickjs"] == "0.17.0"
    assert SANDBOX_BUILD["wasmFuelPerTick"] == str(build.WASM_FUEL_PER_TICK)
    assert all(isinstance(v, str) for v in SANDBOX_BUILD.values())


def test_the_build_names_the_quickjs_inside_the_wasm(sandbox: Sandbox):
    guest = Guest(sandbox._engine, sandbox._pre, TurnState())
    version_ptr = guest.call("qjs_get_quickjs_version")
    version = guest.read(version_ptr, 32).split(b"\0")[0].decode()

    assert SANDBOX_BUILD["quickjs"] == version


@pytest.fixture
def built_wasm(monkeypatch):
    """The wasm already built in the real cache, found there whatever XDG_CACHE_HOME says next."""
    wasm = wasm_build.ensure_built()
    monkeypatch.setattr(wasm_build, "cached_wasm", lambda: wasm)
    return wasm


def test_the_compiled_module_is_cached_and_reused(tmp_path, monkeypatch, built_wasm):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build._load()
    [cached] = (tmp_path / "nova-tools" / "sandbox").glob("*.cwasm")
    written = cached.stat().st_mtime_ns

    build._load()

    assert cached.stat().st_mtime_ns == written


def test_a_damaged_cache_file_is_compiled_over(tmp_path, monkeypatch, built_wasm):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build._load()
    [cached] = (tmp_path / "nova-tools" / "sandbox").glob("*.cwasm")
    cached.write_bytes(b"not a compiled module")

    compiled = build._load()

    assert compiled.module is not None
    assert cached.read_bytes() != b"not a compiled module"


def test_an_unwritable_cache_folder_costs_only_a_compile(tmp_path, monkeypatch, built_wasm):
    blocker = tmp_path / "a-file"
    blocker.write_text("the cache folder cannot be created under a file")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))

    assert build._load().module is not None


def test_a_quickjs_wasm_that_cannot_be_built_makes_the_sandbox_unavailable_with_a_clear_message(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(wasm_build, "cached_wasm", lambda: tmp_path / "not-built.wasm")
    monkeypatch.setattr(wasm_build, "ZIG_VERSION", "0.0.1")  # not the zig that is installed
    monkeypatch.setattr(build, "_compiled", None)

    with pytest.raises(SandboxUnavailable) as raised:
        Sandbox()

    assert "quickjs.wasm could not be built" in str(raised.value)
    assert "make setup" in str(raised.value)
