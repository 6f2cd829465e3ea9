"""``fairtable watch INVITE [--via RELAY]``: follow a table as a spectator (netplay/node/_watch.py).

With ``--json`` each public step is one JSON line (``{"event": "step", "step": ...,
"events": [...], "digest": ...}``), after a ``{"event": "names", "names": [...]}`` line
(the players' names, "" where none was given), and the last line is the end, as
``join --bot`` says it:
``{"event": "game_over", "winner": ..., "digest": ..., "end": ...}`` (a verdict:
``{"event": "verdict", ...}``).  Without it, the players' screen opens in spectator mode
(client/watch_screen.py).  ``--via HOST:PORT`` (and ``--via-key``, as ``join`` takes them;
an invite with ``&relay=`` pins the relay's key) watches through a relay, which serves the
spectator from what it holds.  Only ``view(None)`` and public events are ever shown.
"""

from __future__ import annotations

import json
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.errors import UsageError
from fairtable.client.options import WatchOptions

__all__ = ["run_watch"]


def _jsonable(value: Any) -> Any:
    from fairtable.client.replay import _jsonable as to_json

    return to_json(value)


class _Printer:
    """``--json``: one line per public step, then the end (or the verdict)."""

    def __call__(self, event: Any, session: P.TableSession) -> None:
        from fairtable.netplay import GameOver, event_line

        if isinstance(event, P.StepApplied):
            print(
                json.dumps(
                    {
                        "event": "step",
                        "step": event.step,
                        "events": _jsonable([e.as_tuple() for e in event.events]),
                        "digest": session.game.digest(),
                    },
                    sort_keys=True,
                ),
                flush=True,
            )
        elif isinstance(event, P.GameFinished):
            print(event_line(GameOver(event.outcome, event.digest, event.end)), flush=True)
        elif isinstance(event, P.VerdictReached):
            v = event.verdict
            print(
                json.dumps(
                    {"event": "verdict", "seat": v.seat, "kind": v.kind, "reason": v.reason},
                    sort_keys=True,
                ),
                flush=True,
            )


def _print_names(names: tuple[str, ...]) -> None:
    """``--json``: the players' names (each signed by its seat), once the start is checked."""
    from fairtable.netplay import PlayerNames, event_line

    print(event_line(PlayerNames(names)), flush=True)


def run_watch(options: WatchOptions) -> int:
    """``fairtable watch``."""
    from fairtable.client.seats import invite_from
    from fairtable.netplay import WatchRefused, watch_table

    via, via_key = options.via, options.via_key
    invite = trio.run(invite_from, options.invite, options.discovery_port, via, via_key)
    if not options.json:
        from fairtable.client.app import run_screen
        from fairtable.client.watch_screen import spectator_model, spectator_network

        model = spectator_model(invite, via)
        run_screen(model, spectator_network(invite, via=via, via_key=via_key))
        if model.over:
            print(model.over)
        return 0

    async def main() -> None:
        try:
            await watch_table(invite, _Printer(), via=via, via_key=via_key, on_names=_print_names)
        except WatchRefused as exc:
            raise UsageError(f"the table will not let us watch: {exc}") from None

    trio.run(main)
    return 0
