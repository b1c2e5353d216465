"""The game file: rules, seed, sandbox build, initial world, compiled scripts and the event log.

One JSON file per game. Loading rebuilds the current state by replaying the log, without running
any script. Writes are atomic (a temporary file in the same folder, flushed, then renamed over the
old one), and every read-modify-write holds an exclusive lock on a sidecar ``.lock`` file, so two
writers are serialised and a reader never sees half a file. A file that is truncated, corrupt, or
written by a newer format is reported in one sentence and left untouched.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, BinaryIO

from . import engine, strictjson
from .engine.events import Event, Turn, log_from_json
from .engine.state import GameState, canonical
from .errors import NovaError
from .rules import Rules, RulesError, resolve

FORMAT = "nova-game"
VERSION = 1


class GameFileError(NovaError):
    """A game file that cannot be used; the message says what and where."""


@dataclass
class StoredScript:
    player: str
    name: str
    sha256: str
    bundle: str
    # The bundle's source map (toolchain/sourcemap.py), which turns the positions a script's
    # errors report into the player's own files and lines; absent in files written before maps
    # were kept (they load as they are) and for a peer's script in a match.
    source_map: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "name": self.name,
            "sha256": self.sha256,
            "bundle": self.bundle,
        }
        if self.source_map is not None:
            data["sourceMap"] = self.source_map
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StoredScript:
        return cls(
            data["player"], data["name"], data["sha256"], data["bundle"], data.get("sourceMap")
        )


@dataclass
class Game:
    """A loaded game: what the file holds plus the replayed current state."""

    path: Path
    rules: Rules
    seed: int
    sandbox: dict[str, str]
    initial: dict[str, Any]
    scripts: dict[str, StoredScript]
    events: list[Event]
    state: GameState = field(repr=False)
    # A peer match's account of itself (who played, how far it was verified); a game with one is
    # finished: a match cannot be continued once it has run (rulebook 1.1).
    match: dict[str, Any] | None = None
    # A run played to its arrival round in the browser lab (``{"rounds": N}``): finished too, for
    # the same reason (rulebook 1.1: the Run panel's round count is a real deadline).
    run: dict[str, Any] | None = None

    def record(self, new_events: list[Event]) -> None:
        self.events.extend(new_events)

    def to_json(self) -> dict[str, Any]:
        """The file's JSON (each event as its ``to_json()``)."""
        data = self.head_json()
        data["events"] = [e.to_json() for e in self.events]
        return data

    def head_json(self) -> dict[str, Any]:
        """The file's JSON but its events."""
        data = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "sandbox": self.sandbox,
            "initial": self.initial,
            "scripts": {sid: s.to_json() for sid, s in self.scripts.items()},
        }
        if self.match is not None:
            data["match"] = self.match
        if self.run is not None:
            data["run"] = self.run
        return data


def new_game(
    path: Path, rules: Rules, seed: int, sandbox: dict[str, str], initial: GameState | None = None
) -> Game:
    state = initial if initial is not None else engine.generate(rules, seed)
    return Game(path, rules, seed, dict(sandbox), engine.to_json(state), {}, [], state)


def serialize(game: Game) -> bytes:
    """Canonical bytes: the same game always gives the same file, byte for byte.

    One event per line keeps the file readable and diff-friendly."""
    head = canonical(game.head_json())[:-1]  # drop the closing brace
    events = b",\n".join([canonical(e.to_json()) for e in game.events])
    return head + b',"events":[\n' + events + (b"\n]}\n" if events else b"]}\n")


def _describe(path: Path) -> str:
    return str(path)


# A game file nests a few levels deep (an event's action's resources: 4); far deeper is damage.
MAX_DEPTH = 64


def parse(path: Path, raw: bytes) -> Game:
    """Turn file bytes into a :class:`Game`, replaying the log; any problem is a GameFileError."""
    return _game_from(path, _decode(path, raw))


def _decode(path: Path, raw: bytes) -> object:
    where = _describe(path)
    try:
        text = raw.decode("utf-8")
        data = strictjson.loads(text, MAX_DEPTH, whole_text=True)
    except UnicodeDecodeError:
        raise GameFileError(f"{where} is not a Nova game file (it is not UTF-8 text)") from None
    except strictjson.JsonLimit as error:
        raise GameFileError(f"{where} is not a readable Nova game file ({error})") from None
    except strictjson.LoneSurrogate as error:
        # no UTF-8 text can hold one; only a \ud800-style escape written by hand can
        raise GameFileError(
            f"{where} is damaged: {error.at[:80]} holds a lone UTF-16 surrogate escape, which no text can hold"
        ) from None
    except json.JSONDecodeError as error:
        # every game file this code writes ends with the close of the event list
        truncated = error.pos >= len(raw.rstrip()) - 1 or not raw.rstrip().endswith(b"]}")
        hint = "it looks truncated" if truncated else "it is corrupt"
        raise GameFileError(
            f"{where} is not a readable Nova game file ({hint}: {error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    return data


def _game_from(path: Path, data: object, *, replay: bool = False) -> Game:
    where = _describe(path)
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        raise GameFileError(
            f"{where} is a peer match record kept under --disclosure recording: it holds the final scores and your "
            "androids' recordings, not a game to replay or continue (`nova status` and `nova android` read it)"
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f'{where} is not a Nova game file (no "format": "{FORMAT}" marker)')
    version = data.get("version")
    if not isinstance(version, int) or version > VERSION:
        raise GameFileError(
            f"{where} was written by a newer Nova (game format {version}); upgrade nova-tools to open it"
        )
    try:
        # A recording made before rules were data has no "rules": it was played under the
        # shipped defaults, and opens under them (rulebook, "Rules and Recordings").
        rules = _stored_rules(data.get("rules", {}), where)
        seed = int(data["seed"])
        initial = data["initial"]
        scripts = {sid: StoredScript.from_json(s) for sid, s in data["scripts"].items()}
        logged = data["events"]
        if type(logged) is not list:
            raise TypeError("'events' is not a list")
        events = log_from_json(logged)
        if replay:
            events = [_unredacted(e) for e in events]
        match = data.get("match")
        if match is not None and not isinstance(match, dict):
            raise TypeError("'match' is not an object")
        run = data.get("run")
        if run is not None and not isinstance(run, dict):
            raise TypeError("'run' is not an object")
        state = engine.from_json(initial, rules)
        engine.replay(state, events)
    except RulesError as error:
        raise GameFileError(str(error)) from None
    except engine.ReplayError as error:
        raise GameFileError(f"{where} has an event log that does not replay: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise GameFileError(
            f"{where} is damaged: a required part is missing or malformed ({error.__class__.__name__}: {error})"
        ) from None
    return Game(
        path,
        rules,
        seed,
        dict(data.get("sandbox", {})),
        initial,
        scripts,
        events,
        state,
        match,
        run,
    )


def _stored_rules(stored: object, where: str) -> Rules:
    """A game file's rules, resolved as they are (rulebook, "Rules and Recordings").

    A process that reads games again and again (a server, the lab, a benchmark) resolves the
    same rules once: validating them was a twentieth of opening a game file, and a Rules is
    frozen, so one serves every game with the same rules. The key is the decoded rules' own
    JSON (true, 1 and 1.0 differ; a file's keys are strings)."""
    try:
        key = _RULES_KEY.encode(stored)
    except (TypeError, ValueError, RecursionError):  # not the JSON a file decodes to
        return resolve(stored, f"{where} (stored rules)", stored=True)
    rules = _STORED_RULES.get(key)
    if rules is None:
        rules = resolve(stored, f"{where} (stored rules)", stored=True)
        if len(_STORED_RULES) >= 32:
            _STORED_RULES.clear()
        _STORED_RULES[key] = rules
    return rules


_STORED_RULES: dict[str, Rules] = {}
_RULES_KEY = json.JSONEncoder(separators=(",", ":"), check_circular=False, allow_nan=False)


REPLAY_FORMAT = "nova-replay"  # a player-facing replay (`nova replay export`, api/reports.py)


def load(path: str | Path, *, replays: bool = False) -> Game:
    """The game file at ``path``. With ``replays``, a player's replay export opens too, to be
    watched (`nova play`): the complete world round by round, without the notes it redacts and
    without scripts (a replay is never played on, and nothing here writes it)."""
    path = Path(path)
    data = _read_data(path)
    if replays and isinstance(data, dict) and data.get("format") == REPLAY_FORMAT:
        return _game_from(path, _watchable(data), replay=True)
    return _game_from(path, data)


def _read_data(path: Path, raw: bytes | None = None) -> object:
    """The JSON a file holds (``raw``: its bytes, when the caller has read them already), or one
    sentence saying why it cannot be read: the sentences of a game file, whatever the file holds."""
    if raw is None:
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise GameFileError(
                f"there is no game file at {path} (create one with `nova create-game --file {path}`)"
            ) from None
        except IsADirectoryError:
            raise GameFileError(f"{path} is a folder, not a game file") from None
        except OSError as error:
            raise GameFileError(f"{path} cannot be read: {error.strerror}") from None
    return _decode(path, raw)


def _watchable(replay: dict[str, Any]) -> dict[str, Any]:
    """A replay export as a game file's data: no scripts, the replay's own version checked as a
    game's (its log's redacted notes are left out by :func:`_unredacted`)."""
    return {**replay, "format": FORMAT, "scripts": {}}


def _unredacted(event: Event) -> Event:
    """A replay export's event without the notes it redacted (they change nothing in the world)."""
    from .engine.view import REDACTED
    from .limits import NOTE_KEYS

    if type(event) is not Turn:
        return event
    action = event.action
    if action is None or not any(action.get(k) == REDACTED for k in NOTE_KEYS):
        return event
    plain = {k: v for k, v in action.items() if not (k in NOTE_KEYS and v == REDACTED)}
    return replace(event, action=plain)


def save(game: Game) -> bytes:
    """Write atomically: the old file stays whole until the new one is complete on disk. Returns
    the bytes written."""
    data = serialize(game)
    try:
        write_atomic(game.path, data)
    except OSError as error:
        raise GameFileError(
            f"cannot write {game.path} ({error.strerror or error}); the game file was left as it was"
        ) from None
    return data


def real_path(path: Path) -> Path:
    """The file a path names once symbolic links are followed (``path`` itself if it is none).

    Writes go to the real file, never replace the link: ``duel.json -> games/duel.json`` keeps
    pointing at the one game, however often it is saved."""
    return (
        Path(os.path.realpath(path))
        if path.is_symlink() or any(p.is_symlink() for p in path.parents)
        else path
    )


def write_atomic(path: Path, data: bytes) -> None:
    """Write a temporary file beside ``path``, flush it to disk, then rename it over ``path``
    (over the file it links to, if ``path`` is a symbolic link)."""
    path = real_path(Path(path))
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        # mkstemp makes the file private (0600); give it the mode the file had, or the usual
        # mode of a new file, so replacing a game file never changes who may read it.
        os.chmod(tmp, _mode_for(path))
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _read_umask() -> int:
    # os.umask can only be read by setting it, which is process-wide: do it once, at import,
    # before any server thread could be creating files.
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


_UMASK = _read_umask()


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        return 0o666 & ~_UMASK


def _lock_path(path: Path) -> Path:
    # beside the real file: two links to one game share its lock
    real = real_path(path)
    return real.with_name(real.name + ".lock")


def _open_lock(lock: Path, path: Path) -> BinaryIO:
    # Never through a link: a planted NAME.json.lock link would make the lock create or truncate
    # a file wherever it points (outside an MCP server's folder, say).
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(lock, flags, 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP or lock.is_symlink():
            raise GameFileError(
                f"cannot lock {path}: its lock file {lock.name} is a symbolic link; "
                f"remove {lock} (nova keeps a plain lock file there)"
            ) from None
        raise GameFileError(f"cannot lock {path}: {error.strerror}") from None
    return os.fdopen(fd, "r+b")


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the game's exclusive lock (blocking) for a read-modify-write."""
    path = Path(path)
    handle = _open_lock(_lock_path(path), path)
    with handle:
        if sys.platform == "win32":  # pragma: no cover - msvcrt locks the first byte
            import msvcrt

            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
        else:
            import fcntl

            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        yield


@contextlib.contextmanager
def editing(path: str | Path) -> Iterator[Game]:
    """Load under the lock, let the caller change the game, save only if the block succeeds."""
    with locked(path):
        game = load(path)
        yield game
        save(game)


# -- peer match records ---------------------------------------------------------------------------
#
# What a player keeps of a peer match played under ``--disclosure recording``: the rules, the
# final scores with their breakdown, and their own androids' recordings. Nothing of the other
# player's scripts, memory or recordings is ever written, so the record cannot be replayed; it is
# read by `nova status` and `nova android` (for the player's own androids).

RECORD_FORMAT = "nova-match-record"
RECORD_VERSION = 1


@dataclass
class MatchRecord:
    path: Path
    rules: Rules
    match: dict[str, Any]  # the match's account of itself (players, rounds, verification)
    status: dict[str, Any]  # the `nova status --json` object at the end of the match
    androids: list[
        dict[str, Any]
    ]  # the player's own androids: id, ownerId, scriptId, active, recording
    scripts: dict[str, dict[str, Any]]  # the player's own scripts: id -> {name, sha256}
    sandbox: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": self.rules.to_json(),
            "sandbox": self.sandbox,
            "match": self.match,
            "status": self.status,
            "scripts": self.scripts,
            "androids": self.androids,
        }


def save_record(record: MatchRecord) -> None:
    try:
        write_atomic(record.path, canonical(record.to_json()) + b"\n")
    except OSError as error:
        raise GameFileError(f"cannot write {record.path} ({error.strerror or error})") from None


def _record_from(path: Path, data: dict[str, Any]) -> MatchRecord:
    where = _describe(path)
    version = data.get("version")
    if not isinstance(version, int) or version > RECORD_VERSION:
        raise GameFileError(
            f"{where} was written by a newer Nova (match record format {version}); upgrade nova-tools to open it"
        )
    try:
        rules = resolve(data["rules"], f"{where} (stored rules)")
        status, androids, scripts, match = (
            data["status"],
            data["androids"],
            data["scripts"],
            data["match"],
        )
        if not (
            isinstance(status, dict)
            and isinstance(status["round"], int)
            and isinstance(status["players"], list)
        ):
            raise TypeError("'status' is not a status object")
        for player in status["players"]:
            if not (
                isinstance(player["id"], str)
                and isinstance(player["score"], (int, float))
                and isinstance(player["breakdown"], list)
            ):
                raise TypeError("a player's score is malformed")
        if not isinstance(androids, list) or not all(
            isinstance(a, dict) and isinstance(a["id"], str) and isinstance(a["recording"], str)
            for a in androids
        ):
            raise TypeError("'androids' is not a list of androids")
        if not isinstance(scripts, dict) or not isinstance(match, dict):
            raise TypeError("'scripts' or 'match' is not an object")
    except RulesError as error:
        raise GameFileError(str(error)) from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise GameFileError(
            f"{where} is damaged: a required part is missing or malformed ({error.__class__.__name__}: {error})"
        ) from None
    return MatchRecord(path, rules, match, status, androids, scripts, dict(data.get("sandbox", {})))


def read(path: str | Path, raw: bytes | None = None) -> Game | MatchRecord:
    """A game file or a peer match record, whichever ``path`` holds (for the commands that read both).
    ``raw``: the file's bytes, when the caller has read them already."""
    path = Path(path)
    data = _read_data(path, raw)
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        return _record_from(path, data)
    return _game_from(path, data)
