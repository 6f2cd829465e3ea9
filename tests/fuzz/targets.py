"""The decoders that take bytes from outside, as fuzz targets.

Each :class:`Target` names one decoder, the typed errors it may raise (anything else is a
finding), how one input is run through it and, where the decoder has one, a property every
accepted input must keep (a canonical re-encoding, a parse that round-trips, frames that split
the same way however the bytes arrive).  ``run`` returns the outcome's name: ``"ok"`` or the
class of the typed error.

The corpus seeds of each target are files under ``tests/fuzz/corpus/<target>/`` (made by
``python -m tests.fuzz corpus`` from real games, invites and handshakes, and kept).
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import hashlib
import random
import shutil
import struct
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

import fairtable.protocol as P
from fairtable.client.lifecycle import game_line
from fairtable.client.play import unfinished_games
from fairtable.engine.errors import CardDataError
from fairtable.engine.sovereign.decks import load_deck
from fairtable.netplay import (
    Announcement,
    BadAnnouncement,
    FrameReader,
    Invite,
    InviteError,
    saved_names,
    saved_table,
)
from fairtable.netplay.lan._joincode import (
    CodeExchangeError,
    CodeHost,
    CodeJoiner,
    CodeRefused,
    JoinCode,
    JoinCodeError,
)
from fairtable.netplay.links._wire import (
    Auth,
    Handshake,
    Hello,
    LinkClosed,
    check_auth,
    check_hello,
    hello_for,
    transcript,
)
from fairtable.netplay.storage._storage import StorageError

from .hostile import Pick, hostile
from .mutate import mutate
from .untrusted_targets import UNTRUSTED

CORPUS = Path(__file__).parent / "corpus"

# The fixed secrets the handshake and code-exchange corpora were made with (public: test data).
LINK_SECRET = bytes(range(32))
LINK_SCOPE = bytes(range(32, 64))
LINK_IDENTITY = P.Identity.from_seed(hashlib.sha256(b"fuzz corpus").digest())
SERVER_NONCE = bytes(range(32))
CODE_TEXT = "7-amber-falcon-orbit-zebra"
CODE_INVITE = (
    "fairtable://192.0.2.20:4711/reign/3/" + "A" * 43 + "?key=" + "B" * 43 + "&secret=" + "C" * 43
)


class Finding(AssertionError):
    """A decoder accepted an input but broke its own property (e.g. no canonical round trip)."""


@attrs.frozen
class Target:
    name: str
    errors: tuple[type[BaseException], ...]
    run: Callable[[bytes], str]
    text: bool = False  # line-oriented text: text-level mutations too
    mutator: Callable[[random.Random, list[bytes]], bytes] | None = None
    seeds: str | None = None  # another target's corpus folder, where it reads the same bytes
    plant: Callable[[Pick, bytes], bytes] = hostile  # a planted attack on a corpus item

    def corpus(self) -> list[bytes]:
        folder = CORPUS / (self.seeds or self.name)
        return [p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()]

    def next_input(self, rng: random.Random, corpus: list[bytes]) -> bytes:
        if self.mutator is not None:
            return self.mutator(rng, corpus)
        return mutate(rng, corpus, text=self.text)

    def outcome(self, data: bytes) -> str:
        """Run one input; the outcome's name.  Raises whatever is not a typed error."""
        try:
            return self.run(data)
        except self.errors as exc:
            return type(exc).__name__


def _codec(data: bytes) -> str:
    msg = P.decode(data)
    if P.encode(msg) != data:
        raise Finding("decode accepted bytes that are not the canonical encoding")
    if isinstance(msg, P.Entry):  # the body an entry carries is decoded next, by the session
        P.decode(msg.body)
    return "ok"


def _frames(data: bytes) -> str:
    whole = FrameReader(max_frame=4096)
    chunked = FrameReader(max_frame=4096)
    try:
        expected = whole.feed(data)
    except P.FrameTooLarge:
        expected = None
    # the same bytes in pieces whose sizes come from the bytes themselves
    got: list[bytes] = []
    pos, step = 0, 1
    try:
        while pos < len(data):
            step = 1 + (data[pos] % 23)
            got += chunked.feed(data[pos : pos + step])
            pos += step
    except P.FrameTooLarge:
        if expected is not None:
            raise Finding("a chunked feed failed where the whole feed did not") from None
        raise
    if expected is None:
        raise Finding("a chunked feed accepted what the whole feed refused")
    if got != expected or chunked.buffered != whole.buffered:
        raise Finding("frames differ with how the bytes arrive")
    if chunked.buffered > 4096 + 4:
        raise Finding("the reader holds more than one frame")
    return "ok"


class _Stream:
    """Just enough of a trio stream for the handshake's reads: the input's bytes, then EOF."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    async def receive_some(self, max_bytes: int) -> bytes:
        chunk = self.data[self.pos : self.pos + max_bytes]
        self.pos += len(chunk)
        return chunk


def _drive(coro: Any) -> Any:
    """Run a coroutine that never waits on anything (its reads return at once)."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("the handshake waited")


def _handshake(data: bytes) -> str:
    """The server's side of a handshake reading a client's bytes (what a stranger sends)."""
    hs = Handshake(_Stream(data))  # type: ignore[arg-type]
    hello = _drive(hs.read(Hello, None))
    info = check_hello(hello, scope=LINK_SCOPE)
    server = hello_for(LINK_IDENTITY, "peer", LINK_SCOPE, nonce=SERVER_NONCE)
    auth = _drive(hs.read(Auth, info))
    check_auth(auth, info, LINK_SECRET, transcript(hello, server), initiator=True)
    return "ok"


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _invite(data: bytes) -> str:
    invite = Invite.parse(_text(data))
    if Invite.parse(invite.text()) != invite:
        raise Finding("an invite does not survive its own text form")
    return "ok"


def _join_code(data: bytes) -> str:
    code = JoinCode.parse(_text(data))
    if JoinCode.parse(code.text()) != code:
        raise Finding("a join code does not survive its own text form")
    return "ok"


_CODE = JoinCode.parse(CODE_TEXT)
_JOINER: list[CodeJoiner] = []  # one joiner after its hello, copied for each input


def _fresh_joiner() -> CodeJoiner:
    if not _JOINER:
        joiner = CodeJoiner(_CODE)
        joiner.hello()
        _JOINER.append(joiner)
    return copy.deepcopy(_JOINER[0])


def _code_exchange(data: bytes) -> str:
    """What a stranger sends to a host's code listener, and what a fake host sends a joiner."""
    host = CodeHost(_CODE, CODE_INVITE)
    outcome = "ok"
    try:
        host.exchange().receive(data)
    except CodeExchangeError as exc:
        outcome = type(exc).__name__
    joiner = _fresh_joiner()
    try:
        joiner.receive(data)
    except (CodeExchangeError, CodeRefused) as exc:
        outcome += "/" + type(exc).__name__
    return outcome


def _discovery(data: bytes) -> str:
    ann = Announcement.from_bytes(data, source="192.0.2.9")
    if Announcement.from_bytes(ann.to_bytes()) != ann:
        raise Finding("an announcement does not survive its own bytes")
    return "ok"


def _deck_file(data: bytes) -> str:
    load_deck(_text(data) + "\n", file="fuzz.toml")
    return "ok"


def _decode_entry(data: bytes) -> None:
    """An entry as the audit reads it: a refusal is the entry's typed error, not a finding."""
    with contextlib.suppress(P.DecodeError):
        P.decode(data)


def _log_file(data: bytes) -> str:
    _spec, entries = P.read_log(data)
    for entry in entries:  # what the audit reads next
        _decode_entry(entry)
    return "ok"


# -------------------------------------------------------------------------- saved tables
def pack_table(info: bytes, log: bytes) -> bytes:
    """A saved table as one input: its ``table.json`` and its ``log``."""
    return struct.pack(">I", len(info)) + info + log


def unpack_table(data: bytes) -> tuple[bytes, bytes]:
    size = int.from_bytes(data[:4], "big") if len(data) >= 4 else 0
    return data[4 : 4 + size], data[4 + size :]


def records(log: bytes) -> list[bytes]:
    out, pos = [], 0
    while pos + 8 <= len(log):
        size = int.from_bytes(log[pos : pos + 4], "big")
        out.append(log[pos + 8 : pos + 8 + size])
        pos += 8 + size
    return out


def frame_records(items: list[bytes]) -> bytes:
    return b"".join(struct.pack(">II", len(r), zlib.crc32(r)) + r for r in items)


def _mutate_table(rng: random.Random, corpus: list[bytes]) -> bytes:
    info, log = unpack_table(rng.choice(corpus))
    roll = rng.randrange(10)
    if roll < 4:  # the table description
        return pack_table(mutate(rng, [info]), log)
    if roll < 8:  # one record, its checksum made right again (a crafted file, not a torn one)
        items = records(log)
        if items:
            i = rng.randrange(len(items))
            items[i] = mutate(rng, items)
        return pack_table(info, frame_records(items))
    return mutate(rng, corpus)  # the bytes as they come


def _plant_in_table(pick: Pick, data: bytes) -> bytes:
    """A planted attack on a saved table's ``table.json`` (its log as it was)."""
    info, log = unpack_table(data)
    return pack_table(hostile(pick, info), log)


# a memory-backed folder where there is one: the campaign writes two files per input
_TMP = "/dev/shm" if Path("/dev/shm").is_dir() else None
_WORK = tempfile.mkdtemp(prefix="fairtable-fuzz-", dir=_TMP)
atexit.register(shutil.rmtree, _WORK, True)
_FOLDER = Path(_WORK) / "tables" / ("ab" * 32)


def _saved_table(data: bytes) -> str:
    info, log = unpack_table(data)
    _FOLDER.mkdir(parents=True, exist_ok=True)
    (_FOLDER / "table.json").write_bytes(info)
    (_FOLDER / "log").write_bytes(log)
    for game in unfinished_games(_FOLDER.parents[1]):  # `resume --list` reads it first
        game_line(1, game.info, game.invite.game, game.invite.seats, names=saved_names(game.info))
    table = saved_table(_FOLDER)
    for entry in table.entries:  # what the audit and a resume read next
        _decode_entry(entry)
    return "ok"


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("codec", (P.DecodeError,), _codec),
        Target("frames", (P.FrameTooLarge,), _frames),
        Target("handshake", (LinkClosed,), _handshake),
        Target("invite", (InviteError,), _invite, text=True),
        Target("join-code", (JoinCodeError,), _join_code, text=True),
        Target("code-exchange", (), _code_exchange),
        Target("discovery", (BadAnnouncement,), _discovery),
        Target(
            "saved-table",
            (StorageError,),
            _saved_table,
            mutator=_mutate_table,
            plant=_plant_in_table,
        ),
        Target("log-file", (P.LogError,), _log_file),
        Target("deck-file", (CardDataError,), _deck_file, text=True),
        *(Target(name, errors, run, seeds=seeds) for name, errors, run, seeds in UNTRUSTED),
    )
}
