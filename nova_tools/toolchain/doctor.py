"""``nova doctor``: say which toolchain pieces were found, their versions, and what to do about
anything missing — in plain words.

:func:`doctor` returns one :class:`Check` per piece; :func:`format_report` prints them. Nothing
here raises: a broken tool is a failed check with advice.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from .paths import ESBUILD, PINNED, QUICKJS_WASM, TSC, Tool, user_toolchain_dir
from .typecheck import typings_path


@dataclass(frozen=True)
class Check:
    name: str  # what was checked, e.g. "tsc"
    ok: bool
    path: str | None = None  # where it was found
    version: str | None = None  # the version it reports
    detail: str = ""  # one plain sentence: what was found, or what to do
    required: bool = True  # False: nice to have (npm is only needed by `nova setup`)

    def to_json(self) -> dict:
        return asdict(self)


def _fix_hint(tool: Tool) -> str:
    return (
        f"run `nova setup` to install it into {user_toolchain_dir()} (needs npm), or `npm ci` in a "
        f"source checkout, or set {tool.env} to the file"
    )


def _run_version(path: Path, *args: str) -> tuple[str | None, str | None]:
    """(version, error) from running ``path args``."""
    try:
        proc = subprocess.run([str(path), *args], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"it could not be run ({exc})"
    out = (proc.stdout or proc.stderr).strip()
    if proc.returncode != 0:
        return (
            None,
            f"`{path.name} {' '.join(args)}` failed with exit code {proc.returncode}: {out[:200]}",
        )
    match = re.search(r"\d+\.\d+\.\d+\S*", out)
    return (match.group(0) if match else out or None), None


def _tool_check(name: str, tool: Tool, package: str, version_of) -> Check:
    path = tool.find()
    if path is None:
        return Check(name, False, None, None, f"{tool.name} was not found: {_fix_hint(tool)}.")
    version, error = version_of(path)
    if error:
        return Check(
            name,
            False,
            str(path),
            None,
            f"{tool.name} at {path} is broken: {error}; {_fix_hint(tool)}.",
        )
    pinned = PINNED[package]
    if version != pinned:
        return Check(
            name,
            False,
            str(path),
            version,
            f"found {tool.name} {version}, but Nova is pinned to {package} {pinned}: {_fix_hint(tool)}.",
        )
    return Check(name, True, str(path), version, f"{tool.name} {version} is ready.")


def _quickjs_version(wasm: Path) -> tuple[str | None, str | None]:
    package_json = wasm.parent / "package.json"
    try:
        data = json.loads(package_json.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return (
            None,
            f"there is no readable package.json next to it ({package_json}), so its version is unknown",
        )
    if data.get("name") != "quickjs-wasi":
        return None, f"{package_json} belongs to {data.get('name')!r}, not quickjs-wasi"
    return str(data.get("version")), None


def check_tsc() -> Check:
    return _tool_check("tsc", TSC, "typescript", lambda p: _run_version(p, "--version"))


def check_esbuild() -> Check:
    return _tool_check("esbuild", ESBUILD, "esbuild", lambda p: _run_version(p, "--version"))


def check_quickjs() -> Check:
    return _tool_check("quickjs-wasi", QUICKJS_WASM, "quickjs-wasi", _quickjs_version)


def check_typings() -> Check:
    path = typings_path()
    if path.is_file():
        return Check(
            "typings", True, str(path), None, "the android typings (nova.d.ts) are in place."
        )
    return Check(
        "typings",
        False,
        str(path),
        None,
        "the android typings (nova.d.ts) are missing: run `nova generate` "
        "(or `python -m nova_tools.toolchain.typings --write`).",
    )


def check_npm() -> Check:
    npm = shutil.which("npm")
    if npm is None:
        return Check(
            "npm",
            False,
            None,
            None,
            "npm was not found; it is only needed by `nova setup` to download the toolchain "
            "(install Node.js from https://nodejs.org, which includes npm).",
            required=False,
        )
    version, error = _run_version(Path(npm), "--version")
    if error:
        return Check("npm", False, npm, None, f"npm is there but {error}.", required=False)
    return Check(
        "npm", True, npm, version, f"npm {version} is available for `nova setup`.", required=False
    )


def doctor() -> list[Check]:
    """Every toolchain check: tsc, esbuild, quickjs-wasi, the typings, and npm (optional)."""
    return [check_tsc(), check_esbuild(), check_quickjs(), check_typings(), check_npm()]


def healthy(checks: list[Check]) -> bool:
    """True when every required check passed."""
    return all(c.ok for c in checks if c.required)


def format_report(checks: list[Check]) -> str:
    """A plain-words report, one line per check, and a last line saying whether Nova can run."""
    lines = []
    for c in checks:
        mark = "ok" if c.ok else ("missing" if c.required else "note")
        where = f" ({c.path})" if c.path and c.ok else ""
        lines.append(f"[{mark}] {c.name}: {c.detail}{where}")
    if healthy(checks):
        lines.append("Everything Nova needs is in place.")
    else:
        lines.append("Nova cannot compile or run androids until the problems above are fixed.")
    return "\n".join(lines)


def main() -> int:  # python -m nova_tools.toolchain.doctor
    checks = doctor()
    print(format_report(checks))
    return 0 if healthy(checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
