"""The relay's key is pinned (issue 14, links): a host given the relay's key names it in the
invite, and every link to "the relay" must prove that key in TLS before anything is said --
so an impostor answering at the relay's address never learns the relay token."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    InviteError,
    NodeConfig,
    Pacing,
    Reach,
    RelayNode,
    TableNode,
    Unreachable,
)

from .said import Told
from .test_tables import bot


def test_an_invite_names_the_relay_key_and_reads_back() -> None:
    invite = Invite(
        "127.0.0.1",
        7777,
        os.urandom(32),
        os.urandom(32),
        os.urandom(32),
        "reign",
        3,
        relay_key=bytes(range(32)),
    )
    assert "&relay=" in invite.text()
    assert Invite.parse(invite.text()) == invite
    plain = Invite("127.0.0.1", 7777, invite.lobby_id, invite.host_key, invite.secret, "reign", 3)
    assert "relay" not in plain.text() and Invite.parse(plain.text()).relay_key is None
    with pytest.raises(InviteError, match="relay key"):
        Invite.parse(invite.text() + "AA")  # 33 bytes
    with pytest.raises(InviteError, match="twice"):
        Invite.parse(plain.text() + "&relay=" + "A" * 43 + "&relay=" + "A" * 43)


async def test_an_impostor_at_the_relay_address_learns_no_relay_token(tmp_path: Path) -> None:
    real = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    impostor = RelayNode(tmp_path / "impostor", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            via = ("127.0.0.1", await nursery.start(real.run))
            fake = ("127.0.0.1", await nursery.start(impostor.run))
            key = real.identity.public.key

            def config(index: int, at: tuple[str, int]) -> NodeConfig:
                return NodeConfig(
                    data_dir=tmp_path / f"p{index}",
                    reach=Reach(
                        via=at,
                        listen_port=None if index else 0,
                        via_key=key if index == 0 else None,
                    ),
                    pacing=Pacing(grace=0.2),
                )

            host = TableNode(config(0, via), P.Identity.generate(), seats=3, decider=bot(0))
            invite = await nursery.start(host.run)
            assert invite.relay_key == key  # the host names the relay it was given
            said: list[object] = []
            told = Told()
            fooled = TableNode(
                config(1, fake),
                P.Identity.generate(),
                invite=invite,
                decider=bot(1),
                emit=told.into(said),
            )
            nursery.start_soon(fooled.run)

            def tries() -> list[Unreachable]:
                return [e for e in said if isinstance(e, Unreachable)]

            # it keeps trying the impostor, which never passes the pin
            await told.until(lambda: len(tries()) >= 3)
            tries_seen = tries()
            assert [t.attempt for t in tries_seen] == [1, 2, 3]
            assert all(t.why.endswith("(key)") for t in tries_seen)  # refused by the pin, each time
            assert fooled.session is None
            assert impostor.tables == {}  # no Subscribe ever reached it: the token is safe
            joiners = [
                TableNode(
                    config(index, via),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(index),
                    emit=told.tell,
                )
                for index in (2, 3)
            ]
            for joiner in joiners:
                nursery.start_soon(joiner.run)
            # seated through the real relay, pinned
            await told.until(lambda: all(j.session is not None for j in joiners))
            nursery.cancel_scope.cancel()
    assert impostor.tables == {}


async def test_a_host_via_a_relay_without_its_key_names_the_key_it_met_first(
    tmp_path: Path,
) -> None:
    """Trust on first use: the host learns the relay's TLS key before it writes its invite,
    so its joiners pin the relay even when nobody typed ``--via-key``."""
    relay = RelayNode(tmp_path / "relay", P.Identity.generate(), emit=lambda e: None)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            via = ("127.0.0.1", await nursery.start(relay.run))
            host = TableNode(
                NodeConfig(
                    data_dir=tmp_path / "host", reach=Reach(via=via), pacing=Pacing(grace=0.2)
                ),
                P.Identity.generate(),
                seats=3,
                decider=bot(0),
            )
            invite = await nursery.start(host.run)
            assert invite.relay_key == relay.identity.public.key
            nursery.cancel_scope.cancel()


async def test_a_host_via_a_relay_that_does_not_answer_writes_an_unpinned_invite(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
            port = listeners[0].socket.getsockname()[1]
            await listeners[0].aclose()  # nothing listens there now
            host = TableNode(
                NodeConfig(
                    data_dir=tmp_path / "host",
                    reach=Reach(via=("127.0.0.1", port)),
                    pacing=Pacing(grace=0.2),
                ),
                P.Identity.generate(),
                seats=3,
                decider=bot(0),
            )
            invite = await nursery.start(host.run)
            assert invite.relay_key is None
            nursery.cancel_scope.cancel()
