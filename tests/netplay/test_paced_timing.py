"""A paced bot's answer leaves at a time fixed by the question, not by its thinking.

Issue 29 (timing): "no entry of a seat goes out sooner or later because of what is secret".
A bot thinks longer over some hands than others; with ``pace`` its answer goes out ``pace``
seconds after the question whatever it thought (when it thought less than that).  Before,
it slept ``pace`` and then thought, so its answer left ``pace`` + its thinking later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
import trio.testing

import fairtable.protocol as P
from fairtable.netplay.node._node_parts import NodeConfig, Pacing
from fairtable.netplay.node._pump import SessionPump


class _Session:
    """Just what a pump touches: it records when each answer was handed to it."""

    def __init__(self, clock: trio.testing.MockClock) -> None:
        self.clock = clock
        self.answered: list[tuple[float, Any]] = []
        self.handed = trio.Event()  # set when an answer is handed over
        self.game = self
        self.state = self
        self.serial = 0
        self.waiting: set[int] = set()
        self.seat = 0
        self.finished = None  # the game goes on

    def decide(self, answer: Any) -> None:
        self.answered.append((trio.current_time(), answer))
        self.handed.set()

    def outgoing(self) -> list[bytes]:
        return []

    def next_event(self) -> None:
        return None


async def _answer_times(thinking: dict[str, float], tmp_path: Path) -> dict[str, float]:
    clock = trio.lowlevel.current_clock()
    assert isinstance(clock, trio.testing.MockClock)
    session = _Session(clock)

    def decider(event: Any) -> str:
        hand = event.decision
        clock.jump(thinking[hand])  # a bot that thinks longer over this hand
        return hand

    pump = SessionPump(
        NodeConfig(data_dir=tmp_path, pacing=Pacing(pace=0.6)),
        lambda e: None,
        decider=decider,
        send_own=lambda b: None,
        ended=lambda *a: None,
        after=lambda s: None,
        stopped=trio.Event(),
    )
    pump.attach(session)  # type: ignore[arg-type]
    asked: dict[str, float] = {}
    async with trio.open_nursery() as nursery:
        pump.nursery = nursery
        for hand in thinking:  # one question at a time: the next once this one is answered
            session.handed = trio.Event()
            asked[hand] = trio.current_time()
            event = P.DecisionNeeded.__new__(P.DecisionNeeded)
            object.__setattr__(event, "decision", hand)
            nursery.start_soon(pump._decide_later, event)  # noqa: SLF001
            await session.handed.wait()
    return {answer: at - asked[answer] for at, answer in session.answered}


async def test_a_paced_bots_answer_leaves_pace_after_the_question_whatever_it_thought(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    with trio.fail_after(60):
        delays = await _answer_times({"easy hand": 0.01, "hard hand": 0.45}, tmp_path)
    assert set(delays) == {"easy hand", "hard hand"}
    assert all(abs(delay - 0.6) < 1e-9 for delay in delays.values()), delays
