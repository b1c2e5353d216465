"""The match seed, chosen by neither side alone: commit, then reveal, from both.

Each side draws a secret 32-byte nonce and sends only its commitment (a hash naming the side)
before it has seen anything of the other's. Once both commitments are on the table, both
nonces are revealed and each side checks the other's against its commitment. The seed is a hash
of both nonces, so neither side could steer it: the one who reveals last already knows the seed,
but is bound by its commitment and can only walk away (which the other side sees).

>>> host, joiner = Nonce(bytes(32)), Nonce(bytes([1]) * 32)
>>> check_reveal("joiner", joiner.commitment("joiner"), joiner.hex)
>>> match_seed(host.hex, joiner.hex) == match_seed(host.hex, joiner.hex) <= MAX_SEED
True
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field

from ..limits import MAX_SEED
from .messages import ProtocolViolation

_COMMIT = b"nova-match commit\0"
_SEED = b"nova-match seed\0"


@dataclass(frozen=True)
class Nonce:
    value: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)

    @property
    def hex(self) -> str:
        return self.value.hex()

    def commitment(self, role: str) -> str:
        return commitment(role, self.value)


def commitment(role: str, nonce: bytes) -> str:
    return hashlib.sha256(_COMMIT + role.encode() + b"\0" + nonce).hexdigest()


def check_reveal(role: str, committed: str, revealed_hex: str) -> None:
    """The peer's revealed nonce must be the one it committed to before seeing ours."""
    if commitment(role, bytes.fromhex(revealed_hex)) != committed:
        raise ProtocolViolation(
            f"the peer revealed a seed nonce that does not match the commitment it sent as {role}"
        )


def match_seed(host_hex: str, joiner_hex: str) -> int:
    """The game seed: 63 bits of a hash of both nonces, host's first."""
    digest = hashlib.sha256(_SEED + bytes.fromhex(host_hex) + bytes.fromhex(joiner_hex)).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED
