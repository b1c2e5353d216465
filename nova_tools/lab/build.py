"""Build the lab's page: type-check the TypeScript with the pinned tsc 7, bundle it with the pinned
esbuild, and put it with the HTML and CSS into ``static/``, which ships in the package.

The built files are committed (a ``pip install`` needs no Node toolchain) and a test rebuilds
them into a temporary folder and fails when they differ: the same sources and pinned tools give
the same bytes.

    python -m nova_tools.lab.build            # regenerate the types, check, bundle into static/
    python -m nova_tools.lab.build --check    # exit 1 (naming the files) when static/ is stale
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import NovaError
from ..toolchain.paths import ESBUILD, TSC
from . import typegen

HERE = Path(__file__).resolve().parent
WEB = HERE / "web"
STATIC = HERE / "static"
ENTRY = WEB / "src" / "main.ts"
COPIED = ("index.html", "style.css")  # from web/ as they are
BUNDLE = "app.js"
TIMEOUT_S = 120

ESBUILD_FLAGS = (
    "--bundle",
    "--format=esm",
    "--platform=browser",
    "--target=es2022",
    "--minify",
    "--charset=utf8",
    "--legal-comments=none",
    "--log-level=warning",
    "--color=false",
)


class BuildError(NovaError):
    """The page's sources do not type-check or bundle; the message carries the compiler's output."""


def typecheck() -> None:
    run = subprocess.run(
        [str(TSC.require()), "--project", str(WEB / "tsconfig.json"), "--pretty", "false"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=WEB,
    )
    if run.returncode != 0:
        raise BuildError(
            "the lab's TypeScript does not type-check:\n" + (run.stdout + run.stderr).strip()
        )


def bundle(target: Path) -> None:
    run = subprocess.run(
        [
            str(ESBUILD.require()),
            str(ENTRY.relative_to(WEB)),
            *ESBUILD_FLAGS,
            f"--outfile={target / BUNDLE}",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=WEB,
    )
    if run.returncode != 0:
        raise BuildError(
            "esbuild could not bundle the lab's page:\n" + (run.stdout + run.stderr).strip()
        )


def build(target: Path = STATIC, *, write_types: bool = True) -> list[str]:
    """Build the page into ``target``; returns the files written (relative names)."""
    if write_types:
        typegen.write()
    elif typegen.stale():
        raise BuildError(
            f"{typegen.TYPES_FILE} differs from the models; run `python -m nova_tools.lab.build`"
        )
    typecheck()
    target.mkdir(parents=True, exist_ok=True)
    bundle(target)
    for name in COPIED:
        shutil.copyfile(WEB / name, target / name)
    return [BUNDLE, *COPIED]


def stale_files() -> list[str]:
    """The built files that differ from a fresh build of the sources (or are missing)."""
    with tempfile.TemporaryDirectory(prefix="nova-lab-build-") as scratch:
        fresh = Path(scratch)
        names = build(fresh, write_types=False)
        return [
            name
            for name in names
            if not (STATIC / name).is_file()
            or (STATIC / name).read_bytes() != (fresh / name).read_bytes()
        ]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if "--check" in argv:
            stale = stale_files()
            for name in stale:
                print(
                    f"{STATIC / name} differs from its sources: run `python -m nova_tools.lab.build`",
                    file=sys.stderr,
                )
            return 1 if stale else 0
        for name in build():
            print(f"built {STATIC / name}")
    except NovaError as error:
        print(f"nova lab build: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
