"""Make the fuzz corpus: seed inputs for every target from real games, links and invites.

``python -m tests.fuzz corpus`` runs a short networked Reign game with bots (a real host and
its bot peers, over loopback) and a crypto simulation of each game, and keeps a few dozen real
messages, a saved table, logs, handshakes, invites, join codes, announcements and decks under
``tests/fuzz/corpus/``.  The corpus is committed; the campaign only reads it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import attrs

import fairtable.protocol as P
from fairtable.netplay import Announcement, Invite, LobbyStatus
from fairtable.netplay.lan._joincode import CodeHost, CodeJoiner, JoinCode
from fairtable.netplay.links._wire import Bye, Ping, Pong, auth_for, hello_for, transcript
from fairtable.netplay.storage._storage import parse_records
from fairtable.netplay.table._farewell import Farewell
from fairtable.netplay.table._lobby import JoinRequest, Links, Subscribe, TableStart

from .targets import (
    CODE_INVITE,
    CODE_TEXT,
    CORPUS,
    LINK_IDENTITY,
    LINK_SCOPE,
    LINK_SECRET,
    SERVER_NONCE,
    frame_records,
    pack_table,
)

ROOT = Path(__file__).resolve().parents[2]


def _write(target: str, items: list[bytes]) -> None:
    folder = CORPUS / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for i, data in enumerate(items):
        (folder / f"{i:03d}").write_bytes(data)


def _fairtable(*args: str, cwd: Path) -> None:
    exe = Path(sys.executable).with_name("fairtable")
    subprocess.run([str(exe), *args], cwd=cwd, check=True, capture_output=True, timeout=300)


def _one_of_each(messages: list[bytes], per_type: int = 3) -> list[bytes]:
    seen: dict[str, int] = {}
    out = []
    for data in messages:
        kind = json.loads(data).get("type", "?")
        if seen.get(kind, 0) < per_type:
            seen[kind] = seen.get(kind, 0) + 1
            out.append(data)
    return out


def make() -> None:
    work = Path(tempfile.mkdtemp(prefix="fairtable-corpus-"))
    data_dir = work / "d"
    _fairtable(
        "host",
        "reign",
        "--seats",
        "3",
        "--bots",
        "2",
        "--bot",
        "random",
        "--name",
        "Ann",
        "--pace",
        "0",
        "--no-announce",
        "--listen-host",
        "127.0.0.1",
        "--data-dir",
        str(data_dir),
        "--json",
        cwd=work,
    )
    folder = next(data_dir.glob("bots/*/0/tables/*"))
    info = (folder / "table.json").read_bytes()
    records, _end = parse_records((folder / "log").read_bytes())
    start = bytes.fromhex(json.loads(info)["start"])

    # codec: entries, what they carry, the lobby's and the links' messages
    bodies = [P.decode(r).body for r in records]
    ident = LINK_IDENTITY
    hello = hello_for(ident, "peer", LINK_SCOPE, nonce=bytes(32))
    server = hello_for(ident, "peer", LINK_SCOPE, nonce=SERVER_NONCE)
    auth = auth_for(ident, LINK_SECRET, transcript(hello, server), initiator=True)
    lobby = [
        JoinRequest(key=ident.public.key, proof=bytes(32), listen=4711, brings=b""),
        LobbyStatus(seated=2, seats=3),
        Links(keys=(ident.public.key,)),
        Subscribe(token=bytes(32), role="peer"),
        P.FeedRequest(seat=1, start=0, stop=9),
        Farewell(seat=1, digest="ab" * 32, sig=bytes(64)),
        hello,
        auth,
        Ping(n=3),
        Pong(n=3),
        Bye(reason="closed"),
    ]
    codec = (
        _one_of_each(records, 6) + _one_of_each(bodies, 3) + [start] + [P.encode(m) for m in lobby]
    )
    _write("codec", codec)
    _write(
        "frames",
        [b"".join(len(m).to_bytes(4, "big") + m for m in codec[i : i + 3]) for i in range(0, 30, 3)]
        + [b"\x00\x00\x10\x01" + b"x" * 10],
    )
    # the handshake: a client's Hello and Auth as framed bytes (the wrong secret once)
    frame = lambda m: len(P.encode(m)).to_bytes(4, "big") + P.encode(m)  # noqa: E731
    wrong = auth_for(ident, bytes(32), transcript(hello, server), initiator=True)
    _write("handshake", [frame(hello) + frame(auth), frame(hello) + frame(wrong), frame(hello)])
    invite = Invite.parse(json.loads(info)["invite"])
    _write(
        "invite",
        [
            invite.text().encode(),
            CODE_INVITE.encode(),
            invite.text().replace("127.0.0.1", "[::1]").encode(),
            attrs.evolve(invite, relay_key=bytes(range(32))).text().encode(),
        ],
    )
    _write("join-code", [CODE_TEXT.encode(), b"12 fresh cheer raisin lime  ", b"99-a-b-c-d"])
    code = JoinCode.parse(CODE_TEXT)
    joiner = CodeJoiner(code)
    host = CodeHost(code, CODE_INVITE).exchange()
    pake, _ = host.receive(joiner.hello())
    confirm = joiner.receive(pake)
    sealed, _ = host.receive(confirm)  # type: ignore[arg-type]
    _write("code-exchange", [joiner.hello(), pake, confirm, sealed, bytes([5, 1])])  # type: ignore[list-item]
    ann = Announcement.from_invite(invite, free=1, host="192.0.2.20")
    _write("discovery", [ann.to_bytes(), Announcement.from_invite(invite, free=0).to_bytes()])
    _write(
        "saved-table",
        [
            pack_table(info, frame_records(records[:8])),
            pack_table(info, frame_records(records[:3])),
        ],
    )
    spec = P.decode_as(start, TableStart)
    from fairtable.netplay.storage._saved import signed_start

    table_spec = signed_start(spec)
    assert table_spec is not None
    _write("log-file", [P.write_log(table_spec, records[:8]), P.write_log(table_spec, [])])
    decks = [(ROOT / "docs" / "cards" / "sovereign-sample-deck.toml").read_bytes()]
    _write("deck-file", decks)
    shutil.rmtree(work, ignore_errors=True)
    make_untrusted()


def make_untrusted() -> None:
    """The seeds of the targets that read JSON carried inside a message's bytes (``python -m
    tests.fuzz corpus untrusted`` makes these alone): what a joiner brings (Sovereign decks),
    a start's table options, and seat 1's decisions from a bot game of Reign."""
    from fairtable.client.games import bots_for
    from fairtable.engine.canonical import canonical_bytes
    from fairtable.engine.games import rules
    from fairtable.engine.referee import Referee
    from fairtable.engine.requests import Decision
    from fairtable.engine.rng import ChanceStream
    from fairtable.engine.sovereign import Deck, load_deck, standard_catalog
    from fairtable.protocol.wire import AnswerCodec

    sample = load_deck(str(ROOT / "docs" / "cards" / "sovereign-sample-deck.toml")).data()
    other = Deck.of_faction(standard_catalog().faction("undercity")).data()
    _write("join", [canonical_bytes(sample), canonical_bytes(other), b""])
    limits = P.TimeLimits(60_000, 5_000, 120_000).option()
    _write(
        "start",
        [
            canonical_bytes({"decks": [sample, other]}),
            canonical_bytes({P.TIME_LIMITS_KEY: limits}),
            b"",
        ],
    )
    game = rules("reign")
    codec, state = AnswerCodec(game), game.new_game(3)
    root = ChanceStream.from_int(29)
    referee = Referee(root.child("referee").take(32))
    bots = [bots_for("reign")["random"](root.child(f"bot/{seat}")) for seat in range(3)]
    decisions: dict[str, bytes] = {}
    while not state.over and len(decisions) < 8:
        request = state.pending()[0]
        if isinstance(request, Decision):
            answer = bots[request.seat].decide(state.view(request.seat), request)
            if request.seat == 1:
                decisions.setdefault(type(answer).__name__, codec.encode(answer))
        else:
            answer = referee.answer(state, request)
        state.apply(answer)
    _write("decision", [decisions[kind] for kind in sorted(decisions)])
