"""Shared pieces of the sandbox tests: a small world, a normal bot, and a module builder."""

from __future__ import annotations

import json
from collections.abc import Callable

from nova_tools.sandbox import TurnResult

#: the ``run`` fixture of conftest.py: one turn with the test world (named here, not imported from
#: conftest: under ``tests/`` every folder's conftest is a module named ``conftest``)
Run = Callable[..., TurnResult]

WORLD = {
    "width": 12,
    "height": 12,
    "tiles": [
        {
            "position": {"x": x, "y": y},
            "composition": {"ore": (x * y) % 4},
            "scattered": {"metal": (x + y) % 3},
        }
        for x in range(12)
        for y in range(12)
    ],
    "androids": [{"id": "and-1", "position": {"x": 3, "y": 4}, "battery": 80, "cargo": {}}],
}
RULES = {
    "script": {"fuel": 200, "memory": 16 * 1024 * 1024, "timeoutMs": 10000},
    "world": {"width": 12, "height": 12},
}

# What an ordinary android does: read its globals, scan the map, pick a move. Spends 0 ticks.
NORMAL_BOT = """
const decide = () => {
  const me = world.androids.find((a) => a.id === androidId);
  let best = null, bestDistance = Infinity;
  for (const tile of world.tiles) {
    if (!tile.scattered.metal) continue;
    const d = Math.abs(tile.position.x - me.position.x) + Math.abs(tile.position.y - me.position.y);
    if (d > 0 && d < bestDistance) { best = tile; bestDistance = d; }
  }
  const direction = best.position.x > me.position.x ? "east" : best.position.x < me.position.x ? "west"
    : best.position.y > me.position.y ? "south" : "north";
  return { type: "android.move", direction, memory: `turn ${turn}` };
};
export default decide;
"""


def globals_json(**overrides: object) -> str:
    values = {"androidId": "and-1", "world": WORLD, "rules": RULES, "turn": 3, "finalTurn": None}
    values.update(overrides)
    return json.dumps(values)


def body(code: str) -> str:
    """A module whose default export runs ``code`` as the turn function's body."""
    return f"export default () => {{\n{code}\n}};\n"
