"""``fairtable audit`` of a table a seat keeps names the winner as the log does -- by the
player's name where one was given -- not "winner seat N" (issue 31)."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
import trio

from fairtable.client.cli import main
from fairtable.netplay import NodeConfig
from tests.netplay.test_tables import Table

NAMES = ("Ann", "Bob", "Cyd")


class NamedTable(Table):
    def config(self, index: int, via: tuple[str, int] | None) -> NodeConfig:
        return attrs.evolve(super().config(index, via), name=NAMES[index])


async def test_audit_of_a_saved_table_names_the_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = NamedTable(tmp_path, 3, via_relay=False)
    with trio.fail_after(120):
        await table.play()
    seat = next(node.folder.path for node in table.nodes if node.folder is not None)
    assert main(["audit", str(seat)]) == 0
    said = " ".join(capsys.readouterr().out.split())  # rows of 80 columns, joined
    assert said.startswith("OK ") and "winner " in said, said
    assert "winner seat" not in said and any(f"winner {name}" in said for name in NAMES), said
