"""How the starter android plays, as a player watching it would notice: it never has a turn
refused, spends no fuel ticks on the default board, launches a second android, explores the
whole map, builds an extractor (seed 7 once sat at 20 points for 340 rounds without one), never
leaves a site half-paid, repairs what a raider damages, banks at the nearest depot it remembers
and before the humans land, and salvages only the buildings of a player who salvaged its own.

Games are played through the engine and the real sandbox with the shipped starter (and the raider
kept in bench/androids/raider, the attacker the starter is measured against)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest

from nova_tools import engine, starter
from nova_tools.engine import Scenario
from nova_tools.engine.actions import owed
from nova_tools.engine.state import GameState
from nova_tools.play import ScriptRunner
from nova_tools.rules import Rules, resolve
from nova_tools.toolchain import compile_android, compile_sources

REPO = Path(__file__).resolve().parents[2]
RAIDER = REPO / "bench" / "androids" / "raider" / "main.ts"


@cache
def bundle(name: str) -> str:
    if name == "starter":
        return compile_sources(starter.files(), starter.ENTRY).bundle
    return compile_android(RAIDER).bundle


@dataclass
class Game:
    rules: Rules
    state: GameState
    turns: list[dict] = field(default_factory=list)
    seen: dict[str, set[int]] = field(default_factory=dict)  # tiles each player has seen so far
    sites: dict[str, tuple[int, int | None]] = field(
        default_factory=dict
    )  # building -> (started, paid in full)

    def owner(self, turn: dict) -> str:
        return self.state.androids[turn["android"]].owner

    def by(self, player: str) -> list[dict]:
        return [t for t in self.turns if self.owner(t) == player]

    def kinds(self, player: str) -> Counter:
        return Counter(t["action"]["type"] for t in self.by(player) if t["outcome"] == "accepted")

    def points(self) -> dict[str, float]:
        return {s.player: s.points for s in engine.scores(self.state)}


def play(state: GameState, rules: Rules, rounds: int, game: Game | None = None) -> Game:
    game = game or Game(rules, state)
    runner = ScriptRunner(rules, {s.id: bundle(s.name) for s in state.scripts.values()})
    for _ in range(rounds):
        for event in (
            e.to_json() for e in engine.play_round(state, runner.decide)
        ):  # as a file holds them
            if event["type"] != "turn":
                continue
            game.turns.append(event)
            result = event.get("result", {})
            building = state.buildings.get(result.get("building", ""))
            if (
                event["outcome"] == "accepted"
                and building is not None
                and event["action"]["type"].endswith("construction")
            ):
                started, paid = game.sites.get(building.id, (state.round, None))
                if paid is None and not owed(state, building):
                    paid = state.round
                game.sites[building.id] = (started, paid)
        for player in state.players:
            game.seen.setdefault(player, set()).update(state.visible.get(player, ()))
    return game


def new_game(
    seed: int,
    rounds: int,
    players: tuple[tuple[str, str], ...] = (("ann", "starter"), ("bob", "starter")),
    rules: dict | None = None,
) -> Game:
    resolved = resolve(rules or {})
    state = engine.generate(resolved, seed)
    for player, script in players:
        engine.join(state, player)
        engine.launch(state, player, engine.add_script(state, player, script).script)
    return play(state, resolved, rounds)


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    """Whole games, played once for the tests below."""
    return {
        "seed 3": new_game(3, 100),
        "seed 7": new_game(7, 100),
        "seed 3 against the raider": new_game(3, 100, (("raider", "raider"), ("ann", "starter"))),
        "seed 5 against the raider": new_game(5, 100, (("ann", "starter"), ("raider", "raider"))),
        # 24x24, four players, many pods: long trips through ground first seen on the way.
        "24x24": new_game(
            9,
            150,
            tuple((p, "starter") for p in ("a", "b", "c", "d")),
            {"world": {"width": 24, "height": 24, "generation": {"pods": {"count": 30}}}},
        ),
        # Retuned: a small cargo and memory, a cheaper depot, a slower extractor, an arrival date.
        "retuned": new_game(
            4,
            100,
            rules={
                "android": {"cargoCapacity": 6, "memoryLimit": 900},
                "buildings": {"depot": {"cost": {"metal": 4}}, "extractor": {"ticks": 5}},
                "match": {"finalRound": 100},
            },
        ),
    }


STARTERS = ("ann", "bob", "a", "b", "c", "d")


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def test_no_turn_is_refused_and_notes_fit_their_limits(games):
    for name, game in games.items():
        for player in set(game.state.players) & set(STARTERS):
            played = game.by(player)
            failed = [t for t in played if t["outcome"] != "accepted"]
            assert not failed, (name, player, failed[:3])
        limits = game.rules.android
        for android in game.state.androids.values():
            if android.owner in STARTERS:
                assert utf16_length(android.memory) <= limits.memory_limit, (name, android.id)
                assert 0 < utf16_length(android.recording) <= limits.recording_limit, (
                    name,
                    android.id,
                )


def test_a_turn_spends_no_fuel_ticks_on_the_default_board_and_few_on_a_big_one(games):
    for name in ("seed 3", "seed 7", "seed 3 against the raider", "seed 5 against the raider"):
        game = games[name]
        assert {t["ticks"] for p in ("ann", "bob") for t in game.by(p)} <= {0}, name
    # On 24x24 a turn's top level and its own work make 10,000-20,000 polls: since sandbox
    # revision 7 every turn counts them from a full countdown (10,000 to a tick), so most spend
    # one tick, none more than two, far from the budget (rules.script.fuel, 200).
    big = Counter(t["ticks"] for t in games["24x24"].turns)
    assert max(big) <= 2 and big[0] + big[1] > 0.95 * sum(big.values()), big


def test_it_launches_a_second_android_at_once(games):
    for name in ("seed 3", "seed 7", "24x24"):
        game = games[name]
        for player in set(game.state.players) & set(STARTERS):
            launches = [
                t
                for t in game.by(player)
                if t["action"]["type"] == "android.launch" and t["round"] == 1
            ]
            assert len(launches) == 1, (name, player)


def test_it_explores_the_whole_map_corners_included(games):
    for name in ("seed 3", "seed 7"):
        game = games[name]
        board = game.state.width * game.state.height
        for player in ("ann", "bob"):
            assert len(game.seen[player]) == board, (name, player, board - len(game.seen[player]))
    # On a big board shared by four, one android a player roams (the other keeps the base) and
    # trips home to charge are long: in 150 rounds each has seen a good part of it, and between
    # them they have been nearly everywhere.
    big = games["24x24"].seen
    for player in ("a", "b", "c", "d"):
        assert len(big[player]) > 0.4 * 24 * 24, (player, len(big[player]))
    assert len(set().union(*big.values())) > 0.9 * 24 * 24


def test_it_builds_an_extractor_on_seed_7_and_scores_from_it(games):
    # Seed 7 once kept the starter at 20 points from round 60 to round 400 without an extractor.
    # Ann finds electronics in the first rounds; Bob's first turns up at round 33, and his two
    # androids pool it with the metal they carry.
    game = games["seed 7"]
    for player in ("ann", "bob"):
        built = [
            t["round"]
            for t in game.by(player)
            if t.get("result", {}).get("completed")
            and game.state.buildings.get(t["result"]["building"]) is not None
            and game.state.buildings[t["result"]["building"]].type == "extractor"
        ]
        assert built and built[0] <= 60, (player, built)
    assert min(game.points().values()) > 60, game.points()


def test_every_site_it_starts_is_paid_in_full_at_once_or_within_a_few_rounds(games):
    # A site is started only with its whole cost at hand: in the cargo, or partly in a sibling's
    # cargo standing by, who pays it in the next rounds. Material never sits in a half-paid site.
    for name, game in games.items():
        for building_id, (started, paid) in game.sites.items():
            building = game.state.buildings.get(building_id)
            if building is None or building.owner not in STARTERS:
                continue  # salvaged since, or not a starter's
            # a cost bigger than a cargo (the retuned game) takes a few trips
            bigger = (
                sum(game.rules.building(building.type).cost.model_dump().values())
                > game.rules.android.cargo_capacity
            )
            assert paid is not None and paid - started <= (15 if bigger else 5), (
                name,
                building.type,
                started,
                paid,
            )


def test_it_does_not_start_a_building_it_cannot_pay_for(games):
    # 5 metal and an electronics unit, nothing else anywhere: not enough for an extractor (8 + 1)
    # or a depot (6), so it starts nothing and keeps what it carries.
    s = Scenario(Rules())
    s.player("ann", charger_at=(2, 2))
    s.script("ann", "starter")
    s.android("ann", at=(2, 2), cargo={"metal": 5, "electronics": 1})
    s.tile(4, 4, ore=3, water=2)
    s.player("bob", charger_at=(10, 10))
    state = s.build()
    game = play(state, state.rules, 40)
    kinds = game.kinds("ann")
    assert (
        kinds["android.start-construction"] == 0 and kinds["android.continue-construction"] == 0
    ), kinds
    carried = Counter()
    for android in state.androids.values():
        carried.update(android.cargo)
    assert carried == {"metal": 5, "electronics": 1}


def test_it_repairs_a_damaged_extractor_with_metal_from_its_depot():
    s = Scenario(Rules())
    s.player("ann", charger_at=(2, 2))
    s.script("ann", "starter")
    s.android("ann", at=(2, 2))
    s.building("depot", "ann", at=(3, 2), storage={"metal": 10})
    s.tile(4, 2, ore=3, water=2)
    extractor = s.building("extractor", "ann", at=(4, 2), health=40.0)
    s.player("bob", charger_at=(10, 10))
    state = s.build()
    game = play(state, state.rules, 20)
    assert state.buildings[extractor].health == state.rules.building("extractor").health
    assert game.kinds("ann")["android.repair"] == 6  # 40 -> 100, ten health a repair


def test_two_androids_hold_an_extractor_against_one_raider():
    # One raider salvages (15 a turn), two starter androids repair (10 each, a metal a repair,
    # fetched from the depot a cargo at a time): the extractor stands while the metal lasts.
    s = Scenario(Rules())
    s.player("ann", charger_at=(2, 2))
    s.script("ann", "starter")
    s.android("ann", at=(2, 2))
    s.android("ann", at=(3, 3))
    s.building("depot", "ann", at=(3, 2), storage={"metal": 60})
    s.tile(4, 2, ore=3, water=2)
    extractor = s.building("extractor", "ann", at=(4, 2))
    s.player("raider", charger_at=(10, 10))
    s.script("raider", "raider")
    s.android("raider", at=(4, 2))
    state = s.build()
    game = play(state, state.rules, 30)
    assert extractor in state.buildings, "the raider took the extractor"
    assert game.kinds("raider")["android.salvage"] >= 10
    assert game.kinds("ann")["android.repair"] >= 10


def test_it_banks_at_the_nearest_depot_it_knows_even_out_of_sight():
    # Two depots of its own: one by the charger, one far out near the loose metal, seen on the
    # way there. With a full cargo it walks to the far one, the nearer, though it is out of sight.
    s = Scenario(Rules(), width=16, height=16)
    s.player("ann", charger_at=(1, 1))
    s.script("ann", "starter")
    s.android("ann", at=(1, 1))
    home_depot = s.building("depot", "ann", at=(1, 3))
    far_depot = s.building("depot", "ann", at=(12, 7))
    s.tile(12, 12, scattered={"metal": 12})
    s.player("bob", charger_at=(14, 14))
    state = s.build()
    game = play(state, state.rules, 60)
    deposits = [t for t in game.by("ann") if t["action"]["type"] == "android.deposit"]
    assert deposits, game.kinds("ann")
    assert deposits[0]["result"]["building"] == far_depot != home_depot


def test_it_banks_its_cargo_before_the_humans_land():
    # Cargo scores nothing: with an arrival date, what it carries is in a depot by then. Extractors
    # come before the depot, so a colony may have no depot at all (on seed 7 neither player built
    # one): then what is left over, less than a depot costs, has nowhere to be banked.
    banked = 0
    for seed in (7, 9):
        game = new_game(seed, 60, rules={"match": {"finalRound": 60}})
        state = game.state
        for android in state.androids.values():
            depots = [
                b
                for b in state.buildings.values()
                if b.owner == android.owner
                and b.complete
                and state.rules.building(b.type).storage.deposit
            ]
            if depots:
                assert not android.cargo, (seed, android.id, android.cargo)
                banked += 1
    assert banked >= 2  # seed 9: a player with a depot, both of whose androids emptied their cargo


def test_it_never_salvages_first_and_answers_a_raid(games):
    for name in ("seed 3", "seed 7", "24x24"):
        assert not [t for t in games[name].turns if t["action"]["type"] == "android.salvage"], name
    game = games["seed 3 against the raider"]
    salvages = [
        t
        for t in game.turns
        if t["outcome"] == "accepted" and t["action"]["type"] == "android.salvage"
    ]
    raider_first = next(t["round"] for t in salvages if game.owner(t) == "raider")
    answered = [t["round"] for t in salvages if game.owner(t) == "ann"]
    assert answered and answered[0] > raider_first, (raider_first, answered)


def test_its_androids_stay_charged_on_a_big_board(games):
    # Seed 9 once had two androids reach their charger with an empty battery (destroyed at round
    # end) after hazards found on the way made the trip longer than planned.
    assert [a.id for a in games["24x24"].state.androids.values() if not a.active] == []


def test_the_log_says_where_it_puts_the_extractor_and_on_what(games):
    lines = [
        line for a in games["seed 3"].state.androids.values() for line in a.recording.splitlines()
    ]
    starts = [line for line in lines if ": start an extractor at (" in line]
    assert starts, lines[:20]
    assert any(
        re.match(
            r"r\d+ \(\d+,\d+\) bat \d+ hp \d+: start an extractor at \(\d+,\d+\) on \d+ (ore|water)",
            line,
        )
        for line in starts
    ), starts
