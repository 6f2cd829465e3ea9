"""A resumed game replays its log to the screen with each step's own view, so the replayed
log breaks every Reign army total down as the live log did (issue 17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.bots import RandomBot
from fairtable.client.reign.model import ClientModel
from fairtable.client.seats import bot_node
from fairtable.engine.reign import events as E
from fairtable.engine.rng import ChanceStream
from fairtable.netplay import NodeConfig, TableChoice, TableKind, TableNode
from fairtable.netplay import events as ev


def _breakdowns(model: ClientModel) -> list[str]:
    return [line for line in model.log if line.startswith("  ") and " = " in line]


def _node(
    data_dir: Path, identity: P.Identity, emit: Any, resume: bytes | None = None
) -> TableNode:
    return TableNode(
        NodeConfig(
            data_dir=data_dir,
            choice=TableChoice(kind=TableKind.PLAY, resume=resume),
            ui_events=True,
        ),
        identity,
        seats=3,
        game="reign",
        emit=emit,
        decider=lambda event: RandomBot(ChanceStream.from_int(event.step), "reign").decide(
            event.view, event.decision
        ),
    )


def test_a_resumed_games_replayed_log_shows_the_combat_breakdowns(tmp_path: Path) -> None:
    identity = P.Identity.from_seed(bytes(range(32)))
    (tmp_path / "identity.key").write_bytes(identity.seed)
    live = ClientModel()

    async def play_past_a_battle() -> Any:
        fought = trio.Event()

        def emit(event: Any) -> None:
            live.apply_event(event)
            if isinstance(event, ev.ViewChanged) and any(
                isinstance(e, E.CombatTotals) for e in event.events
            ):
                fought.set()

        node = _node(tmp_path, identity, emit)
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                invite = await nursery.start(node.run)
                for index in range(2):
                    nursery.start_soon(bot_node(tmp_path, index, invite, 0.0).run)
                await fought.wait()
                nursery.cancel_scope.cancel()
        return invite

    invite = trio.run(play_past_a_battle)
    assert _breakdowns(live)  # the live log broke the battle down
    resumed = ClientModel()

    async def resume() -> None:
        replayed = trio.Event()

        def emit(event: Any) -> None:
            resumed.apply_event(event)
            if isinstance(event, ev.ViewChanged) and any(
                isinstance(e, E.CombatTotals) for e in event.events
            ):
                replayed.set()

        node = _node(tmp_path, identity, emit, resume=invite.lobby_id)
        with trio.fail_after(120):
            async with trio.open_nursery() as nursery:
                await nursery.start(node.run)
                for index in range(2):
                    nursery.start_soon(bot_node(tmp_path, index, invite, 0.0).run)
                await replayed.wait()
                nursery.cancel_scope.cancel()

    trio.run(resume)
    live_rows, replayed_rows = _breakdowns(live), _breakdowns(resumed)
    assert replayed_rows, "the replayed log shows no breakdown"
    shared = min(len(live_rows), len(replayed_rows))
    assert replayed_rows[:shared] == live_rows[:shared]  # the same battle, the same words
