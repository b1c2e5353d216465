"""The jobs the page can start: a run, hosting or joining a peer match, a comparison or tournament.

Each body checks its request against the root (scripts inside it, a free game name) before any
work, then calls the service that does the work (``api.play_run``, ``match.host``/``match.join``,
``arena.compare``/``arena.tournament``) with progress going to the page and the page's cancel flag
checked between rounds (or games). Nothing here plays or scores anything itself.
"""

from __future__ import annotations

from .. import api, arena, match
from ..starter.house import is_house
from .folder import LabFolder
from .jobs import Cancelled, Reporter
from .wire import (
    ArenaRequest,
    CompareOutcome,
    HostRequest,
    JoinRequest,
    MatchOutcome,
    RunOutcome,
    RunRequest,
    TournamentOutcome,
)


def run_game(folder: LabFolder, request: RunRequest):
    """Check a run request now (so a bad one is refused at once), and give its job's body."""
    path = folder.new_game(request.name, request.force)
    seats = [(seat.player, folder.script(seat.script)) for seat in request.seats]

    def body(report: Reporter) -> tuple[str, dict]:
        report.notice(f"compiling {len(seats)} script(s)")
        try:
            played = api.play_run(
                path,
                seats,
                rounds=request.rounds,
                seed=request.seed,
                width=request.width,
                height=request.height,
                force=request.force,
                progress=lambda done, total: report.progress(
                    done, total, f"round {done} of {total}"
                ),
                stop=report.stop_requested,
            )
        except api.ApiError:
            report.check()  # a run stopped on request is cancelled, not failed
            raise
        outcome = RunOutcome(
            name=request.name,
            rounds=played.rounds,
            final_turn=played.final_turn,
            seconds=played.seconds,
            players=played.players,
        )
        leader = max(played.players, key=lambda p: p.score, default=None)
        lead = f"; {leader.id} leads with {leader.score:g}" if leader is not None else ""
        return f"played {played.rounds} rounds into {request.name}{lead}", outcome.to_json()

    return body


def _match_outcome(name: str, result: match.MatchResult) -> MatchOutcome:
    terms = result.terms
    return MatchOutcome(
        name=name,
        outcome=result.state.value,
        verified=result.verified,
        sentence=result.sentence,
        role=terms.role,
        player=terms.player,
        opponent=terms.opponent,
        rounds=terms.rounds,
        size=str(terms.size),
        disclosure=terms.disclosure,
        status=api.Status.model_validate(result.status),
    )


def _match_progress(report: Reporter):
    def progress(step: match.MatchProgress) -> None:
        report.progress(
            step.played,
            step.rounds,
            f"round {step.played} of {step.rounds}, {step.verified} verified",
            verified=step.verified,
        )

    return progress


def _played(report: Reporter, name: str, play) -> tuple[str, dict]:
    try:
        result = play()
    except match.MatchInterrupted as stopped:
        if report.stop_requested():
            raise Cancelled(str(stopped)) from None
        raise
    return result.sentence, _match_outcome(name, result).to_json()


def host_match(folder: LabFolder, request: HostRequest):
    out = folder.new_game(request.name, request.force)
    script = folder.script(request.script)

    def body(report: Reporter) -> tuple[str, dict]:
        def listening(url: str) -> None:
            report.listening(
                url, f"waiting for a joiner: nova join {url} --player YOU bot.ts --file match.json"
            )

        return _played(
            report,
            request.name,
            lambda: match.host(
                rounds=request.rounds,
                player=request.player,
                script=script,
                out=out,
                sizes=request.sizes or None,
                disclosure=request.disclosure,
                force=request.force,
                on_listening=listening,
                progress=_match_progress(report),
                notice=report.notice,
                cancel=report.cancel,
            ),
        )

    return body


def join_match(folder: LabFolder, request: JoinRequest):
    out = folder.new_game(request.name, request.force)
    script = folder.script(request.script)

    def body(report: Reporter) -> tuple[str, dict]:
        def offered(offer) -> None:
            report.notice(
                f"{offer.host} offers {offer.rounds} rounds, disclosure {offer.disclosure}"
            )

        report.notice(f"connecting to {request.url}")
        return _played(
            report,
            request.name,
            lambda: match.join(
                request.url,
                player=request.player,
                script=script,
                out=out,
                size=request.size or None,
                force=request.force,
                progress=_match_progress(report),
                notice=report.notice,
                on_offer=offered,
                cancel=report.cancel,
            ),
        )

    return body


def arena_run(folder: LabFolder, request: ArenaRequest):
    paths = [folder.script(name) for name in request.scripts]
    seeds = arena.parse_seeds(request.seeds)
    rules, rounds = arena.arena_rules(None, request.rounds)
    if request.kind == "compare" and len(paths) != 2:
        raise arena.ArenaError(
            f"a comparison takes two scripts, not {len(paths)}; a tournament takes more"
        )

    def body(report: Reporter) -> tuple[str, dict]:
        report.notice(f"compiling {len(paths)} script(s)")
        # a house android keeps its house:NAME in the report (the path was checked above)
        refs = [
            name if is_house(name) else path
            for name, path in zip(request.scripts, paths, strict=True)
        ]
        entrants = arena.entrants_from_files(refs)
        backend = arena.choose_backend(jobs=request.jobs)

        def progress(done: int, total: int) -> None:
            report.progress(done, total, f"game {done} of {total}")
            if report.stop_requested():
                raise KeyboardInterrupt  # the arena stops between games and keeps those played

        result: arena.Comparison | arena.Tournament
        if request.kind == "compare":
            result = arena.compare(
                (entrants[0], entrants[1]), rules, seeds, rounds, backend, progress=progress
            )
            sentence = f"{result.verdict()} over {result.games} games"
        else:
            ranked = arena.tournament(entrants, rules, seeds, rounds, backend, progress=progress)
            result = ranked
            sentence = (
                f"{ranked.ranking[0].tally.name} ranks first over {ranked.games} games"
                if ranked.ranking
                else "no games were played"
            )
        kept = CompareOutcome if request.kind == "compare" else TournamentOutcome
        return sentence, kept.model_validate(result.to_json()).to_json()

    return body
