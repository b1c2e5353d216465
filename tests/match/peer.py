"""A real match peer that misbehaves on purpose, for the tests: the real `nova` command line and
the real protocol over a real socket, with one thing changed in what it sends.

    python peer.py --lie-at 7 join ws://127.0.0.1:PORT --player bob bot.ts --file bob.json
    python peer.py --leave-after 5 host --rounds 20 ...
    python peer.py --silent-after 3 join ...

--lie-at N        sends a false state hash for round N (and keeps playing honestly)
--leave-after N   closes the connection and ends right after sending round N
--crash-after N   vanishes (the process ends at once, no goodbye) right after sending round N
--silent-after N  stays connected but sends nothing more after round N (for at most 60 s)
"""

from __future__ import annotations

import os
import sys
import time

from nova_tools.cli import main
from nova_tools.match import channel
from nova_tools.match.messages import Round

mode, at = sys.argv[1], int(sys.argv[2])
honest_send = channel.Channel.send


def send(self, message):
    if isinstance(message, Round) and message.round == at and mode == "--lie-at":
        message = Round(round=at, hash="0" * 64)
    if isinstance(message, Round) and message.round > at and mode == "--silent-after":
        time.sleep(60)
        os._exit(9)
    honest_send(self, message)
    if (
        isinstance(message, Round)
        and message.round == at
        and mode in ("--leave-after", "--crash-after")
    ):
        if mode == "--leave-after":
            self.connection.close()
        os._exit(0)


channel.Channel.send = send
raise SystemExit(main(sys.argv[3:]))
