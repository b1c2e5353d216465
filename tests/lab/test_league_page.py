"""The lab's League page: the leagues in the root, a league's table (what `nova league table
--json` says) and the games of the entry clicked, over HTTP and in a real browser."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lab_testing import CHROMIUM_FLAGS, OUTPUT, Lab, chromium, running_lab
from nova_testing import REPO, nova

sys.path.insert(0, str(REPO / "tests" / "arena"))
from arena_scripts import HOARDER, THROWER

TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("leagues")
    league = folder / "échelle.league"
    for name, script in (("maison", "house:starter"), ("lanceur", THROWER), ("hoarder", HOARDER)):
        assert nova("league", "add", "--league", league, name, script).code == 0
    played = nova("league", "play", "--league", league, "--seeds", "1", "--rounds", "10")
    assert played.code == 0, played.err
    (folder / "broken.league").write_text("not a league")
    return folder


@pytest.fixture(scope="module")
def lab(root: Path) -> Iterator[Lab]:
    with running_lab(root) as running:
        yield running


def _table(root: Path) -> dict:
    run = nova("league", "table", "--league", root / "échelle.league", "--json")
    assert run.code == 0, run.err
    return json.loads(run.out)


def test_the_league_endpoints_answer_what_nova_league_table_says(lab: Lab, root: Path) -> None:
    status, listed = lab.get("/api/leagues")
    assert status == 200
    assert listed["leagues"][0] == {
        "name": "broken",
        "entries": 0,
        "games": 0,
        "problem": listed["leagues"][0]["problem"],
    }
    assert "is not a league file" in listed["leagues"][0]["problem"]
    assert listed["leagues"][1] == {"name": "échelle", "entries": 3, "games": 6, "problem": None}
    status, table = lab.get("/api/leagues/%C3%A9chelle")
    assert status == 200 and table == _table(root)
    status, games = lab.get("/api/leagues/%C3%A9chelle/games?entry=hoarder")
    assert status == 200 and games["total"] == 4 and len(games["games"]) == 4
    assert all("hoarder" in g["seats"] for g in games["games"])
    status, missing = lab.get("/api/leagues/nowhere")
    assert status == 400 and missing == {"error": "there is no league 'nowhere' in the folder"}
    status, bad = lab.get("/api/leagues/..%2Fup")
    assert status in (400, 404) and "error" in bad
    status, unknown = lab.get("/api/leagues/%C3%A9chelle/games?entry=nobody")
    assert status == 400 and "has no entry named 'nobody'" in unknown["error"]


@pytest.mark.realpart
def test_the_league_page_shows_the_table_and_an_entrys_games(lab: Lab, root: Path) -> None:
    from playwright.sync_api import sync_playwright

    expected = _table(root)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium(), args=CHROMIUM_FLAGS, timeout=TIMEOUT_MS
        )
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))

        page.goto(lab.url + "#/games")
        page.locator("nav a[data-page=league]").click()
        row = page.locator("tr[data-league='échelle']")
        row.wait_for()
        assert row.locator("td").nth(1).inner_text() == "3"
        assert "is not a league file" in page.locator("tr[data-league=broken]").inner_text()
        row.locator("a").click()

        rows = page.locator("table.league-table tbody tr")
        rows.first.wait_for()
        shown = [rows.nth(i).get_attribute("data-entry") for i in range(rows.count())]
        assert shown == [e["name"] for e in expected["entries"]]  # rank order
        for i, entry in enumerate(expected["entries"]):
            assert rows.nth(i).locator(".rating").inner_text() == f"{entry['rating']:.2f}"
        assert page.locator("table.head-to-head tbody tr").count() == 3

        page.locator("table.league-table tr[data-entry=hoarder] a").click()
        games = page.locator("table.entry-games tbody tr")
        games.first.wait_for()
        assert games.count() == 4
        assert "Games of hoarder (4)" in page.locator(".entry-games-box h2").text_content()
        assert "hoarder" in page.url
        OUTPUT.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(OUTPUT / "league.png"), full_page=True)
        context.close()
        small = browser.new_context(viewport={"width": 800, "height": 600})
        narrow = small.new_page()
        narrow.goto(lab.url + "#/league/%C3%A9chelle?entry=hoarder")
        narrow.locator("table.entry-games tbody tr").first.wait_for(timeout=TIMEOUT_MS)
        assert narrow.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            "the League page scrolls sideways at 800x600"
        )
        small.close()
        browser.close()
    assert not errors, errors
