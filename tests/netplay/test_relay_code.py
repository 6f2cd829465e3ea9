"""Join codes through a relay's mailbox (issue 31), over real loopback sockets.

The right code hands the invite through the relay, which passes only a number and opaque
messages; a wrong code, a relay that swaps the PAKE messages or guesses the code, and one
that changes the sealed invite each fail the exchange (the host counts and reports the
try); strangers cannot make the relay hold more nameplates, channels, messages or bytes
than its bounds, nor hold them longer.  Strangers connect from 127.0.0.2 and up.
"""

from __future__ import annotations

import base64
import os
import socket
from pathlib import Path

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import Invite, LinkClosed, RelayNode
from fairtable.netplay import events as ev
from fairtable.netplay.lan._codelink import CodeNotFound
from fairtable.netplay.lan._coderelay import OLDER_RELAY, CodeOffer, invite_at_relay, offer_code
from fairtable.netplay.lan._joincode import (
    BUSY,
    WRONG,
    CodeExchangeError,
    CodeJoiner,
    CodeRefused,
    JoinCode,
    SealedInvite,
    decode,
)
from fairtable.netplay.links._link import DEFAULT_CONFIG, Link
from fairtable.netplay.links._tls import peer_key, wrap_client
from fairtable.netplay.links._wire import Handshake, client_handshake
from fairtable.netplay.relay._mailbox import Mailbox, _Host
from fairtable.netplay.relay._mailbox_wire import (
    CODE_EXPIRED,
    MAILBOX_FULL,
    MAILBOX_SCOPE,
    NO_SUCH_CODE,
    RELAY_VERSION,
    TOO_MANY_CODES,
    TOO_MUCH,
    MailboxEnd,
    MailboxJoin,
    MailboxLimits,
    MailboxOpen,
    MailboxSay,
    Nameplate,
)
from fairtable.netplay.table._invite import RELAY_SECRET
from fairtable.protocol.wire import canonical_json


def an_invite() -> Invite:
    return Invite(
        "127.0.0.1", 4711, os.urandom(32), os.urandom(32), os.urandom(32), "reign", 3, None
    )


def wrong(code: JoinCode) -> JoinCode:
    last = "zoom" if code.words[-1] != "zoom" else "zone"
    return JoinCode(code.number, (*code.words[:-1], last))


async def raw_link(nursery: trio.Nursery, port: int, source: str = "127.0.0.1") -> Link:
    """A mailbox link to the relay from ``source`` that says nothing yet."""
    stream = wrap_client(await trio.open_tcp_stream("127.0.0.1", port, local_address=source))
    await stream.do_handshake()
    info = await client_handshake(
        Handshake(stream),
        P.Identity.generate(),
        "peer",
        MAILBOX_SCOPE,
        RELAY_SECRET,
        None,
        tls_key=peer_key(stream),
    )
    link = Link(stream, info, config=DEFAULT_CONFIG, initiator=True, address=source)
    await nursery.start(link._run)
    return link


async def closed_with(link: Link) -> str:
    """The reason the relay closes ``link`` with (reading whatever comes first)."""
    try:
        while True:
            await link.receive()
    except LinkClosed as exc:
        return exc.reason


async def nameplate(nursery: trio.Nursery, port: int, source: str) -> tuple[Link, int | str]:
    """A host's mailbox from ``source``: its number, or why the relay gave none."""
    link = await raw_link(nursery, port, source)
    await link.send(P.encode(MailboxOpen(RELAY_VERSION)))
    try:
        answer = P.decode(await link.receive())
    except LinkClosed as exc:
        return link, exc.reason
    assert isinstance(answer, Nameplate)
    return link, answer.number


class Relay:
    """A relay on loopback and a host offering a code through it."""

    def __init__(self, tmp: Path, limits: MailboxLimits | None = None) -> None:
        self.node = RelayNode(tmp / "relay", P.Identity.generate(), mailbox=limits, emit=ev_none)
        self.events: list[ev.NodeEvent] = []
        self.invite = an_invite()
        self.port = 0
        self._told = trio.Event()

    def _emit(self, event: ev.NodeEvent) -> None:
        self.events.append(event)
        self._told.set()
        self._told = trio.Event()

    async def wait_for(self, kind: type) -> list[ev.NodeEvent]:
        """The host's events of ``kind``, once there is one (woken by each event it emits)."""
        while not (found := self.said(kind)):
            await self._told.wait()
        return found

    async def start(self, nursery: trio.Nursery) -> None:
        self.port = await nursery.start(self.node.run)

    async def offer(self, nursery: trio.Nursery) -> CodeOffer:
        offer: CodeOffer = await nursery.start(
            lambda task_status: offer_code(
                self.invite,
                lambda: 2,
                identity=P.Identity.generate(),
                lan=None,
                via=("127.0.0.1", self.port),
                via_key=None,
                emit=self._emit,
                task_status=task_status,
            )
        )
        return offer

    def said(self, kind: type) -> list[ev.NodeEvent]:
        return [e for e in self.events if isinstance(e, kind)]


def ev_none(_event: object) -> None:
    return None


async def test_the_right_code_hands_the_invite_through_the_relay(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            assert offer.via == f"127.0.0.1:{relay.port}" and not offer.lan
            assert 1 <= offer.code.number <= 99  # the relay's nameplate is the number
            invite = await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            assert invite == relay.invite
            assert relay.said(ev.JoinCodeUsed)
            # a second friend with the same code, while the table waits
            assert await invite_at_relay(offer.code, ("127.0.0.1", relay.port)) == invite
            nursery.cancel_scope.cancel()


class Recording(Mailbox):
    """A relay that keeps every byte it passes, both ways."""

    def __init__(self, limits: MailboxLimits | None = None) -> None:
        super().__init__(limits)
        self.passed: list[bytes] = []

    async def _to_host(self, host: _Host, channel: int, say: bytes) -> None:
        self.passed.append(say)
        await super()._to_host(host, channel, say)

    def _to_joiner(self, host: _Host, msg: MailboxSay) -> None:
        self.passed.append(msg.say)
        super()._to_joiner(host, msg)


async def test_the_relay_learns_neither_the_words_nor_the_invite(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    relay.node.mailbox = recording = Recording()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()
    secrets = [
        relay.invite.secret,
        base64.urlsafe_b64encode(relay.invite.secret).rstrip(b"="),
        relay.invite.text().encode(),
        "-".join(offer.code.words).encode(),
        "".join(offer.code.words).encode(),
    ]
    assert len(recording.passed) == 4  # hello, pake, confirm, sealed invite
    for said in recording.passed:
        for secret in secrets:
            assert secret not in said


async def test_a_wrong_code_is_refused_and_reported_and_retires_the_code(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            for _ in range(5):
                with pytest.raises(CodeRefused) as refused:
                    await invite_at_relay(wrong(offer.code), ("127.0.0.1", relay.port))
                assert refused.value.reason == WRONG
            assert [e.failures for e in relay.said(ev.WrongJoinCode)] == [1, 2, 3, 4]
            assert relay.said(ev.JoinCodeRetired)
            with pytest.raises(CodeRefused, match="retired"):  # even the right code now
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()


async def test_a_code_the_relay_does_not_hold_is_not_found(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            other = 1 + offer.code.number % 99
            with pytest.raises(CodeNotFound, match="at this relay"):
                await invite_at_relay(JoinCode(other, offer.code.words), ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()


class Swapping(Mailbox):
    """A relay in the middle: it answers the host with a PAKE message of its own, made with a
    guess of the code (an online guess), and passes the joiner's confirmation on."""

    def __init__(self, guess: JoinCode) -> None:
        super().__init__()
        self.guess = CodeJoiner(guess)

    async def _to_host(self, host: _Host, channel: int, say: bytes) -> None:
        if say[0] == 1:  # the joiner's hello: swapped for ours
            say = self.guess.hello()
        await super()._to_host(host, channel, say)


async def test_a_relay_that_swaps_the_pake_message_gets_one_failed_guess(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            relay.node.mailbox.__class__ = Swapping  # keep its nameplates, change its manners
            relay.node.mailbox.guess = CodeJoiner(wrong(offer.code))  # type: ignore[attr-defined]
            with pytest.raises(CodeRefused) as refused:
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            assert refused.value.reason == WRONG  # the joiner is told it failed
            assert [e.failures for e in relay.said(ev.WrongJoinCode)] == [1]  # and the host
            assert not relay.said(ev.JoinCodeUsed)
            nursery.cancel_scope.cancel()


class Sealbreaking(Mailbox):
    """A relay that flips one bit of the sealed invite on its way to the joiner."""

    def _to_joiner(self, host: _Host, msg: MailboxSay) -> None:
        if isinstance(decode(msg.say), SealedInvite):
            msg = MailboxSay(msg.channel, msg.say[:-1] + bytes([msg.say[-1] ^ 1]))
        super()._to_joiner(host, msg)


async def test_a_relay_that_changes_the_sealed_invite_is_caught(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            relay.node.mailbox.__class__ = Sealbreaking
            with pytest.raises(CodeExchangeError, match="does not open"):
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()


async def test_a_flood_of_nameplates_is_bounded_per_address_and_overall(tmp_path: Path) -> None:
    relay = Relay(tmp_path, MailboxLimits(nameplates=8, per_source=4))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            held = []
            for source in ("127.0.0.2", "127.0.0.3"):
                for _ in range(4):
                    link, got = await nameplate(nursery, relay.port, source)
                    assert isinstance(got, int)
                    held.append(link)
                _link, got = await nameplate(nursery, relay.port, source)
                assert got == TOO_MANY_CODES
            _link, got = await nameplate(nursery, relay.port, "127.0.0.4")
            assert got == MAILBOX_FULL
            assert len(relay.node.mailbox.plates.taken) == 8
            # a real host is refused and says so; the invite still works for it
            await relay.offer(nursery)
            assert [e.reason for e in relay.said(ev.RelayCodeGone)] == [MAILBOX_FULL]
            await held[0].aclose()  # a place freed is a place taken
            with trio.fail_after(5):
                await relay.node.mailbox.until(lambda: len(relay.node.mailbox.plates.taken) < 8)
            _link, got = await nameplate(nursery, relay.port, "127.0.0.4")
            assert isinstance(got, int)
            nursery.cancel_scope.cancel()


async def test_a_nameplate_lives_a_bounded_time(tmp_path: Path) -> None:
    relay = Relay(tmp_path, MailboxLimits(seconds=0.5))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            await relay.offer(nursery)
            gone = await relay.wait_for(ev.RelayCodeGone)
            assert [e.reason for e in gone] == [CODE_EXPIRED]
            # the relay forgets it once the link is shut
            await relay.node.mailbox.until(lambda: not relay.node.mailbox.plates.taken)
            nursery.cancel_scope.cancel()


def oversized_say(size: int) -> bytes:
    """A ``mailbox-say`` whose message is ``size`` bytes (over the bound: built by hand)."""
    data = base64.urlsafe_b64encode(os.urandom(size)).rstrip(b"=").decode()
    return canonical_json(
        {"channel": 0, "say": data, "type": "mailbox-say", "v": P.PROTOCOL_VERSION}
    )


async def test_oversized_and_surplus_messages_close_the_joiners_link(tmp_path: Path) -> None:
    relay = Relay(tmp_path, MailboxLimits(says=3))
    relay.node.mailbox = recording = Recording(MailboxLimits(says=3))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            host, number = await nameplate(nursery, relay.port, "127.0.0.1")
            assert isinstance(number, int)
            joiner = await raw_link(nursery, relay.port, "127.0.0.2")
            await joiner.send(P.encode(MailboxJoin(RELAY_VERSION, number, b"x")))
            await joiner.send(oversized_say(5000))
            assert await closed_with(joiner) == "malformed"
            assert recording.passed == [b"x"]  # the host never saw the oversized one
            joiner = await raw_link(nursery, relay.port, "127.0.0.2")
            await joiner.send(P.encode(MailboxJoin(RELAY_VERSION, number, b"a")))
            for say in (b"b", b"c", b"d", b"e"):
                await joiner.send(P.encode(MailboxSay(0, say)))
            assert await closed_with(joiner) == TOO_MUCH
            assert recording.passed[1:] == [b"a", b"b", b"c"]
            ends = []
            while len(ends) < 2:  # the host hears each joiner went
                msg = P.decode(await host.receive())
                if isinstance(msg, MailboxEnd):
                    ends.append(msg.channel)
            nursery.cancel_scope.cancel()


async def test_a_stalled_joiner_and_a_flood_of_joiners_are_bounded(tmp_path: Path) -> None:
    relay = Relay(tmp_path, MailboxLimits(channels=2, channel_seconds=0.5))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            _host, number = await nameplate(nursery, relay.port, "127.0.0.1")
            assert isinstance(number, int)
            stalled = []
            for _ in range(2):
                link = await raw_link(nursery, relay.port, "127.0.0.2")
                await link.send(P.encode(MailboxJoin(RELAY_VERSION, number, b"hello")))
                stalled.append(link)
            with trio.fail_after(5):
                await relay.node.mailbox.until(
                    lambda: len(relay.node.mailbox.hosts[number].channels) >= 2
                )
            third = await raw_link(nursery, relay.port, "127.0.0.3")
            await third.send(P.encode(MailboxJoin(RELAY_VERSION, number, b"hello")))
            assert await closed_with(third) == BUSY_REASON
            for link in stalled:  # said nothing more: closed at the channel's deadline
                assert await closed_with(link) == "timeout"
            assert not relay.node.mailbox.hosts[number].channels
            unknown = await raw_link(nursery, relay.port, "127.0.0.3")
            await unknown.send(P.encode(MailboxJoin(RELAY_VERSION, 1 + number % 99, b"x")))
            assert await closed_with(unknown) == NO_SUCH_CODE
            old = await raw_link(nursery, relay.port, "127.0.0.3")
            await old.send(P.encode(MailboxOpen(1)))
            assert await closed_with(old) == "version"
            nursery.cancel_scope.cancel()


BUSY_REASON = "busy"


async def test_a_busy_mailbox_is_told_to_the_joiner(tmp_path: Path) -> None:
    relay = Relay(tmp_path, MailboxLimits(channels=1, channel_seconds=5))
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            link = await raw_link(nursery, relay.port, "127.0.0.2")
            await link.send(P.encode(MailboxJoin(RELAY_VERSION, offer.code.number, b"\x09")))
            with trio.fail_after(5):
                await relay.node.mailbox.until(
                    lambda: bool(relay.node.mailbox.hosts[offer.code.number].channels)
                )
            with pytest.raises(CodeRefused) as refused:
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            assert refused.value.reason == BUSY
            nursery.cancel_scope.cancel()


async def test_a_relay_that_cannot_be_reached_gives_no_code_and_says_so(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            with socket.socket() as closed:  # a port nobody listens on
                closed.bind(("127.0.0.1", 0))
                relay.port = closed.getsockname()[1]
            offer = await relay.offer(nursery)
            assert offer.via is None and not offer.lan  # no code anywhere: none is shown
            assert [e.reason for e in relay.said(ev.RelayCodeGone)] == ["cannot reach the relay"]
            with pytest.raises(CodeExchangeError, match="cannot reach the relay"):
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()


class Older(Mailbox):
    """A relay of protocol version 1: it wants a subscribe first, so it closes a mailbox
    link as it closes any link that does not prove a relay token."""

    async def serve(self, link: Link, source: str, first: object) -> None:
        await link.aclose("invite")


async def test_an_older_relay_is_named_as_one(tmp_path: Path) -> None:
    relay = Relay(tmp_path)
    relay.node.mailbox = Older()
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await relay.start(nursery)
            offer = await relay.offer(nursery)
            assert offer.via is None
            assert [e.reason for e in relay.said(ev.RelayCodeGone)] == [OLDER_RELAY]
            with pytest.raises(CodeExchangeError, match="an older fairtable relay"):
                await invite_at_relay(offer.code, ("127.0.0.1", relay.port))
            nursery.cancel_scope.cancel()
