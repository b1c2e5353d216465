"""`nova league`: a persistent league of script versions and house androids in one SQLite file.

A league keeps each entry's bundle (so a later edit of the file is a new version) and every game
it has played. ``play`` plays only the pairings it does not have yet (entry pair x seed x seat
order x rounds and rules), on the arena's fair rotational maps and backends, and commits each game
as it ends. The table is a pure function of the games: OpenSkill (Plackett-Luce) ratings updated
game by game in a fixed order (pair by pair in the order the entries were added, seed by seed,
seat order), never in the order games finished, so it does not depend on ``--jobs`` or Ray.

Two ``play`` runs at once: each claims the pairings it will play in one write transaction, so no
pairing is played twice; a claim whose run has died (its process is gone, or its heartbeat is
older than :data:`STALE_SECONDS`) is taken over by the next run. A stop (Ctrl-C, SIGTERM,
``kill -9``) loses at most the games in flight.

    league = League.open(Path("my.league"), create=True)
    league.add("v1", "bot.ts")
    league.play(parse_seeds("1-20"), 100, choose_backend(jobs=2))
    league.table().to_json()
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field

from ..api.results import Points, Result
from ..rules import Rules
from ..starter.house import entry_of
from ..toolchain.compile import CompiledScript, compile_android
from .backends import Backend
from .errors import ArenaError, Interrupted
from .game import GameRecord
from .plan import MAX_GAMES, Contest, Entrant, GameTask, arena_rules

SCHEMA = 1
SUFFIX = ".league"  # how the MCP server and the lab find the leagues in their root
STALE_SECONDS = 60.0  # a claim whose run has not beaten its heart for this long is taken over
HEARTBEAT_SECONDS = 10.0
MAX_NAME = 60
RATING_DOC = "OpenSkill (Plackett-Luce) mu - 3 sigma, updated game by game in a fixed order"

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL,
    entry TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    bundle TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rules (hash TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    pid_start TEXT,
    heartbeat REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    first INTEGER NOT NULL REFERENCES entries(id),
    second INTEGER NOT NULL REFERENCES entries(id),
    seed INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    rules TEXT NOT NULL REFERENCES rules(hash),
    state TEXT NOT NULL CHECK (state IN ('claimed', 'done')),
    run TEXT,
    record TEXT,
    finished TEXT,
    UNIQUE (first, second, seed, rounds, rules)
);
"""


class LeagueError(ArenaError):
    """A league command that cannot be done as asked; the message says why."""


# --- what a league answers ----------------------------------------------------------------------


def _without_titles(schema: dict[str, Any]) -> None:
    """No automatic field titles ('Mean Score' for meanScore): they repeat the names, and an
    agent holds every tool's output schema in its context."""
    schema.pop("title", None)
    for field in schema.get("properties", {}).values():
        field.pop("title", None)


class _LeagueResult(Result):
    model_config = ConfigDict(**{**Result.model_config, "json_schema_extra": _without_titles})


class HeadToHead(_LeagueResult):
    """One entry's record against one other entry, in the games between them."""

    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    mean_score: float | None = Field(description="Its mean score in these games.")
    opponent_mean_score: float | None


class LeagueStanding(_LeagueResult):
    """One entry's place in the league table."""

    rank: int
    name: str
    rating: float = Field(description="OpenSkill ordinal, mu - 3 sigma: a conservative estimate.")
    mu: float
    sigma: float = Field(description="The rating's uncertainty (it shrinks with more games).")
    games: int
    wins: int
    draws: int
    losses: int
    mean_score: float | None
    source: str = Field(description="What it was added from: a script path or house:NAME.")
    sha256: str = Field(description="Its bundle's SHA-256: the version.")
    against: list[HeadToHead] = Field(description="Its record against each other entry.")


class LeagueTable(_LeagueResult):
    """``nova league table --json``: ``{"entries": [{"name", "rating", "games", "wins",
    "meanScore", ...}]}`` in rank order."""

    games: int
    entries: list[LeagueStanding]
    rating: str = RATING_DOC


class LeagueEntry(_LeagueResult):
    """``nova league add --json``: the version added."""

    name: str
    source: str
    sha256: str
    entries: int = Field(description="Entries in the league, this one included.")


class LeagueGame(_LeagueResult):
    """One game of a league: the seed, the entries in seat order and their scores."""

    seed: int
    rounds: int
    seats: list[str]
    scores: list[Points]
    winner: str | None
    state_hash: str
    finished: str


class LeagueGames(_LeagueResult):
    """A page of a league's games (those of one entry, when it is named)."""

    entry: str | None
    total: int
    offset: int
    games: list[LeagueGame]


class LeagueSummary(_LeagueResult):
    """A league file in a folder: its name (the file without .league), entries and games, or why
    it cannot be read."""

    name: str
    entries: int
    games: int
    problem: str | None = None


class LeaguePlayed(_LeagueResult):
    """``nova league play --json``: what a run found to play and played."""

    wanted: int = Field(description="Pairings asked for: entry pairs x seeds x 2 seat orders.")
    already: int = Field(description="Of those, games the league already had.")
    elsewhere: int = Field(description="Pairings another running play had claimed (left to it).")
    taken_over: int = Field(description="Claims of a stopped run that this run took over.")
    planned: int = Field(description="Games this run claimed and set out to play.")
    played: int
    interrupted: bool
    complete: bool = Field(description="Whether the league now has every pairing asked for.")
    rounds: int
    seeds: tuple[int, ...] = Field(
        description="The seeds asked for, in rising order (as in compare's)."
    )
    seconds: float
    where: str


# --- the file -----------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _pid_start(pid: int) -> str | None:
    """When process ``pid`` started (Linux's /proc), so a reused pid is not taken for a live run."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]


def _alive(pid: int, start: str | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return start is None or _pid_start(pid) in (None, start)


def rules_hash(rules: Rules) -> tuple[str, str]:
    text = json.dumps(rules.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), text


def check_entry_name(name: str) -> str:
    if not name.strip():
        raise LeagueError("an entry's name must not be empty")
    if len(name) > MAX_NAME:
        raise LeagueError(f"an entry's name is at most {MAX_NAME} characters, not {len(name)}")
    if any(not c.isprintable() for c in name):
        raise LeagueError(f"the entry name {name!r} holds a control character")
    return name


def compile_ref(ref: str, base: Path | None = None) -> CompiledScript:
    """The bundle of ``house:NAME`` or of a script file (relative to ``base`` when given)."""
    path, house_ref = entry_of(ref)
    if house_ref is not None:
        return compile_android(path)
    if base is not None and not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise LeagueError(f"the script {ref} does not exist")
    return compile_android(path)


@dataclass(frozen=True)
class _Entry:
    id: int
    name: str
    source: str
    sha256: str
    added: str


class League:
    """One league file, open. Each method is one or a few short transactions."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        self.lock = threading.Lock()

    @classmethod
    def open(cls, path: Path, *, create: bool = False) -> League:
        path = Path(path)
        if not path.exists() and not create:
            raise LeagueError(f"there is no league at {path} (nova league add creates one)")
        if path.is_dir():
            raise LeagueError(f"{path} is a folder, not a league file")
        if create and not path.parent.is_dir():
            raise LeagueError(f"the folder {path.parent} does not exist")
        try:
            conn = _connect(path)
            league = cls(path, conn)
            league._prepare()
        except sqlite3.DatabaseError as error:
            raise LeagueError(
                f"{path} is not a league file (nova league keeps one in SQLite: {error})"
            ) from None
        return league

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> League:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _prepare(self) -> None:
        with self._write() as db:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
            if tables and "meta" not in tables:
                raise sqlite3.DatabaseError("it holds other tables")
            if not tables:
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        db.execute(statement)
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
            elif row[0] != str(SCHEMA):
                raise LeagueError(
                    f"{self.path} is a league of format {row[0]}; this nova reads format {SCHEMA}"
                )

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, begun at once (BEGIN IMMEDIATE): no other writer in between."""
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.rollback()
                raise
            else:
                self.conn.commit()

    def _entries(self) -> list[_Entry]:
        with self.lock:
            rows = self.conn.execute(
                "SELECT id, name, source, sha256, added FROM entries ORDER BY id"
            ).fetchall()
        return [_Entry(*row) for row in rows]

    # --- add ----------------------------------------------------------------------------------

    def add(self, name: str, source: str, script: CompiledScript) -> LeagueEntry:
        """Keep ``script`` (compiled from ``source``) as the entry ``name``."""
        check_entry_name(name)
        with self._write() as db:
            same_name = db.execute("SELECT source FROM entries WHERE name = ?", (name,)).fetchone()
            if same_name is not None:
                raise LeagueError(
                    f"the league already has an entry named {name!r} (from {same_name[0]}); "
                    "give the new version another name"
                )
            same_bundle = db.execute(
                "SELECT name FROM entries WHERE sha256 = ?", (script.sha256,)
            ).fetchone()
            if same_bundle is not None:
                raise LeagueError(
                    f"the league already has this version of {source} as {same_bundle[0]!r} "
                    "(the same bundle); change the script to add a new version"
                )
            db.execute(
                "INSERT INTO entries (name, source, entry, sha256, bundle, added) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, source, script.entry, script.sha256, script.bundle, _now()),
            )
            count = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        return LeagueEntry(name=name, source=source, sha256=script.sha256, entries=count)

    # --- play ---------------------------------------------------------------------------------

    def _entrants(self) -> tuple[list[_Entry], tuple[Entrant, ...]]:
        with self.lock:
            rows = self.conn.execute(
                "SELECT id, name, source, sha256, added, entry, bundle FROM entries ORDER BY id"
            ).fetchall()
        entries = [_Entry(*row[:5]) for row in rows]
        entrants = tuple(Entrant(row[1], CompiledScript.of(row[6], row[5])) for row in rows)
        return entries, entrants

    def play(
        self,
        seeds: Sequence[int],
        rounds: int,
        backend: Backend,
        *,
        progress: Callable[[int, int, LeagueGame], None] | None = None,
        stop: Callable[[], bool] | None = None,
        max_games: int = MAX_GAMES,
        planned: Callable[[int, int], None] | None = None,
    ) -> LeaguePlayed:
        """Play the pairings of ``seeds`` and ``rounds`` the league does not have yet.

        ``planned(games, entries)`` is told how many games this run claimed before the first is
        played; ``progress(done, planned, game)`` follows each game as it is committed; ``stop()``,
        asked after each, ends the run between games (as Ctrl-C does)."""
        rules, rounds = arena_rules(None, rounds)
        entries, entrants = self._entrants()
        if len(entries) < 2:
            raise LeagueError(
                f"the league has {len(entries)} entr{'y' if len(entries) == 1 else 'ies'}; "
                "add at least two (nova league add) before playing"
            )
        asked = len(entries) * (len(entries) - 1) * len(seeds)
        if asked > MAX_GAMES:
            raise LeagueError(
                f"{len(entries)} entries on {len(seeds)} seeds make {asked} pairings; "
                f"one play may ask for at most {MAX_GAMES} (give fewer seeds)"
            )
        wanted = [
            (a, b, seed, order)
            for a, b in itertools.combinations(range(len(entries)), 2)
            for seed in seeds
            for order in ((a, b), (b, a))
        ]
        start = time.perf_counter()
        run = _Run.begin(self)
        try:
            claim = self._claim(run.id, entries, wanted, rules, rounds, max_games)
            tasks = [
                GameTask(i, seed, order, rounds) for i, (_, _, seed, order) in enumerate(claim.mine)
            ]
            ids = claim.ids
            if planned is not None:
                planned(len(tasks), len(entries))
            contest = Contest(rules, entrants)
            done = 0

            def finished(record: GameRecord) -> None:
                nonlocal done
                game = self._commit(run.id, ids[record.task.index], record, entrants)
                done += 1
                if progress is not None and game is not None:
                    progress(done, len(tasks), game)
                if stop is not None and stop():
                    raise KeyboardInterrupt

            interrupted = False
            if tasks:
                try:
                    backend.run(contest, tasks, finished)
                except (Interrupted, KeyboardInterrupt):  # what was committed stays
                    interrupted = True
        finally:
            run.end()
        rules_key, _ = rules_hash(rules)
        have = self._count_done(rounds, rules_key, seeds)
        return LeaguePlayed(
            wanted=len(wanted),
            already=claim.already,
            elsewhere=claim.elsewhere,
            taken_over=claim.taken_over,
            planned=len(tasks),
            played=done,
            interrupted=interrupted,
            complete=have >= len(wanted),
            rounds=rounds,
            seeds=tuple(sorted(set(seeds))),
            seconds=round(time.perf_counter() - start, 3),
            where=backend.describe() if tasks else "nowhere (nothing to play)",
        )

    def _count_done(self, rounds: int, rules_key: str, seeds: Sequence[int]) -> int:
        wanted = set(seeds)
        with self.lock:
            rows = self.conn.execute(
                "SELECT seed FROM games WHERE state = 'done' AND rounds = ? AND rules = ?",
                (rounds, rules_key),
            ).fetchall()
        return sum(1 for (seed,) in rows if seed in wanted)

    def _claim(
        self,
        run: str,
        entries: list[_Entry],
        wanted: list[tuple[int, int, int, tuple[int, int]]],
        rules: Rules,
        rounds: int,
        max_games: int,
    ) -> _Claim:
        key, text = rules_hash(rules)
        claim = _Claim()
        with self._write() as db:
            db.execute("INSERT OR IGNORE INTO rules VALUES (?, ?)", (key, text))
            live = _live_runs(db)
            have = {
                (first, second, seed): (game_id, state, owner)
                for game_id, first, second, seed, state, owner in db.execute(
                    "SELECT id, first, second, seed, state, run FROM games "
                    "WHERE rounds = ? AND rules = ?",
                    (rounds, key),
                )
            }
            for pairing in wanted:
                _, _, seed, (x, y) = pairing
                first, second = entries[x].id, entries[y].id
                found = have.get((first, second, seed))
                if found is not None and found[1] == "done":
                    claim.already += 1
                    continue
                if found is not None and found[2] in live:
                    claim.elsewhere += 1
                    continue
                if len(claim.mine) >= max_games:
                    continue
                if found is not None:  # a claim of a run that stopped
                    db.execute("UPDATE games SET run = ? WHERE id = ?", (run, found[0]))
                    claim.taken_over += 1
                    game_id = found[0]
                else:
                    game_id = db.execute(
                        "INSERT INTO games (first, second, seed, rounds, rules, state, run) "
                        "VALUES (?, ?, ?, ?, ?, 'claimed', ?)",
                        (first, second, seed, rounds, key, run),
                    ).lastrowid
                claim.mine.append(pairing)
                claim.ids.append(game_id)
        return claim

    def _commit(
        self, run: str, game_id: int, record: GameRecord, entrants: Sequence[Entrant]
    ) -> LeagueGame | None:
        """Keep a finished game, if this run still holds its claim."""
        data = {
            "scores": [s.score for s in record.seats],
            "turns": [s.turns for s in record.seats],
            "failed": [dict(s.failed) for s in record.seats],
            "stateHash": record.state_hash,
            "seconds": round(record.seconds, 3),
        }
        finished = _now()
        with self._write() as db:
            kept = db.execute(
                "UPDATE games SET state = 'done', record = ?, finished = ?, run = NULL "
                "WHERE id = ? AND run = ? AND state = 'claimed'",
                (json.dumps(data), finished, game_id, run),
            ).rowcount
        if not kept:
            return None
        winner = record.winner
        return LeagueGame(
            seed=record.task.seed,
            rounds=record.task.rounds,
            seats=[entrants[s.entrant].name for s in record.seats],
            scores=[s.score for s in record.seats],
            winner=None if winner is None else entrants[winner].name,
            state_hash=record.state_hash,
            finished=finished,
        )

    # --- read ---------------------------------------------------------------------------------

    def _games(self) -> list[tuple[int, int, int, int, str, dict, str]]:
        """Every finished game as (first, second, seed, rounds, rules, record, finished), in the
        fixed order ratings are updated in: pair by pair (the order the entries were added), then
        rounds, rules, seed, and the seat order."""
        with self.lock:
            rows = self.conn.execute(
                "SELECT first, second, seed, rounds, rules, record, finished FROM games "
                "WHERE state = 'done'"
            ).fetchall()
        games = [(*row[:5], json.loads(row[5]), row[6]) for row in rows]
        games.sort(key=lambda g: (min(g[0], g[1]), max(g[0], g[1]), g[3], g[4], g[2], g[0]))
        return games

    def table(self) -> LeagueTable:
        """The ratings, tallies and head-to-head records: a pure function of the games."""
        from openskill.models import PlackettLuce

        entries = self._entries()
        games = self._games()
        model = PlackettLuce()
        current = {e.id: model.rating(name=e.name) for e in entries}
        for first, second, _, _, _, record, _ in games:
            teams = [[current[first]], [current[second]]]
            rated = model.rate(teams, scores=list(record["scores"]))
            current[first], current[second] = rated[0][0], rated[1][0]
        tallies = {e.id: _Tally() for e in entries}
        pairs: dict[tuple[int, int], _Tally] = {}
        for first, second, _, _, _, record, _ in games:
            a, b = record["scores"]
            for me, other, mine, theirs in ((first, second, a, b), (second, first, b, a)):
                for tally in (tallies[me], pairs.setdefault((me, other), _Tally())):
                    tally.add(mine, theirs)
        names = {e.id: e.name for e in entries}
        ranked = sorted(
            entries,
            key=lambda e: (
                -current[e.id].ordinal(),
                -tallies[e.id].wins,
                -(tallies[e.id].mean or 0),
                e.id,
            ),
        )
        standings = []
        for rank, entry in enumerate(ranked, 1):
            rating, tally = current[entry.id], tallies[entry.id]
            against = [
                HeadToHead(
                    opponent=names[other.id],
                    games=pair.games,
                    wins=pair.wins,
                    draws=pair.draws,
                    losses=pair.losses,
                    mean_score=_round(pair.mean),
                    opponent_mean_score=_round(pair.other_mean),
                )
                for other in ranked
                if other.id != entry.id
                for pair in [pairs.get((entry.id, other.id), _Tally())]
            ]
            standings.append(
                LeagueStanding(
                    rank=rank,
                    name=entry.name,
                    rating=round(rating.ordinal(), 4),
                    mu=round(rating.mu, 4),
                    sigma=round(rating.sigma, 4),
                    games=tally.games,
                    wins=tally.wins,
                    draws=tally.draws,
                    losses=tally.losses,
                    mean_score=_round(tally.mean),
                    source=entry.source,
                    sha256=entry.sha256,
                    against=against,
                )
            )
        return LeagueTable(games=len(games), entries=standings)

    def games(self, entry: str | None = None, offset: int = 0, limit: int = 200) -> LeagueGames:
        """The league's games (those ``entry`` played, when given), in the table's order."""
        entries = self._entries()
        names = {e.id: e.name for e in entries}
        wanted = None
        if entry is not None:
            wanted = next((e.id for e in entries if e.name == entry), None)
            if wanted is None:
                raise LeagueError(
                    f"the league has no entry named {entry!r}; it has {', '.join(map(repr, names.values())) or 'none'}"
                )
        games = [g for g in self._games() if wanted is None or wanted in (g[0], g[1])]
        page = []
        for first, second, seed, rounds, _, record, finished in games[offset : offset + limit]:
            scores = record["scores"]
            winner = (
                None if scores[0] == scores[1] else (first if scores[0] > scores[1] else second)
            )
            page.append(
                LeagueGame(
                    seed=seed,
                    rounds=rounds,
                    seats=[names[first], names[second]],
                    scores=scores,
                    winner=None if winner is None else names[winner],
                    state_hash=record["stateHash"],
                    finished=finished,
                )
            )
        return LeagueGames(entry=entry, total=len(games), offset=offset, games=page)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass
class _Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total: float = 0.0
    other_total: float = 0.0

    def add(self, mine: float, theirs: float) -> None:
        self.games += 1
        self.total += mine
        self.other_total += theirs
        if mine > theirs:
            self.wins += 1
        elif mine < theirs:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def mean(self) -> float | None:
        return self.total / self.games if self.games else None

    @property
    def other_mean(self) -> float | None:
        return self.other_total / self.games if self.games else None


@dataclass
class _Claim:
    mine: list[tuple[int, int, int, tuple[int, int]]] = None  # type: ignore[assignment]
    ids: list[int] = None  # type: ignore[assignment]
    already: int = 0
    elsewhere: int = 0
    taken_over: int = 0

    def __post_init__(self) -> None:
        self.mine, self.ids = [], []


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 60000")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _live_runs(db: sqlite3.Connection) -> set[str]:
    """The runs whose claims stand: on this host, their process lives; elsewhere, their heartbeat
    is recent. The others' rows are removed (their claims are then taken over)."""
    here = socket.gethostname()
    now = time.time()
    live, dead = set(), []
    for run, host, pid, start, beat in db.execute(
        "SELECT id, host, pid, pid_start, heartbeat FROM runs"
    ):
        if _alive(pid, start) if host == here else now - beat < STALE_SECONDS:
            live.add(run)
        else:
            dead.append(run)
    for run in dead:
        db.execute("DELETE FROM runs WHERE id = ?", (run,))
    return live


@dataclass
class _Run:
    """A running ``play``: its row in ``runs``, and the thread that beats its heart."""

    league: League
    id: str
    stopped: threading.Event
    thread: threading.Thread

    @classmethod
    def begin(cls, league: League) -> _Run:
        run_id = uuid.uuid4().hex
        pid = os.getpid()
        with league._write() as db:
            db.execute(
                "INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                (run_id, socket.gethostname(), pid, _pid_start(pid), time.time()),
            )
        stopped = threading.Event()

        def beat() -> None:
            conn = _connect(league.path)
            try:
                while not stopped.wait(HEARTBEAT_SECONDS):
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute(
                            "UPDATE runs SET heartbeat = ? WHERE id = ?", (time.time(), run_id)
                        )
            finally:
                conn.close()

        thread = threading.Thread(target=beat, name="nova-league-heartbeat", daemon=True)
        thread.start()
        return cls(league, run_id, stopped, thread)

    def end(self) -> None:
        """Give back the claims not played, and leave."""
        self.stopped.set()
        self.thread.join(timeout=5)
        with self.league._write() as db:
            db.execute("DELETE FROM games WHERE run = ? AND state = 'claimed'", (self.id,))
            db.execute("DELETE FROM runs WHERE id = ?", (self.id,))


def add(league_path: Path, name: str, ref: str, base: Path | None = None) -> LeagueEntry:
    """Compile ``ref`` (a script or ``house:NAME``) and add it to the league at ``league_path``
    (created when missing; a refused add leaves the file as it was)."""
    check_entry_name(name)
    script = compile_ref(ref, base)
    with League.open(league_path, create=True) as league:
        return league.add(name, ref, script)


def add_compiled(league_path: Path, name: str, source: str, script: CompiledScript) -> LeagueEntry:
    """Add an already compiled script (from an MCP agent's code or library) as ``name``."""
    check_entry_name(name)
    with League.open(league_path, create=True) as league:
        return league.add(name, source, script)


def in_folder(folder: Path, name: str) -> Path:
    """The league ``NAME.league`` directly in ``folder``: a name with no folder in it, that does
    not lead out of ``folder`` (not even through a symbolic link)."""
    if (
        not name
        or len(name) > 200
        or name.startswith(".")
        or any(c in name for c in "/\\")
        or not name.isprintable()
    ):
        raise LeagueError(f"{name[:80]!r} is not a league name (a file name without .league)")
    path = folder / (name + SUFFIX)
    root = folder.resolve()
    if not path.is_file() or path.resolve().parent != root:
        raise LeagueError(f"there is no league {name!r} in the folder")
    return path


def summaries(folder: Path, limit: int = 200) -> list[LeagueSummary]:
    """The ``NAME.league`` files in ``folder`` (not below it), by name."""
    found = []
    for path in sorted(folder.glob("*" + SUFFIX))[:limit]:
        name = path.name[: -len(SUFFIX)]
        try:
            with League.open(path) as league, league.lock:
                entries = league.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
                games = league.conn.execute(
                    "SELECT COUNT(*) FROM games WHERE state = 'done'"
                ).fetchone()[0]
            found.append(LeagueSummary(name=name, entries=entries, games=games))
        except LeagueError as error:
            found.append(LeagueSummary(name=name, entries=0, games=0, problem=str(error)))
    return found


def table(league_path: Path) -> LeagueTable:
    with League.open(league_path) as league:
        return league.table()


__all__ = [
    "HeadToHead",
    "League",
    "LeagueEntry",
    "LeagueError",
    "LeagueGame",
    "LeagueGames",
    "LeaguePlayed",
    "LeagueStanding",
    "LeagueTable",
    "SUFFIX",
    "add",
    "add_compiled",
    "compile_ref",
    "in_folder",
    "summaries",
    "table",
]
