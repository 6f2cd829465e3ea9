"""A link's role and the reasons links give are typed in code and the same words on the wire:
``LinkRole`` and ``LinkReason`` values are what a ``Hello`` and a ``Bye`` carry, and words a
peer chose itself stay text (``LinkClosed.why`` is None for them)."""

from __future__ import annotations

import fairtable.protocol as P
from fairtable.netplay import LinkClosed, LinkReason, LinkRole, PeerInfo
from fairtable.netplay.links._wire import ROLES, Bye, hello_for, reason_text


def test_a_reason_said_by_links_is_typed_and_its_word_is_unchanged() -> None:
    closed = LinkClosed(LinkReason.NOT_STARTED)
    assert type(closed.reason) is str and closed.reason == "the table has not started"
    assert str(closed) == "link closed: the table has not started"
    assert LinkClosed("timeout", by_peer=True).why is LinkReason.TIMEOUT
    assert LinkClosed("not authorised").why is LinkReason.NOT_AUTHORISED
    assert LinkClosed("gone fishing").why is None  # a peer's own words stay text
    assert LinkReason.of("busy") is LinkReason.BUSY and LinkReason.of("Busy") is None
    typed = P.encode(Bye(reason_text(LinkReason.TOO_MANY_SPECTATORS)))
    assert typed == P.encode(Bye("too many spectators"))


def test_a_role_is_typed_and_a_hello_carries_its_word() -> None:
    assert ROLES == ("peer", "relay", "observer")
    identity = P.Identity.generate()
    hello = hello_for(identity, LinkRole.OBSERVER, bytes(32), nonce=bytes(32))
    assert type(hello.role) is str and hello.role == "observer"
    assert P.encode(hello) == P.encode(hello_for(identity, "observer", bytes(32), nonce=bytes(32)))
    info = PeerInfo(key=identity.public.key, role="relay", scope=bytes(32))
    assert info.role is LinkRole.RELAY
