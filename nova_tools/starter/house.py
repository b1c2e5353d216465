"""The house androids: shipped opponents of known strength, named ``house:NAME`` wherever a
script is taken (``nova compare``, ``nova tournament``, ``nova league``, ``nova host``/``join``,
``nova new-android --from``, the lab, the MCP tools).

The roster is in rising strength; ``house:starter`` is the starter android itself. The others
are the starter's sources (``src/``) with a few of their own in place of the starter's (their
folder under ``house/``: a ``raid.ts`` that sets when they raid, the champion's ``defence.ts``,
and a README on the idea), so a fix to the starter reaches every one of them. ``main.ts``'s default export is the turn function.

>>> house("house:starter").name
'starter'
>>> is_house("house:starter"), is_house("bot.ts")
(True, False)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import NovaError

#: How a house android is named wherever a script is taken.
PREFIX = "house:"
HERE = Path(__file__).resolve().parent
#: The starter's sources, which every house android is made of.
STARTER_SOURCES = HERE / "src"


class HouseError(NovaError, ValueError):
    """A ``house:`` name that names no house android; the message lists the ones there are."""


@dataclass(frozen=True)
class HouseAndroid:
    """One shipped opponent: its name, its idea in one line, and the folder of its own sources
    (and README), laid over ``made_of`` (the starter's sources) when it is given."""

    name: str
    idea: str
    folder: Path
    entry: str = "main.ts"
    made_of: Path | None = None

    @property
    def ref(self) -> str:
        """The name as a player writes it: ``house:NAME``."""
        return PREFIX + self.name

    @property
    def entry_path(self) -> Path:
        """Its entry file on disk, beside the files it imports: its own folder's, or, for one made
        of the starter's sources, a copy of :meth:`files` in the user's cache (one per content)."""
        if self.made_of is None:
            return self.folder / self.entry
        return _on_disk(self.name, self.files()) / self.entry

    def readme(self) -> str:
        """Its README: its own folder's (what it changes, and why), followed by the starter's
        for one made of the starter's sources (what every other file does)."""
        if self.made_of is None:  # the starter: its README is beside its sources
            return (self.folder.parent / "README.md").read_text(encoding="utf-8")
        own = (self.folder / "README.md").read_text(encoding="utf-8")
        starter = (self.made_of.parent / "README.md").read_text(encoding="utf-8")
        return own.rstrip("\n") + "\n\n---\n\n" + starter

    def files(self) -> dict[str, str]:
        """Its sources: file name -> text, the entry first; its own files replace the starter's."""
        paths = {p.name: p for p in sorted(self.made_of.glob("*.ts"))} if self.made_of else {}
        paths.update({p.name: p for p in sorted(self.folder.glob("*.ts"))})
        names = sorted(paths, key=lambda n: (n != self.entry, n))
        return {name: paths[name].read_text(encoding="utf-8") for name in names}


def _cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "nova-tools" / "house"


def _on_disk(name: str, files: dict[str, str]) -> Path:
    """A folder holding exactly ``files``, named by their content: written once (atomically, so
    processes racing to write it agree), then reused; a private temporary one if the cache is not
    writable."""
    digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    # the folder is named as the android is (a script's name in a game file is its folder's)
    folder = _cache() / digest / name
    if folder.is_dir():
        return folder
    try:
        folder.parent.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{digest}-", dir=folder.parent.parent))
    except OSError:
        staging = Path(tempfile.mkdtemp(prefix="nova-house-"))
        return _write(staging / name, files)
    _write(staging / name, files)
    try:
        staging.rename(folder.parent)
    except OSError:  # another process wrote the same folder first
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for rel, text in files.items():
        (folder / rel).write_text(text, encoding="utf-8", newline="\n")
    return folder


#: The roster, weakest first. Each later one is measured against the ones before it
#: (``nova_tools/starter/README.md``).
ROSTER: tuple[HouseAndroid, ...] = (
    HouseAndroid(
        "starter",
        "the teaching example: a factory builder that collects, builds and banks points",
        STARTER_SOURCES,
    ),
    HouseAndroid(
        "raider",
        "the starter whose roamers salvage the rival's extractors in the last 12 rounds",
        HERE / "house" / "raider",
        made_of=STARTER_SOURCES,
    ),
    HouseAndroid(
        "marauder",
        "the raider, raiding from 20 rounds out",
        HERE / "house" / "marauder",
        made_of=STARTER_SOURCES,
    ),
    HouseAndroid(
        "champion",
        "the raider from 30 rounds out, with decoy sites and an early depot against a raider",
        HERE / "house" / "champion",
        made_of=STARTER_SOURCES,
    ),
)


def names() -> tuple[str, ...]:
    """Every house android's ``house:NAME``, weakest first."""
    return tuple(android.ref for android in ROSTER)


def is_house(ref: str) -> bool:
    """Whether ``ref`` is written as a house android's name (``house:...``), known or not."""
    return ref.startswith(PREFIX)


def entry_of(ref: str | os.PathLike[str]) -> tuple[Path, str | None]:
    """The entry file a script reference means, and the house android's name when it names one:
    ``house:NAME`` is that house android's entry (and ``house:NAME``), anything else a path to an
    entry file (and None). The one place the "a house ref or a path" rule is written.

    >>> entry_of("bots/main.ts")
    (PosixPath('bots/main.ts'), None)
    >>> entry_of("house:starter")[1]
    'house:starter'
    """
    if is_house(str(ref)):
        android = house(str(ref))
        return android.entry_path, android.ref
    return Path(ref), None


def house(ref: str) -> HouseAndroid:
    """The house android ``ref`` names (``house:NAME``, or the bare ``NAME``)."""
    name = ref[len(PREFIX) :] if is_house(ref) else ref
    for android in ROSTER:
        if android.name == name:
            return android
    raise HouseError(
        f"there is no house android {ref!r}; the house androids are {', '.join(names())}"
    )


__all__ = [
    "PREFIX",
    "ROSTER",
    "HouseAndroid",
    "HouseError",
    "entry_of",
    "house",
    "is_house",
    "names",
]
