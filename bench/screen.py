"""Screen draw time: the console screen drawn at 80x24 at seat 0's decisions of seeded games
between random bots, once with the layout's plan worked out once a draw (the screen as it
is: client.room_drawn) and once with each pane asking it anew (as before: the top
container's draw without its plan), in the same run, on the same models.

Each model is seated at a decision with a busy log (twenty lines before our last answer and
``--since`` after it, so that the plan has the log's rows to give); each is drawn ``--draws``
times each way.  Prints, per game, milliseconds per draw each way and the ratio, and how
many plans one draw worked out each way.  Times are this process's CPU time
(``time.process_time``): on a shared machine the wall clock counts the time others ran.

    .venv/bin/python bench/screen.py [--game NAME|all] [--decisions 12] [--draws 5]
                                     [--since 12] [--seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from typing import Any

# Run as a script, this file's folder comes first on sys.path: take the folder off.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

from prompt_toolkit.application import create_app_session  # noqa: E402
from prompt_toolkit.application.current import set_app  # noqa: E402
from prompt_toolkit.data_structures import Size  # noqa: E402
from prompt_toolkit.input import create_pipe_input  # noqa: E402
from prompt_toolkit.layout import FloatContainer  # noqa: E402
from prompt_toolkit.layout.mouse_handlers import MouseHandlers  # noqa: E402
from prompt_toolkit.layout.screen import Screen, WritePosition  # noqa: E402
from prompt_toolkit.output import DummyOutput  # noqa: E402

from fairtable.client import room, room_drawn  # noqa: E402
from fairtable.client.app import build_application  # noqa: E402
from fairtable.client.games import bots_for, client_game  # noqa: E402
from fairtable.engine.games import game_names, rules  # noqa: E402
from fairtable.engine.playout import play_out, seeded_players  # noqa: E402
from fairtable.engine.requests import Decision  # noqa: E402
from fairtable.netplay import events as ev  # noqa: E402

SEATS = {"sodalis": 2}  # else 3
SCREENS = ("reign", "sovereign", "sodalis")  # the games with panes of their own


class _Sized(DummyOutput):
    def __init__(self, width: int, height: int) -> None:
        self.size = Size(rows=height, columns=width)

    def get_size(self) -> Size:
        return self.size


def models(name: str, decisions: int, since: int, seed: int) -> list[Any]:
    """Seat 0's screen model at its first ``decisions`` decisions of a seeded game."""
    players = SEATS.get(name, 3)
    game = rules(name).new_game(players)
    referee, seats = seeded_players(seed, [bots_for(name)["random"]] * players)
    out: list[Any] = []
    for step in play_out(game, seats, referee):
        d = step.request
        if isinstance(d, Decision) and d.seat == 0:
            model = client_game(name).model()
            model.apply_event(ev.Seated(seat=0, players=players))
            model.apply_event(ev.DecisionAsked(decision=d, view=game.view(0)))
            model.log.extend(f"before our answer {i}" for i in range(20))
            model.log_mark = len(model.log)
            model.log.extend(f"since our answer {i}: a line of what happened" for i in range(since))
            out.append(model)
            if len(out) == decisions:
                break
    return out


def draw_times(model: Any, draws: int) -> tuple[float, float, int, int]:
    """(seconds a draw, as before; seconds a draw, once a draw; plans a draw each way)."""
    made: list[int] = []
    real = room.plan

    def counted(m: Any) -> room.Plan:
        made.append(1)
        return real(m)

    room.plan = room_drawn.plan = counted  # type: ignore[assignment]

    async def main() -> tuple[float, float, int, int]:
        with (
            create_pipe_input() as pipe,
            create_app_session(input=pipe, output=_Sized(80, 24)),
        ):
            app = build_application(model)
            top = app.layout.container
            spent = [0.0, 0.0]
            plans = [0, 0]
            with set_app(app):
                for _ in range(draws):
                    for way in (0, 1):
                        draw = (
                            FloatContainer.write_to_screen
                            if way == 0
                            else type(top).write_to_screen
                        )
                        made.clear()
                        start = time.process_time()
                        draw(
                            top,
                            Screen(),
                            MouseHandlers(),
                            WritePosition(0, 0, 80, 24),
                            "",
                            False,
                            None,
                        )
                        spent[way] += time.process_time() - start
                        plans[way] = len(made)
            return spent[0] / draws, spent[1] / draws, plans[0], plans[1]

    try:
        return asyncio.run(main())
    finally:
        room.plan = room_drawn.plan = real  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="all")
    parser.add_argument("--decisions", type=int, default=12)
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--since", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = [g for g in SCREENS if g in game_names()] if args.game == "all" else [args.game]
    print(
        f"screen draw at 80x24, {args.decisions} decisions x {args.draws} draws, "
        f"{args.since} log lines since our answer (CPU ms a draw)"
    )
    for name in names:
        before = after = 0.0
        plans = (0, 0)
        found = models(name, args.decisions, args.since, args.seed)
        for model in found:
            b, a, pb, pa = draw_times(model, args.draws)
            before, after, plans = before + b, after + a, (max(plans[0], pb), max(plans[1], pa))
        n = max(1, len(found))
        print(
            f"{name:10} each pane asks: {before / n * 1000:7.2f} ms ({plans[0]} plans)   "
            f"once a draw: {after / n * 1000:7.2f} ms ({plans[1]} plan)   "
            f"x{before / max(after, 1e-9):.1f}"
        )


if __name__ == "__main__":
    main()
