"""The join-code exchange through a relay's mailbox (trio), and a host's code offer.

The same exchange as on the LAN (:mod:`netplay.lan._joincode`), carried by a relay instead of
a direct TCP connection: the host holds a nameplate at the relay
(:mod:`netplay.relay._mailbox`), whose number becomes its code's number, and answers every
joiner the relay puts through on a channel of its own; the joiner asks the relay for that
number and runs the exchange.  The relay sees the number, the channel ids and opaque SPAKE2
messages and a sealed invite -- never the code's words, so a relay that guesses has one
online try per exchange, which the host counts like any wrong code.

* :func:`offer_code` -- a host's code: a nameplate at its relay (if it has one) and the LAN
  announcement (if it announces), served until cancelled; started with a :class:`CodeOffer`;
* :func:`invite_at_relay` -- the joiner: the invite of the table whose code is ``code``,
  through the relay at ``via``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import attrs
import trio

import fairtable.protocol as P

from .. import events as ev
from ..links import Link, LinkClosed, LinkReason, connect, open_link
from ..relay import (
    MAILBOX_SCOPE,
    NO_SUCH_CODE,
    RELAY_VERSION,
    MailboxEnd,
    MailboxJoin,
    MailboxOpen,
    MailboxSay,
    Nameplate,
)
from ..table import RELAY_SECRET, Invite
from ._codelink import EXCHANGE_TIMEOUT, MAX_EXCHANGES, CodeNotFound, announce_table, report
from ._joincode import (
    BUSY,
    CodeExchangeError,
    CodeHost,
    CodeJoiner,
    CodeRefused,
    HostExchange,
    JoinCode,
    Refused,
)

__all__ = ["CodeOffer", "LanOffer", "RelayRefusedCode", "invite_at_relay", "offer_code"]

log = logging.getLogger("fairtable.netplay.joincode")

OLDER_RELAY = "the relay does not offer join codes (an older fairtable relay)"


class RelayRefusedCode(Exception):
    """The relay gave no nameplate (or closed the mailbox): ``str`` says why."""


@attrs.frozen
class LanOffer:
    """Where a host announces its table on the LAN."""

    listen_host: str
    address: str
    port: int


@attrs.frozen
class CodeOffer:
    """A host's code and where it works: on the LAN (announced), through a relay
    (``"HOST:PORT"``), or both."""

    code: JoinCode
    lan: bool
    via: str | None


def _words(closed: LinkClosed) -> str:
    """A relay's refusal, as the host or joiner reads it."""
    if closed.why is LinkReason.INVITE:  # an older relay wanted a subscribe first
        return OLDER_RELAY
    if closed.why is LinkReason.UNREACHABLE:
        return "cannot reach the relay"
    return closed.reason


async def _nameplate(
    nursery: trio.Nursery, via: tuple[str, int], key: bytes | None, identity: P.Identity
) -> tuple[Link, Nameplate]:
    """A mailbox link to the relay at ``via`` (run in ``nursery``) and the nameplate it gave;
    the link is closed again when there is none."""
    link: Link | None = None
    why = "the relay answered something else"
    try:
        with trio.fail_after(EXCHANGE_TIMEOUT):
            link = await connect(
                nursery,
                *via,
                identity=identity,
                scope=MAILBOX_SCOPE,
                secret=RELAY_SECRET,
                expect_key=key,
            )
            await link.send(P.encode(MailboxOpen(RELAY_VERSION)))
            answer = P.decode(await link.receive())
            if isinstance(answer, Nameplate):
                return link, answer
    except LinkClosed as exc:
        why = _words(exc)
    except trio.TooSlowError:
        why = "the relay did not answer in time"
    except P.DecodeError:
        pass
    if link is not None:
        await link.aclose()
    raise RelayRefusedCode(why)


async def _serve_mailbox(link: Link, host: CodeHost, emit: ev.Emit) -> None:
    """Answer every joiner the relay puts through, until the mailbox link closes."""
    exchanges: dict[int, tuple[HostExchange, float]] = {}
    async for data in link:
        try:
            msg = P.decode(data)
        except P.DecodeError:
            continue
        if isinstance(msg, MailboxEnd):
            exchanges.pop(msg.channel, None)
            continue
        if not isinstance(msg, MailboxSay) or msg.channel == 0:
            continue
        now = trio.current_time()
        for channel in [c for c, (_x, t) in exchanges.items() if now - t > EXCHANGE_TIMEOUT]:
            del exchanges[channel]  # a relay that never said the joiner went
        held = exchanges.get(msg.channel)
        if held is None:
            if len(exchanges) >= MAX_EXCHANGES:
                await link.send(P.encode(MailboxSay(msg.channel, Refused(BUSY).to_bytes())))
                continue
            held = exchanges[msg.channel] = (host.exchange(), now)
        exchange = held[0]
        try:
            reply, event = exchange.receive(msg.say)
        except CodeExchangeError as exc:
            log.debug("code exchange through the relay ended: %s", exc)
            exchanges.pop(msg.channel, None)
            continue
        report(event, emit)  # said before the joiner hears it
        if exchange.finished:
            exchanges.pop(msg.channel, None)
        await link.send(P.encode(MailboxSay(msg.channel, reply)))


async def offer_code(
    invite: Invite,
    free: Callable[[], int],
    *,
    identity: P.Identity,
    lan: LanOffer | None,
    via: tuple[str, int] | None,
    via_key: bytes | None,
    emit: ev.Emit,
    name: str = "",
    task_status: trio.TaskStatus[CodeOffer] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Offer a join code for ``invite``'s table until cancelled: through the relay at ``via``
    (its number is the relay's nameplate) and, with ``lan``, announced on the LAN (a number of
    our own when there is no relay, or it gave none).  Started with the :class:`CodeOffer`.
    A relay that refuses or later drops the code is said (``relay_code_gone``); the invite
    and the LAN code keep working."""
    async with trio.open_nursery() as nursery:
        plate: tuple[Link, Nameplate] | None = None
        if via is not None:
            try:
                plate = await _nameplate(nursery, via, via_key, identity)
            except RelayRefusedCode as exc:
                emit(ev.RelayCodeGone(str(exc)))
        if plate is None and lan is None:
            task_status.started(CodeOffer(JoinCode.generate(), False, None))
            return  # no code anywhere (the caller shows none)
        code = JoinCode.generate(None if plate is None else plate[1].number)
        host = CodeHost(code, invite.text())
        if plate is not None:
            nursery.start_soon(_hold, plate[0], host, emit)
        where = None if plate is None or via is None else f"{via[0]}:{via[1]}"
        offer = CodeOffer(code, lan is not None, where)
        if lan is None:
            task_status.started(offer)
            return
        await nursery.start(
            partial(
                announce_table,
                invite,
                free,
                listen_host=lan.listen_host,
                address=lan.address,
                port=lan.port,
                emit=emit,
                name=name,
                host=host,
            )
        )
        task_status.started(offer)


async def _hold(link: Link, host: CodeHost, emit: ev.Emit) -> None:
    await _serve_mailbox(link, host, emit)
    if link.closed is not None and link.closed.by_peer:
        emit(ev.RelayCodeGone(_words(link.closed)))


async def invite_at_relay(
    code: JoinCode, via: tuple[str, int], *, key: bytes | None = None
) -> Invite:
    """The invite of the table whose code is ``code``, through the relay at ``via`` (pinned to
    ``key`` when given).

    Raises :class:`~netplay.lan._codelink.CodeNotFound` (the relay holds no such number),
    :class:`~netplay.lan._joincode.CodeRefused` (wrong code -- or a relay that changed the
    exchange --, retired, busy) or :class:`~netplay.lan._joincode.CodeExchangeError`.
    """
    joiner = CodeJoiner(code)
    try:
        with trio.fail_after(2 * EXCHANGE_TIMEOUT):
            async with open_link(
                *via,
                identity=P.Identity.generate(),  # nothing of ours for the relay to remember
                scope=MAILBOX_SCOPE,
                secret=RELAY_SECRET,
                expect_key=key,
            ) as link:
                await link.send(P.encode(MailboxJoin(RELAY_VERSION, code.number, joiner.hello())))
                while True:
                    try:
                        msg = P.decode(await link.receive())
                    except P.DecodeError:
                        raise CodeExchangeError("the relay sent something else") from None
                    if not isinstance(msg, MailboxSay):
                        raise CodeExchangeError("the relay sent something else")
                    answer = joiner.receive(msg.say)
                    if isinstance(answer, Invite):
                        return answer
                    await link.send(P.encode(MailboxSay(0, answer)))
    except LinkClosed as exc:
        if exc.reason == NO_SUCH_CODE:
            raise CodeNotFound("at this relay") from None
        if exc.why is LinkReason.BUSY:
            raise CodeRefused(BUSY) from None
        raise CodeExchangeError(_words(exc)) from None
    except trio.TooSlowError:
        raise CodeExchangeError("the relay did not answer in time") from None
