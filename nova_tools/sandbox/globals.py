"""What a script sees, as the host hands it over: the game's globals once, the turn's every turn.

    game = GameGlobals(rules_json, final_turn)           # one per game
    turn = TurnGlobals.of(game, android_id, round, view)  # one per android turn (``view``: the world dict)
    sandbox.run_turn(bundle, turn, budgets, seed)

Scripts see ``androidId``, ``turn``, ``world``, ``rules`` and ``finalTurn`` (undefined when the game
has no arrival round), each JSON-equal to what the host gave. How they get there is chosen so a
turn costs what the script does with them, not what they weigh:

- ``rules`` and ``finalTurn`` never change within a game, so they are parsed once per game (and
  sandbox process) into the memory image the game's turns start from (runner.py, images.py);
- ``world`` is handed over as one string holding each top-level key's JSON text, and each key is
  parsed when the script first reads it (the prelude's ``lazy``): a script that never reads
  ``world.tiles`` never pays for them, however big the board. A read key becomes a plain data
  property; before its first read it is an accessor (visible only to
  ``Object.getOwnPropertyDescriptor``). Parsing a key on first read is charged to the script's
  wasm fuel and heap, as its own ``JSON.parse`` would be; ticks are not affected (parsing polls
  no interrupt).

Measured with ``bench/sandbox_bench.py`` (see the README's benchmark table): the world costs a
tiny script almost nothing at any board size, and costs a script that reads it what parsing the
keys it reads costs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from ..engine.view import WORLD_KEYS, encode
from ..limits import utf16_length

# A world key whose JSON text is at most this long (`round`, `width`, `height`) is parsed with the
# turn's other small values; a lazy key costs a closure and an accessor.
EAGER_CHARS = 24


@dataclass(frozen=True)
class GameGlobals:
    """``rules`` (as JSON text; None: undefined) and ``finalTurn``, the same every turn of a game."""

    rules_json: str | None = "{}"
    final_turn: int | None = None

    def install_text(self) -> str:
        """The text the prelude's ``installGame`` parses."""
        rules = "" if self.rules_json is None else '"rules":' + self.rules_json + ","
        return "{" + rules + '"finalTurn":' + json.dumps(self.final_turn) + "}"


@dataclass(frozen=True)
class TurnGlobals:
    """One turn's globals: the game's, plus ``androidId``, ``turn`` and ``world``.

    ``world`` maps each top-level key of the world object, in order, to that key's value as JSON
    text (None: ``world`` is undefined). Use :meth:`of` to build it from a world dict.
    """

    game: GameGlobals
    android_id: str
    turn: int
    world: Mapping[str, str] | None

    @classmethod
    def of(
        cls, game: GameGlobals, android_id: str, turn: int, world: Mapping[str, object]
    ) -> TurnGlobals:
        return cls(game, android_id, turn, {key: _dumps(value) for key, value in world.items()})

    @classmethod
    def from_json(cls, text: str) -> TurnGlobals:
        """From one JSON object with the keys ``androidId``, ``turn``, ``world``, ``rules`` and
        ``finalTurn`` (what a tool or test has at hand); raises ValueError for anything else."""
        try:
            values = json.loads(text)
        except ValueError as exc:
            raise ValueError(f"globals_json must be a JSON object: {exc}") from None
        if not isinstance(values, dict):
            raise ValueError("globals_json must be a JSON object")
        world = values.get("world")
        if world is not None and not isinstance(world, dict):
            raise ValueError("globals_json's world must be an object")
        game = GameGlobals(
            _dumps(values["rules"]) if "rules" in values else None, values.get("finalTurn")
        )
        # a tool's globals may leave androidId or turn out: the script then reads them undefined
        turn = cls(game, values.get("androidId"), values.get("turn"), None)  # type: ignore[arg-type]
        return turn if world is None else cls.of(game, turn.android_id, turn.turn, world)

    def payload(self) -> str:
        """The text the prelude's ``setupTurn`` reads (its format is documented there)."""
        if self.world is None:
            keys, eager, texts = "null", "", ""
        else:
            pairs: list[str] = []
            small: list[str] = []
            large: list[str] = []
            for key, text in self.world.items():
                name = _KEY_JSON.get(key) or _dumps(key)
                if len(text) <= EAGER_CHARS:
                    pairs.append(name + ",-1")
                    small.append(text)
                else:
                    pairs.append(name + "," + int.__repr__(utf16_length(text)))
                    large.append(text)
            # what _dumps([key, length, ...]) writes, without its per-item dispatch
            keys, eager, texts = "[" + ",".join(pairs) + "]", ",".join(small), "".join(large)
        head = (
            "["
            + _dumps(self.android_id)
            + ","
            + _dumps(self.turn)
            + ","
            + keys
            + ",["
            + eager
            + "]]"
        )
        return int.__repr__(utf16_length(head)) + ":" + head + texts


# One encoder for every call (json.dumps with any option builds a new JSONEncoder each time),
# the engine's: a game hands over engine.world_texts, which must equal what `of` would encode.
_dumps = encode
_KEY_JSON = {key: encode(key) for key in WORLD_KEYS}
