"""The code listener over TCP, in one process: retirement after wrong codes, junk and silence."""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

import pytest
import trio

from fairtable.netplay.lan._codelink import EXCHANGE_TIMEOUT, Recorded, _fetch, serve_code
from fairtable.netplay.lan._joincode import CodeHost, CodeJoiner, CodeRefused, JoinCode
from fairtable.netplay.links._frames import encode_frame
from fairtable.netplay.table._invite import Invite
from tests.netplay.said import as_json

INVITE = Invite(
    "127.0.0.1",
    4711,
    hashlib.sha256(b"t").digest(),
    hashlib.sha256(b"k").digest(),
    hashlib.sha256(b"s").digest(),
    "reign",
    3,
)
CODE = JoinCode(5, ("amber", "falcon", "orbit", "zebra"))
WRONG = JoinCode(5, ("amber", "falcon", "orbit", "zone"))


async def test_wrong_codes_retire_the_code_and_the_host_says_so() -> None:
    said: list[dict[str, Any]] = []
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            host = CodeHost(CODE, INVITE.text(), max_failures=2)
            port = await nursery.start(
                partial(serve_code, host, listen_host="127.0.0.1", emit=as_json(said))
            )
            address = ("127.0.0.1", port)
            assert await _fetch(address, CodeJoiner(CODE), Recorded()) == INVITE
            for _ in range(2):
                with pytest.raises(CodeRefused, match="^wrong code$"):
                    await _fetch(address, CodeJoiner(WRONG), Recorded())
            with pytest.raises(CodeRefused, match="retired"):
                await _fetch(address, CodeJoiner(CODE), Recorded())
            nursery.cancel_scope.cancel()
    assert said == [
        {"event": "code_used"},
        {"event": "wrong_code", "failures": 1, "limit": 2},
        {"event": "code_retired", "failures": 2},
    ]


async def test_junk_and_silent_connections_change_nothing() -> None:
    with trio.fail_after(EXCHANGE_TIMEOUT + 10):
        async with trio.open_nursery() as nursery:
            host = CodeHost(CODE, INVITE.text())
            port = await nursery.start(
                partial(serve_code, host, listen_host="127.0.0.1", emit=lambda event: None)
            )
            junk = await trio.open_tcp_stream("127.0.0.1", port)
            await junk.send_all(encode_frame(b"\x07nonsense"))
            assert await junk.receive_some(100) == b""  # dropped without an answer
            oversize = await trio.open_tcp_stream("127.0.0.1", port)
            await oversize.send_all((10**6).to_bytes(4, "big"))
            assert await oversize.receive_some(100) == b""
            silent = await trio.open_tcp_stream("127.0.0.1", port)  # held open, says nothing
            assert await _fetch(("127.0.0.1", port), CodeJoiner(CODE), Recorded()) == INVITE
            assert host.failures == 0
            with trio.fail_after(EXCHANGE_TIMEOUT + 2):
                assert await silent.receive_some(100) == b""  # closed after the time limit
            for stream in (junk, oversize, silent):
                await stream.aclose()
            nursery.cancel_scope.cancel()
