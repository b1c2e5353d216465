"""The lab's web app: the page, its assets, and JSON endpoints over the api.

Every endpoint is a thin adapter: it checks its arguments, calls a read (:mod:`.reads`) or
starts a job (:mod:`.work`), and answers JSON in the api's ``to_json()`` shapes. A request that
cannot be served gets ``{"error": "one sentence"}`` with a 4xx status; a bug gets a 500 with one
sentence, and the traceback goes to the lab's log.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import api, arena, match
from ..arena import league as leagues
from ..errors import NovaError
from ..starter.house import names as house_names
from . import work
from .folder import STARTER, LabFolder, OutsideRoot
from .guard import MAX_BODY, Guard, too_big
from .jobs import JobBoard
from .reads import Reads, encode
from .wire import (
    ArenaRequest,
    HostRequest,
    JobKind,
    JobStarted,
    JoinRequest,
    LabInfo,
    LeagueList,
    RunRequest,
    ScriptList,
)

log = logging.getLogger("nova.lab")

STATIC = Path(__file__).resolve().parent / "static"
USER_ERRORS = (NovaError, match.MatchError, arena.ArenaError)


class BadRequest(NovaError):
    """A request the lab cannot read (a bad query parameter, a body that is not the request)."""


class TooBig(BadRequest):
    """A request body that streams past MAX_BODY (refused with 413, the rest left unread)."""


def problem(sentence: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status)


def json_bytes(data: bytes) -> Response:
    return Response(data, media_type="application/json")


def answer(result: api.Result) -> Response:
    return json_bytes(encode(result.to_json()))


# --- arguments ----------------------------------------------------------------------------------


def whole_number(
    request: Request, name: str, *, default: int | None = None, low: int = 0, high: int = 10**9
) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"{name} must be a whole number, not {raw[:40]!r}") from None
    if not low <= value <= high:
        raise BadRequest(f"{name} must be from {low} to {high}, not {value}")
    return value


def text(request: Request, name: str) -> str | None:
    raw = request.query_params.get(name)
    return raw if raw else None


async def body_of(request: Request, model: type[BaseModel]) -> Any:
    # read as it streams, never more than MAX_BODY (the Guard refused a larger Content-Length)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise TooBig(too_big(size))
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the request"
        raise BadRequest(
            f"{where}: {first['msg']}"
            if first["loc"]
            else f"the request is not valid JSON for this endpoint ({first['msg']})"
        ) from None


# --- the app ------------------------------------------------------------------------------------


class Lab:
    """One lab: its folder, its cached reads and its jobs."""

    def __init__(self, root: str | Path) -> None:
        self.folder = LabFolder.at(root)
        self.reads = Reads(self.folder)
        self.jobs = JobBoard(user_errors=(match.MatchError, arena.ArenaError))

    # reads

    def info(self, request: Request) -> Response:
        return answer(LabInfo(root=str(self.folder.root), version=api_version(), starter=STARTER))

    def games(self, request: Request) -> Response:
        return answer(self.reads.games())

    def timeline(self, request: Request) -> Response:
        name = request.path_params["name"]
        round = whole_number(request, "round")
        return json_bytes(self.reads.timeline(name, text(request, "player"), round))

    def rules(self, request: Request) -> Response:
        return json_bytes(encode(self.reads.rules(request.path_params["name"]).to_json()))

    def status(self, request: Request) -> Response:
        return answer(
            self.reads.status(request.path_params["name"], whole_number(request, "round"))
        )

    def events(self, request: Request) -> Response:
        page = self.reads.events(
            request.path_params["name"],
            whole_number(request, "round"),
            whole_number(request, "offset", default=0) or 0,
            whole_number(request, "limit", default=200, low=1, high=500) or 200,
            text(request, "player"),
        )
        return answer(page)

    def android(self, request: Request) -> Response:
        round = whole_number(request, "round")
        if round is None:
            raise BadRequest("give the round to read the android at (?round=N)")
        moment = self.reads.android(
            request.path_params["name"],
            request.path_params["android"],
            round,
            whole_number(request, "turn"),
            text(request, "player"),
        )
        return answer(moment)

    def leagues(self, request: Request) -> Response:
        return answer(LeagueList(leagues=tuple(leagues.summaries(self.folder.root))))

    def _league(self, request: Request) -> Path:
        return leagues.in_folder(self.folder.root, request.path_params["name"])

    def league_table(self, request: Request) -> Response:
        return answer(leagues.table(self._league(request)))

    def league_games(self, request: Request) -> Response:
        with leagues.League.open(self._league(request)) as league:
            page = league.games(
                text(request, "entry"),
                whole_number(request, "offset", default=0) or 0,
                whole_number(request, "limit", default=200, low=1, high=500) or 200,
            )
        return answer(page)

    def scripts(self, request: Request) -> Response:
        found, truncated = self.folder.scripts()
        return answer(
            ScriptList(
                starter=STARTER, house=house_names(), scripts=tuple(found), truncated=truncated
            )
        )

    # jobs

    async def _start(
        self,
        request: Request,
        model: type,
        kind_of: Callable[[Any], JobKind],
        title_of: Callable[[Any], str],
        make,
    ) -> Response:
        wanted = await body_of(request, model)
        body = make(self.folder, wanted)  # checks the request against the root before any work
        job = self.jobs.start(kind_of(wanted), title_of(wanted), body)
        return answer(JobStarted(id=job.id, kind=job.kind))

    async def run(self, request: Request) -> Response:
        return await self._start(
            request,
            RunRequest,
            lambda r: "run",
            lambda r: f"run {r.name}: {len(r.seats)} player(s), {r.rounds} rounds",
            work.run_game,
        )

    async def host(self, request: Request) -> Response:
        return await self._start(
            request,
            HostRequest,
            lambda r: "host",
            lambda r: f"host {r.rounds} rounds as {r.player} into {r.name}",
            work.host_match,
        )

    async def join(self, request: Request) -> Response:
        return await self._start(
            request,
            JoinRequest,
            lambda r: "join",
            lambda r: f"join {r.url} as {r.player} into {r.name}",
            work.join_match,
        )

    async def arena(self, request: Request) -> Response:
        return await self._start(
            request,
            ArenaRequest,
            lambda r: r.kind,
            lambda r: f"{r.kind} {', '.join(r.scripts)} on seeds {r.seeds}",
            work.arena_run,
        )

    def _job(self, request: Request):
        job = self.jobs.get(request.path_params["job"])
        if job is None:
            raise BadRequest(
                f"there is no job {request.path_params['job']!r} (the lab forgets old ones, and all of them when it restarts)"
            )
        return job

    def job(self, request: Request) -> Response:
        return answer(self._job(request).view())

    async def cancel(self, request: Request) -> Response:
        job = self._job(request)
        job.cancel.set()
        return answer(job.view())

    async def job_events(self, request: Request) -> Response:
        job = self._job(request)
        start = whole_number(request, "from", default=0) or 0
        last = request.headers.get("last-event-id")
        if last is not None and last.isdigit():
            start = int(last) + 1

        async def stream():
            async for event in job.stream(start):
                if event is None:
                    yield b": keepalive\n\n"
                    continue
                yield b"id: %d\nevent: job\ndata: %s\n\n" % (event.seq, encode(event.to_json()))

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    # the page

    def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


def api_version() -> str:
    return match.offer.nova_version()


def handle_user_error(request: Request, error: Exception) -> Response:
    status = (
        404 if isinstance(error, api.ApiError) and str(error).startswith("there is no") else 400
    )
    if isinstance(error, OutsideRoot):
        status = 403
    if isinstance(error, TooBig):
        status = 413
    return problem(str(error).replace(str(request.app.state.root) + "/", ""), status)


def handle_http(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        return problem(f"the lab has no page or endpoint {request.url.path}", 404)
    if error.status_code == 405:
        return problem(f"{request.url.path} does not take {request.method} requests", 405)
    return problem(str(error.detail), error.status_code)


def handle_bug(request: Request, error: Exception) -> Response:
    log.exception("the lab failed on %s %s", request.method, request.url.path)
    return problem(
        f"the lab hit an unexpected error ({error.__class__.__name__}); its log has the details",
        500,
    )


def create_app(root: str | Path, port: int | None = None) -> tuple[Guard, Lab]:
    """The lab's ASGI app (wrapped in its :class:`Guard`) for the folder ``root``."""
    lab = Lab(root)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # the most recent games' replays, made while the player's browser starts
        threading.Thread(
            target=lab.reads.prepare_recent, name="nova-lab-prepare", daemon=True
        ).start()
        yield
        lab.jobs.cancel_all()

    routes = [
        Route("/", lab.page),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
        Route("/api/lab", lab.info),
        Route("/api/games", lab.games),
        Route("/api/games/{name}/timeline", lab.timeline),
        Route("/api/games/{name}/rules", lab.rules),
        Route("/api/games/{name}/status", lab.status),
        Route("/api/games/{name}/events", lab.events),
        Route("/api/games/{name}/androids/{android}", lab.android),
        Route("/api/leagues", lab.leagues),
        Route("/api/leagues/{name}", lab.league_table),
        Route("/api/leagues/{name}/games", lab.league_games),
        Route("/api/scripts", lab.scripts),
        Route("/api/runs", lab.run, methods=["POST"]),
        Route("/api/matches/host", lab.host, methods=["POST"]),
        Route("/api/matches/join", lab.join, methods=["POST"]),
        Route("/api/arena", lab.arena, methods=["POST"]),
        Route("/api/jobs/{job}", lab.job),
        Route("/api/jobs/{job}/events", lab.job_events),
        Route("/api/jobs/{job}/cancel", lab.cancel, methods=["POST"]),
    ]
    handlers: dict[type[Exception], Callable[[Request, Exception], Response]] = {
        HTTPException: handle_http,
        Exception: handle_bug,
    }
    for error_type in USER_ERRORS:
        handlers[error_type] = handle_user_error
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.root = lab.folder.root
    return Guard(app, port), lab
