"""``nova setup``: install the pinned JavaScript toolchain into the per-user folder.

Outside a source checkout there is no ``node_modules`` next to the package, so the native tsc,
esbuild and ``quickjs.wasm`` are installed with npm into :func:`~.paths.user_toolchain_dir`
(``$NOVA_TOOLCHAIN_DIR``, else ``$XDG_DATA_HOME/nova-tools/toolchain``), where
:mod:`.paths` looks for them. npm is only used for this download; nothing runs Node afterwards.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..errors import NovaError
from .paths import ALL_TOOLS, PINNED, user_toolchain_dir


class SetupError(NovaError, RuntimeError):
    """The toolchain could not be installed; the message says why and what to try."""


@dataclass(frozen=True)
class SetupResult:
    target: Path
    installed: dict[str, str]  # package -> pinned version
    tools: dict[str, Path]  # tool name -> where it now is
    output: str  # what npm printed
    ok: bool = True  # setup raises SetupError instead of returning a failure

    @property
    def message(self) -> str:
        """One sentence for the player."""
        pins = ", ".join(f"{name} {version}" for name, version in self.installed.items())
        return f"Installed {pins} into {self.target}; `nova doctor` should now find them."


def package_json() -> dict:
    """The package.json written into the toolchain folder: exactly the pinned versions."""
    return {
        "name": "nova-tools-user-toolchain",
        "private": True,
        "description": "The pinned JavaScript toolchain of Nova tools, installed by `nova setup`. "
        "Nova calls the native binaries and loads quickjs.wasm directly; Node is not needed to run it.",
        "license": "MIT",
        "dependencies": dict(sorted(PINNED.items())),
    }


def setup(
    target: Path | str | None = None, *, npm: str | None = None, timeout: float = 600
) -> SetupResult:
    """Install the pinned packages (:data:`~.paths.PINNED`) into ``target`` with
    ``npm install --no-audit --no-fund`` and check the tools are then found there.

    ``npm`` overrides the npm executable (default: ``npm`` on PATH). Raises :class:`SetupError`
    with a plain explanation when npm is missing or the install fails.
    """
    target = Path(target) if target is not None else user_toolchain_dir()
    npm_path = npm or shutil.which("npm")
    if npm_path is None:
        raise SetupError(
            "npm was not found, and it is needed to download the toolchain once: install Node.js "
            "(which includes npm) from https://nodejs.org, then run `nova setup` again"
        )
    try:
        target.mkdir(parents=True, exist_ok=True)
        (target / "package.json").write_text(
            json.dumps(package_json(), indent=2) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        raise SetupError(f"could not write {target / 'package.json'}: {exc}") from exc
    cmd = [npm_path, "install", "--no-audit", "--no-fund"]
    try:
        proc = subprocess.run(cmd, cwd=target, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SetupError(
            f"`npm install` in {target} took longer than {timeout:.0f} s; check the network and try again"
        ) from None
    except OSError as exc:
        raise SetupError(f"could not run npm ({npm_path}): {exc}") from exc
    output = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        raise SetupError(
            f"`npm install` in {target} failed (exit code {proc.returncode}):\n{output[-2000:]}"
        )
    node_modules = target / "node_modules"
    tools: dict[str, Path] = {}
    missing = []
    for tool in ALL_TOOLS:
        path = node_modules / tool.relative
        if path.is_file():
            tools[tool.name] = path
        else:
            missing.append(f"{tool.name} (expected at {path})")
    if missing:
        raise SetupError(
            "npm finished but these are still missing: " + "; ".join(missing) + ". "
            "This platform may not be supported by the pinned native packages."
        )
    return SetupResult(target=target, installed=dict(PINNED), tools=tools, output=output)


def main() -> int:  # python -m nova_tools.toolchain.setup [TARGET]
    import sys

    try:
        result = setup(sys.argv[1] if len(sys.argv) > 1 else None)
    except SetupError as exc:
        print(f"nova setup: {exc}", file=sys.stderr)
        return 1
    print(result.message)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
