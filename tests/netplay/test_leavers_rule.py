"""The table's rule for a seat that vanishes (``host --leavers``) as netplay carries it: the
host's choice goes into its invite (so a joiner knows it before it sits down), the LAN
announcement and the signed start (bound into the table id); a joiner refuses a start whose
rule is not its invite's, and so does a spectator."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    InviteError,
    NodeConfig,
    Reach,
    TableNode,
    TableTerms,
    WatchRefused,
    watch_table,
)
from fairtable.netplay.lan._discovery import Announcement, BadAnnouncement, open_listener
from fairtable.netplay.table._lobby import sign_start
from fairtable.netplay.table._seating import Seating
from tests.netplay.said import Told
from tests.netplay.test_replayed_start import _attack
from tests.netplay.test_tables import bot
from tests.netplay.test_watch_hostile_start import _host_sending

GO_ON, END = P.Leavers.GO_ON, P.Leavers.END


def _invite(leavers: P.Leavers, host_key: bytes = bytes(32)) -> Invite:
    return Invite(
        "127.0.0.1", 9, os.urandom(32), host_key, os.urandom(32), "reign", 4, None, leavers
    )


def test_the_invite_says_go_on_and_an_invite_without_the_rule_ends() -> None:
    going = _invite(GO_ON)
    assert going.text().endswith("&leavers=go-on")
    assert Invite.parse(going.text()) == going
    ending = _invite(END)
    assert "leavers" not in ending.text()  # an invite of before the rule reads as it did
    assert Invite.parse(ending.text()).leavers is END
    for bad in ("end", "go_on", "GO-ON", ""):
        with pytest.raises(InviteError, match="leavers"):
            Invite.parse(ending.text() + f"&leavers={bad}")
    with pytest.raises(InviteError, match="twice"):
        Invite.parse(going.text() + "&leavers=go-on")


def test_the_announcement_carries_go_on_and_a_wrong_word_is_dropped() -> None:
    going = Announcement.from_invite(_invite(GO_ON), free=3)
    assert b'"leavers":"go-on"' in going.to_bytes()
    assert Announcement.from_bytes(going.to_bytes()).leavers is GO_ON
    ending = Announcement.from_invite(_invite(END), free=3)
    assert b"leavers" not in ending.to_bytes()  # a listener of before the rule still hears it
    assert Announcement.from_bytes(ending.to_bytes()).leavers is END
    for word in (b'"end"', b'"yes"', b"1", b"null"):
        forged = going.to_bytes().replace(b'"go-on"', word)
        with pytest.raises(BadAnnouncement):
            Announcement.from_bytes(forged)


def test_the_rule_goes_into_the_spec_and_so_into_the_table_id() -> None:
    host, joiner = P.Identity.generate(), P.Identity.generate()
    seating = Seating("reign", 3, host.public.key, None)
    seating.admit(joiner.public.key, b"", b"")
    seating.admit(P.Identity.generate().public.key, b"", b"")
    nonce = bytes(32)
    ending = seating.spec(None, nonce)
    going = seating.spec(None, nonce, leavers=GO_ON)
    assert ending.options == b""  # the default goes without saying: table ids as before
    assert (ending.leavers(), going.leavers()) == (END, GO_ON)
    assert ending.table_id != going.table_id
    assert going.game_options() == ()  # the table's rule, never the game's


async def _seated_table(tmp_path: Path, leavers: P.Leavers) -> list[list[dict[str, Any]]]:
    """A three-seat table the host opens with ``leavers``: every seat's events until all are
    seated."""
    events: list[list[dict[str, Any]]] = [[], [], []]
    told = Told()  # every seat says "seated" once its session is set
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "p0", terms=TableTerms(leavers=leavers)),
        P.Identity.generate(),
        seats=3,
        decider=bot(0),
        emit=told.json_into(events[0]),
    )
    async with trio.open_nursery() as nursery:
        invite: Invite = await nursery.start(host.run)
        assert invite.leavers is leavers
        nodes = [host]
        for index in (1, 2):
            node = TableNode(
                NodeConfig(data_dir=tmp_path / f"p{index}"),  # a joiner's own terms: not asked
                P.Identity.generate(),
                invite=invite,
                decider=bot(index),
                emit=told.json_into(events[index]),
            )
            nodes.append(node)
            nursery.start_soon(node.run)
        await told.until(lambda: all(node.session is not None for node in nodes))
        assert {node.session.leavers for node in nodes if node.session} == {leavers}
        nursery.cancel_scope.cancel()
    return events


async def test_the_hosts_go_on_reaches_every_seat_before_and_after_it_sits(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        events = await _seated_table(tmp_path, GO_ON)
    opened = next(e for e in events[0] if e["event"] == "table_open")
    assert opened["leavers"] == "go-on" and "&leavers=go-on" in opened["invite"]
    for said in events[1:]:
        kinds = [e["event"] for e in said]
        assert kinds.index("joining") < kinds.index("seated")  # told before it sits down
        assert next(e for e in said if e["event"] == "joining")["leavers"] == "go-on"
    for said in events:
        assert next(e for e in said if e["event"] == "seated")["leavers"] == "go-on"


async def test_an_announced_go_on_table_says_so_on_the_lan(tmp_path: Path) -> None:
    with trio.fail_after(30):
        listener = await open_listener(port=0, host="127.0.0.1")
        config = NodeConfig(
            data_dir=tmp_path / "host",
            reach=Reach(announce_to=("127.0.0.1", listener.port)),
            terms=TableTerms(leavers=GO_ON),
        )
        host = TableNode(config, P.Identity.generate(), seats=4, decider=bot(0))
        async with trio.open_nursery() as nursery:
            await nursery.start(host.run)
            with listener:
                heard = await listener.receive()
            assert heard.leavers is GO_ON
            nursery.cancel_scope.cancel()


def _start_with_rule(host: P.Identity, invite: Invite, me: bytes, leavers: P.Leavers) -> Any:
    """A start the invite's host signed for the invite's lobby, seating ``me``, with
    ``leavers`` bound into it."""
    seating = Seating("reign", 3, host.public.key, None)
    seating.admit(me, b"", b"")
    seating.admit(P.Identity.generate().public.key, b"", b"")
    spec = seating.spec(None, os.urandom(32), leavers=leavers)
    return sign_start(host, spec, seating.addresses, invite.lobby_id)


@pytest.mark.parametrize(("promised", "started"), [(END, GO_ON), (GO_ON, END)])
async def test_a_joiner_refuses_a_start_whose_rule_is_not_its_invites(
    tmp_path: Path, promised: P.Leavers, started: P.Leavers
) -> None:
    """The host (or anyone holding its key) signs a start that seats the joiner under
    another rule than its invite promised: the joiner does not sit down."""
    host, me = P.Identity.generate(), P.Identity.generate()
    invite = _invite(promised, host.public.key)
    events: list[dict[str, Any]] = []
    told = Told()
    joiner = TableNode(
        NodeConfig(data_dir=tmp_path / "joiner"), me, invite=invite, emit=told.json_into(events)
    )
    start = _start_with_rule(host, invite, me.public.key, started)
    with trio.fail_after(20):
        await _attack(joiner, told, events, start, tmp_path)
    assert joiner.start is None and joiner.session is None
    assert not any(e["event"] == "seated" for e in events)
    refusal = next(e["reason"] for e in events if e["event"] == "refused")
    assert "vanishes" in refusal and f"({started.value})" in refusal


async def test_a_spectator_refuses_a_start_whose_rule_is_not_its_invites() -> None:
    """A spectator shows the invite's rule; a start under another one is not followed."""
    host = P.Identity.generate()
    scope, secret = os.urandom(32), os.urandom(32)
    promised = Invite("127.0.0.1", 9, scope, host.public.key, secret, "reign", 3)
    start = P.encode(_start_with_rule(host, promised, P.Identity.generate().public.key, GO_ON))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await _host_sending([start], nursery, host, scope, secret)
            invite = attrs.evolve(promised, port=port)
            with pytest.raises(WatchRefused, match="vanishes"):
                await watch_table(invite, lambda event, session: None)
            nursery.cancel_scope.cancel()
