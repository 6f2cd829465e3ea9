"""The host's lobby, without sockets: seats in arrival order, refusals that leave the seat free."""

from __future__ import annotations

from pathlib import Path

import pytest

import fairtable.protocol as P
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.sovereign import load_deck
from fairtable.netplay.table._seating import Seating, SeatRefused

SAMPLE = Path(__file__).parents[2] / "docs" / "cards" / "sovereign-sample-deck.toml"

HOST, A, B, C = (bytes([n]) * 32 for n in range(4))


def test_the_host_sits_first_and_joiners_in_arrival_order() -> None:
    lobby = Seating("reign", 3, HOST, None)
    assert lobby.admit(B, b"", b"10.0.0.2:7000")
    assert not lobby.admit(B, b"", b"10.0.0.2:7000")  # asked twice: one seat
    assert lobby.admit(A, b"", b"")
    assert lobby.full and [k for k, _ in lobby.taken] == [HOST, B, A]
    assert lobby.addresses == (b"", b"10.0.0.2:7000", b"")
    assert not lobby.admit(C, b"", b"")  # no seat left
    spec = lobby.spec(None, bytes(32))
    assert spec.players == (HOST, B, A) and spec.round_limit > 0  # the game's own limit
    assert lobby.spec(7, bytes(32)).round_limit == 7


def test_a_joiner_bringing_something_unreadable_is_refused_and_its_seat_stays_free() -> None:
    lobby = Seating("reign", 3, HOST, None)
    with pytest.raises(SeatRefused, match="unreadable"):
        lobby.admit(A, b"\xff{not json", b"")
    assert [k for k, _ in lobby.taken] == [HOST]
    assert lobby.admit(A, b"", b"") and lobby.admit(B, b"", b"") and lobby.full


def test_the_last_seat_is_refused_when_the_table_could_not_start() -> None:
    # Sovereign: no two seats may play the same Leader (docs/rules/sovereign.md 1.13)
    deck = load_deck(str(SAMPLE)).data()
    lobby = Seating("sovereign", 2, HOST, deck)
    with pytest.raises(SeatRefused, match="cannot start.*Leader"):
        lobby.admit(A, canonical_bytes(deck), b"")
    assert not lobby.full and A not in lobby.brought
    assert lobby.admit(B, b"", b"") and lobby.full  # a joiner with a core faction sits
    assert lobby.spec(None, bytes(32)).game_options() is not None


def test_the_table_time_limits_go_into_the_options_unless_they_are_the_defaults() -> None:
    host = P.Identity.generate().public.key
    lobby = Seating("reign", 3, host, None)
    for _ in range(2):
        lobby.admit(P.Identity.generate().public.key, b"", b"")
    limits = P.TimeLimits(60_000, 2_000, 30_000)
    spec = lobby.spec(None, bytes(32), limits)
    assert spec.time_limits() == limits and spec.game_options() == ()
    assert lobby.spec(None, bytes(32), P.TimeLimits()).options == b""
    assert lobby.spec(None, bytes(32)).options == b""


@pytest.mark.parametrize("seats", [2, 3])
def test_a_joiner_whose_brings_would_overflow_the_table_options_is_refused(seats: int) -> None:
    """Issue 29's fuzz finding: brings under its own 64 KiB cap made table options over
    theirs, or a spec longer than a start carries (8 KiB) -- a FieldError out of the host's
    lobby when the table filled.  Now the joiner that makes the table too long is refused
    as it sits (seats 3: before the table is full), and its seat stays free."""
    deck = load_deck(str(SAMPLE)).data()
    lobby = Seating("sovereign", seats, HOST, deck)
    big = canonical_bytes("x" * (P.MAX_FRAME // 16 - 100))  # 65,438 bytes: under brings' cap
    with pytest.raises(SeatRefused, match="over the 16384-byte limit of a start"):
        lobby.admit(A, big, b"")
    assert [k for k, _ in lobby.taken] == [HOST]
    assert lobby.admit(A, b"", b"")  # the seat stays free for someone else


def test_six_sovereign_seats_each_bringing_a_deck_make_a_start_the_host_can_sign() -> None:
    """Six custom decks made a spec of 9,857 bytes, over the 8 KiB a start carried: the host
    stopped on a FieldError as the sixth seat filled the table."""
    from fairtable.engine.sovereign import Deck, standard_catalog
    from fairtable.netplay.table._lobby import sign_start

    decks = [Deck.of_faction(f).data() for f in standard_catalog().factions]
    lobby = Seating("sovereign", 6, HOST, decks[0])
    for n, deck in enumerate(decks[1:], start=1):
        assert lobby.admit(bytes([n]) * 32, canonical_bytes(deck), b"")
    spec = lobby.spec(None, bytes(32))
    start = sign_start(P.Identity.generate(), spec, lobby.addresses, bytes(32))
    assert P.decode(P.encode(start)) == start
