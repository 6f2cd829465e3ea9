"""End to end in a real terminal (tmux, 80x24): ``fairtable host reign --seats 3 --bots 2
--clock 8+2``; the person at the keyboard types nothing: the status line shows the clock
running on their move, then the game ends at once saying who ran out of time (an end, not
a blame)."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

from tests.client.tmux import quit_screen, screen, session


def test_terminal_the_clock_runs_on_screen_and_the_end_by_time_says_why(tmp_path: Path) -> None:
    command = (
        f"LOGNAME=ada {shlex.quote(sys.executable)} -m fairtable.client.cli host reign "
        "--seats 3 --bots 2 "
        f"--clock 8+2 --no-announce --data-dir {shlex.quote(str(tmp_path))}; "
        "echo EXITED; sleep 60"
    )
    running = re.compile(r"your move: [a-z ]+ - (\d):(\d\d) left")
    seen: set[str] = set()
    limits_shown = False
    with session(command) as name:
        deadline = time.monotonic() + 90  # bounded: start-up, the deal and an 8 s bank
        final = ""
        while time.monotonic() < deadline:
            final = screen(name)
            seen.update(m.group(0) for m in running.finditer(final))
            limits_shown |= "Time: clock 0:08 + 2 s a decision; offline limit 2:00" in final
            if "ran out of time" in final:
                break
            time.sleep(0.1)  # polling the terminal, not waiting for a fixed event
        # our own seat reads "you", as the game's words say (was the login name: issue 31)
        assert "The game is over: you ran out of time" in final, final
        assert len(seen) >= 2, seen  # the clock ran: at least two different readings
        assert limits_shown  # the table's limits were on the screen
        lines = final.splitlines()
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        assert "EXITED" in quit_screen(name)
