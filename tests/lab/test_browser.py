"""The lab in a real browser (Debian's Chromium driven by Playwright), as a player uses it: the
viewer agrees with `nova status` and `nova android`, the Run panel plays a game to its arrival
round and opens it, a match is hosted in one lab and joined from another, every page reads at
1280x800 and 800x600 with the keyboard, and no page logs an error. Screenshots go to
test-output/lab/."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from lab_testing import CHROMIUM_FLAGS, OUTPUT, Lab, chromium, running_lab
from nova_testing import nova, wanderer

from nova_tools import api

pytestmark = pytest.mark.realpart

ROUNDS = 30
STEP_TO = 28  # rounds where the starter's score has more contributors than its charger
SCRUB_TO = 24
TIMEOUT_MS = 60_000
JOB_TIMEOUT_MS = 240_000


@pytest.fixture(scope="module")
def browser() -> Iterator:
    executable = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_FLAGS, timeout=TIMEOUT_MS
        )
        yield launched
        launched.close()


class Page:
    """A browser page that remembers every console error and uncaught exception."""

    def __init__(self, browser, url: str, width: int = 1280, height: int = 800) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.page.on(
            "console", lambda message: message.type == "error" and self.errors.append(message.text)
        )
        self.page.on("pageerror", lambda error: self.errors.append(f"uncaught: {error}"))
        self.url = url

    def open(self, hash: str) -> None:
        self.page.goto(self.url + hash)

    def shot(self, name: str, whole: bool = False) -> Path:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=whole)
        return path

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"the page logged errors: {self.errors}"


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A folder with a game recorded by the CLI (the starter against a walker) and the walker."""
    folder = tmp_path_factory.mktemp("my-games", numbered=False)  # the name the screenshots show
    (folder / "bots").mkdir()
    walker = wanderer(folder / "bots", "walker", recording="walking")
    game = folder / "duel.json"
    assert nova("create-game", "--file", game, "--seed", "6").code == 0
    for player, script in (("ann", api.starter_entry()), ("bob", walker)):
        assert nova("upload", "--file", game, "--player", player, script).code == 0
    assert nova("launch", "--file", game, "--player", "ann", "--script", "script-1").code == 0
    assert nova("launch", "--file", game, "--player", "bob", "--script", "script-2").code == 0
    assert nova("run", "--file", game, "--rounds", ROUNDS).code == 0
    return folder


@pytest.fixture(scope="module")
def lab(root: Path) -> Iterator[Lab]:
    with running_lab(root) as running:
        yield running


def shown_scores(page) -> dict[str, tuple[float, list[tuple[str, float]]]]:
    rows = page.locator(".scores-table tr[data-player]")
    scores = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        lines = row.locator("li[data-source]")
        breakdown = [
            (
                lines.nth(j).get_attribute("data-source"),
                float(lines.nth(j).get_attribute("data-points")),
            )
            for j in range(lines.count())
        ]
        shown = float(row.locator("[data-field=score]").inner_text())
        assert shown == float(row.get_attribute("data-score"))  # what is read is what is shown
        scores[row.get_attribute("data-player")] = (shown, breakdown)
    return scores


def click_android(page, android: dict) -> None:
    """Click the android on the canvas (again, while another android on its tile is picked)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    canvas = page.locator("canvas.board")
    box = canvas.bounding_box()
    tile = float(canvas.get_attribute("data-tile"))
    x = box["x"] + (android["position"]["x"] + 0.5) * tile
    y = box["y"] + (android["position"]["y"] + 0.5) * tile
    for _ in range(4):
        page.mouse.click(x, y)
        try:
            page.wait_for_selector(
                f".inspector-body h3[data-android='{android['id']}']", timeout=8000
            )
            return
        except PlaywrightTimeout:
            continue  # another android on that tile was picked: a click again picks the next
    raise AssertionError(f"clicking the board never opened {android['id']}")


def test_the_viewer_agrees_with_nova_status_at_a_round_and_with_nova_android(
    browser, lab: Lab, root: Path
) -> None:
    view = Page(browser, lab.url)
    page = view.page
    view.open("#/replay/duel")
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    assert page.locator(".where").inner_text() == f"Round {ROUNDS} of {ROUNDS}"
    # keyboard first: Home, then the right arrow a round at a time
    page.keyboard.press("Home")
    for _ in range(STEP_TO):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f".where[data-round='{STEP_TO}']")
    assert page.locator("canvas.board").get_attribute("data-round") == str(STEP_TO)
    status = json.loads(
        nova("status", "--file", root / "duel.json", "--round", STEP_TO, "--json").out
    )
    expected = {
        p["id"]: (
            float(p["score"]),
            [(line["source"], float(line["points"])) for line in p["breakdown"]],
        )
        for p in status["players"]
    }
    assert shown_scores(page) == expected
    assert any(len(breakdown) > 1 for _, breakdown in expected.values()), (
        f"at round {STEP_TO} only the chargers score: pick a later round"
    )
    # the scrubber itself, moved to another round
    page.locator(".scrubber-range").fill(str(SCRUB_TO))
    page.wait_for_selector(f".where[data-round='{SCRUB_TO}']")
    status = json.loads(
        nova("status", "--file", root / "duel.json", "--round", SCRUB_TO, "--json").out
    )
    assert shown_scores(page) == {
        p["id"]: (
            float(p["score"]),
            [(line["source"], float(line["points"])) for line in p["breakdown"]],
        )
        for p in status["players"]
    }
    assert shown_scores(page) != expected, (
        f"the scores at rounds {SCRUB_TO} and {STEP_TO} are the same: pick rounds that differ"
    )
    # the round's events, in the words `nova events` prints (amounts, damage, why an android fell)
    events = json.loads(
        nova(
            "events", "--file", root / "duel.json", "--round", SCRUB_TO, "--limit", 500, "--json"
        ).out
    )["events"]
    words = [event["text"] for event in events]
    page.wait_for_function(
        "n => document.querySelectorAll('ol.events li').length >= n", arg=len(words)
    )
    assert page.locator("ol.events li").all_inner_texts()[: len(words)] == words

    # the last round: click each player's first android and read what `nova android` says
    page.keyboard.press("End")
    page.wait_for_selector(f".where[data-round='{ROUNDS}']")
    for android_id in ("android-1", "android-2"):
        report = json.loads(nova("android", "--file", root / "duel.json", android_id, "--json").out)
        click_android(page, report)
        page.wait_for_selector(f".inspector-body h3[data-android='{android_id}']")
        assert float(page.locator("[data-field=battery]").inner_text()) == round(
            report["battery"], 2
        )
        assert float(page.locator("[data-field=health]").inner_text()) == round(report["health"], 2)
        assert page.locator("[data-field=recording]").inner_text() == (
            report["recording"] or "(empty)"
        )
        assert page.locator("[data-field=last-turn]").count() == 1
    view.shot("viewer")

    # turn by turn, and the board as one player saw it
    page.keyboard.press("Home")
    page.keyboard.press(".")
    page.wait_for_selector(".where:text-matches('Round 1 of 30 · turn 1 of')")
    assert page.locator("canvas.board").get_attribute("data-turn") == "1"
    page.keyboard.press("End")
    page.select_option("select.fog", "bob")
    page.wait_for_selector("canvas.board[data-fog=on]")
    view.shot("viewer-fog")
    view.close()


def test_the_run_panel_plays_a_20_round_game_that_opens_in_the_viewer(
    browser, lab: Lab, root: Path
) -> None:
    view = Page(browser, lab.url)
    page = view.page
    view.open("#/run")
    page.wait_for_selector(".seat select option[value='bots/walker.ts']", state="attached")
    page.fill("input[name=name]", "twenty")
    page.fill("input[name=rounds]", "20")
    page.fill("input[name=seed]", "9")
    page.locator(".seat select").nth(1).select_option("bots/walker.ts")
    view.shot("run-form")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=run-job][data-state=done]", timeout=JOB_TIMEOUT_MS)
    view.shot("run-panel")  # the finished run, before the replay opens
    # the job's log reads newest first: how the run ended, above its first step
    assert (
        page.locator("[data-testid=run-job] .job-log li")
        .first.inner_text()
        .startswith("played 20 rounds into twenty")
    )
    assert page.locator("[data-testid=run-job] progress").get_attribute("max") == "1"
    page.wait_for_url(re.compile(r".*#/replay/twenty"), timeout=JOB_TIMEOUT_MS)
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    assert page.locator(".where").inner_text() == "Round 20 of 20"
    assert "humans land on round 20" in page.locator(".page-head").inner_text()
    saved = json.loads((root / "twenty.json").read_text(encoding="utf-8"))
    assert saved["rules"]["match"]["finalRound"] == 20
    status = json.loads(nova("status", "--file", root / "twenty.json", "--json").out)
    assert status["round"] == 20 and status["finalTurn"] == 20
    assert [p["id"] for p in status["players"]] == ["alice", "bob"]
    assert shown_scores(page) == {
        p["id"]: (float(p["score"]), [(b["source"], float(b["points"])) for b in p["breakdown"]])
        for p in status["players"]
    }
    view.close()


def test_a_match_hosted_in_one_lab_and_joined_from_another_is_verified(
    browser, tmp_path: Path
) -> None:
    host_root, join_root = tmp_path / "host", tmp_path / "join"
    host_root.mkdir()
    join_root.mkdir()
    with running_lab(host_root) as host_lab, running_lab(join_root) as join_lab:
        host = Page(browser, host_lab.url)
        joiner = Page(browser, join_lab.url)
        host.open("#/match")
        host.page.wait_for_selector(
            "form[aria-label='host a match'] select[name=script] option[value=starter]",
            state="attached",
        )
        host.page.fill("form[aria-label='host a match'] input[name=name]", "hosted")
        host.page.fill("form[aria-label='host a match'] input[name=rounds]", "8")
        host.page.click("form[aria-label='host a match'] button[type=submit]")
        url = host.page.locator("[data-testid=join-url]").inner_text()
        assert re.fullmatch(r"ws://127\.0\.0\.1:\d+", url)
        assert (
            host.page.locator("[data-testid=join-cli]").inner_text().startswith(f"nova join {url} ")
        )
        host.shot("match-waiting")
        joiner.open("#/match")
        joiner.page.wait_for_selector(
            "form[aria-label='join a match'] select[name=script] option[value=starter]",
            state="attached",
        )
        joiner.page.fill("form[aria-label='join a match'] input[name=url]", url)
        joiner.page.fill("form[aria-label='join a match'] input[name=name]", "joined")
        joiner.page.click("form[aria-label='join a match'] button[type=submit]")
        for side, testid in ((host, "host-result"), (joiner, "join-result")):
            side.page.wait_for_selector(
                f"[data-testid={testid}] [data-outcome=verified]", timeout=JOB_TIMEOUT_MS
            )
        host.shot("match", whole=True)
        kept = {}
        for path in (host_root / "hosted.json", join_root / "joined.json"):
            status = json.loads(nova("status", "--file", path, "--json").out)
            assert (
                status["match"]["outcome"] == "verified" and status["match"]["verifiedThrough"] == 8
            )
            assert status["round"] == 8 and status["finalTurn"] == 8
            kept[path.name] = [(p["id"], p["score"]) for p in status["players"]]
        assert kept["hosted.json"] == kept["joined.json"]  # both sides agree on the result
        shown = host.page.locator("[data-testid=host-result] li[data-player]")
        assert sorted(
            (
                shown.nth(i).get_attribute("data-player"),
                float(shown.nth(i).get_attribute("data-score")),
            )
            for i in range(shown.count())
        ) == sorted((p, float(s)) for p, s in kept["hosted.json"])
        host.close()
        joiner.close()


def test_the_join_command_the_host_page_shows_plays_the_match_from_the_cli(
    browser, tmp_path: Path
) -> None:
    """The command the host page tells a peer to type, typed: a real `nova join` process."""
    host_root = tmp_path / "host"
    host_root.mkdir()
    walker = wanderer(tmp_path, "walker")
    with running_lab(host_root) as host_lab:
        host = Page(browser, host_lab.url)
        host.open("#/match")
        form = "form[aria-label='host a match']"
        host.page.wait_for_selector(
            f"{form} select[name=script] option[value=starter]", state="attached"
        )
        host.page.fill(f"{form} input[name=name]", "versus-cli")
        host.page.fill(f"{form} input[name=rounds]", "6")
        host.page.click(f"{form} button[type=submit]")
        shown = host.page.locator("[data-testid=join-cli]").inner_text()
        words = shown.split()
        assert words[:2] == ["nova", "join"] and "--player" in words and "--file" in words
        typed = [
            {"YOU": "bob", "bot.ts": str(walker), "match.json": str(tmp_path / "joined.json")}.get(
                w, w
            )
            for w in words[2:]
        ]
        joined = nova("join", *typed, "--json")
        assert joined.code == 0, joined.err
        assert json.loads(joined.out)["outcome"] == "verified"
        host.page.wait_for_selector(
            "[data-testid=host-result] [data-outcome=verified]", timeout=JOB_TIMEOUT_MS
        )
        host_status = json.loads(
            nova("status", "--file", host_root / "versus-cli.json", "--json").out
        )
        join_status = json.loads(nova("status", "--file", tmp_path / "joined.json", "--json").out)
        assert (
            host_status["match"]["verifiedThrough"] == join_status["match"]["verifiedThrough"] == 6
        )
        assert [(p["id"], p["score"]) for p in host_status["players"]] == [
            (p["id"], p["score"]) for p in join_status["players"]
        ]
        assert [p["id"] for p in host_status["players"]] == ["alice", "bob"]
        host.close()


def test_a_new_player_opens_the_demo_game_and_runs_one_with_the_run_panels_defaults(
    browser, tmp_path: Path
) -> None:
    """docs/lab.md's first look, as written: the command `nova demo` prints, the demo game from
    the Games page played from its start, then Run with nothing changed."""
    demo = nova("demo", "--dir", tmp_path / "games", "--rounds", 30)
    assert demo.code == 0, demo.err
    (command,) = [line for line in demo.out.splitlines() if line.startswith("In the browser: ")]
    words = command.removeprefix("In the browser: ").split()
    assert words[:3] == ["nova", "lab", "--root"] and Path(words[3]) == tmp_path / "games"
    with running_lab(Path(words[3])) as lab:
        view = Page(browser, lab.url)
        page = view.page
        view.open("")
        page.click("table.games tr[data-game=demo] a")
        page.wait_for_selector(".replay-page[data-loaded=yes]")
        page.keyboard.press("Home")
        page.keyboard.press(" ")
        page.wait_for_function("Number(document.querySelector('canvas.board').dataset.round) >= 3")
        page.keyboard.press(" ")
        page.click("nav a[data-page=run]")
        page.wait_for_selector(".seat select option[value=starter]", state="attached")
        page.click("button[type=submit]")
        page.wait_for_url(re.compile(r".*#/replay/run-"), timeout=JOB_TIMEOUT_MS)
        page.wait_for_selector(".replay-page[data-loaded=yes]")
        assert page.locator(".where").inner_text() == "Round 20 of 20"
        (played,) = [p for p in (tmp_path / "games").glob("run-*.json")]
        status = json.loads(nova("status", "--file", played, "--json").out)
        assert status["round"] == status["finalTurn"] == 20 and [
            p["id"] for p in status["players"]
        ] == ["alice", "bob"]
        view.close()


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (800, 600)])
def test_every_page_reads_at_its_size_with_the_keyboard(
    browser, lab: Lab, width: int, height: int
) -> None:
    view = Page(browser, lab.url, width, height)
    page = view.page
    for hash, ready in (
        ("#/games", "table.games tr[data-game=duel]"),
        ("#/run", ".seat"),
        ("#/match", "form"),
        ("#/arena", ".seat"),
    ):
        view.open(hash)
        page.wait_for_selector(ready)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            f"{hash} scrolls sideways at {width}x{height}"
        )
    view.open("#/replay/duel?round=3")
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    assert page.locator(".where").get_attribute("data-round") == "3"
    board = page.locator("canvas.board").bounding_box()
    assert board["width"] >= 300 and board["y"] + board["height"] <= height, (
        "the board does not fit the window"
    )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press(" ")  # plays
    page.wait_for_function("Number(document.querySelector('canvas.board').dataset.round) >= 6")
    page.keyboard.press(" ")  # pauses
    stopped = page.locator("canvas.board").get_attribute("data-round")
    page.wait_for_timeout(600)
    assert page.locator("canvas.board").get_attribute("data-round") == stopped
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f".where[data-round='{int(stopped) - 1}']")
    if width == 800:
        view.shot("viewer-800x600")
    view.close()


def test_the_run_panel_offers_the_house_androids_and_plays_one_by_name(
    browser, lab: Lab, root: Path
) -> None:
    from nova_tools.starter.house import house, names
    from nova_tools.toolchain import compile_android

    view = Page(browser, lab.url)
    page = view.page
    view.open("#/run")
    page.wait_for_selector(".seat select option[value='house:champion']", state="attached")
    offered = page.locator(".seat select").nth(0).locator("option")
    values = [offered.nth(i).get_attribute("value") for i in range(offered.count())]
    assert [n for n in names() if n != "house:starter"] == [v for v in values if v in names()]
    page.fill("input[name=name]", "house-duel")
    page.fill("input[name=rounds]", "12")
    page.fill("input[name=seed]", "4")
    page.locator(".seat select").nth(0).select_option("house:champion")
    page.locator(".seat select").nth(1).select_option("house:raider")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=run-job][data-state=done]", timeout=JOB_TIMEOUT_MS)
    page.wait_for_url(re.compile(r".*#/replay/house-duel"), timeout=JOB_TIMEOUT_MS)
    page.wait_for_selector(".replay-page[data-loaded=yes]")
    assert page.locator(".where").inner_text() == "Round 12 of 12"
    saved = json.loads((root / "house-duel.json").read_text(encoding="utf-8"))
    played = {s["player"]: s for s in saved["scripts"].values()}
    assert set(played) == {"alice", "bob"}
    # each seat played the house android it was given, by name: its own bundle, not the starter's
    for player, ref in (("alice", "house:champion"), ("bob", "house:raider")):
        assert played[player]["name"] == house(ref).name
        assert played[player]["bundle"] == compile_android(house(ref).entry_path).bundle
    assert played["alice"]["bundle"] != played["bob"]["bundle"]
    view.close()


def test_the_arena_page_compares_two_scripts(browser, lab: Lab) -> None:
    view = Page(browser, lab.url)
    page = view.page
    view.open("#/arena")
    page.wait_for_selector(".seat select option[value='bots/walker.ts']", state="attached")
    page.locator(".seat select").nth(1).select_option("bots/walker.ts")
    page.fill("input[name=seeds]", "1-2")
    page.fill("input[name=rounds]", "10")
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=arena-scripts] tr[data-script]", timeout=JOB_TIMEOUT_MS)
    rows = page.locator("[data-testid=arena-scripts] tr[data-script]")
    assert [rows.nth(i).get_attribute("data-script") for i in range(rows.count())] == [
        "starter",
        "walker",
    ]
    games = sum(int(rows.nth(i).locator("[data-field=wins]").inner_text()) for i in range(2))
    assert games <= 4
    assert page.locator("[data-testid=verdict]").inner_text()
    view.shot("arena")
    view.close()


def test_the_lab_benchmark_keeps_running(browser) -> None:
    """bench/lab_bench.py on a short game (nothing is timed here: `make bench` measures)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from bench import lab_bench

    figures = lab_bench.measure(rounds=6, players=2, repeats=1, scrubs=4, browser=browser)
    assert figures["rounds"] == 6 and figures["scrubs"] == 6 and figures["scrubs_off_round"] == 0
    assert (
        figures["open_cold_s"] > 0
        and figures["scrub_frame_ms"] > 0
        and figures["timeline_bytes"] > 1000
    )
    text = lab_bench.report(figures)
    for label in (
        "open in the viewer, cold lab",
        "scrub to a random round",
        "baseline: an idle frame",
    ):
        assert label in text


CROSSER = """
const crosser: AndroidTurn = () => {
  const me = world.androids.find((a) => a.id === androidId)!;
  const east = Math.floor((turn - 1) / (rules.world.width - 1)) % 2 === 0;
  const x = me.position.x;
  const direction = east ? (x < rules.world.width - 1 ? 'east' : 'west') : x > 0 ? 'west' : 'east';
  return { type: 'android.move', direction };
};
export default crosser;
"""
FOG_ROUNDS = 8
FOG_CHECKED = (2, 4, 5, 7)  # bob's walker is out of alice's sight at rounds 2 and 5, in it at 4, 7


@pytest.fixture(scope="module")
def crossing(tmp_path_factory) -> Iterator[Lab]:
    """An 8-round game of alice (the starter, at home) and bob (an android walking across the
    board and back), in a lab: bob walks in and out of alice's sight."""
    folder = tmp_path_factory.mktemp("crossing")
    (folder / "crosser.ts").write_text(CROSSER, encoding="utf-8")
    game = folder / "crossing.json"
    assert nova("create-game", "--file", game, "--seed", "6").code == 0
    for player, script in (("alice", api.starter_entry()), ("bob", folder / "crosser.ts")):
        assert nova("upload", "--file", game, "--player", player, script).code == 0
    for player, script in (("alice", "script-1"), ("bob", "script-2")):
        assert nova("launch", "--file", game, "--player", player, "--script", script).code == 0
    assert nova("run", "--file", game, "--rounds", FOG_ROUNDS).code == 0
    with running_lab(folder) as running:
        yield running


def listed_events(page, round: int, view: str) -> list[dict]:
    """The events panel's entries once it shows ``round`` in ``view`` ('' the whole board), with
    the tile each turn's entry names, beside the tiles the board draws as fog."""
    page.wait_for_selector(f"ol.events[data-round='{round}'][data-view='{view}']", state="attached")
    canvas = page.locator("canvas.board")
    assert canvas.get_attribute("data-round") == str(round)
    assert canvas.get_attribute("data-fog") == ("on" if view else "off")
    return page.evaluate(
        """() => [...document.querySelectorAll('ol.events li[data-type]')].map((li) => ({
            type: li.dataset.type, android: li.dataset.android ?? null,
            tile: li.dataset.tile ?? null, text: li.textContent }))"""
    )


def drawn_as_fog(page) -> set[str]:
    return set((page.locator("canvas.board").get_attribute("data-fog-tiles") or "").split())


def walk_the_rounds(page, rounds: tuple[int, ...], view: str) -> dict[int, tuple[list, set]]:
    """Step with the arrow keys from the first round to each of ``rounds`` in turn and read the
    events panel and the fog there."""
    page.keyboard.press("Home")
    read = {}
    for round in rounds:
        for _ in range(3 * FOG_ROUNDS):  # a bound: a viewer that never gets there fails, not hangs
            if int(page.locator(".where").get_attribute("data-round")) >= round:
                break
            page.keyboard.press("ArrowRight")
        page.wait_for_selector(f".where[data-round='{round}']")
        read[round] = (listed_events(page, round, view), drawn_as_fog(page))
    return read


def on_fog(read: dict[int, tuple[list, set]]) -> list[tuple[int, str]]:
    """Every listed event on a tile the board drew as fog, with its round."""
    return [
        (round, event["text"])
        for round, (events, fog) in read.items()
        for event in events
        if event["tile"] in fog
    ]


def without_query_key(url: str, key: str) -> str:
    parts = urlsplit(url)
    kept = [(k, v) for k, v in parse_qsl(parts.query) if k != key]
    return urlunsplit(parts._replace(query=urlencode(kept)))


def open_as(browser, lab: Lab, player: str, without_player: bool = False) -> Page:
    """The replay of the crossing game "as PLAYER saw it"; ``without_player``: every events
    request the page makes loses its ``player=`` on the way (a page with that bug)."""
    view = Page(browser, lab.url)
    if without_player:
        view.context.route(
            re.compile(r".*/api/games/crossing/events\?.*player=.*"),
            lambda route: route.continue_(url=without_query_key(route.request.url, "player")),
        )
    view.open("#/replay/crossing")
    view.page.wait_for_selector(".replay-page[data-loaded=yes]")
    view.page.select_option("select.fog", player)
    view.page.wait_for_selector("canvas.board[data-fog=on]")
    view.page.locator("canvas.board").focus()  # the arrow keys step the rounds, not the select
    return view


def test_as_alice_saw_it_the_events_panel_lists_no_event_on_a_tile_drawn_as_fog(
    browser, crossing: Lab
) -> None:
    """Issue 24's must-show, in the browser: "as alice saw it", round by round, no entry of the
    events panel lies on a tile the board draws as fog, while the whole board lists bob's turns
    on those very tiles; and the same check catches a page that asks for the events without
    alice's name."""
    owners = {
        a.id: a.owner
        for a in api.open_game(crossing.root / "crossing.json").state.androids.values()
    }
    view = open_as(browser, crossing, "alice")
    page = view.page
    seen = walk_the_rounds(page, FOG_CHECKED, "alice")
    for round, (events, fog) in seen.items():
        turns = [e for e in events if e["type"] == "turn"]
        assert turns and all(e["tile"] for e in turns), f"round {round}: a turn names no tile"
        assert fog, f"round {round}: alice's view draws no fog"
    assert on_fog(seen) == []
    bobs_seen = {
        r for r, (events, _) in seen.items() for e in events if owners.get(e["android"]) == "bob"
    }
    assert bobs_seen and bobs_seen != set(FOG_CHECKED), (
        f"bob's turns are listed for alice at rounds {sorted(bobs_seen)}: pick rounds where bob is "
        "both in and out of her sight"
    )

    # the whole board lists bob's turns on the tiles alice's view drew as fog: the check had
    # something to hide
    page.select_option("select.fog", "")
    page.wait_for_selector("canvas.board[data-fog=off]")
    page.locator("canvas.board").focus()
    whole = walk_the_rounds(page, FOG_CHECKED, "")
    hidden = [
        (round, event["text"])
        for round, (events, _) in whole.items()
        for event in events
        if owners.get(event["android"]) == "bob" and event["tile"] in seen[round][1]
    ]
    assert {round for round, _ in hidden} == set(FOG_CHECKED) - bobs_seen, hidden
    for round, (events, _) in seen.items():
        assert [e["text"] for e in events if e["type"] != "turn"] == [
            e["text"] for e in whole[round][0] if e["type"] != "turn"
        ]  # the round's other events are listed in both views
    view.close()

    # the page as it would be if it asked for the events without alice's name: the same check
    # fails (the real lab answers; only the request's query loses `player=`)
    leaky = open_as(browser, crossing, "alice", without_player=True)
    caught = on_fog(walk_the_rounds(leaky.page, FOG_CHECKED, "alice"))
    assert {round for round, _ in caught} == set(FOG_CHECKED) - bobs_seen, caught
    leaky.close()
