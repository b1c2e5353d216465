"""The lab's page ships built: the committed assets are exactly what the sources build to with the
pinned tsc and esbuild, its TypeScript types are generated from the api's models, a type error
stops the build, and `pip install` of the wheel into a fresh environment gives a `nova lab` that serves the page outside a clone."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from lab_testing import running_lab
from nova_testing import REPO

from nova_tools.lab import build, typegen


def test_the_committed_page_is_what_its_sources_build_to() -> None:
    stale = build.stale_files()
    assert not stale, (
        f"{', '.join(stale)} differ from a fresh build: run `python -m nova_tools.lab.build` and commit nova_tools/lab/static"
    )


def test_the_page_types_are_generated_from_the_api_models() -> None:
    assert not typegen.stale(), (
        "nova_tools/lab/web/src/generated/api.ts differs from the models: run `python -m nova_tools.lab.build`"
    )
    text = typegen.render()
    # every field of the results the page reads, under its JSON name
    for line in (
        "  lastTurn: TurnSummary | null;",
        "  androidsGone: string[];",
        "  players?: FrameScore[] | null;",
        "  batteryCapacity: number;",
    ):
        assert line in text
    assert "export interface AndroidMoment {" in text and "export interface RunRequest {" in text
    assert typegen.main(["--check"]) == 0


def test_a_type_error_in_the_page_stops_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = tmp_path / "web"
    shutil.copytree(build.WEB, web)
    main = web / "src" / "main.ts"
    main.write_text(
        main.read_text(encoding="utf-8") + "\nconst round: number = 'twelve';\nvoid round;\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(build, "WEB", web)
    monkeypatch.setattr(build, "ENTRY", main)
    with pytest.raises(
        build.BuildError,
        match=r"src/main.ts\(\d+,7\): error TS2322: Type 'string' is not assignable to type 'number'",
    ):
        build.build(tmp_path / "out", write_types=False)
    assert not (tmp_path / "out" / build.BUNDLE).exists()


def test_a_pip_install_outside_the_clone_serves_the_page(tmp_path: Path) -> None:
    """The wheel carries the built page; `pip install` of it into a fresh environment gives a
    `nova` whose `nova lab`, started in a folder outside the clone, serves that page."""
    # what this test starts must not see a PYTHONPATH its runner set (tests/planted_bugs.py runs
    # the suite from a scratch copy that way): the fresh environment must find only the wheel
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    wheels = tmp_path / "wheels"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--quiet",
            "--wheel-dir",
            str(wheels),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env,
    )
    assert made.returncode == 0, made.stderr
    (wheel,) = wheels.glob("nova_tools-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for asset in ("app.js", "index.html", "style.css"):
            assert f"nova_tools/lab/static/{asset}" in names
            assert (
                archive.read(f"nova_tools/lab/static/{asset}")
                == (build.STATIC / asset).read_bytes()
            )
    # a fresh environment; its dependencies are this one's (a .pth line adds the folder, and the
    # editable install's own .pth in it is not processed, so this clone is not importable there)
    env_dir = tmp_path / "env"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(env_dir)],
        check=True,
        timeout=120,
        env=clean_env,
    )
    env_python = env_dir / "bin" / "python"
    site = subprocess.run(
        [env_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env=clean_env,
    )
    (Path(site.stdout.strip()) / "dependencies.pth").write_text(
        "\n".join(
            dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
        )
        + "\n",
        encoding="utf-8",
    )
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env_python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env,
    )
    assert installed.returncode == 0, installed.stderr
    root = tmp_path / "games"
    root.mkdir()
    where = subprocess.run(
        [env_python, "-c", "import nova_tools; print(nova_tools.__file__)"],
        env=clean_env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert where.stdout.strip().startswith(str(env_dir)), where.stdout + where.stderr
    assert not where.stdout.strip().startswith(str(REPO))
    with running_lab(root, command=[str(env_dir / "bin" / "nova")], env=clean_env) as lab:
        import urllib.request

        with urllib.request.urlopen(lab.url, timeout=60) as page:
            assert '<script type="module" src="/static/app.js">' in page.read().decode()
        with urllib.request.urlopen(lab.url + "static/app.js", timeout=60) as served:
            assert served.read() == (build.STATIC / "app.js").read_bytes()
        assert lab.get("/api/games") == (200, {"games": []})
