"""Each shared constant and edge rule is declared once, in ``nova_tools/limits.py``, and imported
everywhere else: the seed range, the round cap, the overwrite refusal, the notes keys, the
building letters, the entry file's ``export default``, the UTF-16 measure of a script's text, and
the api's public names (one list, the ``if TYPE_CHECKING:`` block of ``api/__init__.py``).

A second definition anywhere in the package (or the lab's TypeScript) fails here; the scanner is
shown to find a planted copy of each, so this test can fail."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from nova_testing import REPO

from nova_tools import api, limits

PACKAGE = REPO / "nova_tools"
HOME = PACKAGE / "limits.py"

# fact -> a pattern that finds a second definition of it in Python or TypeScript source
SECOND_DEFINITIONS = {
    "the seed range": re.compile(r"2\s*\*\*\s*63|9223372036854775807|0x7[fF]{15}"),
    "the round cap": re.compile(r"(?<![\w.])100_?000(?![\w.])"),
    "the overwrite refusal": re.compile(
        r"already exists; replace it only deliberately|\.exists\(\) and not (?:args\.)?force"
    ),
    "the notes keys": re.compile(r"""["']memory["'],\s*["']recording["']"""),
    "the building letters": re.compile(r"""["']?extractor["']?\s*:\s*["'][A-Za-z]["']"""),
    "the entry file's export default": re.compile(r"export(?:\[ \\t\]|\\s)[+*]?\s*default"),
    "the UTF-16 measure": re.compile(r"""utf-16-le["'], ["']surrogatepass["']\)\)\s*//\s*2"""),
}
# A figure that happens to be the same number and is another fact, with why.
NOT_THE_SAME_FACT = {
    ("the round cap", "nova_tools/arena/plan.py", "MAX_GAMES = 100_000"),  # games, not rounds
}
GENERATED = {"nova_tools/lab/web/src/generated/api.ts"}  # written from limits.py by typegen


def second_definitions(root: Path) -> list[str]:
    """``fact: file:line: text`` for every definition of a shared fact outside its home."""
    found = []
    files = [*root.rglob("*.py"), *(root / "lab" / "web" / "src").rglob("*.ts")]
    for path in sorted(files):
        relative = path.relative_to(root.parent).as_posix()
        if path == root / "limits.py" or relative in GENERATED:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for fact, pattern in SECOND_DEFINITIONS.items():
                if pattern.search(line) and not any(
                    (fact, relative) == (f, r) and text in line for f, r, text in NOT_THE_SAME_FACT
                ):
                    found.append(f"{fact}: {relative}:{number}: {line.strip()}")
    return found


def test_each_shared_fact_is_declared_only_in_limits() -> None:
    assert second_definitions(PACKAGE) == []


def test_its_home_holds_every_one_of_them() -> None:
    text = HOME.read_text(encoding="utf-8")
    for fact, pattern in SECOND_DEFINITIONS.items():
        assert pattern.search(text), f"{fact} is not declared in nova_tools/limits.py"


@pytest.mark.parametrize(
    "planted",
    [
        "MAX_SEED = 2**63 - 1",
        "    rounds: int = Field(ge=1, le=100_000)",
        '        raise ApiError(f"{path} already exists; replace it only deliberately")',
        "    if out.exists() and not force:",
        'NOTES = ("memory", "recording")',
        'GLYPHS = {"charger": "C", "extractor": "X"}',
        "  extractor: 'E',",
        'ENTRY = re.compile(r"^export[ \\t]+default")',
        'ENTRY = re.compile(r"\\bexport\\s+default\\b")',
        '    return len(text.encode("utf-16-le", "surrogatepass")) // 2',
    ],
)
def test_a_second_definition_is_found(tmp_path: Path, planted: str) -> None:
    package = tmp_path / "nova_tools"
    (package / "lab" / "web" / "src").mkdir(parents=True)
    (package / "copied.py").write_text(f"from x import y\n\n{planted}\n", encoding="utf-8")
    [finding] = second_definitions(package)
    assert finding.endswith(f"nova_tools/copied.py:3: {planted.strip()}")


def test_the_letters_are_one_table_on_every_board() -> None:
    """The CLI's board, the MCP picture and the lab draw a building with the same letter."""
    from nova_tools.cli import board
    from nova_tools.mcp import board_image

    assert board.GLYPHS is limits.BUILDING_LETTERS
    assert board_image.GLYPH is limits.BUILDING_LETTERS
    assert limits.BUILDING_LETTERS["extractor"] == "E"
    generated = (PACKAGE / "lab" / "web" / "src" / "generated" / "api.ts").read_text("utf-8")
    for building, letter in limits.BUILDING_LETTERS.items():
        assert f'{building}: "{letter}"' in generated


def test_the_api_lists_its_names_once_and_every_one_loads() -> None:
    """``api/__init__.py`` names each public name in one place; each name resolves."""
    tree = ast.parse((PACKAGE / "api" / "__init__.py").read_text(encoding="utf-8"))
    assigned = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    assert "__all__" not in assigned, "api.__all__ is read from the TYPE_CHECKING block"
    [block] = [
        n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
    ]
    listed = [alias.asname or alias.name for node in block.body for alias in node.names]  # type: ignore[attr-defined]
    assert len(listed) == len(set(listed)), "a name is listed twice"
    assert api.__all__ == sorted(listed)
    for name in listed:
        assert getattr(api, name) is not None, name


# --- one way to read an event ---------------------------------------------------------------------
#
# The log's events are typed values (nova_tools/engine/events.py); only that module turns them into
# JSON objects and back. A reader that indexes an event dict by its keys is a second way to read an
# event: the fields only an event has, looked up by string, and an event type compared with a value
# looked up by string, are found here.

EVENT_MODULE = "nova_tools/engine/events.py"
EVENT_ONLY_KEYS = {
    "outcome",
    "destroyed",
    "causes",
    "hazards",
    "production",
    "ticks",
    "seat",
    "charger",
}
EVENT_TYPES = {
    "turn",
    "round.started",
    "round.ended",
    "player.joined",
    "script.uploaded",
    "android.launched",
}
# The same key read from another kind of dict, with what it is.
NOT_AN_EVENT = {
    ("nova_tools/api/wording.py", "result.get('destroyed')"),  # a salvage's result: the building
    ("nova_tools/arena/summary.py", "dict(s.first_built).get('charger')"),  # a round number
    ("nova_tools/cli/commands.py", "account['outcome']"),  # a peer match's account of itself
    ("nova_tools/lsp/features/hover.py", "spec.get('ticks')"),  # a building's rules
}


def _looked_up(node: ast.AST) -> object:
    """The string key of ``x["key"]`` or ``x.get("key", ...)``, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    ):
        return node.args[0].value
    return None


def event_dict_reads(root: Path) -> list[str]:
    """``file:line: code`` for every read of an event as a dict outside the event module."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root.parent).as_posix()
        if relative == EVENT_MODULE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            code = None
            if _looked_up(node) in EVENT_ONLY_KEYS:
                code = ast.unparse(node)
            elif isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(
                    isinstance(s, ast.Constant) and s.value in EVENT_TYPES for s in sides
                ) and any(_looked_up(s) is not None for s in sides):
                    code = ast.unparse(node)
            if code is not None and (relative, code) not in NOT_AN_EVENT:
                found.append(f"{relative}:{node.lineno}: {code}")
    return found


def test_no_reader_indexes_an_event_dict_by_string() -> None:
    assert event_dict_reads(PACKAGE) == []


@pytest.mark.parametrize(
    "planted",
    [
        'if event["outcome"] != "accepted":\n    pass',
        'gone = event.get("destroyed", ())',
        'if e.get("type") == "round.ended":\n    pass',
        'starts = [e for e in log if e["type"] == "round.started"]',
    ],
)
def test_a_second_way_to_read_an_event_is_found(tmp_path: Path, planted: str) -> None:
    package = tmp_path / "nova_tools"
    package.mkdir()
    (package / "reader.py").write_text(
        f"from x import event, e, log\n\n{planted}\n", encoding="utf-8"
    )
    [finding] = event_dict_reads(package)
    assert finding.startswith("nova_tools/reader.py:3: "), finding
