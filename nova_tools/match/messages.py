"""The peer-match protocol: every message both sides exchange, with its version and size limit.

One WebSocket connection carries one match, as JSON text frames, one message per frame:

    host                                   joiner
    offer    (protocol, version, rules,  ->
              sizes, disclosure, sandbox,
              seed and script commitments)
                                         <-  accept (version, size, seed and script commitments)
                                             or refuse (a sentence)
    script   (the compiled bundle)       <-> script
    reveal   (the seed nonce)            <-> reveal
    round    (round number, state hash)  <-> round        once per round, 1 .. rounds
    done     (the last round verified)   <-> done

Either side may send ``abort`` (a sentence: a desync, an interruption) at any point after the
offer, and the host answers a connection it cannot serve (a second joiner) with ``abort`` in
place of an offer. The first message of each side carries ``protocol`` and ``version``; the
``offer``'s ``protocol``/``version`` fields and the whole ``refuse`` and ``abort`` messages keep
their shape in every future version, so two different versions can still tell each other why
they cannot play.

Every message is checked on arrival: its size against the limit of the messages expected at that
moment, its JSON, its type, and its fields (:func:`decode`). Whatever is wrong becomes a
:class:`ProtocolViolation` whose text is one sentence about the peer.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.alias_generators import to_camel

from ..limits import MAX_ROUNDS, Disclosure

PROTOCOL = "nova-match"
VERSION = 1

KIB = 1024
MIB = 1024 * KIB
# A bundle may be up to 4 MiB (the toolchain's limit on sources); JSON escaping can grow it, so a
# script message may be twice that. Every other message is small.
MAX_SCRIPT_MESSAGE = 8 * MIB + 64 * KIB
MAX_OFFER_MESSAGE = 256 * KIB
MAX_SMALL_MESSAGE = 8 * KIB
# What the WebSocket layer accepts at all (a larger frame closes the connection with 1009).
MAX_FRAME = MAX_SCRIPT_MESSAGE

# The deepest a message nests: the offer's rules go 5 levels down. Deeper JSON would reach code
# that recurses (validation, the rules' deep merge and copy) and end in a RecursionError.
MAX_NESTING = 32

HEX64 = r"^[0-9a-f]{64}$"
PLAYER_ID = r"^[A-Za-z0-9._-]{1,64}$"


def printable(text: str) -> str:
    """A peer's sentence made safe to print: no control characters (terminal escapes), no lone
    surrogates (which cannot be written as UTF-8).

    >>> printable("bye\\x1b[2J\\ud800!")
    'bye?[2J?!'
    """
    return "".join(c if c.isprintable() and not 0xD800 <= ord(c) <= 0xDFFF else "?" for c in text)


def _utf8(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("not valid Unicode text (a lone surrogate)") from None
    return text


Sentence = Annotated[str, Field(max_length=1000), AfterValidator(printable)]
Text = Annotated[str, AfterValidator(_utf8)]


class ProtocolViolation(Exception):
    """The peer sent something this protocol does not allow at this point; the text says what."""


class VersionMismatch(ProtocolViolation):
    """The peer speaks another version of this protocol (another nova-tools release)."""

    def __init__(self, peer_version: object) -> None:
        self.peer_version = peer_version
        super().__init__(
            f"the peer speaks nova-match protocol version {str(peer_version)[:20]} and this nova speaks version {VERSION}; "
            "both sides need the same nova-tools release"
        )


class _Message(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, strict=True, alias_generator=to_camel, populate_by_name=True
    )

    def encode(self) -> str:
        return json.dumps(
            self.model_dump(by_alias=True, mode="json"), separators=(",", ":"), ensure_ascii=False
        )


class Size(BaseModel):
    """A board size the offer allows, ``WxH``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    width: int = Field(ge=2, le=256)
    height: int = Field(ge=2, le=256)

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"

    @classmethod
    def parse(cls, text: str) -> Size:
        """``'24x24'`` -> Size(24, 24); a ValueError says what is wrong."""
        match = re.fullmatch(r"\s*(\d{1,4})\s*[xX]\s*(\d{1,4})\s*", text)
        if not match:
            raise ValueError(f"{text!r} is not a board size; write it as WIDTHxHEIGHT, e.g. 24x24")
        width, height = int(match[1]), int(match[2])
        if not (2 <= width <= 256 and 2 <= height <= 256):
            raise ValueError(f"{text} is not a possible board: width and height go from 2 to 256")
        return cls(width=width, height=height)


class Offer(_Message):
    """The host's terms: what the joiner accepts or refuses."""

    type: Literal["offer"] = "offer"
    protocol: str
    version: int
    host: str = Field(pattern=PLAYER_ID)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    rules: dict  # the host's resolved rules (world size aside), with match.finalRound = rounds
    sizes: list[Size] = Field(min_length=1, max_length=16)
    disclosure: Disclosure
    sandbox: dict[str, str]
    nova: str = Field(max_length=64)  # the nova-tools version: both sides must run the same game
    seed_commit: str = Field(pattern=HEX64)
    script_commit: str = Field(
        pattern=HEX64
    )  # sha256 of the host's bundle, sent before either bundle


class Accept(_Message):
    type: Literal["accept"] = "accept"
    protocol: str
    version: int
    player: str = Field(pattern=PLAYER_ID)
    size: Size
    sandbox: dict[str, str]
    nova: str = Field(max_length=64)
    seed_commit: str = Field(pattern=HEX64)
    script_commit: str = Field(pattern=HEX64)


class Refuse(_Message):
    """The joiner declines the offer, or the host declines the joiner's answer."""

    type: Literal["refuse"] = "refuse"
    reason: Sentence


class Script(_Message):
    """A side's compiled android: the bundle both sides run, and its name in the game."""

    type: Literal["script"] = "script"
    name: str = Field(pattern=r"^[A-Za-z0-9 ._@+-]{1,64}$")
    sha256: str = Field(pattern=HEX64)
    bundle: Text


class Reveal(_Message):
    type: Literal["reveal"] = "reveal"
    nonce: str = Field(pattern=HEX64)


class Round(_Message):
    """The state hash after a round, as the sender played it."""

    type: Literal["round"] = "round"
    round: int = Field(ge=1, le=MAX_ROUNDS)
    hash: str = Field(pattern=HEX64)


class Done(_Message):
    """Every round played and verified on the sender's side."""

    type: Literal["done"] = "done"
    round: int = Field(ge=0, le=MAX_ROUNDS)


class Abort(_Message):
    """The sender stops: why, in one sentence (a desync, an interruption, a busy host)."""

    type: Literal["abort"] = "abort"
    reason: Sentence


Message = Offer | Accept | Refuse | Script | Reveal | Round | Done | Abort
_ADAPTER: TypeAdapter[Message] = TypeAdapter(Annotated[Message, Field(discriminator="type")])
TYPES: dict[str, type[_Message]] = {
    m.model_fields["type"].default: m
    for m in (Offer, Accept, Refuse, Script, Reveal, Round, Done, Abort)
}

_LIMITS = {Script: MAX_SCRIPT_MESSAGE, Offer: MAX_OFFER_MESSAGE}


def limit_for(expected: tuple[type[_Message], ...]) -> int:
    """The largest message that may arrive when one of ``expected`` is due."""
    return max(_LIMITS.get(kind, MAX_SMALL_MESSAGE) for kind in expected)


def _due(expected: tuple[type[_Message], ...]) -> str:
    """'a 'round'', 'an 'accept' or a 'refuse'': what was due, for a sentence."""
    names = [m.model_fields["type"].default for m in expected]
    return " or ".join(f"{'an' if n[0] in 'aeiou' else 'a'} '{n}'" for n in names)


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n / KIB:.0f} KiB" if n >= KIB else f"{n} bytes"


def _nesting(value: object) -> int:
    """How deeply ``value`` nests objects and arrays (without recursion: the peer chooses the depth)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in item if isinstance(child, (dict, list)))
    return deepest


def decode(raw: str | bytes, expected: tuple[type[_Message], ...]) -> Message:
    """Check one frame from the peer: size, JSON, type, fields. ``Abort`` is always allowed.

    >>> decode('{"type":"round","round":3,"hash":"' + 'a' * 64 + '"}', (Round,)).round
    3
    >>> decode('{"type":"round","round":3}', (Reveal,))
    Traceback (most recent call last):
    ...
    nova_tools.match.messages.ProtocolViolation: the peer sent a 'round' message where a 'reveal' was due
    """
    if isinstance(raw, bytes):
        raise ProtocolViolation("the peer sent a binary frame; nova-match messages are JSON text")
    limit = limit_for(expected)
    if len(raw) > limit:
        raise ProtocolViolation(
            f"the peer sent a {_size(len(raw))} message where at most {_size(limit)} was due"
        )
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolViolation(f"the peer sent text that is not JSON ({raw[:40]!r}...)") from None
    except ValueError:  # valid JSON Python refuses to read: an integer of more than 4300 digits
        raise ProtocolViolation(
            "the peer sent a number too long to read (more than 4300 digits)"
        ) from None
    if _nesting(data) > MAX_NESTING:
        raise ProtocolViolation(f"the peer sent JSON nested more than {MAX_NESTING} levels deep")
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise ProtocolViolation("the peer sent JSON that is not a nova-match message (no 'type')")
    kind = TYPES.get(data["type"])
    if kind is None:
        raise ProtocolViolation(f"the peer sent an unknown message type {data['type'][:40]!r}")
    if kind is not Abort and kind not in expected:
        raise ProtocolViolation(
            f"the peer sent a '{data['type']}' message where {_due(expected)} was due"
        )
    if kind in (Offer, Accept):  # the opening messages: which protocol, which version
        if data.get("protocol") != PROTOCOL:
            raise ProtocolViolation(
                f"the peer does not speak {PROTOCOL} (its '{data['type']}' names protocol {str(data.get('protocol'))[:40]!r})"
            )
        if data.get("version") != VERSION:
            raise VersionMismatch(data.get("version"))
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        item = error.errors(include_url=False)[0]
        where = ".".join(str(p) for p in item["loc"][1:]) or "message"
        raise ProtocolViolation(
            f"the peer's '{data['type']}' message is malformed ({where}: {item['msg']})"
        ) from None
