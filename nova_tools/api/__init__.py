"""The service layer every front end calls (CLI, language server, MCP server, lab).

Front ends never reach into the engine or re-implement a rule: if one needs a game fact, this
layer grows. Results are typed (:mod:`nova_tools.api.results`; ``to_json()`` gives the documented
JSON shapes); mistakes raise a :class:`~nova_tools.errors.NovaError`, whose message is a sentence
the user can act on.

Split by what it reads or changes: ``games`` (create, upload, launch, run), ``played`` (whole games
played in memory), ``dryrun``, ``reports`` (status, an android, the log, replays), ``world`` (a
player's world), ``frames`` (a recorded game moment by moment), ``folder`` (a folder of games).
"""

from ..engine.reasons import Outcome, Reason, failed_turn
from ..engine.wire import Action  # the shapes a turn function may return (typings, schemas)
from ..engine.refusals import Refusal, UnknownPlayer
from .access import game_rules, open_game, read_game, require_player
from .dryrun import DryRun, dry_run
from .errors import USER_ERRORS, ApiError, NovaError
from .folder import NAME_RULE, BadName, GameFolder, check_name, game_summary
from .frames import replay_frames
from .games import PlayerScript, compile_upload, create_game, launch_android, player_script, resolve_rules, run_rounds, upload_script
from .played import PlayedGame, demo_spec, play_to_file, starter_entry
from .reference import action_docs
from .reference import write_docs as write_generated_docs
from .reports import android_report, events_page, redact_event, replay_export, replay_json, status, write_replay
from .results import (
    ActionDoc,
    ActionField,
    SourcePlace,
    AndroidReport,
    AndroidState,
    BuildingState,
    Created,
    EventsPage,
    Frame,
    GameEntry,
    FrameScore,
    GameSummary,
    Holdings,
    Launched,
    Message,
    OwnAndroid,
    PlayerWorld,
    Position,
    RecordedAndroid,
    Result,
    RunSummary,
    ScoreLine,
    ScriptRef,
    Standing,
    Status,
    Uploaded,
    VisibleTile,
)
from .world import player_world

__all__ = [
    "Action",
    "ActionDoc",
    "ActionField",
    "NAME_RULE",
    "USER_ERRORS",
    "AndroidReport",
    "AndroidState",
    "ApiError",
    "BadName",
    "BuildingState",
    "Created",
    "DryRun",
    "SourcePlace",
    "EventsPage",
    "Frame",
    "FrameScore",
    "GameEntry",
    "GameFolder",
    "GameSummary",
    "Holdings",
    "Launched",
    "Message",
    "NovaError",
    "Outcome",
    "OwnAndroid",
    "PlayedGame",
    "PlayerWorld",
    "Position",
    "Reason",
    "RecordedAndroid",
    "Refusal",
    "Result",
    "RunSummary",
    "ScoreLine",
    "ScriptRef",
    "Standing",
    "Status",
    "UnknownPlayer",
    "Uploaded",
    "VisibleTile",
    "action_docs",
    "android_report",
    "check_name",
    "PlayerScript",
    "compile_upload",
    "player_script",
    "create_game",
    "demo_spec",
    "dry_run",
    "events_page",
    "failed_turn",
    "game_rules",
    "game_summary",
    "launch_android",
    "open_game",
    "play_to_file",
    "player_world",
    "read_game",
    "redact_event",
    "replay_export",
    "replay_frames",
    "replay_json",
    "require_player",
    "resolve_rules",
    "run_rounds",
    "starter_entry",
    "status",
    "upload_script",
    "write_generated_docs",
    "write_replay",
]
