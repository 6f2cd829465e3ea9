"""The screen of ``fairtable watch`` (without ``--json``): the players' screen, as a spectator.

The network side (:func:`spectator_network`) runs :func:`netplay.watch_table` and turns what
the spectator session says into the node events the players' screen already takes
(:func:`spectator_events`): a step is a :class:`~netplay.events.ViewChanged` holding
``view(None)`` -- never a seat's view -- with the step's public events; the end is the
:class:`~netplay.events.GameOver`, :class:`~netplay.events.Resigned` or
:class:`~netplay.events.Verdict` a player's screen is told.  The screen is
:func:`client.app.run_screen` on the game's own model (:func:`client.games.model_for`) with
``spectating`` set: no prompt, no menu, ``q`` quits, the log scrolls.  Nothing is written.
"""

from __future__ import annotations

from typing import Any

import trio

import fairtable.protocol as P
from fairtable.client.games import model_for
from fairtable.client.invite_words import via_text
from fairtable.client.leavers_words import leavers_line
from fairtable.client.screen_model import ScreenModel
from fairtable.netplay import Invite, WatchRefused, watch_table
from fairtable.netplay import events as ev

__all__ = ["spectator_events", "spectator_model", "spectator_network"]


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
        queued_send, queued = trio.open_memory_channel[ev.NodeEvent](float("inf"))

        def on_event(event: Any, session: P.TableSession) -> None:
            for node_event in spectator_events(event, session):
                queued_send.send_nowait(node_event)

        async def forward() -> None:
            async for node_event in queued:
                await to_screen.send(node_event)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(forward)
            try:
                await watch_table(
                    invite,
                    on_event,
                    via=via,
                    via_key=via_key,
                    on_names=lambda names: queued_send.send_nowait(ev.PlayerNames(names)),
                    on_retry=lambda address, why, attempt, delay: queued_send.send_nowait(
                        ev.Unreachable(address, why, attempt, delay)
                    ),
                )
            except WatchRefused as exc:
                queued_send.send_nowait(ev.Refused(f"the table will not let us watch: {exc}"))
            queued_send.close()  # forward ends once the screen has everything

    return network
