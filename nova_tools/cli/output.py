"""Printing for the CLI: JSON for machines, aligned tables and a progress bar for people."""

from __future__ import annotations

import json
import sys
import time


def emit_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def fmt_points(points: float) -> str:
    return f"{points:g}" if points == int(points) else f"{points:.2f}".rstrip("0")


def table(
    rows: list[list[str]], header: list[str], right: frozenset[int] | set[int] = frozenset()
) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def score_table(status: dict) -> str:
    """The readable form of `nova status`, from its documented JSON (``Status.to_json()``):
    scores, contributors, androids."""
    out = []
    final, played = status.get("finalTurn"), status["round"]
    head = f"Round {played}"
    if final is not None:
        left = final - played
        head += (
            f" of {final} (humans land in {left} round{'s' if left != 1 else ''})"
            if left > 0
            else f" (the humans landed on round {final})"
        )
    out.append(head)
    if not status["players"]:
        out.append("No players yet: `nova upload` a script to join.")
        return "\n".join(out)
    ranked = sorted(status["players"], key=lambda p: -p["score"])
    rows = [
        [str(i + 1), p["id"], fmt_points(p["score"]), str(p["activeAndroids"]), str(p["wrecks"])]
        for i, p in enumerate(ranked)
    ]
    out.append(table(rows, ["#", "player", "score", "androids", "wrecks"], right={0, 2, 3, 4}))
    for p in ranked:
        if p["breakdown"]:
            out.append(f"  {p['id']}: {breakdown_text(p['breakdown'])}")
    return "\n".join(out)


def breakdown_text(lines: list[dict]) -> str:
    """'buildings.charger 4, materials.ore 24': where a score comes from."""
    return ", ".join(f"{line['source']} {fmt_points(line['points'])}" for line in lines)


class ProgressBar:
    """A one-line progress bar on a terminal: ``done/total UNIT`` and the rate (``rounds/s``) or,
    with ``eta``, the time left (for runs of many games). In a pipe, a run of many games writes a
    line per finished game instead (a quiet pipe looked like a hang); rounds stay quiet there."""

    def __init__(
        self, total: int | None = None, stream=None, *, unit: str = "rounds", eta: bool = False
    ) -> None:
        self.total = total
        self.unit = unit
        self.eta = eta
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            if self.eta and done:  # runs of many games: a line per game, so a pipe sees it going
                elapsed = time.perf_counter() - self.start
                left = elapsed / done * (total - done)
                self.stream.write(
                    f"{done}/{total} {self.unit} done, {elapsed:.1f} s"
                    + (
                        f", about {int(left) // 60}:{int(left) % 60:02d} left"
                        if done < total
                        else ""
                    )
                    + "\n"
                )
                self.stream.flush()
            return
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        width = 30
        filled = int(width * done / total) if total else width
        if self.eta:
            left = elapsed / done * (total - done) if done else 0
            tail = (
                f"ETA {int(left) // 60}:{int(left) % 60:02d}"
                if done < total
                else f"{elapsed:.1f} s"
            ) + "   "
        else:
            tail = f"{done / elapsed:.1f} {self.unit}/s"
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {self.unit}  {tail}"
        )
        self.stream.flush()
        if done == total:
            self.stream.write("\n")
