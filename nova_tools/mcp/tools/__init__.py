"""The MCP tools, one module each, in the order ``tools/list`` gives them.

Each tool is a plain function marked with :func:`~nova_tools.mcp.tools.registry.tool`: its
parameters (with their ``Annotated`` descriptions) are the tool's input schema, its return
annotation names the output model, its docstring is the description. Names and arguments are a
stable interface (DESIGN section 6), pinned by ``tests/mcp/snapshots/tools.json``. A new tool is
a new module here and one line in ``TOOLS``.
"""

from __future__ import annotations

from .add_script import add_script
from .compare_scripts import compare_scripts
from .create_game import create_game
from .delete_game import delete_game
from .dry_run_turn import dry_run_turn
from .get_android import get_android
from .get_board_image import get_board_image
from .get_events import get_events
from .get_score_history import get_score_history
from .get_status import get_status
from .get_world import get_world
from .launch_android import launch_android
from .league_add import league_add
from .league_play import league_play
from .league_table import league_table
from .list_games import list_games
from .list_scripts import list_scripts
from .play_game import play_game
from .registry import register, tool
from .run_rounds import MAX_ROUNDS, run_rounds
from .upload_script import upload_script
from .validate_rules import validate_rules

TOOLS = (
    list_games,
    create_game,
    validate_rules,
    add_script,
    list_scripts,
    upload_script,
    launch_android,
    run_rounds,
    get_status,
    get_world,
    get_android,
    dry_run_turn,
    get_events,
    get_board_image,
    get_score_history,
    compare_scripts,
    play_game,
    league_add,
    league_play,
    league_table,
    delete_game,
)

__all__ = ["MAX_ROUNDS", "TOOLS", "register", "tool"]
