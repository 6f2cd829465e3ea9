"""The screen of ``fairtable watch`` (without ``--json``): the players' screen, as a spectator.

The network side (:func:`spectator_network`) runs :func:`netplay.watch_table` and turns what
the spectator session says into the node events the players' screen already takes
(:func:`spectator_events`): a step is a :class:`~netplay.events.ViewChanged` holding
``view(None)`` -- never a seat's view -- with the step's public events; the end is the
:class:`~netplay.events.GameOver`, :class:`~netplay.events.Resigned` or
:class:`~netplay.events.Verdict` a player's screen is told.  The screen is
:func:`client.app.run_screen` on the game's own model (:func:`client.games.model_for`) with
``spectating`` set: no prompt, no menu, ``q`` quits, the log scrolls.  Nothing is written.
A player who left a table that plays on is told the rest the same way, on its own screen
(:func:`follow_on_screen`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.games import model_for
from fairtable.client.invite_words import via_text
from fairtable.client.leavers_words import leavers_line
from fairtable.client.screen_model import ScreenModel
from fairtable.netplay import Invite, TableNode, WatchRefused, watch_table
from fairtable.netplay import events as ev

__all__ = ["follow_on_screen", "spectator_events", "spectator_model", "spectator_network"]


def spectator_events(event: Any, session: P.TableSession) -> list[ev.NodeEvent]:
    """What the players' screen is told for one event of a spectator session."""
    if isinstance(event, P.StepApplied):
        return [ev.ViewChanged(session.game.view(None), event.events)]
    if isinstance(event, P.GameResigned):
        return [ev.Resigned(event.seat, event.step, False, event.vanished)]
    if isinstance(event, P.SeatLeft):
        return [ev.Departed(event.seat, event.step, False, event.vanished)]
    if isinstance(event, P.GameFinished):
        return [ev.GameOver(event.outcome, event.digest, event.end)]
    if isinstance(event, P.VerdictReached):
        v = event.verdict
        return [ev.Verdict(v.seat, v.kind, v.reason)]
    return []  # a spectator is asked nothing and shown no card


def spectator_model(invite: Invite, via: tuple[str, int] | None = None) -> ScreenModel:
    """The game's own screen model, as a spectator's (seat None, nothing to answer); it can
    show the invite it watches with (and the relay, ``via``) to pass on to others."""
    model = model_for(invite.game)
    model.spectating = True
    model.players = invite.seats  # so a resignation names the winner as players are told
    model.held_invite = invite.text()
    model.via = via_text(via)
    model.status = "Connecting to the table as a spectator..."
    model.log.append(
        f"Watching a table of {invite.seats} ({invite.game}): the public view "
        "only. PgUp/PgDn scroll the log, i shows the invite (for others), q quits."
    )
    model.log.append(leavers_line(invite.leavers, watching=True))
    return model


def spectator_network(
    invite: Invite, *, via: tuple[str, int] | None = None, via_key: bytes | None = None
) -> Any:
    """The screen's network side: follow the table, each event to the screen in order
    (queued here first, so the session never waits on the screen)."""

    async def network(
        to_screen: trio.MemorySendChannel[ev.NodeEvent], answers: trio.MemoryReceiveChannel[Any]
    ) -> None:
        async def watch(told: _Told) -> None:
            await watch_table(
                invite,
                told.event,
                via=via,
                via_key=via_key,
                on_names=lambda names: told.say(ev.PlayerNames(names)),
                on_retry=told.retry,
            )

        await _to_screen(to_screen, watch, "the table will not let us watch")

    return network


async def follow_on_screen(
    node: TableNode, to_screen: trio.MemorySendChannel[ev.NodeEvent]
) -> None:
    """Once ``node`` left a table that plays on: the rest of the game, told to the players'
    screen as a spectator's is (:meth:`netplay.TableNode.follow_rest`; the names are
    known already, ours still "you")."""

    async def follow(told: _Told) -> None:
        await node.follow_rest(told.event, on_retry=told.retry)

    await _to_screen(to_screen, follow, "")  # the screen says "Cannot follow the rest: ..."


class _Told:
    """What a spectator session says, queued for the screen as node events."""

    def __init__(self, queue: trio.MemorySendChannel[ev.NodeEvent]) -> None:
        self.say = queue.send_nowait

    def event(self, event: Any, session: P.TableSession) -> None:
        for node_event in spectator_events(event, session):
            self.say(node_event)

    def retry(self, address: str, why: str, attempt: int, delay: float) -> None:
        self.say(ev.Unreachable(address, why, attempt, delay))


async def _to_screen(
    to_screen: trio.MemorySendChannel[ev.NodeEvent],
    watch: Callable[[_Told], Awaitable[None]],
    refused: str,
) -> None:
    """Run ``watch``, each event it tells to the screen in order (queued here first, so the
    session never waits on the screen); a refusal said as ``refused``: the reason (or the
    reason alone, with ``refused`` empty)."""
    queued_send, queued = trio.open_memory_channel[ev.NodeEvent](float("inf"))

    async def forward() -> None:
        async for node_event in queued:
            await to_screen.send(node_event)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(forward)
        try:
            await watch(_Told(queued_send))
        except WatchRefused as exc:
            queued_send.send_nowait(ev.Refused(f"{refused}: {exc}" if refused else str(exc)))
        queued_send.close()  # forward ends once the screen has everything
