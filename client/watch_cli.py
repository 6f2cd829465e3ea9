"""``fairtable watch INVITE``: follow a table as a spectator (see netplay/_watch.py).

With ``--json`` each public step is one JSON line (``{"event": "step", "step": ...,
"events": [...], "digest": ...}``) and the last line is the end, as ``join --bot`` says it:
``{"event": "game_over", "winner": ..., "digest": ..., "end": ...}`` (a verdict:
``{"event": "verdict", ...}``).  Without it, each step is said in the game's own words, as a
spectator (seat None) reads them.  Only ``view(None)`` and public events are ever shown.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import trio

import protocol as P

__all__ = ["WatchUsageError", "add_commands"]


class WatchUsageError(Exception):
    """A table that cannot be watched; the message says why."""


def _jsonable(value: Any) -> Any:
    from client.replay import _jsonable as to_json

    return to_json(value)


class _Printer:
    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.model: Any = None

    def __call__(self, event: Any, session: P.TableSession) -> None:
        from netplay import GameOver, ViewChanged, event_line

        if isinstance(event, P.StepApplied):
            if self.as_json:
                print(json.dumps({"event": "step", "step": event.step,
                                  "events": _jsonable(event.events),
                                  "digest": session.game.digest()}, sort_keys=True),
                      flush=True)
                return
            if self.model is None:
                from client.replay import model_for

                self.model = model_for(session.spec.game)
            mark = len(self.model.log)
            self.model.apply_event(ViewChanged(view=session.game.view(None),
                                               events=event.events))
            for line in list(self.model.log)[mark:]:
                print(line, flush=True)
        elif isinstance(event, P.GameFinished):
            if self.as_json:
                print(event_line(GameOver(event.winner, event.digest, event.end)), flush=True)
            else:
                print(f"Game over ({event.end}): winner {event.winner}, digest {event.digest}")
        elif isinstance(event, P.VerdictReached):
            v = event.verdict
            if self.as_json:
                print(json.dumps({"event": "verdict", "seat": v.seat, "kind": v.kind,
                                  "reason": v.reason}, sort_keys=True), flush=True)
            else:
                print(f"The game stopped: seat {v.seat} blamed for {v.kind}: {v.reason}")


def _watch(args: argparse.Namespace) -> int:
    from client.seats import invite_from
    from netplay import WatchRefused, watch_table

    async def main() -> None:
        invite = await invite_from(args.invite, args.discovery_port)
        try:
            await watch_table(invite, _Printer(args.json))
        except WatchRefused as exc:
            raise WatchUsageError(f"the table will not let us watch: {exc}") from None

    trio.run(main)
    return 0


def add_commands(sub: Any) -> None:
    from netplay import DISCOVERY_PORT

    w = sub.add_parser("watch", help="follow a table as a spectator (public information only)")
    w.add_argument("invite", help="the table's invite (or its name on the LAN)")
    w.add_argument("--json", action="store_true", help="print public events as JSON lines")
    w.add_argument("--discovery-port", type=int, default=DISCOVERY_PORT)
    w.set_defaults(run=_watch)
