"""Player names: the rules a name keeps, its seat's signature, a start carrying every seat's,
and hostile peers that try to rename a seat or show the screens something else."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs
import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import (
    BadName,
    Invite,
    JoinRequest,
    LinkClosed,
    NodeConfig,
    TableNode,
    connect,
    join_proof,
    name_problem,
    sign_name,
)
from fairtable.netplay.table._lobby import sign_start, start_names, verify_start
from fairtable.netplay.table._names import read_signed_name
from tests.netplay.said import as_json
from tests.netplay.test_tables import bot

SCOPE = b"\x07" * 32


@pytest.mark.parametrize(
    "name", ["Ann", "José", "Zoë de Vries", "李雷", "R2-D2", "x" * 24, "Seatbelt", "Yours truly"]
)
def test_a_printable_short_name_is_a_name(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name,why",
    [
        ("", "1 to 24"),
        ("x" * 25, "1 to 24"),
        ("Ann\x1b[2J", "printable"),  # a terminal escape: clears the other screens
        ("Ann\u202eBob", "printable"),  # a right-to-left override
        ("Ann\nBob", "printable"),
        ("\ue000Ann", "printable"),  # private use
        (" Ann", "space"),
        ("Ann  Lee", "space"),
        ("Jose\u0301", "NFC"),
        ("seat 2", "seat"),
        ("Seat2", "seat"),
        ("team 1", "seat"),
        ("You", "seat"),
        ("nobody", "seat"),
    ],
)
def test_a_name_that_could_fool_a_screen_is_refused_with_the_reason(name: str, why: str) -> None:
    problem = name_problem(name)
    assert problem is not None and why in problem


def test_a_signed_name_reads_back_only_for_its_seat_and_table() -> None:
    ann, mallory = P.Identity.generate(), P.Identity.generate()
    signed = sign_name(ann, SCOPE, "Ann")
    assert read_signed_name(signed, SCOPE, ann.public.key) == "Ann"
    assert read_signed_name(b"", SCOPE, ann.public.key) == ""
    with pytest.raises(BadName, match="did not sign"):
        read_signed_name(signed, SCOPE, mallory.public.key)  # Ann's name as Mallory's
    with pytest.raises(BadName, match="did not sign"):
        read_signed_name(signed, b"\x08" * 32, ann.public.key)  # moved to another table
    with pytest.raises(BadName, match="did not sign"):
        read_signed_name(signed[:64] + b"Ana", SCOPE, ann.public.key)
    with pytest.raises(BadName, match="not UTF-8"):
        read_signed_name(signed[:64] + b"\xff\xfe", SCOPE, ann.public.key)
    with pytest.raises(BadName, match="length"):
        read_signed_name(signed[:64], SCOPE, ann.public.key)
    bad = signed[:64] + b"seat 1"
    with pytest.raises(BadName, match="rules"):
        read_signed_name(bad, SCOPE, ann.public.key)
    with pytest.raises(ValueError, match="printable"):
        sign_name(ann, SCOPE, "Ann\x07")


def _table(seats: int = 3) -> tuple[list[P.Identity], P.TableSpec]:
    people = [P.Identity.generate() for _ in range(seats)]
    return people, P.TableSpec("reign", tuple(p.public.key for p in people), 60, os.urandom(32))


def test_a_start_carries_every_seats_name_as_that_seat_signed_it() -> None:
    (host, bob, carol), spec = _table()
    names = (sign_name(host, SCOPE, "Ann"), sign_name(bob, SCOPE, "Bob"), b"")
    start = sign_start(host, spec, (b"", b"", b""), SCOPE, names)
    assert verify_start(host.public.key, start, SCOPE) == spec
    assert start_names(start, spec) == ("Ann", "Bob", "")


def test_a_host_cannot_rename_a_seat_in_its_start() -> None:
    """The host signs the start, but not the names in it: a name the host made up for seat 1,
    or seat 2's own name moved to seat 1, is refused with the whole start."""
    (host, bob, carol), spec = _table()
    forged = (b"", sign_name(host, SCOPE, "Bob"), b"")  # signed by the host, not by seat 1
    with pytest.raises(BadName):
        verify_start(host.public.key, sign_start(host, spec, (b"", b"", b""), SCOPE, forged), SCOPE)
    moved = (b"", sign_name(carol, SCOPE, "Carol"), b"")
    with pytest.raises(BadName):
        verify_start(host.public.key, sign_start(host, spec, (b"", b"", b""), SCOPE, moved), SCOPE)
    short = sign_start(host, spec, (b"", b"", b""), SCOPE, (b"", b""))
    with pytest.raises(BadName, match="fit its seats"):
        verify_start(host.public.key, short, SCOPE)


def test_a_relay_cannot_strip_or_swap_names_under_the_hosts_signature() -> None:
    (host, bob, _), spec = _table()
    names = (b"", sign_name(bob, SCOPE, "Bob"), b"")
    start = sign_start(host, spec, (b"", b"", b""), SCOPE, names)
    with pytest.raises(P.RemoteProtocolError):
        verify_start(host.public.key, attrs.evolve(start, names=(b"", b"", b"")), SCOPE)


async def test_every_peer_is_seated_with_the_names_each_seat_signed(tmp_path: Path) -> None:
    events: list[list[dict[str, Any]]] = [[], [], []]
    names = ("Ann", "", "Carol")
    seated = [trio.Event() for _ in names]

    def emit(index: int) -> Any:
        keep = as_json(events[index])

        def on(event: Any) -> None:
            keep(event)
            if events[index] and events[index][-1]["event"] == "seated":
                seated[index].set()

        return on

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            host = TableNode(
                NodeConfig(data_dir=tmp_path / "p0", name=names[0]),
                P.Identity.generate(),
                seats=3,
                decider=bot(0),
                emit=emit(0),
            )
            invite: Invite = await nursery.start(host.run)
            for index in (1, 2):
                node = TableNode(
                    NodeConfig(data_dir=tmp_path / f"p{index}", name=names[index]),
                    P.Identity.generate(),
                    invite=invite,
                    decider=bot(index),
                    emit=emit(index),
                )
                nursery.start_soon(node.run)
            for event in seated:
                await event.wait()
            nursery.cancel_scope.cancel()
    seats = [next(e for e in said if e["event"] == "seated") for said in events]
    assert len({tuple(s["names"]) for s in seats}) == 1  # every peer shows the same names
    for index, seat in enumerate(seats):  # joiners sit in arrival order: each by its own seat
        assert seat["names"][seat["seat"]] == names[index]


async def test_a_joiner_showing_another_players_signed_name_is_refused_a_seat(
    tmp_path: Path,
) -> None:
    """Mallory copies Ann's signed name into her own join request: the signature is Ann's
    key's, not hers, so the host refuses her the seat and tells her why."""
    ann, mallory = P.Identity.generate(), P.Identity.generate()
    said: list[dict[str, Any]] = []
    host = TableNode(
        NodeConfig(data_dir=tmp_path / "host"),
        P.Identity.generate(),
        seats=3,
        decider=bot(0),
        emit=as_json(said),
    )
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            invite: Invite = await nursery.start(host.run)
            link = await connect(
                nursery,
                invite.host,
                invite.port,
                identity=mallory,
                scope=invite.lobby_id,
                secret=invite.secret,
            )
            copied = sign_name(ann, invite.lobby_id, "Ann")
            await link.send(
                P.encode(
                    JoinRequest(
                        mallory.public.key,
                        join_proof(invite.secret, invite.lobby_id, mallory.public.key),
                        0,
                        b"",
                        copied,
                    )
                )
            )
            with pytest.raises(LinkClosed) as closed:
                while True:
                    await link.receive()
            nursery.cancel_scope.cancel()
    assert closed.value.reason.startswith("seat refused: a join with a name")
    assert any(e["event"] == "refused" and "did not sign" in e["reason"] for e in said)
    assert host.admission.seating.taken == []
