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

from ..lazy import TYPE_CHECKING, lazy_names

if TYPE_CHECKING:  # what the names are, for readers and type checkers
    from ..engine.events import (  # the log's events, as every reader takes them
        AndroidLaunched,
        Event,
        Hazard,
        PlayerJoined,
        Production,
        RoundEnded,
        RoundStarted,
        ScriptUploaded,
        Turn,
        failed_turn,
    )
    from ..engine.reasons import Outcome, Reason
    from ..engine.refusals import Refusal, UnknownPlayer
    from ..engine.wire import Action  # the shapes a turn function may return (typings, schemas)
    from ..play.runner import TurnsBusy, limit_turns, turns_limit
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
        EventLine,
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

__getattr__, __dir__ = lazy_names(__name__, __file__, globals())
