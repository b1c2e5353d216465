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
  ``world.tiles`` never pays for them, however big the board. The rest of the turn (androidId's
  length, ``turn``, which keys are lazy and where their texts are, the small integer keys) is a
  few numbers the host writes into the prelude's memory (:class:`Handover`), so setting up a
  turn parses nothing; a world other than the usual one (``engine.view.WORLD_KEYS``) comes with
  a JSON head instead. A read key becomes a plain data
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
from typing import NamedTuple

from ..engine.view import WORLD_KEYS, encode
from ..limits import utf16_length

# A world key whose JSON text is at most this long (`round`, `width`, `height`) is parsed with the
# turn's other small values; a lazy key costs an accessor.
EAGER_CHARS = 24

# The turn's numbers (the prelude's N, written by the host before setupTurn; the prelude says
# what each holds): their count, where per-key values start, and the mark the prelude fills them
# with in the snapshot, by which guest.py finds them (int32s, little-endian).
NUMBER_KEYS = ("format", "idLength", "turn", "shape", "empties")
VALUES = len(NUMBER_KEYS)
NUMBERS = VALUES + len(WORLD_KEYS)
MARK_STEP, MARK_BASE = -1640531535, 1313821249  # Math.imul(i + 1, STEP) ^ BASE
MARK = tuple(((((i + 1) * MARK_STEP + 2**31) % 2**32 - 2**31) ^ MARK_BASE) for i in range(NUMBERS))
BY_NUMBERS, BY_HEAD = 1, 0
NO_WORLD = -1
_NO_VALUES = [0] * len(WORLD_KEYS)
_BY_HEAD = (BY_HEAD,) + (0,) * (NUMBERS - 1)
_INT32 = 2**31

# The usual world's shapes (bit i: WORLD_KEYS[i] is lazy) the prelude makes an object for in the
# snapshot, so a turn of one of them only fills it in: tiles, androids and scripts are lazy in a
# game's every turn; buildings and broadcasts are when some are in view.
_BITS = tuple(1 << i for i in range(len(WORLD_KEYS)))
_ALWAYS = sum(_BITS[WORLD_KEYS.index(key)] for key in ("tiles", "androids", "scripts"))
_SOMETIMES = (_BITS[WORLD_KEYS.index("buildings")], _BITS[WORLD_KEYS.index("messages")])
COMMON_SHAPES = tuple(_ALWAYS | a | b for a in (0, _SOMETIMES[0]) for b in (0, _SOMETIMES[1]))


class Handover(NamedTuple):
    """What the host hands setupTurn: its text, and the numbers written into the prelude's N."""

    text: str
    numbers: tuple[int, ...]


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

    def handover(self) -> Handover:
        """What the prelude's ``setupTurn`` reads (its formats are documented there): by numbers
        where every value can be (androidId a string, turn an int32, no world or the usual one
        whose eager keys are int32s or empty lists), else by a JSON head."""
        world, turn = self.world, self.turn
        if (
            type(self.android_id) is not str
            or type(turn) is not int
            or not -_INT32 <= turn < _INT32
        ):
            return self._by_head()
        numbers = [BY_NUMBERS, utf16_length(self.android_id), turn, NO_WORLD, 0]
        if world is None:
            numbers += _NO_VALUES
            return Handover(self.android_id, tuple(numbers))
        if tuple(world) != WORLD_KEYS:
            return self._by_head()
        shape = empties = 0
        bit = 1
        parts = [self.android_id]
        for text in world.values():
            if len(text) > EAGER_CHARS:
                shape |= bit
                numbers.append(len(text) if text.isascii() else utf16_length(text))
                parts.append(text)
            elif text == "[]":
                empties |= bit
                numbers.append(0)
            elif text.isascii() and text.isdigit() and (text[0] != "0" or text == "0"):
                value = int(text)  # at most 24 digits
                if value >= _INT32:
                    return self._by_head()
                numbers.append(value)
            else:
                return self._by_head()
            bit <<= 1
        numbers[3], numbers[4] = shape, empties
        return Handover("".join(parts), tuple(numbers))

    def _by_head(self) -> Handover:
        large: list[str] = []
        if self.world is None:
            keys, eager = "null", ""
        else:
            pairs: list[str] = []
            small: list[str] = []
            for key, text in self.world.items():
                name = _KEY_JSON.get(key) or _dumps(key)
                if len(text) <= EAGER_CHARS:
                    pairs.append(name + ",-1")
                    small.append(text)
                else:
                    pairs.append(name + "," + int.__repr__(utf16_length(text)))
                    large.append(text)
            # what _dumps([key, length, ...]) writes, without its per-item dispatch
            keys, eager = "[" + ",".join(pairs) + "]", ",".join(small)
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
        return Handover(int.__repr__(utf16_length(head)) + ":" + head + "".join(large), _BY_HEAD)


# One encoder for every call (json.dumps with any option builds a new JSONEncoder each time),
# the engine's: a game hands over engine.world_texts, which must equal what `of` would encode.
_dumps = encode
_KEY_JSON = {key: encode(key) for key in WORLD_KEYS}
