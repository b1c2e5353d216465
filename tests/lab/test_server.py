"""`nova lab` as a user starts it: its URL on the first line, 127.0.0.1 only, JSON over the api's
reads, jobs with their progress streamed, and one clear sentence for every request it refuses
(a path out of its root, a page from elsewhere, a bad argument)."""

from __future__ import annotations

import json
import os
import socket
import threading
import urllib.request
from pathlib import Path

import pytest
from lab_testing import Lab, running_lab, wait_for
from nova_testing import listening_addresses, nova, wanderer

from nova_tools import api
from nova_tools.starter.house import names as house_names

ROUNDS = 12


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    """A lab folder: a game played with the CLI, a script in a sub-folder, and things the lab
    must not serve (a hidden folder, node_modules, links out of the folder)."""
    folder = tmp_path_factory.mktemp("lab-root")
    outside = tmp_path_factory.mktemp("outside")
    game = folder / "duel.json"
    assert nova("create-game", "--file", game, "--seed", "4").code == 0
    (folder / "bots").mkdir()
    bot = wanderer(folder / "bots", "walker")
    (folder / "bots" / "helper.ts").write_text(
        "export const step = 1;\n"
    )  # a module, not an entry: not listed
    for player, script in (("ann", api.starter_entry()), ("bob", bot)):
        assert nova("upload", "--file", game, "--player", player, script).code == 0
    assert nova("launch", "--file", game, "--player", "ann", "--script", "script-1").code == 0
    assert nova("launch", "--file", game, "--player", "bob", "--script", "script-2").code == 0
    assert nova("run", "--file", game, "--rounds", ROUNDS).code == 0
    (folder / "broken.json").write_text(
        '{"format": "nova-game", "version": 1, "seed"', encoding="utf-8"
    )
    (folder / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true}}', encoding="utf-8"
    )  # JSON, not a game: not listed
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "secret.ts").write_text(
        "export default () => ({ type: 'android.wait' });\n"
    )
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "dep.ts").write_text("export {};\n")
    (outside / "far.ts").write_text("export default () => ({ type: 'android.wait' });\n")
    (outside / "far.json").write_bytes(game.read_bytes())
    (folder / "escape.ts").symlink_to(outside / "far.ts")
    (folder / "escape.json").symlink_to(outside / "far.json")
    (folder / "away").symlink_to(outside, target_is_directory=True)
    return folder


@pytest.fixture(scope="module")
def lab(root: Path):
    with running_lab(root) as running:
        yield running


def test_it_prints_its_url_first_and_listens_on_loopback_only(lab: Lab) -> None:
    assert lab.url.startswith("http://127.0.0.1:") and lab.url.endswith("/")
    addresses = listening_addresses(lab.port)
    if addresses is not None:
        assert addresses == ["127.0.0.1"]
    with urllib.request.urlopen(lab.url, timeout=30) as page:
        html = page.read().decode()
    assert '<script type="module" src="/static/app.js">' in html
    with urllib.request.urlopen(lab.url + "static/app.js", timeout=30) as bundle:
        assert bundle.headers["content-type"].startswith(
            ("text/javascript", "application/javascript")
        )


def test_the_games_list_shows_round_players_and_the_scores_nova_status_gives(
    lab: Lab, root: Path
) -> None:
    code, listing = lab.get("/api/games")
    assert code == 200
    games = {g["name"]: g for g in listing["games"]}
    assert set(games) == {
        "duel",
        "broken",
    }  # neither the link out of the root nor tsconfig.json is listed
    duel = games["duel"]
    assert duel["kind"] == "game"
    assert duel["summary"]["players"] == ["ann", "bob"] and duel["summary"]["round"] == ROUNDS
    assert duel["status"] == json.loads(nova("status", "--file", root / "duel.json", "--json").out)
    assert games["broken"]["kind"] == "unreadable"
    assert (
        "looks truncated" in games["broken"]["problem"]
        and str(root) not in games["broken"]["problem"]
    )


def test_the_reads_are_the_api_results(lab: Lab, root: Path) -> None:
    game = root / "duel.json"
    assert lab.get("/api/games/duel/timeline") == (200, api.replay_timeline(game).to_json())
    assert lab.get("/api/games/duel/timeline?player=bob") == (
        200,
        api.replay_timeline(game, player="bob").to_json(),
    )
    assert lab.get("/api/games/duel/timeline?round=3") == (
        200,
        api.replay_timeline(game, per_turn=True, first_round=3, last_round=3).to_json(),
    )
    assert lab.get("/api/games/duel/status?round=5") == (200, api.status_at(game, 5).to_json())
    assert lab.get("/api/games/duel/androids/android-1?round=7") == (
        200,
        api.android_at(game, "android-1", round=7).to_json(),
    )
    code, page = lab.get("/api/games/duel/events?round=2")
    assert code == 200 and page["events"] and all(e.get("round") == 2 for e in page["events"])
    assert lab.get("/api/games/duel/rules")[1]["world"]["width"] == 12


def test_scripts_are_the_ts_entry_files_inside_the_root(lab: Lab) -> None:
    code, scripts = lab.get("/api/scripts")
    assert code == 200
    assert scripts["starter"] == "starter"
    assert scripts["scripts"] == [
        "bots/walker.ts"
    ]  # not hidden, not node_modules, no link out, not a module without a default export


@pytest.mark.parametrize(
    ("script", "says"),
    [
        ("../outside/far.ts", "leaves the lab's root"),
        ("/etc/passwd", "not a script path"),
        ("escape.ts", "is a link to a file outside"),
        ("away/far.ts", "is a link to a file outside"),
        (".hidden/secret.ts", "leaves the lab's root or names a hidden file"),
        ("bots/missing.ts", "there is no script 'bots/missing.ts'"),
        ("duel.json", "not a TypeScript android"),
    ],
)
def test_a_script_path_out_of_the_root_is_refused_before_anything_runs(
    lab: Lab, root: Path, script: str, says: str
) -> None:
    code, problem = lab.post(
        "/api/runs", {"name": "never", "seats": [{"player": "ann", "script": script}], "rounds": 2}
    )
    assert code in (403, 400)
    assert says in problem["error"]
    assert not (root / "never.json").exists()


def test_games_out_of_the_root_or_not_names_are_refused(lab: Lab) -> None:
    code, problem = lab.get(
        "/api/games/escape/timeline"
    )  # the api's game folder refuses the link itself
    assert (
        code in (400, 403)
        and "is a link to a file outside" in problem["error"]
        and "nova serves only the files inside" in problem["error"]
    )
    code, problem = lab.get("/api/games/no-such/status")
    assert (
        code == 404
        and problem["error"]
        == "there is no game 'no-such' in the lab's folder (games: broken, duel)"
    )
    code, problem = lab.get("/api/games/..%2Fetc/status")
    assert code in (400, 404) and "error" in problem
    code, problem = lab.post(
        "/api/runs", {"name": "../x", "seats": [{"player": "ann", "script": "starter"}]}
    )
    assert code == 400 and "is not a valid game name" in problem["error"]


def test_bad_requests_get_one_sentence(lab: Lab) -> None:
    assert lab.get("/api/nothing") == (
        404,
        {"error": "the lab has no page or endpoint /api/nothing"},
    )
    assert lab.get("/api/games/duel/status?round=abc") == (
        400,
        {"error": "round must be a whole number, not 'abc'"},
    )
    assert lab.get("/api/games/duel/status?round=99")[1]["error"].endswith(
        "has no round 99 (it has rounds 0-12)"
    )
    assert lab.get("/api/games/duel/androids/android-1") == (
        400,
        {"error": "give the round to read the android at (?round=N)"},
    )
    assert lab.post("/api/runs", b"{not json")[0] == 400
    code, problem = lab.post("/api/runs", {"name": "x", "seats": [], "colour": "red"})
    assert code == 400 and problem["error"].startswith("seats:")
    assert lab.post(
        "/api/runs", {"name": "x", "seats": [{"player": "a", "script": "starter"}], "wat": 1}
    )[1] == {"error": "wat: Extra inputs are not permitted"}
    assert lab.get("/api/jobs/run-999")[1]["error"].startswith("there is no job 'run-999'")
    assert lab.get("/api/games/duel/timeline?player=zed")[0] == 400


def test_only_the_labs_own_pages_may_use_it(lab: Lab) -> None:
    assert lab.get("/api/games", headers={"Host": "attacker.example"}) == (
        403,
        {
            "error": f"this lab answers only requests addressed to 127.0.0.1:{lab.port} or localhost:{lab.port}"
        },
    )
    assert lab.get("/api/games", headers={"Host": f"localhost:{lab.port}"})[0] == 200
    form = urllib.request.Request(
        lab.url + "api/runs",
        data=b"name=x",
        method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    try:
        urllib.request.urlopen(form, timeout=30)
        raise AssertionError("a form post was accepted")
    except urllib.error.HTTPError as error:
        assert error.code == 415
        assert json.loads(error.read()) == {
            "error": "send the request as JSON (Content-Type: application/json)"
        }
    code, problem = lab.post(
        "/api/runs", {"name": "x", "seats": []}, headers={"Origin": "https://attacker.example"}
    )
    assert (
        code == 403
        and problem["error"]
        == "a page from https://attacker.example may not use this lab; open the lab's own page"
    )


def read_job(lab: Lab, job: str, timeout: float = 240) -> list[dict]:
    """The job's events as the page receives them: the Server-Sent Events stream, to its end."""
    events = []
    with urllib.request.urlopen(f"{lab.url}api/jobs/{job}/events", timeout=timeout) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                events.append(json.loads(line[len("data: ") :]))
    return events


def test_a_run_streams_its_progress_and_keeps_a_game_that_ends_on_its_arrival_round(
    lab: Lab, root: Path
) -> None:
    request = {
        "name": "quick",
        "seats": [
            {"player": "ann", "script": "starter"},
            {"player": "bob", "script": "bots/walker.ts"},
        ],
        "rounds": 5,
        "seed": 3,
    }
    code, started = lab.post("/api/runs", request)
    assert code == 200 and started["kind"] == "run"
    events = read_job(lab, started["id"])
    assert [e["kind"] for e in events][0] == "started"
    assert [(e["done"], e["total"]) for e in events if e["kind"] == "progress"] == [
        (n, 5) for n in range(1, 6)
    ]
    done = events[-1]
    assert done["kind"] == "done", done
    assert done["result"]["rounds"] == 5 and done["result"]["finalTurn"] == 5
    saved = json.loads((root / "quick.json").read_text())
    assert saved["rules"]["match"]["finalRound"] == 5
    assert (
        done["result"]["players"]
        == json.loads(nova("status", "--file", root / "quick.json", "--json").out)["players"]
    )
    # the same name again is refused at once, and the game is kept as it was
    code, problem = lab.post("/api/runs", request)
    assert (
        code == 400
        and problem["error"]
        == "there is already a game 'quick'; pick another name (or tick 'replace')"
    )
    # a page that reconnects gets the events again from where it was
    with urllib.request.urlopen(
        urllib.request.Request(
            f"{lab.url}api/jobs/{started['id']}/events", headers={"Last-Event-ID": "2"}
        ),
        timeout=60,
    ) as stream:
        ids = [int(raw.decode()[4:]) for raw in stream if raw.startswith(b"id: ")]
    assert ids == [e["seq"] for e in events[3:]]


def test_a_run_is_the_game_the_cli_plays_from_the_same_seed_and_scripts(
    lab: Lab, root: Path, tmp_path: Path
) -> None:
    """docs/lab.md: the Run panel's game is the one nova create-game --final-round, then nova
    upload and nova launch for each player in turn, then nova run make (in other processes),
    byte for byte but for the run's mark; and the same run twice is the same file."""
    seats = [{"player": "ann", "script": "starter"}, {"player": "bob", "script": "bots/walker.ts"}]
    for name in ("twin-1", "twin-2"):
        code, started = lab.post(
            "/api/runs", {"name": name, "seats": seats, "rounds": 4, "seed": 11}
        )
        assert code == 200 and read_job(lab, started["id"])[-1]["kind"] == "done"
    assert (root / "twin-1.json").read_bytes() == (root / "twin-2.json").read_bytes()
    game = tmp_path / "cli.json"
    assert nova("create-game", "--file", game, "--seed", 11, "--final-round", 4).code == 0
    for number, (player, script) in enumerate(
        (("ann", api.starter_entry()), ("bob", root / "bots" / "walker.ts")), start=1
    ):
        assert nova("upload", "--file", game, "--player", player, script).code == 0
        assert (
            nova("launch", "--file", game, "--player", player, "--script", f"script-{number}").code
            == 0
        )
    assert nova("run", "--file", game, "--rounds", 4).code == 0
    from_lab, from_cli = (
        json.loads((root / "twin-1.json").read_text()),
        json.loads(game.read_text()),
    )
    assert from_lab.pop("run") == {"rounds": 4}
    assert from_lab == from_cli


def test_a_cancelled_run_stops_between_rounds_and_writes_nothing(lab: Lab, root: Path) -> None:
    code, started = lab.post(
        "/api/runs",
        {"name": "long", "seats": [{"player": "ann", "script": "starter"}], "rounds": 3000},
    )
    assert code == 200
    wait_for(
        lambda: any(
            e["kind"] == "progress" for e in lab.get(f"/api/jobs/{started['id']}")[1]["events"]
        ),
        120,
        "the first round",
    )
    assert lab.post(f"/api/jobs/{started['id']}/cancel", {})[0] == 200
    events = read_job(lab, started["id"])
    assert events[-1]["kind"] == "cancelled"
    assert "nothing was written" in events[-1]["message"]
    assert not (root / "long.json").exists()


def test_a_taken_port_or_a_missing_root_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = nova("lab", "--root", tmp_path, "--port", port, "--no-browser")
    assert run.code == 1
    assert (
        run.err.strip()
        == f"nova lab: port {port} on 127.0.0.1 is already in use (another lab?); pass --port 0 for any free port"
    )
    assert run.out == ""
    missing = nova("lab", "--root", tmp_path / "nope", "--port", "0", "--no-browser")
    assert missing.code == 1
    assert (
        missing.err.strip()
        == f"nova lab: {tmp_path / 'nope'} is not a folder; give --root an existing folder of games and scripts"
    )
    assert "Traceback" not in missing.err + run.err


def test_without_a_display_it_says_where_it_is_instead_of_starting_a_text_browser(
    tmp_path: Path,
) -> None:
    """Over ssh Python's webbrowser would start lynx or w3m in the terminal the lab prints to."""
    headless = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    with running_lab(tmp_path, env=headless, browser=True) as lab:
        lines: list[str] = []
        reader = threading.Thread(
            target=lambda: lines.extend(lab.process.stdout.readline().strip() for _ in range(2)),
            daemon=True,
        )
        reader.start()
        reader.join(30)  # a bound: a lab that says nothing fails this test, never hangs it
        assert len(lines) == 2, f"nova lab printed only {lines} after its URL"
        serving, said = lines
        assert serving.startswith("nova lab: serving ")
        assert (
            said
            == f"nova lab: no display to open a browser window on; open {lab.url} in a browser on this machine (over ssh: ssh -L {lab.port}:127.0.0.1:{lab.port} HOST, then the same URL)"
        )
        assert lab.get("/api/games") == (200, {"games": []})


def test_the_house_androids_are_listed_and_play_by_name(lab: Lab, root: Path) -> None:
    """The page's script choosers list the house androids; the Run and Arena pages take them by
    ``house:NAME``, and an unknown one is refused in one sentence that lists them."""
    code, scripts = lab.get("/api/scripts")
    assert code == 200 and scripts["house"] == list(house_names())
    code, started = lab.post(
        "/api/arena",
        {"kind": "compare", "scripts": ["house:starter", "starter"], "seeds": "1", "rounds": 5},
    )
    assert code == 200, started
    done = read_job(lab, started["id"])[-1]
    assert done["kind"] == "done", done
    assert [s["name"] for s in done["result"]["scripts"]] == ["house:starter", "starter"]
    seats = [{"player": "ann", "script": house_names()[-1]}, {"player": "bob", "script": "starter"}]
    code, started = lab.post("/api/runs", {"name": "housed", "seats": seats, "rounds": 3})
    assert code == 200 and read_job(lab, started["id"])[-1]["kind"] == "done"
    assert (root / "housed.json").is_file()
    code, problem = lab.post(
        "/api/runs", {"name": "never", "seats": [{"player": "ann", "script": "house:nobody"}]}
    )
    assert code in (400, 403) and problem["error"] == (
        f"there is no house android 'house:nobody'; the house androids are {', '.join(house_names())}"
    )
    assert not (root / "never.json").exists()


def _frames_by_round(timeline: dict) -> dict[int, dict]:
    """The board at the end of each round, built up from a timeline's changes: tiles by (x, y),
    androids by id."""
    tiles: dict = {}
    androids: dict = {}
    boards = {}
    for change in timeline["frames"]:
        for tile in change.get("tiles", []):
            tiles[(tile["position"]["x"], tile["position"]["y"])] = tile
        for gone in change.get("tilesGone", []):
            tiles.pop((gone["x"], gone["y"]), None)
        for android in change.get("androids", []):
            androids[android["id"]] = android
        for gone in change.get("androidsGone", []):
            androids.pop(gone, None)
        if change.get("turn") is None:
            boards[change["round"]] = {"tiles": set(tiles), "androids": dict(androids)}
    return boards


def test_a_players_view_lists_no_event_on_a_tile_its_board_shows_as_fog(lab: Lab) -> None:
    """ "as bob saw it": the events panel asks with bob's name and gets only what bob could see;
    ann's turns on tiles bob's board shows as fog are not listed (the api decides, not the page)."""
    _, whole = lab.get("/api/games/duel/timeline")
    _, fogged = lab.get("/api/games/duel/timeline?player=bob")
    everything, seen = _frames_by_round(whole), _frames_by_round(fogged)
    hidden = 0
    for round in range(1, ROUNDS + 1):
        _, all_events = lab.get(f"/api/games/duel/events?round={round}&limit=500")
        status, bobs = lab.get(f"/api/games/duel/events?round={round}&limit=500&player=bob")
        assert status == 200, bobs
        where = {
            a: (s["position"]["x"], s["position"]["y"])
            for a, s in everything[round]["androids"].items()
        }
        owner = {a: s["ownerId"] for a, s in everything[round]["androids"].items()}
        for event in bobs["events"]:
            if event["type"] == "turn" and owner[event["android"]] != "bob":
                assert where[event["android"]] in seen[round]["tiles"], (round, event["text"])
        listed = {e["index"] for e in bobs["events"]}
        hidden += sum(
            1 for e in all_events["events"] if e["type"] == "turn" and e["index"] not in listed
        )
        assert all(
            e["index"] in listed
            for e in all_events["events"]
            if e["type"] != "turn" or owner[e["android"]] == "bob"
        )
    assert hidden > 0  # ann was out of bob's sight for some turns: those were left out
