"""Tools for agents that can see, and for following a game at a glance: ``get_board_image`` (the
board as one player saw it, as a PNG) and ``get_score_history`` (each player's score round by
round, small enough to keep in context).

Thin adapters like every tool: the facts come from :func:`nova_tools.api.player_world` (what the
player saw, fogged) and :func:`nova_tools.api.replay_frames` (the recorded game, replayed); this
module only draws (:mod:`.board_image`) and picks which rounds to list.
"""

# No `from __future__ import annotations`: the tools' annotations use the argument types
# build_server passes in, which the SDK must see evaluated.
import base64
from collections.abc import Callable
from typing import Annotated, Any

from mcp.types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from .. import api
from . import board_image
from .models import BoardImage, PlayerScores, ScoreHistory

MAX_HISTORY_POINTS = 100  # rounds listed per player by default: a 1,000-round game fits in a few KB


def register(tool: Callable, folder: api.GameFolder, GameArg: Any, PlayerArg: Any) -> None:  # noqa: N803 - the argument types
    @tool("Picture of the board", read_only=True)
    def get_board_image(
        game: GameArg,
        player: PlayerArg,
        round: Annotated[int | None, Field(description="Show the board as it stood after this round (0: after setup). Default: now.")] = None,
    ) -> Annotated[CallToolResult, BoardImage]:
        """A PNG picture of the board as `player` saw it (now, or after `round`): fogged tiles drawn as fog, the ground tinted by what is in it, buildings as lettered squares and androids as circles in each player's colour. The text beside it is the legend."""
        world = api.player_world(folder.existing(game), player, round)
        png, colours = board_image.render(world, player)
        size = board_image.tile_size(world.width, world.height)
        legend = board_image.legend(world, player, colours)
        data = BoardImage(
            game=game,
            player=player,
            round=world.round,
            width=world.width,
            height=world.height,
            tile_pixels=size,
            width_pixels=world.width * size,
            height_pixels=world.height * size,
            visible_tiles=len(world.tiles),
            legend=legend,
        )
        return CallToolResult(
            content=[
                ImageContent(type="image", data=base64.b64encode(png).decode("ascii"), mime_type="image/png"),
                TextContent(type="text", text=legend),
            ],
            structured_content=data.wire(),
        )

    @tool("Scores round by round", read_only=True)
    def get_score_history(
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
