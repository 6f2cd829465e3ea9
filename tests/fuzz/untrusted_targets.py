"""The fuzz targets for what the codec lets through as bytes and a peer reads next (issue 29).

A message can be canonical and still carry, inside one of its byte fields, JSON a peer reads
on its own: what a joiner brings, a start's table options, a seat's decision.  These targets
run such bytes through the reader each one meets on an honest peer -- the host's lobby, a
joiner and a spectator taking a signed start, a session decoding a decision, a relay filing
whatever a link sends, a spectator's stream, ``replay`` of an exported log -- and take only
that reader's typed errors.

Each entry of :data:`UNTRUSTED` is ``(name, typed errors, run, corpus folder or None)``; the
folders of ``join``, ``start`` and ``decision`` are made by ``corpus_make.make_untrusted``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import fairtable.protocol as P
from fairtable.engine.games import rules
from fairtable.netplay import Subscribe, TableStart, relay_scope
from fairtable.netplay.relay._relay import _Table
from fairtable.netplay.storage._saved import signed_start
from fairtable.netplay.table._lobby import sign_start, verify_start
from fairtable.netplay.table._seating import Seating, SeatRefused
from fairtable.protocol.wire import AnswerCodec

__all__ = ["HOST", "JOINER", "SCOPE", "UNTRUSTED"]

HOST = P.Identity.from_seed(hashlib.sha256(b"fuzz host").digest())
JOINER = P.Identity.from_seed(hashlib.sha256(b"fuzz joiner").digest())
SCOPE = bytes(range(64, 96))
OPTIONS_IN_A_START = 5_500
"""A start carries its spec in at most 8 KiB (options in base64): no longer options can be
signed into one."""


def _join(data: bytes) -> str:
    """The host's lobby seating a joiner that brings ``data`` (a two-seat Sovereign table)."""
    seating = Seating("sovereign", 2, HOST.public.key, None)
    if not seating.admit(JOINER.public.key, data, b""):
        return "not seated"
    seating.spec(None, bytes(32)).game_options()  # the start the host signs next
    return "ok"


def _start(data: bytes) -> str:
    """A joiner (and a spectator) taking a start the host signed with options ``data``."""
    options = data[:OPTIONS_IN_A_START]
    spec = P.TableSpec("sovereign", (HOST.public.key, JOINER.public.key), 60, bytes(32), options)
    start = P.decode_as(P.encode(sign_start(HOST, spec, (b"", b""), SCOPE)), TableStart)
    taken = verify_start(HOST.public.key, start, SCOPE)  # the joiner's lobby refuses here
    P.TableSession(taken, 1, JOINER)  # the joiner's seat
    P.TableSession(taken, None)  # a spectator
    return "ok"


_DECISIONS = AnswerCodec(rules("reign"))


def _decision(data: bytes) -> str:
    """Seat 1's decision as every other seat's session decodes it."""
    _DECISIONS.decode(data, seat=1)
    return "ok"


def _relay(data: bytes) -> str:
    """What a relay does with a message from a link: files it, reads a start's signature."""
    table = _Table(SCOPE)
    table.remember(data)
    msg = P.decode(data, "relay request")
    if isinstance(msg, TableStart):
        signed_start(msg)
    elif isinstance(msg, Subscribe):
        relay_scope(msg.token)
    table.catch_up()
    return "ok"


def _spectator(data: bytes) -> str:
    """One message of a spectator's stream: a start it checks, or an entry it replays."""
    msg = P.decode(data, "spectator stream")
    if isinstance(msg, TableStart):
        spec = signed_start(msg)
        if spec is not None:
            P.TableSession(spec, None)
    elif isinstance(msg, P.Entry):
        session = P.TableSession(_watched(), None)
        session.receive_entry(msg)
        while session.next_event() is not None:
            pass
    return "ok"


_WATCHED: list[P.TableSpec] = []


def _watched() -> P.TableSpec:
    if not _WATCHED:
        from .targets import CORPUS

        _WATCHED.append(P.read_log((CORPUS / "log-file" / "000").read_bytes())[0])
    return _WATCHED[0]


def _replay_file(data: bytes) -> str:
    """``fairtable replay`` of an exported log (its FILE.log)."""
    spec, entries = P.read_log(data, "exported replay")
    P.replay_log(spec, entries)
    return "ok"


UNTRUSTED: tuple[
    tuple[str, tuple[type[BaseException], ...], Callable[[bytes], str], str | None], ...
] = (
    ("join", (SeatRefused,), _join, None),
    ("start", (P.RemoteProtocolError, P.LocalProtocolError), _start, None),
    ("decision", (P.DecodeError,), _decision, None),
    ("relay", (P.DecodeError,), _relay, "codec"),
    ("spectator", (P.DecodeError,), _spectator, "codec"),
    ("replay-file", (P.LogError, P.ReplayError), _replay_file, "log-file"),
)
