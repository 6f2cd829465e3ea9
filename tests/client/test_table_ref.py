"""A saved table named by the start of its id (client.table_ref): the screens print a
command short enough for one 80-column row, and ``audit`` / ``replay`` find the table
from it (issue 31: the game-over audit path was folded at column 80)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairtable.client.ending import saved_line
from fairtable.client.errors import FileRefused
from fairtable.client.table_ref import SHORT_ID, check_words, table_path
from fairtable.netplay import DEFAULT_DATA_DIR

ID = "3c8d499dd74a30c87212af41cc390bbbd70e33caa5495af99edacb9a232b8b03"
OTHER = "3c8d499dd74b" + "0" * 52


def test_a_table_in_the_default_data_directory_is_named_by_twelve_digits_of_its_id() -> None:
    line = saved_line(str(DEFAULT_DATA_DIR / "tables" / ID))
    assert line == f"The game is saved; to check it: fairtable audit {ID[:SHORT_ID]}"
    assert len(line) <= 80
    seat = DEFAULT_DATA_DIR / "seats" / "1" / "tables" / ID  # a second window's seat
    assert check_words(str(seat), "replay") == f"fairtable replay {ID[:SHORT_ID]}"


def test_another_data_directory_is_named_too_and_a_path_of_no_table_stays_whole(
    tmp_path: Path,
) -> None:
    assert check_words(str(tmp_path / "tables" / ID)) == (
        f"fairtable audit {ID[:SHORT_ID]} --data-dir {tmp_path}"
    )
    assert check_words("/x/y/game.log") == "fairtable audit /x/y/game.log"


def test_the_start_of_an_id_finds_the_one_table_whose_id_starts_so(tmp_path: Path) -> None:
    mine = tmp_path / "tables" / ID
    seat = tmp_path / "seats" / "1" / "tables" / OTHER
    for folder in (mine, seat):
        folder.mkdir(parents=True)
    assert table_path(ID[:SHORT_ID], tmp_path) == mine
    assert table_path(OTHER[:SHORT_ID].upper(), tmp_path) == seat
    with pytest.raises(FileRefused, match="2 saved tables' ids start 3c8d49"):
        table_path("3c8d49", tmp_path)
    with pytest.raises(FileRefused, match="no saved table whose id starts abcdef"):
        table_path("abcdef", tmp_path)
    assert table_path("abc", tmp_path) == Path("abc")  # too short to be an id: a path
    assert table_path(str(mine), None) == mine  # a path as it is


def test_one_id_in_several_folders_of_an_account_is_one_game_the_first_seats_copy(
    tmp_path: Path,
) -> None:
    """Two windows of one account keep one table in two folders; its id, whole or begun,
    names the account's own seat's copy, else the lowest-numbered window's (issue 31, N5)."""
    later = tmp_path / "seats" / "10" / "tables" / ID
    window = tmp_path / "seats" / "2" / "tables" / ID
    for folder in (later, window):
        folder.mkdir(parents=True)
    assert table_path(ID[:SHORT_ID], tmp_path) == window
    assert table_path(ID, tmp_path) == window
    mine = tmp_path / "tables" / ID
    mine.mkdir(parents=True)
    assert table_path(ID[:SHORT_ID], tmp_path) == mine
