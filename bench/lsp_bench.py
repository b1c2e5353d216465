"""Language server benchmark: warm edit -> diagnostics, hover, and dry-run latency, as medians
(targets in DESIGN section 7: under 100 ms, 20 ms and 200 ms).

    .venv/bin/python bench/lsp_bench.py [--repeats N]

The real ``nova lsp`` runs as a subprocess over stdio, driven by a pygls client, on a bare
``.ts`` file (typings in tsc's inferred project) in a temporary folder. Every edit is a real
change of the script's code (a number in its logic, and every other version a typo tsc must
report, fixed by the next), and every dry-run runs a version not seen before, so neither tsc nor
the bundle and bytecode caches can answer from an earlier request:

* **edit -> diagnostics (push)**: ``didChange`` until the ``publishDiagnostics`` of that version,
  for a client that only accepts pushed diagnostics (so the per-document debounce is included);
* **edit -> diagnostics (pull)**: ``didChange`` then ``textDocument/diagnostic``, as VS Code does;
* **hover**: on ``rules.android.cargoCapacity`` (Nova's part plus tsc's own hover);
* **dry-run**: the ``nova.dryRun`` command on a new version of the script (bundle + type check +
  compile + one sandboxed turn in a fresh world), round trip, warm;
* **first dry-run after start**: in a fresh ``nova lsp`` (a new process each time), the first
  ``nova.dryRun`` sent as soon as the script is open, round trip: what a player who opens a script
  and runs the lens at once waits (target 1 s). The server warms the sandbox and toolchain in the
  background from ``initialized`` on.
* **hover and completion in an 8 MB rules file** (``--big-rules`` runs only this): a rules buffer
  with an 8 MB string in it, opened and its diagnostics pulled, then hover on a key and
  completion of a key, each repeated on the same version; baseline: ``jsonc.parse`` of the text
  in process (what each answer cost when every one parsed the buffer again).
* **from launch** (issue 27; ``--launch`` runs only this; fresh servers, a client that registers
  dynamically, as VS Code and Neovim do): what an editor waits for. The process is launched as
  ``nova lsp`` is (``python -m nova_tools.cli lsp``), in a user's environment (Python writes and
  reuses its ``__pycache__``; one untimed launch first fills it and the machine caches), then
  ``initialize``, ``initialized``, ``didOpen`` of a script, and at once the ``nova.dryRun``
  command and the script's code lenses. Timed from the launch: the ``initialize`` result, the
  dry-run's result (target 0.5 s) and the dry-run lens, each with the CPU the server's process
  tree spent by then (tsc, esbuild and every other child included) and the load average.
  ``--against DIR`` launches the server of another checkout (a worktree of main) alternately
  with this one's, so both see the same load.

Baselines measured in the same run, so the ratios say what the server adds: tsc's own
diagnostics and hover through :class:`~nova_tools.lsp.tsserver.TsServer` in-process, and
:func:`nova_tools.api.dry_run` called directly. Numbers vary with the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lsprotocol import types
from pygls.lsp.client import LanguageClient

SCRIPT = """\
const me = () => world.androids.find((a) => a.id === androidId)!;
const capacity = rules.android.cargoCapacity;
const act: AndroidTurn = () => {
  const here = me();
  const load = (here.cargo.metal ?? 0) + (here.cargo.electronics ?? 0);
  if (load >= capacity) return { type: 'android.wait', recording: `full at ${turn}` };
  return { type: 'android.move', direction: here.position.x > 0 ? 'west' : 'east' };
};
export default act;
"""
HOVER_AT = types.Position(line=1, character=SCRIPT.splitlines()[1].index("cargoCapacity") + 3)


def edited(version: int) -> str:
    """The script after a real edit, as a user types: a number in its logic changes every time,
    and every other version has a typo tsc must report ('est' is no direction) that the next
    one fixes. Each version is new source, so no cache can answer for it."""
    text = SCRIPT.replace("load >= capacity", f"load >= capacity - {version}")
    return text.replace("'west' : 'east'", "'west' : 'est'") if version % 2 else text


def valid(version: int) -> str:
    """A new, type-correct version of the script (for dry-runs: each one bundles and compiles anew)."""
    return edited(2 * version)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class Session:
    def __init__(self, root: Path, pull: bool) -> None:
        self.root = root
        self.pull = pull
        self.client = LanguageClient("nova-lsp-bench", "0")
        self.published: dict[int, float] = {}
        self.event = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            if params.version is not None:
                self.published[params.version] = time.perf_counter()
                self.event.set()

        @self.client.feature(types.WINDOW_SHOW_MESSAGE)
        def on_message(params: types.ShowMessageParams) -> None:
            pass

        @self.client.feature(types.WORKSPACE_DIAGNOSTIC_REFRESH)
        def on_refresh(params: None) -> None:
            return None

        @self.client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def on_register(params: types.RegistrationParams) -> None:
            return None

    async def start(self, wait_for_diagnostics: bool = True) -> str:
        await self.client.start_io(sys.executable, "-m", "nova_tools.lsp")
        text_caps = types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities() if self.pull else None,
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        )
        await self.client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(text_document=text_caps),
                root_uri=self.root.as_uri(),
            )
        )
        self.client.initialized(types.InitializedParams())
        path = self.root / "main.ts"
        path.write_text(SCRIPT, encoding="utf-8")
        self.uri = path.as_uri()
        self.version = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(self.uri, "typescript", 1, SCRIPT)
            )
        )
        if wait_for_diagnostics:
            await self.diagnostics_after_edit()  # warm: tsc has built the program
        return self.uri

    async def diagnostics_after_edit(self) -> float:
        self.version += 1
        text = edited(self.version)
        start = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri, version=self.version
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        if self.pull:
            await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(types.TextDocumentIdentifier(self.uri))
            )
            return time.perf_counter() - start
        while self.version not in self.published:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 30)
        return self.published[self.version] - start

    async def hover(self) -> float:
        start = time.perf_counter()
        result = await self.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(self.uri), HOVER_AT)
        )
        elapsed = time.perf_counter() - start
        assert result is not None and "`12`" in result.contents.value, result
        return elapsed

    async def dry_run(self, source: str | None = None) -> float:
        """A dry-run of the open script, or of ``source``, a new version of it (the edit that
        brings it is not timed)."""
        if source is not None:
            self.version += 1
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(
                        uri=self.uri, version=self.version
                    ),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=source)],
                )
            )
        start = time.perf_counter()
        result = await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams("nova.dryRun", [self.uri])
        )
        elapsed = time.perf_counter() - start
        assert result["ok"], result
        return elapsed

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await asyncio.sleep(0.1)
        await self.client.stop()


async def baselines(root: Path, repeats: int) -> dict[str, float]:
    from nova_tools import api
    from nova_tools.lsp.tsserver import TsServer
    from nova_tools.toolchain.typecheck import typings_path

    ts = TsServer(typings=typings_path(), root=root)
    uri = (root / "baseline.ts").as_uri()
    ts.open(uri, SCRIPT)
    await ts.diagnostics(uri)
    diag, hover = [], []
    for i in range(repeats):
        start = time.perf_counter()
        ts.change(uri, edited(i + 1))
        await ts.diagnostics(uri)
        diag.append(time.perf_counter() - start)
        start = time.perf_counter()
        await ts.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": uri},
                "position": {"line": HOVER_AT.line, "character": HOVER_AT.character},
            },
        )
        hover.append(time.perf_counter() - start)
    await ts.stop()
    runs = []
    api.dry_run(files={"main.ts": SCRIPT}, entry_name="main.ts")  # warm the sandbox
    for i in range(max(3, repeats // 3)):
        start = time.perf_counter()
        api.dry_run(files={"main.ts": valid(1000 + i)}, entry_name="main.ts")
        runs.append(time.perf_counter() - start)
    return {"diagnostics": median_ms(diag), "hover": median_ms(hover), "dry-run": median_ms(runs)}


async def first_dry_runs(root: Path, starts: int) -> list[float]:
    """The first dry-run of ``starts`` fresh servers, each sent as soon as the script is open."""
    out = []
    for i in range(starts):
        folder = root / f"fresh-{i}"
        folder.mkdir()
        session = Session(folder, pull=True)
        await session.start(wait_for_diagnostics=False)
        out.append(await session.dry_run())
        await session.stop()
    return out


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) spent so far by ``pid`` and every process below it (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    family, grew = {pid}, True
    while grew:
        grew = False
        for child, (parent, _) in stats.items():
            if parent in family and child not in family:
                family.add(child)
                grew = True
    return sum(stats[p][1] for p in family if p in stats)


LAUNCH = [sys.executable, "-m", "nova_tools.cli", "lsp"]  # what `nova lsp` runs


def user_env(checkout: Path | None = None) -> dict[str, str]:
    """A user's environment for a launched server: Python writes and reuses its ``__pycache__``
    (a development shell's PYTHONDONTWRITEBYTECODE would charge every launch for compiling the
    package); with ``checkout``, that checkout's ``nova_tools`` is imported (the server runs in
    its workspace folder, so this checkout is not on its path), with this one's toolchain
    binaries when it has none of its own."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
        from nova_tools.toolchain.paths import ESBUILD, TSC

        for tool in (TSC, ESBUILD):
            if not (checkout / "node_modules" / tool.relative).is_file() and tool.find():
                env[tool.env] = str(tool.find())
    return env


async def launch_once(folder: Path, env: dict[str, str]) -> dict[str, tuple[float, float]]:
    """One fresh server, driven as an editor opening a script and asking for its dry-run at once:
    (wall, CPU) seconds from the launch to the ``initialize`` result, to the dry-run's result
    and to the dry-run lens (asked right after the dry-run, as an editor asks a new file's
    lenses)."""
    folder.mkdir()
    session = Session(folder, pull=True)
    launched = time.perf_counter()
    await session.client.start_io(*LAUNCH, env=env, cwd=folder)  # as editors do: the workspace
    pid = session.client._server.pid  # type: ignore[union-attr]  # set by start_io
    caps = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=True),
            hover=types.HoverClientCapabilities(dynamic_registration=True),
            definition=types.DefinitionClientCapabilities(dynamic_registration=True),
        )
    )
    found: dict[str, tuple[float, float]] = {}
    await session.client.initialize_async(
        types.InitializeParams(capabilities=caps, root_uri=folder.as_uri())
    )
    found["initialize"] = (time.perf_counter() - launched, tree_cpu_s(pid))
    session.client.initialized(types.InitializedParams())
    path = folder / "main.ts"
    path.write_text(SCRIPT, encoding="utf-8")
    session.uri, session.version = path.as_uri(), 1
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(session.uri, "typescript", 1, SCRIPT)
        )
    )

    async def dry_run() -> None:
        await session.dry_run()
        found["dry-run"] = (time.perf_counter() - launched, tree_cpu_s(pid))

    async def lens() -> None:
        lenses = await session.client.text_document_code_lens_async(
            types.CodeLensParams(types.TextDocumentIdentifier(session.uri))
        )
        assert any(lens.command and lens.command.command == "nova.dryRun" for lens in lenses or [])
        found["lens"] = (time.perf_counter() - launched, tree_cpu_s(pid))

    await asyncio.gather(dry_run(), lens())
    await session.stop()
    return found


async def from_launch(
    root: Path, starts: int, against: Path | None = None
) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """``starts`` launches of this checkout's server (and of ``against``'s, alternately), after
    one untimed launch of each: their (wall, CPU) samples by server, then by point."""
    servers = {"this checkout": user_env()}
    if against is not None:
        servers = {f"{against}": user_env(against), **servers}
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        name: {"initialize": [], "dry-run": [], "lens": []} for name in servers
    }
    for n, env in enumerate(servers.values()):  # fills __pycache__ and the machine caches
        await launch_once(root / f"launch-warm-{n}", env)
    for i in range(starts):
        for n, (name, env) in enumerate(servers.items()):
            found = await launch_once(root / f"launch-{i}-{n}", env)
            for point, sample in found.items():
                samples[name][point].append(sample)
    return samples


def print_launches(samples: dict[str, dict[str, list[tuple[float, float]]]], load: float) -> None:
    starts = len(next(iter(samples.values()))["initialize"])
    print(f"from launch (median of {starts} fresh servers each, load {load:.2f} before):")
    for name, points in samples.items():
        print(f"  {name}:")
        for point in ("initialize", "dry-run", "lens"):
            wall = median_ms([w for w, _ in points[point]])
            cpu = median_ms([c for _, c in points[point]])
            label = {"initialize": "initialize result", "dry-run": "dry-run result"}.get(
                point, "dry-run lens"
            )
            target = "  target 500 ms" if point == "dry-run" else ""
            print(f"    to the {label:<20}{wall:>8.0f} ms wall{cpu:>8.0f} ms CPU{target}")
    if len(samples) == 2:
        (base, before), (_, after) = samples.items()
        ratio = median_ms([w for w, _ in after["dry-run"]]) / median_ms(
            [w for w, _ in before["dry-run"]]
        )
        print(f"  first dry-run from launch: {ratio:.2f}x the time of {base}'s")


def big_rules_text() -> str:
    import json

    body = {"android": {"cargoCapacity": 10}, "notes": {"x": "é" * (8 * 1024 * 1024)}}
    return json.dumps(body, indent=2, ensure_ascii=False)


async def big_rules(root: Path, repeats: int) -> None:
    from nova_tools.rules import jsonc

    text = big_rules_text()
    started = time.perf_counter()
    jsonc.parse(text)
    parse = time.perf_counter() - started
    folder = root / "big-rules"
    folder.mkdir()
    session = Session(folder, pull=True)
    await session.client.start_io(sys.executable, "-m", "nova_tools.lsp")
    pid = session.client._server.pid  # type: ignore[union-attr]  # set by start_io
    caps = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
        )
    )
    await session.client.initialize_async(
        types.InitializeParams(capabilities=caps, root_uri=folder.as_uri())
    )
    session.client.initialized(types.InitializedParams())
    uri = (folder / "rules.json").as_uri()
    session.client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "json", 1, text))
    )
    doc = types.TextDocumentIdentifier(uri)
    await session.client.text_document_diagnostic_async(types.DocumentDiagnosticParams(doc))
    hovers, completions, cpu = [], [], []
    for _ in range(repeats):
        before = tree_cpu_s(pid)
        started = time.perf_counter()
        found = await session.client.text_document_hover_async(
            types.HoverParams(doc, types.Position(line=2, character=6))
        )
        hovers.append(time.perf_counter() - started)
        assert found is not None and "cargoCapacity" in found.contents.value, found
        started = time.perf_counter()
        await session.client.text_document_completion_async(
            types.CompletionParams(doc, types.Position(line=2, character=4))
        )
        completions.append(time.perf_counter() - started)
        cpu.append(tree_cpu_s(pid) - before)
    await session.stop()
    print(
        f"8 MB rules file (load {os.getloadavg()[0]:.2f}): hover {median_ms(hovers):.1f} ms, "
        f"completion {median_ms(completions):.1f} ms (CPU of both {median_ms(cpu):.0f} ms); "
        f"baseline jsonc.parse of the text {parse * 1000:.0f} ms"
    )


async def run(repeats: int) -> None:
    with tempfile.TemporaryDirectory(prefix="nova-lsp-bench-") as folder:
        root = Path(folder)
        base = await baselines(root, repeats)
        results: dict[str, float] = {}
        for pull in (False, True):
            (root / ("pull" if pull else "push")).mkdir()
            session = Session(root / ("pull" if pull else "push"), pull)
            await session.start()
            edits = [await session.diagnostics_after_edit() for _ in range(repeats)]
            results[f"edit -> diagnostics ({'pull' if pull else 'push, 40 ms debounce'})"] = (
                median_ms(edits)
            )
            if pull:
                hovers = [await session.hover() for _ in range(repeats)]
                await session.dry_run(
                    SCRIPT
                )  # warm: the sandbox module is compiled once per process
                runs = [await session.dry_run(valid(2000 + i)) for i in range(max(3, repeats // 3))]
                results["hover"] = median_ms(hovers)
                results["dry-run"] = median_ms(runs)
            await session.stop()
        load_before = os.getloadavg()[0]
        launches = await from_launch(root, max(3, repeats // 6))
        firsts = await first_dry_runs(root, max(3, repeats // 6))
        await big_rules(root, max(3, repeats // 3))
        results["first dry-run after start"] = median_ms(firsts)
        worst_first = max(firsts) * 1000
    targets = {"hover": 20.0, "dry-run": 200.0, "first dry-run after start": 1000.0}
    base["first dry-run after start"] = base["dry-run"]
    print(f"{'measure':<44}{'median':>10}{'target':>10}{'baseline':>11}{'ratio':>8}")
    for name, value in results.items():
        key = "diagnostics" if name.startswith("edit") else name
        target = targets.get(name, 100.0)
        ratio = value / base[key] if base.get(key) else float("nan")
        print(f"{name:<44}{value:>8.1f}ms{target:>8.0f}ms{base[key]:>9.1f}ms{ratio:>7.1f}x")
    print(f"first dry-run after start: worst of {len(firsts)} fresh servers {worst_first:.0f} ms")
    print_launches(launches, load_before)
    print(
        "baselines: tsc's own diagnostics/hover through TsServer in-process; api.dry_run called directly (warm)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--big-rules", action="store_true", help="only the 8 MB rules file")
    parser.add_argument("--launch", action="store_true", help="only the measures from launch")
    parser.add_argument(
        "--against", type=Path, help="with --launch: another checkout's server, alternately"
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.big_rules:
        with tempfile.TemporaryDirectory(prefix="nova-lsp-bench-") as folder:
            asyncio.run(big_rules(Path(folder), args.repeats))
        return
    if args.launch:
        with tempfile.TemporaryDirectory(prefix="nova-lsp-bench-") as folder:
            load = os.getloadavg()[0]
            found = asyncio.run(from_launch(Path(folder), args.repeats, args.against))
            print_launches(found, load)
        return
    asyncio.run(run(args.repeats))


if __name__ == "__main__":
    main(sys.argv[1:])
