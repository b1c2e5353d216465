"""The house androids: shipped opponents of known strength, named ``house:NAME`` wherever a
script is taken (``nova compare``, ``nova tournament``, ``nova league``, ``nova host``/``join``,
``nova new-android --from``, the lab, the MCP tools).

The roster is in rising strength; ``house:starter`` is the starter android itself. Each entry is
a folder of TypeScript sources with a ``main.ts`` whose default export is the turn function.

>>> house("house:starter").name
'starter'
>>> is_house("house:starter"), is_house("bot.ts")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import NovaError

#: How a house android is named wherever a script is taken.
PREFIX = "house:"
HERE = Path(__file__).resolve().parent


class HouseError(NovaError, ValueError):
    """A ``house:`` name that names no house android; the message lists the ones there are."""


@dataclass(frozen=True)
class HouseAndroid:
    """One shipped opponent: its name, its idea in one line, and the folder of its sources."""

    name: str
    idea: str
    folder: Path
    entry: str = "main.ts"

    @property
    def ref(self) -> str:
        """The name as a player writes it: ``house:NAME``."""
        return PREFIX + self.name

    @property
    def entry_path(self) -> Path:
        return self.folder / self.entry

    def files(self) -> dict[str, str]:
        """Its sources: file name (relative to its folder) -> text, the entry first."""
        names = sorted(p.name for p in self.folder.glob("*.ts"))
        names.sort(key=lambda n: n != self.entry)
        return {name: (self.folder / name).read_text(encoding="utf-8") for name in names}


#: The roster, weakest first. Each later one is measured against the ones before it
#: (``nova_tools/starter/README.md``).
ROSTER: tuple[HouseAndroid, ...] = (
    HouseAndroid(
        "starter",
        "the teaching example: a factory builder that collects, builds and banks points",
        HERE / "src",
    ),
    HouseAndroid(
        "raider",
        "the starter whose roamers salvage the rival's extractors in the last 12 rounds",
        HERE / "house" / "raider",
    ),
    HouseAndroid(
        "marauder",
        "the raider, raiding from 20 rounds out",
        HERE / "house" / "marauder",
    ),
    HouseAndroid(
        "champion",
        "the raider, raiding from 30 rounds out: first at the rival's extractors",
        HERE / "house" / "champion",
    ),
)


def names() -> tuple[str, ...]:
    """Every house android's ``house:NAME``, weakest first."""
    return tuple(android.ref for android in ROSTER)


def is_house(ref: str) -> bool:
    """Whether ``ref`` is written as a house android's name (``house:...``), known or not."""
    return ref.startswith(PREFIX)


def house(ref: str) -> HouseAndroid:
    """The house android ``ref`` names (``house:NAME``, or the bare ``NAME``)."""
    name = ref[len(PREFIX) :] if is_house(ref) else ref
    for android in ROSTER:
        if android.name == name:
            return android
    raise HouseError(
        f"there is no house android {ref!r}; the house androids are {', '.join(names())}"
    )


__all__ = ["PREFIX", "ROSTER", "HouseAndroid", "HouseError", "house", "is_house", "names"]
