"""A hostile host's start that no game can start with (issue 29, the handler audit): the
spectator refuses to watch with a ``WatchRefused`` saying why, instead of stopping on the
session's ``LocalProtocolError`` (settings) or ``InvalidPoint`` (a seat's key that is no
key); a start whose options are nested 2,000 deep is skipped as unreadable."""

from __future__ import annotations

import functools
import os

import pytest
import trio

import fairtable.protocol as P
from fairtable.netplay import Invite, WatchRefused, watch_table
from fairtable.netplay.links._accept import serve_links
from fairtable.netplay.links._link import Link
from fairtable.netplay.table._lobby import sign_start


async def _host_sending(
    starts: list[bytes], nursery: trio.Nursery, host: P.Identity, scope: bytes, secret: bytes
) -> int:
    async def handler(link: Link) -> None:
        for data in starts:
            await link.send(data)
        await trio.sleep_forever()

    return int(
        await nursery.start(
            functools.partial(
                serve_links,
                0,
                handler,
                identity=host,
                secrets_for=lambda s: secret if s == scope else None,
                role="peer",
            )
        )
    )


@pytest.mark.parametrize(
    ("other", "options", "words"),
    [
        (None, b'{"decks":[5,5]}', "cannot start a game"),
        (bytes(32), b"", "not a valid Ed25519 public key"),
    ],
    ids=["unplayable-options", "seat-key-no-key"],
)
async def test_a_start_no_game_can_start_with_is_a_refusal_to_watch(
    other: bytes | None, options: bytes, words: str
) -> None:
    host = P.Identity.generate()
    scope, secret = os.urandom(32), os.urandom(32)
    keys = (host.public.key, other or P.Identity.generate().public.key)
    nested = P.TableSpec(
        "sovereign", keys, 60, os.urandom(32), b'{"x":' + b"[" * 2_000 + b"]" * 2_000 + b"}"
    )
    unplayable = P.TableSpec("sovereign", keys, 60, os.urandom(32), options)
    starts = [P.encode(sign_start(host, spec, (b"", b""), scope)) for spec in (nested, unplayable)]
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await _host_sending(starts, nursery, host, scope, secret)
            invite = Invite("127.0.0.1", port, scope, host.public.key, secret, "sovereign", 2)
            with pytest.raises(WatchRefused, match=words):
                await watch_table(invite, lambda event, session: None)
            nursery.cancel_scope.cancel()
