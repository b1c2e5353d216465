"""Where the pinned JavaScript toolchain lives.

npm only installs three pinned packages (``typescript``, ``esbuild``, ``quickjs-wasi``); Python
calls the native binaries and loads ``quickjs.wasm`` directly. They are looked for, in order:

1. an environment variable naming the file itself (``NOVA_TSC``, ``NOVA_ESBUILD``,
   ``NOVA_QUICKJS_WASM``);
2. ``node_modules`` of the source checkout this package was imported from;
3. ``node_modules`` of the per-user toolchain folder that ``nova setup`` fills
   (``$NOVA_TOOLCHAIN_DIR``, else ``$XDG_DATA_HOME/nova-tools/toolchain``, else
   ``~/.local/share/nova-tools/toolchain``).
"""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

from ..errors import NovaError

PINNED = {"typescript": "7.0.2", "esbuild": "0.28.2", "quickjs-wasi": "3.7.0"}

REPO_ROOT = Path(__file__).resolve().parents[2]

#: The generated typings: committed at typings/nova.d.ts in a source checkout, and shipped inside the
#: package (next to this file) for installs without one. Both are written by
#: ``python -m nova_tools.toolchain.typings --write`` and kept identical by a drift test.
REPO_TYPINGS = REPO_ROOT / "typings" / "nova.d.ts"
PACKAGED_TYPINGS = Path(__file__).resolve().parent / "nova.d.ts"


class ToolchainMissing(NovaError, RuntimeError):
    """A toolchain file could not be found; the message says how to get it."""


def user_toolchain_dir() -> Path:
    if env := os.environ.get("NOVA_TOOLCHAIN_DIR"):
        return Path(env)
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "nova-tools" / "toolchain"


def node_modules_dirs() -> list[Path]:
    return [REPO_ROOT / "node_modules", user_toolchain_dir() / "node_modules"]


def _platform_tag() -> str:
    system = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}.get(
        platform.system(), platform.system().lower()
    )
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        machine, machine
    )
    return f"{system}-{arch}"


@dataclass(frozen=True)
class Tool:
    name: str
    env: str
    relative: str  # path inside node_modules

    def candidates(self) -> list[Path]:
        found = [Path(os.environ[self.env])] if os.environ.get(self.env) else []
        return found + [base / self.relative for base in node_modules_dirs()]

    def find(self) -> Path | None:
        for candidate in self.candidates():
            if candidate.is_file():
                return candidate
        return None

    def require(self) -> Path:
        path = self.find()
        if path is None:
            raise ToolchainMissing(
                f"{self.name} was not found (looked in {', '.join(str(c) for c in self.candidates())}); "
                f"run `nova setup` (or `npm ci` in a source checkout), or set {self.env} to the file."
            )
        return path


_exe = ".exe" if platform.system() == "Windows" else ""

TSC = Tool(
    "the TypeScript 7 compiler (tsc)",
    "NOVA_TSC",
    f"@typescript/typescript-{_platform_tag()}/lib/tsc{_exe}",
)
ESBUILD = Tool("esbuild", "NOVA_ESBUILD", f"@esbuild/{_platform_tag()}/bin/esbuild{_exe}")
QUICKJS_WASM = Tool(
    "QuickJS-NG for WASI (quickjs.wasm)", "NOVA_QUICKJS_WASM", "quickjs-wasi/quickjs.wasm"
)

ALL_TOOLS = (TSC, ESBUILD, QUICKJS_WASM)
