"""The README's tutorial, run as a new player runs it: every `nova` line of its shell blocks, in
order, in an empty folder. Each succeeds, except where the README itself says it may not (a
launch while the chargers are full, a comparison against a file the reader has not made), and
those fail with one sentence. A README that drifts from the commands fails here."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from nova_testing import REPO, nova

# the tutorial's lines that the README says may be refused, and what the refusal names
PROGRESS = re.compile(r"^\d+/\d+ games done, ")

REFUSED = {
    "nova launch --file duel.json --player me --script script-3": "charger",
    "nova compare my-bot/src/main.ts last-week.ts --seeds 1-20": "last-week.ts",
}


def tutorial_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[
        text.index("## Tutorial: your first android") : text.index(
            "\n## ", text.index("## Tutorial")
        )
    ]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.splitlines():
            command = re.split(r"\s{2,}#", line)[0].strip()
            if command.startswith("nova "):
                commands.append(command)
    return commands


def test_every_command_of_the_tutorial_runs_as_the_readme_says(tmp_path: Path):
    commands = tutorial_commands()
    assert len(commands) >= 14 and commands[0] == "nova new-android my-bot"
    outputs = {}
    for command in commands:
        ran = nova(*shlex.split(command)[1:], cwd=tmp_path)
        assert "Traceback" not in ran.err, command
        if command in REFUSED:
            assert (
                ran.code != 0
                and REFUSED[command] in ran.err
                and len(ran.err.strip().splitlines()) == 1
            ), (command, ran.err)
        else:
            assert ran.code == 0, (command, ran.err)
            # no note or warning left for the reader to puzzle over; in a pipe, the many-game
            # commands print a progress line per finished game (issue 24), and only those
            left = [line for line in ran.err.splitlines() if not PROGRESS.match(line)]
            assert left == [], (command, ran.err)
        outputs[command] = ran.out
    assert set(REFUSED) <= set(commands), (
        "the README no longer shows a command this test expects refused"
    )

    status = outputs["nova status --file duel.json"]
    assert (
        status.startswith("Round 100 (the humans landed on round 100)")
        and "me" in status
        and "rival" in status
    )
    assert "android-1 of me" in outputs["nova android --file duel.json android-1"]
    assert "players: m me  r rival" in outputs["nova play --file duel.json"]
