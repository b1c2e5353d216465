"""What the pages read about games, from the api, kept while the file is unchanged.

A viewer asks for the same game many times (the list, its timeline, a fogged timeline, the
events of the round under the cursor); the answers are computed by the api and kept, keyed by
the file's modification time and size, so a second look costs nothing and a changed file is
read afresh.
"""

from __future__ import annotations

import functools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import api
from ..errors import NovaError
from .folder import LabFolder, other_json
from .wire import GameList, GameListing

CACHE_ENTRIES = 48
PREPARED_GAMES = 3  # replays made when the lab starts (prepare_recent)
PREPARED_MAX_BYTES = 16 * 1024 * 1024  # a bigger game file waits until it is asked for


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_mtime_ns, stat.st_size


def encode(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode(
        "utf-8"
    )


class Reads:
    """The reads of one lab, with their cache."""

    def __init__(self, folder: LabFolder) -> None:
        self.folder = folder
        self.lock = threading.Lock()
        self.cache: OrderedDict[tuple, tuple[tuple[int, int], Any]] = OrderedDict()
        self.computing: dict[tuple, threading.Lock] = {}

    def _kept(self, key: tuple, path: Path, compute: Callable[[], Any]) -> Any:
        stamp = _stamp(path)
        with self.lock:
            entry = self.cache.get(key)
            if entry is not None and entry[0] == stamp:
                self.cache.move_to_end(key)
                return entry[1]
            gate = self.computing.setdefault(key, threading.Lock())
        with gate:  # two pages asking for the same slow answer compute it once
            with self.lock:
                entry = self.cache.get(key)
                if entry is not None and entry[0] == stamp:
                    return entry[1]
            value = compute()
            with self.lock:
                self.cache[key] = (stamp, value)
                self.cache.move_to_end(key)
                while len(self.cache) > CACHE_ENTRIES:
                    self.cache.popitem(last=False)
                self.computing.pop(key, None)
        return value

    # --- ahead of the page ----------------------------------------------------------------------

    def prepare_recent(self, count: int = PREPARED_GAMES) -> None:
        """Replay the ``count`` most recently changed games of the folder into the cache, the
        newest first, so the game a player opens first is usually ready (a page asking for one
        meanwhile waits for this replay instead of starting its own). Quietly skips what fails:
        the page will show that when it asks."""
        recent = []
        for name in self.folder.games.names():
            path = self.folder.games.path(name)
            try:
                stat = path.stat()
            except OSError:
                continue
            if self.folder.inside(path) and stat.st_size <= PREPARED_MAX_BYTES:
                recent.append((stat.st_mtime_ns, name))
        for _, name in sorted(recent, reverse=True)[:count]:
            try:
                self.timeline(name, None, None)
            except (NovaError, OSError):
                continue

    # --- the games list -----------------------------------------------------------------------

    def games(self) -> GameList:
        listings = []
        for name in self.folder.games.names():
            path = self.folder.games.path(name)
            if not self.folder.inside(path):
                continue  # a link out of the root is not listed
            try:
                listing = self._kept(
                    ("listing", name), path, functools.partial(self._listing, name, path)
                )
            except OSError:
                continue  # removed while listing
            if listing is not None:
                listings.append(listing)
        listings.sort(key=lambda g: (-g.modified, g.name))
        return GameList(games=tuple(listings))

    def _listing(self, name: str, path: Path) -> GameListing | None:
        """The game's line in the list; None for a JSON file that is no Nova file at all (a
        package.json or tsconfig.json in a project folder), which is not listed."""
        modified = path.stat().st_mtime
        try:
            game = self._kept(
                ("read", name), path, lambda: api.read_game(path)
            )  # the viewer opens this one
            status = api.status(game)
            if status.match is not None and status.match.get("disclosure") == "recording":
                # a match record (docs/matches.md): the final scores and one's own recordings only
                return GameListing(name=name, modified=modified, kind="record", status=status)
            return GameListing(
                name=name,
                modified=modified,
                kind="game",
                summary=api.game_summary(game),
                status=status,
            )
        except NovaError as error:
            if other_json(path):
                return None
            return GameListing(
                name=name,
                modified=modified,
                kind="unreadable",
                problem=self.folder.games.tidy(str(error), name),
            )

    # --- one game -----------------------------------------------------------------------------

    def _game(self, name: str):
        path = self.folder.game(name)
        return path, self._kept(("game", name), path, lambda: api.open_game(path))

    def timeline(self, name: str, player: str | None, round: int | None) -> bytes:
        """The game's timeline as JSON bytes: every round's frame (``round`` None), or the
        per-turn frames of round ``round``; with ``player``, fogged as that player saw it."""
        path, game = self._game(name)

        def compute() -> bytes:
            if round is None:
                timeline = api.replay_timeline(game, player=player)
            else:
                timeline = api.replay_timeline(
                    game, player=player, per_turn=True, first_round=round, last_round=round
                )
            # straight to JSON in pydantic's core: a 500-round timeline is ~1 MB, and this is 3-5x
            # quicker than to_json() and json.dumps (the same document: tests/lab/test_server.py)
            return timeline.model_dump_json(by_alias=True).encode("utf-8")

        return self._kept(("timeline", name, player, round), path, compute)

    def rules(self, name: str):
        path, game = self._game(name)
        return api.game_rules(game)

    def status(self, name: str, round: int | None) -> api.Status:
        path, game = self._game(name)
        return self._kept(
            ("status", name, round),
            path,
            lambda: api.status(game) if round is None else api.status_at(game, round),
        )

    def events(
        self, name: str, round: int | None, offset: int, limit: int, player: str | None = None
    ) -> api.EventsPage:
        """A round's events; with ``player``, only those that player could see (their view)."""
        path, game = self._game(name)
        if player is None:
            return api.events_page(game, round=round, offset=offset, limit=limit, notes="whole")
        return api.events_page(
            game,
            round=round,
            offset=offset,
            limit=limit,
            notes="whole",
            player=player,
            seen_only=True,
        )

    def android(
        self, name: str, android_id: str, round: int, turn: int | None, player: str | None
    ) -> api.AndroidMoment:
        path, game = self._game(name)
        return self._kept(
            ("android", name, android_id, round, turn, player),
            path,
            lambda: api.android_at(game, android_id, round=round, turn=turn, player=player),
        )
