"""A game already open in another window: ``fairtable resume`` lists it as such and says so
when asked to reopen it (rather than 'cannot listen ...: address already in use')."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fairtable.client import cli
from fairtable.netplay import Invite, TableFolder, TableInfo, TableKind, hold_game


def _kept(data_dir: Path, kind: TableKind) -> Invite:
    invite = Invite("127.0.0.1", 4000, os.urandom(32), bytes(32), os.urandom(32), "reign", 3)
    role = "host" if kind is TableKind.HOST else "joiner"
    TableInfo(
        invite=invite.text(), role=role, kind=kind, status="playing", seat=1, round=2, turn=[1]
    ).save(TableFolder(data_dir, "tables", invite.lobby_id))
    return invite


@pytest.mark.parametrize("kind", [TableKind.HOST, TableKind.JOIN])
def test_a_game_open_in_another_window_is_marked_and_not_reopened(
    tmp_path: Path, kind: TableKind, capsys: pytest.CaptureFixture[str]
) -> None:
    invite = _kept(tmp_path, kind)
    with hold_game(tmp_path, invite.lobby_id):  # the other window
        assert cli.main(["resume", "--list", "--data-dir", str(tmp_path)]) == 0
        assert capsys.readouterr().out.splitlines()[1:] == [
            "   (open in another window: play it there)"
        ]
        for args in (["1"], ["--resign", "1"], ["1", "--plain"]):
            assert cli.main(["resume", *args, "--data-dir", str(tmp_path)]) == 2
            err = capsys.readouterr().err
            assert "this game is already open in another window" in err
            assert "address already in use" not in err
    assert cli.main(["resume", "--list", "--data-dir", str(tmp_path)]) == 0
    assert "another window" not in capsys.readouterr().out  # closed: reopenable again


def test_holding_a_game_twice_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    invite = _kept(tmp_path, TableKind.HOST)
    from fairtable.netplay import GameOpenElsewhere, game_open_elsewhere

    assert not game_open_elsewhere(tmp_path, invite.lobby_id)
    assert not (tmp_path / "locks").exists()  # asking made nothing
    with hold_game(tmp_path, invite.lobby_id):
        assert game_open_elsewhere(tmp_path, invite.lobby_id)
        with pytest.raises(GameOpenElsewhere):
            hold_game(tmp_path, invite.lobby_id)
    with hold_game(tmp_path, invite.lobby_id):
        pass
