"""Joining by code over loopback with real processes: the right code plays, a wrong one is
refused in one line, and nothing secret crosses the LAN (announcements, a wrong-code try)."""

from __future__ import annotations

import base64
import re
import socket
from pathlib import Path

import pytest
import trio

from fairtable.netplay import Invite
from fairtable.netplay.lan._codelink import Recorded, invite_by_code
from fairtable.netplay.lan._discovery import open_listener
from fairtable.netplay.lan._joincode import CodeRefused, JoinCode

from .peers import Peer, events, run


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def secrets_of(invite: Invite, code: JoinCode) -> list[bytes]:
    """What must never cross the LAN in clear: the invite's secret (raw and as written), the
    invite text, and the code's words in any way they could be written down together.

    A single word alone is no secret worth a search: a 3-letter word turns up by chance in a
    few hundred KB of ciphertext, so searching for each word alone made this test flaky."""
    b64 = base64.urlsafe_b64encode(invite.secret).rstrip(b"=")
    words = code.words
    together = [
        "-".join(words),
        " ".join(words),
        ",".join(f'"{w}"' for w in words),
        ", ".join(f'"{w}"' for w in words),
        "".join(words),
    ]
    return [
        invite.secret,
        b64,
        invite.text().encode(),
        code.text().encode(),
        *(t.encode() for t in together),
    ]


def wrong(code: JoinCode) -> JoinCode:
    last = "zoom" if code.words[-1] != "zoom" else "zone"
    return JoinCode(code.number, (*code.words[:-1], last))


async def test_join_by_code_over_loopback(tmp_path: Path) -> None:
    discovery = free_udp_port()
    heard: list[bytes] = []
    record = Recorded()
    host = Peer(
        [
            "host",
            "sodalis",
            "--seats",
            "2",
            "--bot",
            "random",
            "--round-limit",
            "2",
            "--json",
            "--data-dir",
            str(tmp_path / "host"),
            "--listen-host",
            "127.0.0.1",
            "--announce-address",
            "127.255.255.255",
            "--discovery-port",
            str(discovery),
        ]
    )
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            sniffer = await open_listener(port=discovery)

            async def sniff() -> None:
                while True:  # every datagram on the discovery port, as it is
                    data, _ = await sniffer._sock.recvfrom(4096)  # noqa: SLF001
                    heard.append(data)

            nursery.start_soon(sniff)
            try:
                await host.start(nursery)
                await play(host, tmp_path, discovery, record)
            finally:
                await host.stop()
            nursery.cancel_scope.cancel()
        sniffer.close()
    opened = next(e for e in host.events if e["event"] == "table_open")
    invite, code = Invite.parse(opened["invite"]), JoinCode.parse(opened["code"])
    assert any(b'"code":%d' % code.number in data for data in heard)
    crossing = [*heard, *record.datagrams, *record.sent, *record.received]
    for secret in secrets_of(invite, code):
        assert not any(secret in data for data in crossing)


async def play(host: Peer, tmp_path: Path, discovery: int, record: Recorded) -> None:
    """Wrong codes, an unknown number, then the right code plays to the end."""
    lan = ["--discovery-port", str(discovery)]
    opened = await host.event("table_open")
    invite, code = Invite.parse(opened["invite"]), JoinCode.parse(opened["code"])
    assert invite.host == "127.0.0.1"  # --listen-host 127.0.0.1: loopback advertised

    with pytest.raises(CodeRefused, match="^wrong code$"):
        await invite_by_code(wrong(code), discovery_port=discovery, record=record)
    assert record.sent and record.received

    refused = await run(
        ["join", wrong(code).text(), "--bot", "random", "--data-dir", str(tmp_path / "wrong"), *lan]
    )
    assert refused.returncode != 0
    assert refused.stderr == b"fairtable: wrong code\n" and refused.stdout == b""
    assert [e["failures"] for e in await host.all_of("wrong_code", 2)] == [1, 2]

    asked = await run(
        ["join", "--data-dir", str(tmp_path / "asked"), *lan],
        stdin=wrong(code).text().encode() + b"\n",
    )  # at the keyboard, no argument
    assert f"code {code.number}-...".encode() in asked.stdout  # the LAN's tables, listed
    assert b"Join code or invite (q leaves): " in asked.stdout and b"wrong code" not in asked.stdout
    assert asked.returncode != 0 and asked.stderr == b"fairtable: wrong code\n"
    assert [e["failures"] for e in await host.all_of("wrong_code", 3)] == [1, 2, 3]

    other = JoinCode(code.number % 99 + 1, code.words)
    nowhere = await run(
        ["join", other.text(), "--bot", "random", "--data-dir", str(tmp_path / "nowhere"), *lan]
    )
    assert nowhere.returncode != 0
    assert nowhere.stderr.decode().splitlines() == [
        "fairtable: no table with that code on the LAN;",
        "  a table answers its code only until its game starts; to watch a game",
        "  under way, ask a player for the invite ('i' on their screen shows it)",
    ]  # what someone who came by code can do (issue 31)

    joined = await run(
        [
            "join",
            "  " + code.text().upper() + " ",
            "--bot",
            "random",
            "--json",
            "--data-dir",
            str(tmp_path / "joiner"),
            *lan,
        ]
    )
    assert joined.returncode == 0, joined.stderr
    seen = events(joined.stdout)
    assert [e["event"] for e in seen][0] == "joining"
    seated = next(e for e in seen if e["event"] == "seated")
    assert seated["seat"] == 1
    # headless bots without --name are named as play names its bots (issue 31)
    assert re.fullmatch(r"[A-Z][a-z]+ \(random\)", seated["names"][0]), seated["names"]
    assert re.fullmatch(r"[A-Z][a-z]+ \(random\)", seated["names"][1]), seated["names"]
    over = [e for e in seen if e["event"] == "game_over"]
    assert over and over[0]["digest"] == (await host.event("game_over"))["digest"]
    assert await host.all_of("code_used", 1)
