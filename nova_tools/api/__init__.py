"""The service layer every front end calls (CLI, language server, MCP server, lab).

Front ends never reach into the engine or re-implement a rule: if one needs a game fact, this
layer grows. Results are typed (:mod:`nova_tools.api.results`; ``to_json()`` gives the documented
JSON shapes); mistakes raise a :class:`~nova_tools.errors.NovaError`, whose message is a sentence
the user can act on.

Split by what it reads or changes: ``games`` (create, upload, launch, run), ``played`` (whole games
played in memory), ``runs`` (a run of scripts to an arrival round, the lab's Run panel), ``dryrun``, ``reports`` (status, an android, the log, replays), ``history`` (scores round by round, standings at a round), ``wording`` (what events and scores say, in words), ``world`` (a
player's world), ``frames`` (a recorded game moment by moment), ``timeline`` (the same for a viewer: frames as
changes, one android at one moment), ``folder`` (a folder of games).

Importing the package is cheap: each name is loaded from its module on first use (PEP 562), so a
command that prints help or reads a score never pays for the parts it does not touch (the sandbox,
the toolchain, the models of every other result).
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = (
    False  # typing.TYPE_CHECKING without importing typing (a few ms of every command's start)
)
if TYPE_CHECKING:  # what the names are, for readers and type checkers
    from ..engine.reasons import Outcome, Reason, failed_turn
    from ..engine.refusals import Refusal, UnknownPlayer
    from ..engine.wire import Action  # the shapes a turn function may return (typings, schemas)
    from .access import game_rules, open_game, read_game, require_player, write_game_bytes
    from .dryrun import DryRun, dry_run
    from .errors import USER_ERRORS, ApiError, NovaError
    from .folder import NAME_RULE, BadName, GameFolder, check_name, game_summary
    from .forks import Edit, base_files, fork
    from .frames import replay_frames
    from .games import (
        PlayerScript,
        compile_upload,
        create_game,
        launch_android,
        player_script,
        resolve_rules,
        run_rounds,
        upload_script,
    )
    from .history import score_history, status_at
    from .library import LibraryScript, ScriptLibrary, add_to_library
    from .played import PlayedGame, demo_spec, play_to_file, starter_entry
    from .reference import action_docs
    from .reference import write_docs as write_generated_docs
    from .reports import (
        android_fall,
        android_report,
        events_page,
        redact_event,
        replay_export,
        replay_json,
        status,
        write_replay,
    )
    from .results import (
        ActionDoc,
        ActionField,
        AndroidMoment,
        AndroidReport,
        AndroidState,
        BuildingState,
        Created,
        EventsPage,
        Frame,
        FrameChange,
        FrameScore,
        GameEntry,
        GameSummary,
        Holdings,
        Launched,
        LeadChange,
        LibraryEntry,
        Message,
        OwnAndroid,
        PlayerHistory,
        PlayerScore,
        PlayerWorld,
        Position,
        RecordedAndroid,
        Result,
        RuleProblem,
        RulesCheck,
        RunGame,
        RunSummary,
        ScoreHistory,
        ScoreLine,
        ScriptRef,
        SourcePlace,
        Standing,
        Status,
        Timeline,
        TurnSummary,
        Uploaded,
        VisibleTile,
    )
    from .rules_reference import rules_table
    from .runs import play_run
    from .timeline import android_at, replay_timeline
    from .wording import describe_event
    from .world import player_world

# name -> (module, attribute): where each public name lives
_WHERE = {
    "Outcome": ("..engine.reasons", "Outcome"),
    "Reason": ("..engine.reasons", "Reason"),
    "failed_turn": ("..engine.reasons", "failed_turn"),
    "Action": ("..engine.wire", "Action"),
    "Refusal": ("..engine.refusals", "Refusal"),
    "UnknownPlayer": ("..engine.refusals", "UnknownPlayer"),
    "game_rules": (".access", "game_rules"),
    "write_game_bytes": (".access", "write_game_bytes"),
    "open_game": (".access", "open_game"),
    "read_game": (".access", "read_game"),
    "require_player": (".access", "require_player"),
    "DryRun": (".dryrun", "DryRun"),
    "dry_run": (".dryrun", "dry_run"),
    "USER_ERRORS": (".errors", "USER_ERRORS"),
    "ApiError": (".errors", "ApiError"),
    "NovaError": (".errors", "NovaError"),
    "NAME_RULE": (".folder", "NAME_RULE"),
    "BadName": (".folder", "BadName"),
    "GameFolder": (".folder", "GameFolder"),
    "check_name": (".folder", "check_name"),
    "game_summary": (".folder", "game_summary"),
    "replay_frames": (".frames", "replay_frames"),
    "android_at": (".timeline", "android_at"),
    "replay_timeline": (".timeline", "replay_timeline"),
    "play_run": (".runs", "play_run"),
    "PlayerScript": (".games", "PlayerScript"),
    "LibraryEntry": (".results", "LibraryEntry"),
    "Edit": (".forks", "Edit"),
    "base_files": (".forks", "base_files"),
    "fork": (".forks", "fork"),
    "LibraryScript": (".library", "LibraryScript"),
    "ScriptLibrary": (".library", "ScriptLibrary"),
    "add_to_library": (".library", "add_to_library"),
    "compile_upload": (".games", "compile_upload"),
    "create_game": (".games", "create_game"),
    "launch_android": (".games", "launch_android"),
    "player_script": (".games", "player_script"),
    "resolve_rules": (".games", "resolve_rules"),
    "run_rounds": (".games", "run_rounds"),
    "upload_script": (".games", "upload_script"),
    "PlayedGame": (".played", "PlayedGame"),
    "demo_spec": (".played", "demo_spec"),
    "play_to_file": (".played", "play_to_file"),
    "starter_entry": (".played", "starter_entry"),
    "action_docs": (".reference", "action_docs"),
    "rules_table": (".rules_reference", "rules_table"),
    "write_generated_docs": (".reference", "write_docs"),
    "score_history": (".history", "score_history"),
    "status_at": (".history", "status_at"),
    "android_report": (".reports", "android_report"),
    "android_fall": (".reports", "android_fall"),
    "events_page": (".reports", "events_page"),
    "redact_event": (".reports", "redact_event"),
    "replay_export": (".reports", "replay_export"),
    "replay_json": (".reports", "replay_json"),
    "status": (".reports", "status"),
    "write_replay": (".reports", "write_replay"),
    "ActionDoc": (".results", "ActionDoc"),
    "ActionField": (".results", "ActionField"),
    "AndroidReport": (".results", "AndroidReport"),
    "AndroidState": (".results", "AndroidState"),
    "BuildingState": (".results", "BuildingState"),
    "Created": (".results", "Created"),
    "EventsPage": (".results", "EventsPage"),
    "Frame": (".results", "Frame"),
    "GameEntry": (".results", "GameEntry"),
    "FrameScore": (".results", "FrameScore"),
    "GameSummary": (".results", "GameSummary"),
    "Holdings": (".results", "Holdings"),
    "Launched": (".results", "Launched"),
    "LeadChange": (".results", "LeadChange"),
    "Message": (".results", "Message"),
    "OwnAndroid": (".results", "OwnAndroid"),
    "PlayerHistory": (".results", "PlayerHistory"),
    "PlayerWorld": (".results", "PlayerWorld"),
    "PlayerScore": (".results", "PlayerScore"),
    "RuleProblem": (".results", "RuleProblem"),
    "RulesCheck": (".results", "RulesCheck"),
    "Position": (".results", "Position"),
    "RecordedAndroid": (".results", "RecordedAndroid"),
    "Result": (".results", "Result"),
    "RunSummary": (".results", "RunSummary"),
    "ScoreHistory": (".results", "ScoreHistory"),
    "ScoreLine": (".results", "ScoreLine"),
    "ScriptRef": (".results", "ScriptRef"),
    "SourcePlace": (".results", "SourcePlace"),
    "Standing": (".results", "Standing"),
    "Status": (".results", "Status"),
    "Uploaded": (".results", "Uploaded"),
    "AndroidMoment": (".results", "AndroidMoment"),
    "FrameChange": (".results", "FrameChange"),
    "RunGame": (".results", "RunGame"),
    "Timeline": (".results", "Timeline"),
    "TurnSummary": (".results", "TurnSummary"),
    "VisibleTile": (".results", "VisibleTile"),
    "player_world": (".world", "player_world"),
    "describe_event": (".wording", "describe_event"),
}


def __getattr__(name: str) -> object:
    if name in _WHERE:
        module, attribute = _WHERE[name]
        value = getattr(importlib.import_module(module, __name__), attribute)
    elif not name.startswith("_") and _is_module(name):
        value = importlib.import_module(f"{__name__}.{name}")  # a module of the api (api.wording)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # found once: later reads skip this function
    return value


def _is_module(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(f"{__name__}.{name}") is not None


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


__all__ = [
    "Action",
    "ActionDoc",
    "ActionField",
    "AndroidMoment",
    "AndroidReport",
    "AndroidState",
    "ApiError",
    "BadName",
    "BuildingState",
    "Created",
    "DryRun",
    "EventsPage",
    "Frame",
    "FrameChange",
    "FrameScore",
    "GameEntry",
    "GameFolder",
    "GameSummary",
    "Holdings",
    "Launched",
    "LeadChange",
    "Message",
    "NAME_RULE",
    "NovaError",
    "Outcome",
    "OwnAndroid",
    "PlayedGame",
    "PlayerHistory",
    "PlayerScript",
    "PlayerScore",
    "PlayerWorld",
    "Position",
    "Reason",
    "RecordedAndroid",
    "Refusal",
    "Result",
    "RuleProblem",
    "RulesCheck",
    "RunGame",
    "RunSummary",
    "ScoreHistory",
    "ScoreLine",
    "ScriptRef",
    "SourcePlace",
    "Standing",
    "Status",
    "Timeline",
    "TurnSummary",
    "USER_ERRORS",
    "UnknownPlayer",
    "Uploaded",
    "VisibleTile",
    "action_docs",
    "android_at",
    "android_report",
    "android_fall",
    "check_name",
    "PlayerScript",
    "LibraryEntry",
    "Edit",
    "base_files",
    "fork",
    "LibraryScript",
    "ScriptLibrary",
    "add_to_library",
    "compile_upload",
    "create_game",
    "demo_spec",
    "describe_event",
    "dry_run",
    "events_page",
    "failed_turn",
    "game_rules",
    "game_summary",
    "launch_android",
    "open_game",
    "play_run",
    "play_to_file",
    "player_script",
    "player_world",
    "read_game",
    "redact_event",
    "replay_export",
    "replay_frames",
    "replay_json",
    "replay_timeline",
    "require_player",
    "resolve_rules",
    "rules_table",
    "run_rounds",
    "score_history",
    "starter_entry",
    "status",
    "status_at",
    "upload_script",
    "write_generated_docs",
    "write_replay",
    "write_game_bytes",
]
