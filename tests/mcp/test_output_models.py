"""One declaration per outward shape: every MCP tool answers with an api or arena result model
(nova_tools.api.results, nova_tools.arena.results) or with one of the few envelopes of
nova_tools.mcp.models, and none of those envelopes mirrors a result declared elsewhere."""

from __future__ import annotations

import inspect
import typing

from pydantic import BaseModel

from nova_tools.api import results as api_results
from nova_tools.arena import league as league_results
from nova_tools.arena import results as arena_results
from nova_tools.mcp import models
from nova_tools.mcp.tools import TOOLS


def _declared(module) -> list[type[BaseModel]]:
    return [
        cls
        for cls in vars(module).values()
        if isinstance(cls, type)
        and issubclass(cls, BaseModel)
        and cls.__module__ == module.__name__
    ]


def _fields(cls: type[BaseModel]) -> frozenset[str]:
    return frozenset(field.alias or name for name, field in cls.model_fields.items())


RESULTS = _declared(api_results) + _declared(arena_results)
# the league's results (arena/league.py) are answers too; a page of league games is not a mirror
# of the MCP's page of the folder's games
ANSWERS = RESULTS + _declared(league_results)


def mirrors(cls: type[BaseModel]) -> list[str]:
    """The results ``cls`` mirrors: the same name, or field sets of which half or more are shared."""
    mine = _fields(cls)
    out = []
    for other in RESULTS:
        theirs = _fields(other)
        shared = len(mine & theirs) / max(1, len(mine | theirs))
        if other.__name__ == cls.__name__ or shared >= 0.5:
            out.append(f"{other.__module__}.{other.__name__}")
    return out


def output_model(tool) -> type[BaseModel]:
    annotation = typing.get_type_hints(inspect.unwrap(tool), include_extras=True)["return"]
    return typing.get_args(annotation)[1]


def test_no_mcp_model_mirrors_an_api_or_arena_result():
    declared = _declared(models)
    assert set(declared) == set(models.ENVELOPES)
    for cls in declared:
        assert not mirrors(cls), (
            f"mcp.models.{cls.__name__} mirrors {mirrors(cls)}: use that result"
        )


def test_every_tool_answers_with_a_result_or_an_mcp_envelope():
    for tool in TOOLS:
        model = output_model(tool)
        assert model in ANSWERS or model in models.ENVELOPES, (tool.__name__, model)


def test_the_check_would_catch_a_copy_of_an_api_result():
    class GameStatus(api_results.Result):  # what mcp/models.py declared before
        game: str
        round: int
        final_turn: int | None
        players: list

    class Uploaded(api_results.Result):
        script_id: str

    assert "nova_tools.api.results.Status" in mirrors(GameStatus)
    assert "nova_tools.api.results.Uploaded" in mirrors(Uploaded)
