"""Registering tools: each tool is a plain function marked with :func:`tool`, registered on a
server by :func:`register` (in the MCP SDK's style, a thin decorator over a plain function).

A tool that names a first parameter ``folder`` is given the server's
:class:`~nova_tools.api.GameFolder` (and that parameter is not an argument an agent sees), so a
tool can be called directly in a test: ``list_games(GameFolder.at(tmp))``.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from mcp.server import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel

from ...api import GameFolder
from .. import schemas
from ..edge import tool_edge

FOLDER = "folder"


@dataclass(frozen=True)
class ToolInfo:
    title: str
    read_only: bool
    destructive: bool = False

    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(  # the title is the tool's own, not repeated here
            read_only_hint=self.read_only,
            # meaningful only for a tool that changes something
            destructive_hint=None if self.read_only else self.destructive,
            # idempotentHint is meaningful only for a tool that changes something, and none of
            # those here is idempotent (false is the default)
            open_world_hint=False,
        )


def tool(
    title: str, *, read_only: bool, destructive: bool = False
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mark a function as a tool with a title, whether it only reads, and whether it destroys
    something (a client may ask its user first)."""

    def mark(fn: Callable[..., Any]) -> Callable[..., Any]:
        # the tool's marks ride on the function itself, read back by register()
        fn.nova_tool = ToolInfo(title, read_only, destructive)  # type: ignore[attr-defined]
        return fn

    return mark


def _bind_folder(fn: Callable[..., Any], folder: GameFolder) -> Callable[..., Any]:
    """``fn`` with its ``folder`` parameter given, and left out of the signature the SDK reads."""
    signature = inspect.signature(fn, eval_str=True)
    if FOLDER not in signature.parameters:
        return fn
    parameters = [p for name, p in signature.parameters.items() if name != FOLDER]

    async def bound_async(**kwargs: Any) -> Any:
        return await fn(folder, **kwargs)

    def bound_sync(**kwargs: Any) -> Any:
        return fn(folder, **kwargs)

    bound: Callable[..., Any] = bound_async if inspect.iscoroutinefunction(fn) else bound_sync

    functools.update_wrapper(
        bound, fn
    )  # name, docstring, and __wrapped__: type hints resolve in fn's module
    # the signature the SDK reads (inspect honours __signature__; no type declares it)
    bound.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    bound.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k != FOLDER}
    return bound


def output_model(fn: Callable[..., Any]) -> type[BaseModel]:
    """The result model a tool answers with: its return annotation's ``Annotated`` metadata."""
    annotation = typing.get_type_hints(fn, include_extras=True)["return"]
    return typing.get_args(annotation)[1]


def register(app: MCPServer, folder: GameFolder, tools: Iterable[Callable[..., Any]]) -> None:
    """Add ``tools``, in order, to ``app``: each behind the edge that turns mistakes into error
    results, with the lean schemas of :mod:`nova_tools.mcp.schemas` in tools/list (the SDK
    still validates every structured result against the result model itself)."""
    for fn in tools:
        info: ToolInfo = fn.nova_tool  # type: ignore[attr-defined]  # set by @tool
        # the docstring without its code indentation: what an agent reads in tools/list
        description = inspect.cleandoc(fn.__doc__ or "")
        app.add_tool(
            tool_edge(folder, _bind_folder(fn, folder)),
            title=info.title,
            description=description,
            annotations=info.annotations(),
        )
        added = app._tool_manager.get_tool(fn.__name__)
        assert added is not None
        added.parameters = schemas.input_schema(added.parameters)
        added.fn_metadata.output_schema = schemas.output_schema(output_model(fn))
