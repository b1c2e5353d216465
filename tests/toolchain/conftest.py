"""Shared helpers for the toolchain tests (they call the real tsc and esbuild binaries)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"

GOOD_MAIN = """\
import { step } from './lib/nav';
import { remember } from './memory.ts';
import type { Note } from './memory';

const turn: AndroidTurn = () => {
  const note: Note = remember(turn);
  return { ...step(rules.world.width), memory: note.text };
};
export default turn;
"""

GOOD_NAV = """\
export function step(width: number): Action {
  return width > 1 ? { type: 'android.move', direction: 'east' } : { type: 'android.wait' };
}
"""

GOOD_MEMORY = """\
export interface Note { text: string }
export function remember(_: unknown): Note {
  return { text: 'round ' + turn + ' of ' + (finalTurn ?? 'no arrival') };
}
"""


@pytest.fixture
def good_files() -> dict[str, str]:
    return {"main.ts": GOOD_MAIN, "lib/nav.ts": GOOD_NAV, "memory.ts": GOOD_MEMORY}


@pytest.fixture
def project(tmp_path: Path, good_files: dict[str, str]) -> Path:
    """A multi-file android on disk; returns its entry file."""
    for name, text in good_files.items():
        path = tmp_path / "bot" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "bot" / "main.ts"
