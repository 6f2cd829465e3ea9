"""Which folder a joining seat plays from (netplay.storage._seatclaim): the data directory itself,
unless it hosts the table or a running process holds it; then ``seats/1``, ``seats/2``...
and the same folder again once its process has let it go (a rejoin resumes that seat)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import fairtable.protocol as P
from fairtable.netplay import (
    Invite,
    StorageError,
    TableFolder,
    TableInfo,
    claim_seat,
    load_identity_seed,
)
from fairtable.netplay.storage._seatclaim import MAX_SEATS_HERE


def invite_hosted_by(data_dir: Path) -> Invite:
    key = P.Identity.from_seed(load_identity_seed(data_dir)).public.key
    return Invite("127.0.0.1", 4711, os.urandom(32), key, os.urandom(32), "reign", 3, None)


def test_a_friends_table_is_joined_from_the_data_directory_itself(tmp_path: Path) -> None:
    invite = invite_hosted_by(tmp_path / "friend")
    with claim_seat(tmp_path / "me", invite) as claim:
        assert claim.data_dir == tmp_path / "me"


def test_a_table_this_data_directory_hosts_is_joined_from_a_seat_folder_of_its_own(
    tmp_path: Path,
) -> None:
    invite = invite_hosted_by(tmp_path)  # the host's key is this folder's
    with claim_seat(tmp_path, invite) as claim:
        assert claim.data_dir == tmp_path / "seats" / "1"
        assert load_identity_seed(claim.data_dir) != load_identity_seed(tmp_path)


def test_a_hosted_table_folder_is_never_taken_by_a_joiner(tmp_path: Path) -> None:
    invite = invite_hosted_by(tmp_path / "elsewhere")
    folder = TableFolder(tmp_path, "tables", invite.lobby_id)
    folder.path.mkdir(parents=True)
    TableInfo(role="host", invite=invite.text()).save(folder)
    with claim_seat(tmp_path, invite) as claim:
        assert claim.data_dir == tmp_path / "seats" / "1"


def test_seats_held_at_once_each_get_their_own_folder_and_a_freed_one_is_taken_again(
    tmp_path: Path,
) -> None:
    invite = invite_hosted_by(tmp_path / "friend")
    first = claim_seat(tmp_path, invite)
    second = claim_seat(tmp_path, invite)
    third = claim_seat(tmp_path, invite)
    assert [c.data_dir for c in (first, second, third)] == [
        tmp_path,
        tmp_path / "seats" / "1",
        tmp_path / "seats" / "2",
    ]
    second.close()  # that window quit (or crashed): running join again resumes its seat
    with claim_seat(tmp_path, invite) as again:
        assert again.data_dir == tmp_path / "seats" / "1"
    first.close()
    third.close()


def test_a_held_seat_is_held_against_another_process(tmp_path: Path) -> None:
    """The lock is the operating system's: a child process cannot take a held folder."""
    import subprocess
    import sys

    invite = invite_hosted_by(tmp_path / "friend")
    with claim_seat(tmp_path, invite):
        code = (
            "import sys; from pathlib import Path;"
            "from fairtable.netplay import Invite, claim_seat;"
            "c = claim_seat(Path(sys.argv[1]), Invite.parse(sys.argv[2]));"
            "print(c.data_dir)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path), invite.text()],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
    assert out.strip() == str(tmp_path / "seats" / "1")


def test_too_many_seats_from_one_folder_is_a_clear_error(tmp_path: Path) -> None:
    invite = invite_hosted_by(tmp_path / "friend")
    claims = [claim_seat(tmp_path, invite) for _ in range(MAX_SEATS_HERE + 1)]
    with pytest.raises(StorageError, match="already played from here"):
        claim_seat(tmp_path, invite)
    for claim in claims:
        claim.close()
