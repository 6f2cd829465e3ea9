"""Nesting crashes peers (issue 29): JSON nested thousands deep inside a message's bytes --
under every size cap -- is refused by the one bounded decoder, and no peer stops.

A ``join`` whose ``brings`` is nested 5,000 deep is refused by the host, which goes on
seating honest joiners, whether it comes over a direct link or through a relay; a start
the host signed with options nested 2,000 deep is refused by the joiner, which keeps
running."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    JoinRequest,
    NodeConfig,
    Reach,
    RelayNode,
    Subscribe,
    TableNode,
    connect,
    join_proof,
    relay_scope,
    relay_token,
)
from fairtable.netplay.table._invite import RELAY_SECRET
from fairtable.netplay.table._lobby import sign_start
from tests.netplay.said import Told

NESTED_BRINGS = b"[" * 5_000 + b"]" * 5_000  # 10 KB, under the 64 KiB cap of ``brings``
NESTED_OPTIONS = b'{"x":' + b"[" * 2_000 + b"]" * 2_000 + b"}"


def _join(invite: Invite, who: P.Identity, brings: bytes) -> bytes:
    key = who.public.key
    return P.encode(JoinRequest(key, join_proof(invite.secret, invite.lobby_id, key), 0, brings))


async def _until(told: Told, events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The first event of ``kind`` (woken by each event; bounded by the caller's fail_after)."""
    await told.until(lambda: any(e["event"] == kind for e in events))
    return next(e for e in events if e["event"] == kind)


async def _attack_host(tmp_path: Path, via_relay: bool) -> tuple[TableNode, list[Any]]:
    events: list[dict[str, Any]] = []
    told = Told()
    async with trio.open_nursery() as nursery:
        via = None
        if via_relay:
            relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda _e: None)
            via = ("127.0.0.1", await nursery.start(relay.run))
        host = TableNode(
            NodeConfig(data_dir=tmp_path / "host", reach=Reach(listen_port=0, via=via)),
            P.Identity.generate(),
            seats=3,
            game="reign",
            emit=told.json_into(events),
        )
        invite = await nursery.start(host.run)

        async def link_as(who: P.Identity) -> Any:
            if via is None:
                return await connect(
                    nursery,
                    "127.0.0.1",
                    host.port,
                    identity=who,
                    scope=invite.lobby_id,
                    secret=invite.secret,
                )
            token = relay_token(invite)
            link = await connect(
                nursery, *via, identity=who, scope=relay_scope(token), secret=RELAY_SECRET
            )
            await link.send(P.encode(Subscribe(token, "peer")))
            return link

        attacker = P.Identity.generate()
        link = await link_as(attacker)
        await link.send(_join(invite, attacker, NESTED_BRINGS))
        refused = await _until(told, events, "refused")
        honest = P.Identity.generate()  # the host still runs its lobby: the next join sits
        other = await link_as(honest)
        await other.send(_join(invite, honest, b""))
        lobby = await _until(told, events, "lobby")
        nursery.cancel_scope.cancel()
    return host, [refused, lobby]


async def test_issue_29_a_join_nested_5000_deep_is_refused_and_the_host_runs_on(
    tmp_path: Path,
) -> None:
    with trio.fail_after(30):
        host, (refused, lobby) = await _attack_host(tmp_path, via_relay=False)
    assert "unreadable" in refused["reason"] and "nested deeper" in refused["reason"]
    assert (lobby["seated"], lobby["seats"]) == (2, 3)
    assert host.start is None


async def test_issue_29_a_join_nested_5000_deep_through_a_relay_is_refused_too(
    tmp_path: Path,
) -> None:
    with trio.fail_after(30):
        host, (refused, lobby) = await _attack_host(tmp_path, via_relay=True)
    assert "unreadable" in refused["reason"] and "nested deeper" in refused["reason"]
    assert (lobby["seated"], lobby["seats"]) == (2, 3)
    assert host.start is None


@pytest.mark.parametrize(
    ("options", "words"),
    [(NESTED_OPTIONS, "nested deeper"), (b'{"decks":[5,5]}', "cannot start a game")],
    ids=["nested-2000-deep", "no-game-starts-with-it"],
)
async def test_issue_29_a_start_with_options_nested_2000_deep_is_refused_by_the_joiner(
    tmp_path: Path, options: bytes, words: str
) -> None:
    """A hostile host signs a start whose table options are nested 2,000 deep (or make no
    game): the joiner refuses it, keeps no start and does not stop."""
    host = P.Identity.generate()
    events: list[dict[str, Any]] = []
    told = Told()
    invite = Invite("127.0.0.1", 9, os.urandom(32), host.public.key, os.urandom(32), "sovereign", 2)
    joiner = TableNode(
        NodeConfig(data_dir=tmp_path / "joiner"),
        P.Identity.generate(),
        invite=invite,
        emit=told.json_into(events),
    )
    spec = P.TableSpec(
        "sovereign", (host.public.key, joiner.identity.public.key), 60, os.urandom(32), options
    )
    start = sign_start(host, spec, (b"", b""), invite.lobby_id)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await nursery.start(joiner.run)
            link = await connect(
                nursery,
                "127.0.0.1",
                joiner.port,
                identity=host,
                scope=invite.lobby_id,
                secret=invite.secret,
            )
            await link.send(P.encode(start))
            refused = await _until(told, events, "refused")
            assert not joiner.done.is_set()  # still running, waiting for a start it can use
            nursery.cancel_scope.cancel()
    assert "settings" in refused["reason"] and words in refused["reason"]
    assert joiner.start is None and joiner.session is None
