"""Forked scripts: a new version described by what changes from a base (a library script, the
starter or a house android), so an agent sends only the changed files or lines.

The result is an ordinary set of files: compiled like any upload, its library id made from the
bundle, so a fork and the same files uploaded whole are the same script.

>>> fork({"main.ts": "let a = 1;", "lib.ts": "x"}, "main.ts",
...      files={"lib.ts": None}, edits=[Edit(file="main.ts", old="1", new="2")])
({'main.ts': 'let a = 2;'}, 'main.ts')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from .errors import ApiError
from .library import ScriptLibrary

STARTER = "starter"


class Edit(BaseModel):
    """One exact replacement in one file of the script: ``old`` must be found exactly once."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    old: str = Field(min_length=1)
    new: str


def base_files(base: str, root: str | Path, player: str | None) -> tuple[dict[str, str], str]:
    """The files and entry of ``base``: a library id of ``player``'s, ``"starter"`` or
    ``house:NAME``."""
    from ..starter import house as houses

    if base == STARTER or houses.is_house(base):
        android = houses.house(STARTER if base == STARTER else base)
        return android.files(), android.entry
    if player is None:
        raise ApiError(f"base {base!r} is a library script: give the player whose library holds it")
    return ScriptLibrary.of(root).sources(player, base)


def fork(
    base: Mapping[str, str],
    entry: str,
    files: Mapping[str, str | None] | None = None,
    edits: Sequence[Edit] = (),
) -> tuple[dict[str, str], str]:
    """``base`` with ``files`` replaced, added or (set to None) removed, then each edit applied
    in order: the new files and their entry. Refused, in one sentence naming the file, when an
    edit's ``old`` is not found exactly once, an edit names a missing file, or the entry goes."""
    out = dict(base)
    for name, text in (files or {}).items():
        if text is None:
            if name not in out:
                raise ApiError(
                    f"files: {name!r} is set to null to remove it, but the base has no such file"
                )
            del out[name]
        else:
            out[name] = text
    for number, edit in enumerate(edits, 1):
        if edit.file not in out:
            raise ApiError(
                f"edit {number}: the script has no file {edit.file!r} (its files: {', '.join(out)})"
            )
        found = out[edit.file].count(edit.old)
        if found != 1:
            raise ApiError(
                f"edit {number}: its old text is found {found} times in {edit.file}, not exactly once"
                + (" (give more of the surrounding text)" if found else "")
            )
        out[edit.file] = out[edit.file].replace(edit.old, edit.new, 1)
    if entry not in out:
        raise ApiError(f"files: the entry file {entry!r} cannot be removed")
    ordered = {entry: out[entry], **{k: v for k, v in out.items() if k != entry}}
    return ordered, entry


__all__ = ["STARTER", "Edit", "base_files", "fork"]
