"""The service layer every front end calls (CLI, language server, MCP server, lab).

Front ends never reach into the engine or re-implement a rule: if one needs a game fact, this
layer grows. Everything here is plain Python with typed results; mistakes raise one of
:data:`USER_ERRORS`, whose message is a sentence the user can act on.
"""

from .dryrun import DryRun, dry_run
from .errors import USER_ERRORS, ApiError, NovaError
from .games import Created, Launched, RunSummary, Uploaded, compile_upload, create_game, launch_android, resolve_rules, run_rounds, upload_script
from .played import PlayedGame, demo_spec, play_to_file, starter_entry
from .reference import write_docs as write_generated_docs
from .reports import android_report, events_page, redact_event, replay_export, status, world_for

__all__ = [
    "USER_ERRORS",
    "ApiError",
    "Created",
    "DryRun",
    "Launched",
    "NovaError",
    "PlayedGame",
    "RunSummary",
    "Uploaded",
    "android_report",
    "compile_upload",
    "create_game",
    "demo_spec",
    "dry_run",
    "events_page",
    "launch_android",
    "play_to_file",
    "redact_event",
    "replay_export",
    "resolve_rules",
    "run_rounds",
    "starter_entry",
    "status",
    "upload_script",
    "world_for",
    "write_generated_docs",
]
