"""The server's settings, and the rules in effect for the workspace.

Settings come from the client's ``initializationOptions`` and, when the client supports it, from
``workspace/configuration`` section ``nova`` (re-read on ``workspace/didChangeConfiguration``).
Both accept ``{"nova": {...}}`` or the bare ``{...}``:

``rulesFile``  a rules file (JSON with comments) whose resolved values hover shows;
``gameFile``   a game file: dry-runs play against its current state (and its rules are the ones
               in effect when no ``rulesFile`` is given);
``androidId``  the android a dry-run plays as (default: the game's first active android).

Relative paths are taken from the workspace root.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the rules' models load when rules are first asked for, not at start
    from ..rules import Rules

_KEYS = {"rulesFile": "rules_file", "gameFile": "game_file", "androidId": "android_id"}


@dataclass(frozen=True)
class Settings:
    rules_file: str | None = None
    game_file: str | None = None
    android_id: str | None = None

    @classmethod
    def from_json(cls, data: object) -> Settings:
        if not isinstance(data, dict):
            return cls()
        nested = data.get("nova")
        found: dict[Any, Any] = nested if isinstance(nested, dict) else data
        values = {}
        for key, attr in _KEYS.items():
            value = found.get(key, found.get(f"nova.{key}"))
            if isinstance(value, str) and value.strip():
                values[attr] = value.strip()
        return cls(**values)

    def over(self, base: Settings) -> Settings:
        """These settings, falling back to ``base`` for the ones not given."""
        return replace(
            base,
            **{
                f.name: getattr(self, f.name)
                for f in fields(self)
                if getattr(self, f.name) is not None
            },
        )


def resolve_path(value: str | None, root: Path | None) -> Path | None:
    if not value:
        return None
    path = Path(os.path.expanduser(value))
    if not path.is_absolute() and root is not None:
        path = root / path
    return path


@dataclass(frozen=True)
class RulesInEffect:
    rules: Rules
    json: dict
    origin: str  # what they come from, for people: "the shipped defaults", "rules.json", ...
    problem: str | None = (
        None  # why the configured source could not be used (defaults shown instead)
    )


SHIPPED_DEFAULTS = "the shipped defaults"
_DEFAULTS: RulesInEffect | None = None


def shipped_defaults() -> RulesInEffect:
    global _DEFAULTS
    if _DEFAULTS is None:
        from ..rules import Rules

        rules = Rules()
        _DEFAULTS = RulesInEffect(rules, rules.to_json(), SHIPPED_DEFAULTS)
    return _DEFAULTS


OpenText = Callable[[Path], tuple[str, int] | None]  # an open buffer's (text, version), if open
RulesFromText = Callable[[str, str], "Rules"]  # (text, source name) -> rules, raising RulesError


class RulesContext:
    """Which rules a script in this workspace is played with, cached until their source changes.

    In order: the ``rulesFile`` setting; the rules stored in the ``gameFile``; a ``rules.json``
    in the workspace root; the shipped defaults. An open editor buffer wins over the file on disk,
    so hover follows a rules file while it is being edited.
    """

    def __init__(self, open_text: OpenText, rules_from_text: RulesFromText) -> None:
        self.open_text = open_text
        self.rules_from_text = rules_from_text
        self.root: Path | None = None
        self.settings = Settings()
        self._cache: tuple[object, RulesInEffect] | None = None

    def _source(self) -> tuple[str, Path] | None:
        if path := resolve_path(self.settings.rules_file, self.root):
            return "rules", path
        if path := resolve_path(self.settings.game_file, self.root):
            return "game", path
        if self.root is not None and (self.root / "rules.json").is_file():
            return "rules", self.root / "rules.json"
        return None

    def reads(self, path: Path | None) -> bool:
        """Whether the rules in effect come from this file (so editing it changes them)."""
        source = self._source()
        return path is not None and source is not None and source[1].resolve() == path.resolve()

    def current(self) -> RulesInEffect:
        source = self._source()
        if source is None:
            return shipped_defaults()
        kind, path = source
        buffer = self.open_text(path) if kind == "rules" else None
        try:
            stamp: object = ("buffer", buffer[1]) if buffer else ("disk", path.stat().st_mtime_ns)
        except OSError:
            return replace(shipped_defaults(), problem=f"{path} cannot be read")
        key = (kind, path, stamp)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        result = self._load(kind, path, buffer)
        self._cache = (key, result)
        return result

    def _load(self, kind: str, path: Path, buffer: tuple[str, int] | None) -> RulesInEffect:
        from ..rules import RulesError

        name = self._display(path)
        try:
            if kind == "game":
                from .. import api

                rules = api.game_rules(path)
                return RulesInEffect(rules, rules.to_json(), f"the game {name}")
            text = buffer[0] if buffer else path.read_text(encoding="utf-8")
            rules = self.rules_from_text(text, name)
            return RulesInEffect(rules, rules.to_json(), name)
        except RulesError as error:
            return replace(
                shipped_defaults(),
                problem=f"{name} has problems ({error}); showing the shipped defaults",
            )
        except Exception as error:  # a broken game file, an unreadable file: say so, show defaults
            return replace(
                shipped_defaults(),
                problem=f"{name} cannot be used ({error}); showing the shipped defaults",
            )

    def _display(self, path: Path) -> str:
        if self.root is not None:
            try:
                return path.relative_to(self.root).as_posix()
            except ValueError:
                pass
        return str(path)
