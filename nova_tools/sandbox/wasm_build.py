"""Our own ``quickjs.wasm``: QuickJS-NG compiled for ``wasm32-wasi`` from registry sources.

    python -m nova_tools.sandbox.wasm_build          # build into the cache (make setup runs it)
    python -m nova_tools.sandbox.wasm_build --check  # build afresh in a temporary folder and
                                                     # compare with the pinned digest

Everything comes from the Python package index, pinned exactly, so a fresh machine builds the
same bytes as every other:

- the C sources of QuickJS-NG: the sdist ``quickjs-ng==0.17.0.2`` (its ``upstream-quickjs``
  folder), fetched with pip and checked against ``SDIST_SHA256``;
- the compiler: the ``ziglang`` package (a pinned dependency of nova-tools: clang, wasm-ld and
  wasi-libc for ``wasm32-wasi`` in one wheel), ``zig cc``;
- the glue: ``wasm/nova_quickjs.c`` beside this file (the sandbox's own entry points), and two
  source patches (``PATCHES``), applied as exact text replacements that must each match once.

The result is cached in ``~/.cache/nova-tools/sandbox`` under a key made of every input (the
sdist digest, the zig version, the flags, the glue and the patches); ``build.py`` loads it and
refuses bytes whose sha256 is not ``WASM_SHA256``, the digest ``SANDBOX_BUILD`` records. What
each choice cost and bought is in the sandbox README (issue 27).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import pwd
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

QUICKJS_SDIST = "quickjs-ng==0.17.0.2"
QUICKJS_VERSION = "0.17.0"  # QJS_VERSION_* in the sdist's quickjs.h (checked by the build)
SDIST_SHA256 = "43d2e48272208721a7aaea8e3f02d4b9318f12ef20cc4f5421b59d9a470706ef"
ZIG_VERSION = "0.15.2"  # pyproject.toml pins ziglang to it

GLUE = Path(__file__).resolve().parent / "wasm" / "nova_quickjs.c"
SOURCES = ("quickjs.c", "dtoa.c", "libregexp.c", "libunicode.c")

# -O3: the interpreter at full optimisation (the prebuilt quickjs-wasi 3.7.0 is size-optimised).
# NDEBUG is zig's own for -O3. Paths never reach the output: every file is compiled by its
# relative name and the debug sections are stripped (-s).
CFLAGS = ("-target", "wasm32-wasi", "-O3", "-D_GNU_SOURCE", "-w")
LDFLAGS = (
    "-target",
    "wasm32-wasi",
    "-O3",
    "-s",
    "-mexec-model=reactor",  # a library: _initialize, no main
    "-Wl,-z,stack-size=1048576",  # the C stack QuickJS's 128 KiB JS stack limit is measured on
)
# The raw QuickJS API the per-turn path calls (JSValues as i64), and the stack pointer the images
# save and restore (guest.py). The glue's own exports are marked in the C file.
EXPORTS = (
    "JS_Call",
    "JS_EvalFunction",
    "JS_GetModuleNamespace",
    "JS_NewStringLen",
    "JS_PromiseResult",
    "JS_PromiseState",
    "JS_ReadObject",
    "JS_ResolveModule",
    "JS_WriteObject",
    "js_free",
    "__stack_pointer",
)

# (file, text, replacement): each text must occur exactly once.
PATCHES: tuple[tuple[str, str, str], ...] = (
    # The interpreter dispatches with a switch, not computed gotos: wasm has no indirect jump,
    # and clang turns the gotos of -O3 into irreducible control flow that it then untangles with
    # a dispatch loop of its own (measured: the switch runs plain JS loops ~20% faster).
    (
        "quickjs.c",
        "#if defined(EMSCRIPTEN) || defined(_MSC_VER)\n#define DIRECT_DISPATCH  0",
        "#if defined(EMSCRIPTEN) || defined(_MSC_VER) || defined(__wasm__)\n"
        "#define DIRECT_DISPATCH  0",
    ),
    # Running out of heap cannot be caught (what quickjs-wasi 3.7.0 did, and what the sandbox's
    # budgets promise: a script must not survive its heap by catching the error), and the error
    # gets built: QuickJS may use 64 KiB past the limit while it makes the "out of memory"
    # InternalError, so the script never sees a bare `null` thrown instead.
    (
        "quickjs.c",
        '        JS_ThrowInternalError(ctx, "out of memory");\n'
        "        rt->in_out_of_memory = false;\n",
        "        size_t nova_limit = rt->malloc_state.malloc_limit;\n"
        "        if (nova_limit)\n"
        "            rt->malloc_state.malloc_limit = nova_limit + 64 * 1024;\n"
        '        JS_ThrowInternalError(ctx, "out of memory");\n'
        "        rt->malloc_state.malloc_limit = nova_limit;\n"
        "        JS_SetUncatchableError(ctx, rt->current_exception);\n"
        "        rt->in_out_of_memory = false;\n",
    ),
)

# sha256 of the quickjs.wasm these inputs build (the same on every machine): recorded in
# SANDBOX_BUILD, checked when the sandbox loads it and by tests/sandbox/test_wasm_build.py.
WASM_SHA256 = "2c6e54ecc9ab89675436c4ce0576fb6cb76b70633799c112c26d4d7d2e32f62f"


class BuildFailed(RuntimeError):
    """The wasm could not be built here; the message says why."""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nova-tools" / "sandbox"


def recipe_key() -> str:
    """A digest of every input of the build: a change to any of them builds anew."""
    recipe = hashlib.sha256()
    for part in (SDIST_SHA256, ZIG_VERSION, " ".join(CFLAGS), " ".join(LDFLAGS), *EXPORTS):
        recipe.update(part.encode() + b"\0")
    for name, text, replacement in PATCHES:
        recipe.update(f"{name}\0{text}\0{replacement}\0".encode())
    recipe.update(GLUE.read_bytes())
    return recipe.hexdigest()[:16]


def cached_wasm() -> Path:
    return cache_dir() / f"quickjs-ng-{QUICKJS_VERSION}-{recipe_key()}.wasm"


def zig_command() -> list[str]:
    """How to run zig: the ``ziglang`` package of this Python, at the pinned version."""
    try:
        version = importlib.metadata.version("ziglang")
    except importlib.metadata.PackageNotFoundError:
        raise BuildFailed(
            f"the ziglang package is not installed (pip install ziglang=={ZIG_VERSION})"
        ) from None
    if version != ZIG_VERSION:
        raise BuildFailed(f"ziglang {version} is installed; the build needs {ZIG_VERSION}")
    return [sys.executable, "-m", "ziglang"]


def fetch_sources(folder: Path, keep: Path | None) -> Path:
    """The sdist's ``upstream-quickjs`` folder, unpacked into ``folder`` (checked by digest);
    the sdist itself is kept in ``keep`` (a writable cache folder) for the next build."""
    archive = (keep or folder) / f"{QUICKJS_SDIST.replace('==', '-')}.tar.gz"
    if not archive.is_file() or _sha256(archive) != SDIST_SHA256:
        with tempfile.TemporaryDirectory(prefix="nova-sdist-") as temp:
            got = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps"]
                + ["--quiet", QUICKJS_SDIST, "-d", temp],
                capture_output=True,
                text=True,
            )
            found = list(Path(temp).glob("quickjs_ng-*.tar.gz"))
            if got.returncode != 0 or not found:
                raise BuildFailed(
                    f"pip could not fetch the {QUICKJS_SDIST} sdist: {got.stderr.strip()[-300:]}"
                )
            if _sha256(found[0]) != SDIST_SHA256:
                raise BuildFailed(f"the {QUICKJS_SDIST} sdist is not the one pinned (sha256)")
            shutil.copyfile(found[0], archive)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    source = next(folder.glob("quickjs_ng-*/upstream-quickjs"))
    header = (source / "quickjs.h").read_text(encoding="utf-8")
    version = ".".join(
        header.split(f"#define QJS_VERSION_{part} ")[1].split()[0]
        for part in ("MAJOR", "MINOR", "PATCH")
    )
    if version != QUICKJS_VERSION:
        raise BuildFailed(f"the sdist holds QuickJS-NG {version}, not {QUICKJS_VERSION}")
    return source


def patch(source: Path) -> None:
    for name, text, replacement in PATCHES:
        path = source / name
        code = path.read_text(encoding="utf-8")
        if code.count(text) != 1:
            raise BuildFailed(f"a patch of {name} no longer matches its source exactly once")
        path.write_text(code.replace(text, replacement), encoding="utf-8")


def build(out: Path, *, quiet: bool = False, fresh_zig: bool = False) -> Path:
    """Build quickjs.wasm into ``out`` (atomically); returns ``out``. ``fresh_zig``: with an
    empty zig cache (zig builds its wasi-libc anew), as on a machine that never built it."""
    zig = zig_command()
    with tempfile.TemporaryDirectory(prefix="nova-quickjs-") as temp:
        folder = Path(temp)
        keep: Path | None = cache_dir()
        try:
            cache_dir().mkdir(parents=True, exist_ok=True)
        except OSError:
            keep = None  # an unwritable cache: everything stays in the build folder
        source = fetch_sources(folder, keep)
        patch(source)
        shutil.copyfile(GLUE, source / GLUE.name)
        env = dict(os.environ)
        # zig's caches of its own libc builds: kept per user, outside the build folder
        zig_cache = (
            folder / "zig-global" if fresh_zig or keep is None else keep / f"zig-{ZIG_VERSION}"
        )
        env["ZIG_GLOBAL_CACHE_DIR"] = str(zig_cache)
        env["ZIG_LOCAL_CACHE_DIR"] = str(folder / "zig-local")
        if not quiet:
            print(f"building quickjs.wasm (QuickJS-NG {QUICKJS_VERSION}, zig {ZIG_VERSION})...")
        objects = []
        running = []
        for name in (*SOURCES, GLUE.name):
            obj = name.replace(".c", ".o")
            objects.append(obj)
            running.append(
                subprocess.Popen(
                    [*zig, "cc", *CFLAGS, "-I.", "-c", name, "-o", obj],
                    cwd=source,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                )
            )
        for name, proc in zip((*SOURCES, GLUE.name), running, strict=True):
            output, _ = proc.communicate()
            if proc.returncode != 0:
                raise BuildFailed(f"zig cc could not compile {name}: {output.strip()[-500:]}")
        exports = [f"-Wl,--export={name}" for name in EXPORTS]
        linked = subprocess.run(
            [*zig, "cc", *LDFLAGS, *exports, "-o", "quickjs.wasm", *objects],
            cwd=source,
            env=env,
            capture_output=True,
            text=True,
        )
        if linked.returncode != 0:
            raise BuildFailed(f"zig cc could not link quickjs.wasm: {linked.stderr.strip()[-500:]}")
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".tmp-{os.getpid()}-{out.name}")
        shutil.copyfile(source / "quickjs.wasm", tmp)
        os.replace(tmp, out)
    return out


def ensure_built(*, quiet: bool = True) -> Path:
    """The cached wasm of this recipe, built first if it is not there yet.

    A process whose ``HOME`` points elsewhere (a test's, a Ray worker's) also finds the build in
    the cache of the user's own home (from the password database): the bytes are checked against
    the pinned digest when loaded, so any copy of them will do."""
    path = cached_wasm()
    if path.is_file():
        return path
    try:
        own_home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    except (KeyError, OSError):
        own_home = None
    if own_home is not None:
        elsewhere = own_home / ".cache" / "nova-tools" / "sandbox" / path.name
        if elsewhere.is_file():
            return elsewhere
    try:
        return build(path, quiet=quiet)
    except OSError:
        # an unwritable cache (a read-only home...): built for this process only
        folder = Path(tempfile.mkdtemp(prefix="nova-quickjs-wasm-"))
        return build(folder / path.name, quiet=quiet)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="build afresh and compare with the pinned digest"
    )
    args = parser.parse_args(argv)
    try:
        if args.check:
            with tempfile.TemporaryDirectory(prefix="nova-check-") as temp:
                digest = _sha256(build(Path(temp) / "quickjs.wasm", fresh_zig=True))
        else:
            digest = _sha256(ensure_built(quiet=False))
    except BuildFailed as failed:
        print(f"quickjs.wasm was not built: {failed}", file=sys.stderr)
        return 1
    same = digest == WASM_SHA256
    print(f"quickjs.wasm sha256 {digest} ({'as pinned' if same else 'NOT the pinned digest'})")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
