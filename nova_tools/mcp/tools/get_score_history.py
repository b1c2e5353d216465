"""The MCP tool get_score_history: each player's score round by round, small enough to keep in
context. The scores come from :func:`nova_tools.api.replay_frames` (the recorded game, replayed);
this module only picks which rounds to list."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from ... import api
from ...api import GameFolder
from ..models import PlayerScores, ScoreHistory
from .common import GameArg
from .registry import tool

MAX_HISTORY_POINTS = 100  # rounds listed per player by default: a 1,000-round game fits in a few KB


@tool("Scores round by round", read_only=True)
def get_score_history(
    folder: GameFolder,
    game: GameArg,
    every: Annotated[int | None, Field(description=f"List every Nth round (the last round is always listed). Default: as few as keep the list within {MAX_HISTORY_POINTS} rounds.", ge=1)] = None,
) -> Annotated[CallToolResult, ScoreHistory]:
    """Each player's score after each round (0: after setup), replayed from the game's log: who leads, and since when. Long games are sampled (`every`) so the answer stays small."""
    final: dict[int, dict[str, float]] = {}
    for frame in api.replay_frames(folder.existing(game)):
        final[frame.round] = {p.id: p.score for p in frame.players}  # the last frame of each round wins
    rounds = sorted(final)
    step = every or max(1, -(-len(rounds) // MAX_HISTORY_POINTS))
    picked = rounds[::step]
    if rounds and picked[-1] != rounds[-1]:
        picked.append(rounds[-1])
    players = list(dict.fromkeys(p for r in rounds for p in final[r]))
    history = ScoreHistory(
        game=game,
        rounds=picked,
        every=step,
        players=[PlayerScores(id=p, scores=[final[r].get(p, 0) for r in picked]) for p in players],
    )
    if not picked or not players:
        text = f"{game}: no scores yet (no player has joined)."
    else:
        last = picked[-1]
        standings = sorted(players, key=lambda p: -final[last].get(p, 0))
        text = f"{game}, scores after rounds {picked[0]}-{last}" + (f" (every {step} rounds)" if step > 1 else "") + ":\n" + "\n".join(
            f"{p}: " + " ".join(f"{final[r].get(p, 0):g}" for r in picked) for p in standings
        )
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=history.wire())
