"""The code attrs and cattrs generate for lsprotocol, kept between runs (lsp/codecache.py): a
second run compiles next to nothing and its classes behave as compiled ones; a damaged file, a
changed one or another Python's is not used."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
from importlib.util import MAGIC_NUMBER

from nova_tools.lsp.codecache import CodeCache

RUN = """
import json, sys
from nova_tools.lsp.codecache import CodeCache, cache_path
cache = CodeCache(cache_path())
known = len(cache.known)
cache.install()
from lsprotocol import types
from pygls.protocol import default_converter
converter = default_converter()
position = types.Position(line=1, character=2)
said = {
    "known": known,
    "compiled": cache.compiled,
    "used": len(cache.used),
    "repr": repr(position),
    "equal": position == types.Position(1, 2) and position != types.Position(2, 1),
    "json": converter.unstructure(types.Range(position, position)),
    "back": repr(converter.structure({"line": 3, "character": 4}, types.Position)),
}
cache.save()
print(json.dumps(said))
"""


def run(tmp_path) -> dict:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", RUN], capture_output=True, text=True, env=env, check=True
    )
    return json.loads(done.stdout)


def test_a_second_run_compiles_next_to_nothing_and_behaves_the_same(tmp_path):
    first, second = run(tmp_path), run(tmp_path)
    assert first["known"] == 0 and first["compiled"] > 500
    assert second["known"] >= first["used"] - first["compiled"] // 50
    assert second["compiled"] <= second["used"] // 50  # a frozen class or two, every run
    assert {k: v for k, v in first.items() if k not in ("known", "compiled", "used")} == {
        k: v for k, v in second.items() if k not in ("known", "compiled", "used")
    }
    assert first["equal"] and first["back"] == "3:4"
    assert first["json"] == {
        "start": {"line": 1, "character": 2},
        "end": {"line": 1, "character": 2},
    }


def test_a_damaged_changed_or_foreign_file_is_not_used(tmp_path):
    path = tmp_path / "code.marshal"
    cache = CodeCache(path)
    code = cache.compiler(marshal)("x = 1\n", "<t>", "exec")
    assert cache.compiled == 1
    cache.save()
    assert CodeCache(path).known  # read back
    raw = path.read_bytes()
    for bad in (
        raw[:-1] + bytes([raw[-1] ^ 1]),  # one bit of the code changed
        raw[: len(raw) // 2],  # cut short
        bytes([MAGIC_NUMBER[0] ^ 1]) + raw[1:],  # another Python's bytecode
        b"",
    ):
        path.write_bytes(bad)
        again = CodeCache(path)
        assert again.known == {}
        assert again.compiler(marshal)("x = 1\n", "<t>", "exec") == code  # compiled anew
