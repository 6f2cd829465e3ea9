"""``fairtable host --bots K``: the bot seats the host's process runs are seats of their own
-- their own keys, folders and names -- never the host's (issue 29: a roster read
``["Hosty", "Hosty", "Joe"]``, the bot signed with the host's ``--name``)."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

import fairtable.protocol as P
from fairtable.client import netcli
from fairtable.client.options import HostOptions, parse
from fairtable.netplay import Invite, NodeConfig, TableNode
from fairtable.netplay import events as ev
from tests.netplay.test_tables import bot


async def test_a_hosts_bot_seat_is_not_named_after_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = parse(
        [
            "host",
            "reign",
            "--seats",
            "3",
            "--bots",
            "1",
            "--bot",
            "heuristic",
            "--name",
            "Hosty",
            "--data-dir",
            str(tmp_path / "host"),
            "--listen-host",
            "127.0.0.1",
            "--no-announce",
            "--json",
        ]
    )
    assert isinstance(options, HostOptions)
    heard: list[ev.NodeEvent] = []
    opened, seated = trio.Event(), trio.Event()

    def emit(event: ev.NodeEvent) -> None:
        heard.append(event)
        if isinstance(event, ev.TableOpen):
            opened.set()
        elif isinstance(event, ev.Seated):
            seated.set()

    monkeypatch.setattr(netcli, "_printer", lambda as_json, prefix="": emit)
    joiner_seated: list[ev.Seated] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(netcli._host, options)
            await opened.wait()
            invite = Invite.parse(next(e for e in heard if isinstance(e, ev.TableOpen)).invite)
            joiner = TableNode(
                NodeConfig(data_dir=tmp_path / "joe", name="Joe"),
                P.Identity.generate(),
                invite=invite,
                decider=bot(2),
                emit=lambda e: joiner_seated.append(e) if isinstance(e, ev.Seated) else None,
            )
            nursery.start_soon(joiner.run)
            await seated.wait()
            nursery.cancel_scope.cancel()
    names = next(e for e in heard if isinstance(e, ev.Seated)).names
    assert names[0] == "Hosty" and names.count("Hosty") == 1, names
    # the bot is named as play names its bots, never after the host
    assert sorted(names[1:]) == ["Ada (heuristic)", "Joe"], names
    assert not joiner_seated or joiner_seated[0].names == names
