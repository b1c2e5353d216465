"""Players joining, their android capacity, and launches a player makes between rounds."""

from __future__ import annotations

from .events import AndroidLaunched, PlayerJoined, ScriptUploaded
from .prng import SplitMix64, derive
from .refusals import Refusal, UnknownPlayer
from .state import Android, Building, GameState, Player, Script
from .symmetry import group_size, images
from .text import is_plain_text, quoted
from .visibility import recompute


def capacity(state: GameState, player: str) -> int:
    """The android cap: the sum of androidCapacity over the player's completed buildings."""
    rules = state.rules
    return sum(
        rules.building(b.type).android_capacity
        for b in state.buildings.values()
        if b.owner == player and b.complete
    )


def active_count(state: GameState, player: str) -> int:
    return sum(1 for a in state.androids.values() if a.owner == player and a.active)


def _charger_candidates(state: GameState) -> list[tuple[int, int, bool]]:
    """Free tiles with no acid and no radiation, each marked whether it lies away from the edge."""
    margin = 1 if min(state.width, state.height) > 4 else 0
    candidates = []
    for y in range(state.height):
        for x in range(state.width):
            if not _free_and_safe(state, x, y):
                continue
            inner = margin <= x < state.width - margin and margin <= y < state.height - margin
            candidates.append((x, y, inner))
    return candidates


def _free_and_safe(state: GameState, x: int, y: int) -> bool:
    tile = state.tile(x, y)
    return (
        (x, y) not in state.building_at
        and not tile.composition.get("acid")
        and not tile.composition.get("radiation")
    )


def _initial_charger_tile(state: GameState, seat: int) -> tuple[int, int]:
    """A free, hazard-free tile as far as possible from the other initial chargers.

    Seat 0 takes a random free tile away from the edge; every later seat takes the free tile that
    maximises the distance (orthogonal steps) to the nearest existing initial charger, ties broken
    by a draw from the seat's own stream. So placement depends only on the seed and join order.
    On a rotational map the first seats get rotations of one tile instead (see :func:`_symmetric_tile`).
    """
    symmetric = _symmetric_tile(state, seat)
    if symmetric is not None:
        return symmetric
    taken = [(b.x, b.y) for b in state.buildings.values() if b.initial]
    candidates = _charger_candidates(state)
    if not candidates:
        raise Refusal(
            "no-room", "there is no free, hazard-free tile left for another initial charger"
        )
    rng = SplitMix64(derive(state.seed, "initial-charger", seat))
    if not taken:
        inner = [(x, y) for x, y, ok in candidates if ok] or [(x, y) for x, y, _ in candidates]
        return inner[rng.below(len(inner))]
    best = -1
    best_tiles: list[tuple[int, int]] = []
    pool = [c for c in candidates if c[2]] or candidates
    for x, y, _ in pool:
        distance = min(abs(x - tx) + abs(y - ty) for tx, ty in taken)
        if distance > best:
            best, best_tiles = distance, [(x, y)]
        elif distance == best:
            best_tiles.append((x, y))
    return best_tiles[rng.below(len(best_tiles))]


def _symmetric_tile(state: GameState, seat: int) -> tuple[int, int] | None:
    """On a rotational map: seat 0's tile is one whose rotated twins (as many as the map is fair
    to: 2, or 4 on a square board) are all distinct, free and hazard-free, and not too close to it:
    at least half as many steps from its half-turn twin, and from its nearest twin, as the board's
    most spread tiles are (a draw from the seed picks among those); seats 1-3 take seat 0's twins
    in seat order. None when the map is not rotational, the seat is past the twins, or the twins are
    not available (a building or a cleaned tile in the way): the ordinary placement applies."""
    rules = state.rules.world
    size = group_size(state.width, state.height, rules.symmetry)
    if size == 1 or seat >= size:
        return None
    if seat > 0:
        first = next((p.id for p in state.players.values() if p.seat == 0), None)
        home = next((b for b in state.buildings.values() if b.initial and b.owner == first), None)
        if home is None:
            return None
        x, y = images(home.x, home.y, state.width, state.height, rules.symmetry)[seat]
        return (x, y) if _free_and_safe(state, x, y) else None
    # (x, y, steps to the half-turn twin, steps to the nearest quarter-turn twin, inner)
    spreads: list[tuple[int, int, int, int, bool]] = []
    for x, y, inner in _charger_candidates(state):
        twins = images(x, y, state.width, state.height, rules.symmetry)
        if len(set(twins)) < size or not all(_free_and_safe(state, tx, ty) for tx, ty in twins[1:]):
            continue
        steps = [abs(x - tx) + abs(y - ty) for tx, ty in twins[1:]]
        spreads.append((x, y, steps[0], min(steps), inner))
    pool = [s for s in spreads if s[4]] or spreads
    if not pool:
        return None
    widest_half = max(s[2] for s in pool)
    widest_quarter = max(s[3] for s in pool)
    fair = [
        (x, y)
        for x, y, half, quarter, _ in pool
        if 2 * half >= widest_half and 2 * quarter >= widest_quarter
    ]
    return fair[SplitMix64(derive(state.seed, "initial-charger", "rotational")).below(len(fair))]


def join(state: GameState, player: str, at: tuple[int, int] | None = None) -> PlayerJoined:
    """Add a player with their completed, unsalvageable initial charger. Returns the event."""
    if not player or len(player) > 64 or not all(c.isalnum() or c in "-_." for c in player):
        raise Refusal(
            "bad-player-id",
            f"{quoted(player)} is not a valid player id (use 1-64 letters, digits, '-', '_' or '.')",
        )
    if player in state.players:
        raise Refusal("player-exists", f"player {player!r} has already joined")
    seat = len(state.players)
    if at is not None:  # a scenario, or a replayed log: the tile must still be a valid one
        x, y = at
        if not state.on_map(x, y):
            raise Refusal("off-map", f"({x}, {y}) is not on the {state.width}x{state.height} map")
        if (x, y) in state.building_at:
            raise Refusal(
                "tile-occupied",
                f"({x}, {y}) already holds a building; initial chargers never overlap",
            )
    else:
        x, y = _initial_charger_tile(state, seat)
    state.players[player] = Player(player, seat)
    charger_rules = state.rules.buildings.charger
    building = Building(
        id=state.new_id("building"),
        type="charger",
        owner=player,
        x=x,
        y=y,
        health=charger_rules.health,
        complete=True,
        initial=True,
    )
    state.buildings[building.id] = building
    state.building_at[(x, y)] = building.id
    recompute(state)
    return PlayerJoined(player, seat, building.id, x, y)


def require_player(state: GameState, player: str) -> None:
    if player not in state.players:
        raise UnknownPlayer(player)


MAX_SCRIPT_NAME = 200


def add_script(state: GameState, player: str, name: str) -> ScriptUploaded:
    """Register an uploaded script for a player (its compiled source lives in the game file)."""
    require_player(state, player)
    if not isinstance(name, str) or not 0 < len(name) <= MAX_SCRIPT_NAME or not is_plain_text(name):
        # a name is shown on one line and stored in a UTF-8 file: no control characters, and no
        # half of a UTF-16 pair (what a file name that is not UTF-8 decodes to)
        raise Refusal(
            "bad-script-name",
            f"{quoted(name)} is not a usable script name (use 1-{MAX_SCRIPT_NAME} characters of text)",
        )
    script = Script(state.new_id("script"), player, name)
    state.scripts[script.id] = script
    return ScriptUploaded(player, script.id, name)


def spawn(state: GameState, owner: str, script: str, x: int, y: int) -> Android:
    rules = state.rules.android
    android = Android(
        state.new_id("android"), owner, script, x, y, rules.battery_capacity, rules.max_health
    )
    state.androids[android.id] = android
    return android


def check_launch(state: GameState, player: str, script: str) -> None:
    known = state.scripts.get(script)
    if known is None or known.owner != player:
        raise Refusal("unknown-script", f"{quoted(script)} is not one of {player}'s scripts")
    cap = capacity(state, player)
    if active_count(state, player) >= cap:
        raise Refusal(
            "at-capacity",
            f"{player} already has {active_count(state, player)} active android(s) and the chargers allow {cap}; "
            "build another charger or free capacity first",
        )


def launch(
    state: GameState, player: str, script: str, charger: str | None = None
) -> AndroidLaunched:
    """A player launches an android between rounds, on their initial charger unless another of
    their completed chargers is named. Returns the event."""
    require_player(state, player)
    check_launch(state, player, script)
    if charger is None:
        site = next(b for b in state.buildings.values() if b.owner == player and b.initial)
    else:
        named = state.buildings.get(charger)
        if (
            named is None
            or named.owner != player
            or not named.complete
            or state.rules.building(named.type).android_capacity <= 0
        ):
            raise Refusal(
                "not-a-charger", f"{quoted(charger)} is not a completed charger of {player}"
            )
        site = named
    android = spawn(state, player, script, site.x, site.y)
    recompute(state)
    return AndroidLaunched(player, script, android.id, site.id)
