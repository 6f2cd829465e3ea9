"""``fairtable replay`` on what peers keep on disk after a game over sockets: a seat's table
folder and the relay's both replay to the players' digest, and replaying writes nothing
into them."""

from __future__ import annotations

import json
from pathlib import Path

import trio

from fairtable.client.cli import main
from tests.netplay.test_tables import Table


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


async def test_replay_a_seats_and_the_relays_saved_table(tmp_path: Path) -> None:
    table = Table(tmp_path, 3, via_relay=True)
    with trio.fail_after(120):
        await table.play()
    digest = table.results()[0]["digest"]
    seat = next(node.folder.path for node in table.nodes if node.folder is not None)
    relay = sorted((table.tmp / "relay" / "relay").iterdir())[0]
    for n, folder in enumerate((seat, relay)):
        before = _tree(folder)
        assert main(["replay", str(folder), "--export", str(tmp_path / f"r{n}")]) == 0
        ending = json.loads((tmp_path / f"r{n}.jsonl").read_text().splitlines()[-1])
        assert ending["ending"] == "finished" and ending["digest"] == digest
        assert _tree(folder) == before
