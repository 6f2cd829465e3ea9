"""The hostile-peer campaign over real loopback sockets (issue 14's proof).

Hypothesis draws, per example: what a SEATED cheater (a real :class:`TableNode` running a
cheating session, ``session_class``) signs in place of its first move's answer -- any JSON
value or any bytes, inside a valid, signed envelope -- which raw frames it also sends on its
links, and how the relay between all three seats misbehaves (dropping, duplicating and delaying
what it passes on).  Every example asserts: no honest node's task raised, no honest seat is
named by any verdict, and every verdict names the cheater -- or, where the relay dropped, is
`starved`, naming nobody (a dropping relay is indistinguishable from a seat that never sent) --
(a cheat the rules happen to accept is no cheat: then the game just goes on).

Each table runs on trio's ``MockClock`` (autojump): the relay's delays, the beats and the
grace periods pass without waiting for them, while the links are real sockets.  A handful of
examples by default; ``FAIRTABLE_CAMPAIGN=N`` runs N (see docs/netplay.md, "The hostile-peer
campaign").
"""

from __future__ import annotations

import hashlib
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.engine.canonical import canonical_bytes
from fairtable.netplay import NodeConfig, Pacing, Reach, RelayNode, TableNode, TableTerms
from fairtable.netplay.relay._relay import _Table
from fairtable.protocol.wire import Move
from tests.netplay.said import Told, as_json
from tests.netplay.test_tables import bot

EXAMPLES = int(os.environ.get("FAIRTABLE_CAMPAIGN", "4"))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ANSWERS = JSON.map(canonical_bytes) | st.binary(max_size=64)
FRAMES = st.lists(st.binary(max_size=200) | JSON.map(canonical_bytes), max_size=8)


def cheating_answer(answer: bytes) -> type[P.TableSession]:
    """A session that plays honestly but signs ``answer`` as its first move's answer."""

    class Cheater(P.TableSession):
        cheated = False

        def publish(self, msg: Any) -> None:
            if isinstance(msg, Move) and not self.cheated:
                self.cheated = True
                msg = Move(msg.step, answer, msg.commit, msg.shown)
            super().publish(msg)

    return Cheater


class MeddlingRelay(RelayNode):
    """Passes messages on, but drops some, sends some twice and some late (seeded)."""

    def __init__(
        self, *args: Any, seed: int, duplicate: float, delay: float, drop: float, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rng = random.Random(seed)
        self.duplicate, self.delay, self.drop = duplicate, delay, drop

    async def _on_message(self, table: _Table, source: Any, data: bytes) -> None:
        if self.rng.random() < self.drop:
            return  # silently lost
        if self.rng.random() < self.delay:
            await trio.sleep(self.rng.random() * 0.05)  # late: the delay is what is tested
        await super()._on_message(table, source, data)
        if self.rng.random() < self.duplicate:
            table.seen.discard(hashlib.sha256(data).digest())
            table.recent.clear()
            await super()._on_message(table, source, data)


async def one_table(
    tmp: Path,
    answer: bytes,
    frames: list[bytes],
    seed: int,
    duplicate: float,
    delay: float,
    drop: float,
) -> tuple[list[list[dict[str, Any]]], int]:
    events: list[list[dict[str, Any]]] = [[], [], []]
    crashed: list[BaseException] = []
    told = Told()  # the cheater's events, and its end
    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            relay = MeddlingRelay(
                tmp / "relay",
                P.Identity.generate(),
                emit=lambda e: None,
                seed=seed,
                duplicate=duplicate,
                delay=delay,
                drop=drop,
            )
            via = ("127.0.0.1", await nursery.start(relay.run))

            def config(index: int) -> NodeConfig:
                return NodeConfig(
                    data_dir=tmp / f"p{index}",
                    reach=Reach(via=via, listen_port=None if index else 0),
                    terms=TableTerms(round_limit=1, abandon_after=10.0),
                    pacing=Pacing(grace=0.2, beat=0.5),
                )

            host = TableNode(
                config(0),
                P.Identity.generate(),
                seats=3,
                decider=bot(seed),
                emit=as_json(events[0]),
            )
            invite = await nursery.start(host.run)
            honest = TableNode(
                config(1),
                P.Identity.generate(),
                invite=invite,
                decider=bot(seed + 1),
                emit=as_json(events[1]),
            )
            cheater = TableNode(
                config(2),
                P.Identity.generate(),
                invite=invite,
                decider=bot(seed + 2),
                emit=told.json_into(events[2]),
                session_class=cheating_answer(answer),
            )

            async def run_cheater() -> None:
                try:
                    await cheater.run()
                except Exception as exc:  # the cheater's own node may fall over: not ours
                    crashed.append(exc)
                    cheater.done.set()
                finally:
                    told.tell()

            nursery.start_soon(honest.run)
            nursery.start_soon(run_cheater)
            await told.until(lambda: cheater.session is not None or cheater.done.is_set())
            for frame in frames:
                cheater.mesh.broadcast(frame)
            await host.done.wait()
            await honest.done.wait()
            nursery.cancel_scope.cancel()
    seat = cheater.session.seat if cheater.session is not None else None
    assert seat is not None
    return events, seat


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=EXAMPLES <= 4,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    answer=ANSWERS,
    frames=FRAMES,
    seed=st.integers(0, 2**16),
    duplicate=st.sampled_from([0.0, 0.2]),
    delay=st.sampled_from([0.0, 0.3]),
    drop=st.sampled_from([0.0, 0.1]),
)
def test_a_seated_cheater_signing_any_answer_is_named_and_crashes_no_honest_peer(
    answer: bytes, frames: list[bytes], seed: int, duplicate: float, delay: float, drop: float
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        events, cheater = trio.run(
            one_table,
            Path(tmp),
            answer,
            frames,
            seed,
            duplicate,
            delay,
            drop,
            clock=MockClock(autojump_threshold=0),
        )
    for index in (0, 1):  # the honest seats (a raising node task fails trio.run above)
        verdicts = [e for e in events[index] if e["event"] == "verdict"]
        ended = [e for e in events[index] if e["event"] in ("verdict", "game_over")]
        assert len(ended) == 1, events[index][-5:]
        for verdict in verdicts:
            dropped = drop > 0 and verdict["kind"] == "starved" and verdict["seat"] is None
            assert verdict["seat"] == cheater or dropped, verdict
