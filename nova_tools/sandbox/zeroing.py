"""How a restore makes an image's big stretches of zeros zero again, for the least work.

Most of an image is zeros: the 1 MiB C stack (it grows down towards address 0, and a turn writes
only its top few KiB) and the free heap with its reserve (images.HEAP_RESERVE). Clearing all of
it by hand costs ~10 µs per MiB every turn, a tenth of a tiny script's whole turn, mostly for
pages no turn touched. So each stretch is cut into whole ``CHUNK``s, and a restore either clears a
chunk by hand or *discards* it: hands its pages back to the kernel (``madvise(MADV_DONTNEED)``),
which maps a zero page there when it is next touched. Either way the memory is the image byte for
byte afterwards; which way is only a question of cost. Discarding a chunk no turn touches costs
nothing; discarding one every turn writes to costs a page fault for each of its pages next turn,
more than clearing them by hand.

Which chunks the turns touch is learnt, per image (``Clearing``): every chunk starts discarded;
every ``SAMPLE_EVERY``-th restore first reads the kernel's page map (``/proc/self/pagemap``) for
the discarded chunks, and a chunk with a page present again (the last turn touched it) is
cleared by hand from then on. Where the page map or ``madvise`` is missing (not Linux), every
chunk is cleared by hand, as before.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import sys

CHUNK = 64 * 1024  # the unit a restore discards or clears; a multiple of every host page size
SAMPLE_EVERY = 32
_MADV_DONTNEED = 4
_PRESENT_OR_SWAPPED = bytes(1 if byte & 0xC0 else 0 for byte in range(256))  # pagemap bits 63, 62

_madvise = None
if sys.platform == "linux":  # elsewhere MADV_DONTNEED need not zero a page
    _madvise = ctypes.CDLL(None, use_errno=True).madvise
    _madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    _madvise.restype = ctypes.c_int
_PAGEMAP = "/proc/self/pagemap"
_pagemap: tuple[int, int] | None = None  # (pid, fd): a forked child must open its own


def _pagemap_fd() -> int | None:
    """This process's page map, opened once per process; None where there is none."""
    global _pagemap
    pid = os.getpid()
    if _pagemap is None or _pagemap[0] != pid:
        try:
            _pagemap = (pid, os.open(_PAGEMAP, os.O_RDONLY | os.O_CLOEXEC))
        except OSError:
            return None
    return _pagemap[1]


def discard(address: int, length: int) -> None:
    """Make ``length`` bytes of page-aligned private memory at ``address`` zero: handed back to
    the kernel, or cleared by hand if that fails."""
    if _madvise is None or _madvise(address, length, _MADV_DONTNEED) != 0:
        ctypes.memset(address, 0, length)


def chunks_of(
    zeros: list[tuple[int, int]], initial: bytes
) -> tuple[tuple[int, ...], list[tuple[int, int]]]:
    """The whole CHUNKs inside the stretches ``zeros`` ((offset, length) of an image's zeros),
    where the module's own initial memory is zero too (a page handed back reads as that memory
    where it is mapped from the module), and what is left of the stretches, to clear by hand."""
    chunks: list[int] = []
    rest: list[tuple[int, int]] = []
    for offset, length in zeros:
        at, end = offset, offset + length
        first = -(-offset // CHUNK) * CHUNK
        for start in range(first, end - CHUNK + 1, CHUNK):
            if initial[start : start + CHUNK].count(0) != len(initial[start : start + CHUNK]):
                continue  # the module's memory is not zero here: cleared by hand
            if start > at:
                rest.append((at, start - at))
            chunks.append(start)
            at = start + CHUNK
        if end > at:
            rest.append((at, end - at))
    return tuple(chunks), rest


class Clearing:
    """One image's chunks and what has been learnt of them (shared by every guest holding it: a
    hint, so a race between two threads costs speed, never a byte)."""

    def __init__(self, chunks: tuple[int, ...]) -> None:
        self.chunks = chunks
        self._index = {offset: index for index, offset in enumerate(chunks)}
        learnable = _madvise is not None and os.path.exists(_PAGEMAP)
        self.touched = bytearray(b"\0" if learnable else b"\1") * len(chunks)
        self.restores = 0
        self.plan = self._plan()

    def _plan(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """(offset, length) stretches to discard, and to clear by hand: runs of adjacent chunks."""
        discards: list[tuple[int, int]] = []
        clears: list[tuple[int, int]] = []
        for offset, touched in zip(self.chunks, self.touched, strict=True):
            spans = clears if touched else discards
            if spans and spans[-1][0] + spans[-1][1] == offset:
                spans[-1] = (spans[-1][0], spans[-1][1] + CHUNK)
            else:
                spans.append((offset, CHUNK))
        return tuple(discards), tuple(clears)

    def zero(self, base: int) -> None:
        """Make every chunk zero in the linear memory at ``base``."""
        self.restores += 1
        if self.restores % SAMPLE_EVERY == 0:
            self._learn(base)
        discards, clears = self.plan
        for offset, length in discards:
            discard(base + offset, length)
        for offset, length in clears:
            ctypes.memset(base + offset, 0, length)

    def _learn(self, base: int) -> None:
        """Mark the discarded chunks a page of which is present again: the last turn wrote there."""
        fd = _pagemap_fd()
        if fd is None:
            return
        page = mmap.PAGESIZE
        per_chunk = CHUNK // page
        changed = False
        for offset, length in self.plan[0]:
            try:
                entries = os.pread(fd, 8 * (length // page), 8 * ((base + offset) // page))
            except OSError:
                return
            present = entries[7::8].translate(_PRESENT_OR_SWAPPED)
            for index in range(length // CHUNK):
                if 1 in present[index * per_chunk : (index + 1) * per_chunk]:
                    self.touched[self._index[offset + index * CHUNK]] = 1
                    changed = True
        if changed:
            self.plan = self._plan()
