"""Every reason code the game gives, in one place: why a turn failed, or why a command was refused.

A code is stable: scripts branch on it when they read their own events, agents on it when they
read ``nova events --failed``. Each :class:`Reason` carries its group and a short meaning; the
reason-code tables of ``docs/game-details.md`` are generated from them (``nova generate``), and
a test fails when the tables drift.

Groups:

- ``script``: the script produced no usable action (a budget ran out, it threw, it returned
  something that is not an action); the sandbox's kind of failure maps to one of these;
- ``action``: the engine refused a well-formed action (rulebook section 8);
- ``command``: a player command between rounds (join, launch) was refused; such a refusal changes
  nothing and costs nothing. Codes an action can also give (``off-map``, ``unknown-script``,
  ``at-capacity``, ``tile-occupied``) are listed with the actions.

>>> Reason("out-of-fuel").group
'script'
>>> Reason.AT_CAPACITY == "at-capacity"
True
>>> Outcome.REFUSED.failed, Outcome.ACCEPTED.failed
(True, False)
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """A reason code, with its ``group`` and ``meaning`` (the docs table's text)."""

    group: str
    meaning: str

    def __new__(cls, code: str, group: str, meaning: str) -> Reason:
        member = str.__new__(cls, code)
        member._value_ = code
        member.group = group
        member.meaning = meaning
        return member

    @classmethod
    def of(cls, code: str) -> Reason:
        """The reason whose code is ``code`` (ValueError for an unknown one)."""
        # An enum looked up by value; mypy reads the call as __new__'s, which defines members.
        return cls(code)  # type: ignore[call-arg]

    # --- the script produced no action ----------------------------------------------------------
    OUT_OF_FUEL = (
        "out-of-fuel",
        "script",
        "the script spent more than `rules.script.fuel` ticks (or the built-in work they stand for)",
    )
    OUT_OF_MEMORY = "out-of-memory", "script", "the script's heap went past `rules.script.memory`"
    STACK_OVERFLOW = "stack-overflow", "script", "the call stack went past 128 KiB"
    TIMEOUT = (
        "timeout",
        "script",
        (
            "the host gave up after `rules.script.timeoutMs`, the only machine-dependent limit: the rules keep it at "
            "least 4x the longest a turn's fuel and heap can take, so it fires only on a host far slower or busier than "
            "the reference machine, and such a game may not replay the same elsewhere"
        ),
    )
    SYNTAX_ERROR = "syntax-error", "script", "the script does not parse"
    SCRIPT_ERROR = "script-error", "script", "the script threw (or its stored script is missing)"
    NOT_AN_ACTION = (
        "not-an-action",
        "script",
        (
            "it returned something that is not an action (undefined, a string, an unknown type, a wrong field, "
            "a value JSON cannot carry, nested more than 32 levels deep, or over 2 MiB of JSON)"
        ),
    )
    SANDBOX_CRASH = (
        "sandbox-crash",
        "script",
        "the interpreter itself trapped: a bug of the sandbox, never the script's fault",
    )
    # --- the engine refused the action ----------------------------------------------------------
    MEMORY_TOO_LONG = (
        "memory-too-long",
        "action",
        "the action's memory is over `rules.android.memoryLimit` (counted as `.length` counts: an emoji is 2)",
    )
    RECORDING_TOO_LONG = (
        "recording-too-long",
        "action",
        "the action's recording is over `rules.android.recordingLimit` (counted as `.length` counts)",
    )
    OFF_MAP = (
        "off-map",
        "action",
        "a move or clean-acid points off the board (or a join names a tile off the map)",
    )
    NO_BATTERY = "no-battery", "action", "not enough battery for a move or a clean-acid"
    NO_BUILDING = "no-building", "action", "there is no building here"
    NOT_OWNER = "not-owner", "action", "the building or site here is someone else's"
    NOT_COMPLETE = "not-complete", "action", "the building here is still a construction site"
    CANNOT_CHARGE = "cannot-charge", "action", "the building here does not charge androids"
    NOTHING_HERE = "nothing-here", "action", "there is no loose material here"
    NOT_HERE = "not-here", "action", "the loose material here is not what was asked for"
    CARGO_FULL = "cargo-full", "action", "the cargo has no room for it"
    CARGO_EMPTY = "cargo-empty", "action", "there is nothing in the cargo to deposit"
    NOT_IN_CARGO = "not-in-cargo", "action", "the cargo lacks the material asked for"
    NOTHING_ASKED = "nothing-asked", "action", "`resources` names no material"
    NO_DEPOSIT = "no-deposit", "action", "the building here takes no deposits"
    NO_WITHDRAW = "no-withdraw", "action", "the building here allows no withdrawals"
    NOT_STORED = "not-stored", "action", "the building here does not hold the material asked for"
    TILE_OCCUPIED = "tile-occupied", "action", "a building or site already stands here"
    NOT_IN_COST = "not-in-cost", "action", "the site does not take that material"
    MORE_THAN_COST = "more-than-cost", "action", "the site does not take that much of it"
    NO_SITE = "no-site", "action", "there is no construction site here"
    UNPAID = "unpaid", "action", "the site still needs material before it can be built"
    INITIAL_CHARGER = "initial-charger", "action", "an initial charger cannot be salvaged"
    PROTECTED = "protected", "action", "this type of building cannot be salvaged by another player"
    NOT_DAMAGED = "not-damaged", "action", "there is nothing to repair"
    TOO_LONG = (
        "too-long",
        "action",
        "the broadcast is over `rules.android.broadcastLimit` (counted as `.length` counts)",
    )
    NO_ACID_PLANT = (
        "no-acid-plant",
        "action",
        "cleaning acid needs a completed acid processing plant of yours",
    )
    NO_ACID = "no-acid", "action", "there is no acid on that tile"
    NOT_ON_CHARGER = (
        "not-on-charger",
        "action",
        "launching or dismantling another android needs your completed charger underfoot",
    )
    UNKNOWN_SCRIPT = "unknown-script", "action", "the script is not one of yours"
    AT_CAPACITY = "at-capacity", "action", "your completed chargers allow no more active androids"
    SELF_TARGET = "self-target", "action", "dismantle named the acting android itself"
    BAD_TARGET = "bad-target", "action", "the target is not one of your active androids"
    # --- a player command refused ---------------------------------------------------------------
    UNKNOWN_PLAYER = (
        "unknown-player",
        "command",
        "there is no such player in the game (a player joins with their first upload)",
    )
    BAD_PLAYER_ID = (
        "bad-player-id",
        "command",
        "a player id is 1-64 letters, digits, '-', '_' or '.'",
    )
    PLAYER_EXISTS = "player-exists", "command", "the player has already joined"
    NO_ROOM = (
        "no-room",
        "command",
        "there is no free, hazard-free tile left for another initial charger",
    )
    NOT_A_CHARGER = (
        "not-a-charger",
        "command",
        "a launch named something that is not a completed charger of the player",
    )
    BAD_SCRIPT_NAME = (
        "bad-script-name",
        "command",
        "a script name is 1-200 characters of text, without control characters",
    )


class Outcome(StrEnum):
    """How a turn ended (an event's ``outcome``): only ``accepted`` changed the world."""

    ACCEPTED = "accepted"
    REFUSED = "refused"  # a well-formed action the rules do not allow
    INVALID = "invalid"  # not an action at all
    ERROR = "error"  # the script produced nothing (it threw, or a budget ran out)

    @property
    def failed(self) -> bool:
        """A failed turn costs ``rules.android.failedTurnHealthPenalty`` health and keeps the notes."""
        return self is not Outcome.ACCEPTED


# for readers and tools: every code a refused action can carry
REFUSAL_CODES = tuple(reason.value for reason in Reason if reason.group == "action")


def reason_table(group: str) -> str:
    """The Markdown table of one group's codes (what docs/game-details.md shows)."""
    rows = [
        f"| `{reason.value}` | {reason.meaning} |" for reason in Reason if reason.group == group
    ]
    return "\n".join(["| code | meaning |", "|---|---|", *rows])


__all__ = ["REFUSAL_CODES", "Outcome", "Reason", "reason_table"]
