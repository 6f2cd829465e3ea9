"""``fairtable audit`` of a game a clock ended: the log stops where the game waited for the
seat whose time ran out (the clocks are not in the log), so the audit takes the clock's end
only from a signed time notice kept with the game -- every seat's copy keeps the one its verdict
rests on, a relay keeps those it passed on -- and says what the game is: ended by the clock at
that step, no winner, not FAILED (issue 31, new-user run N3).  ``table.json``'s ``end``,
``flagged`` and ``end_step`` are a display hint, never the proof: a clock end written there by
hand, or a notice signed by a key that is not the seat it names, does not verify, and a copy
with no notice (saved before notices were kept) says its end cannot be checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

import fairtable.protocol as P
from fairtable.client.cli import main
from fairtable.netplay import LogFile, RelayNode, SeatClock, saved_table
from fairtable.netplay.table import Flagged, TableClock, TimeFlag
from tests.netplay.test_clock_tables import ClockTable


def audit(folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``fairtable audit FOLDER``: its exit code and its answer on one line."""
    capsys.readouterr()
    code = main(["audit", str(folder)])
    return code, " ".join(capsys.readouterr().out.split())


def edit_info(folder: Path, **fields: object) -> None:
    """Write ``fields`` into ``folder``'s ``table.json`` as an editor would (None: drop)."""
    path = folder / "table.json"
    info = json.loads(path.read_bytes())
    for name, value in fields.items():
        if value is None:
            info.pop(name, None)
        else:
            info[name] = value
    path.write_text(json.dumps(info, sort_keys=True, indent=1), encoding="utf-8")


def signed_notice(
    spec: P.TableSpec, key: P.Identity, *, by: int, seat: int, step: int, flag: TimeFlag
) -> str:
    """A time notice saying seat ``by`` flagged ``seat`` at ``step``, signed with ``key`` (the
    hex ``table.json`` keeps)."""
    clock = TableClock(spec.time_limits(), spec.table_id, spec.players, by, 0.0)
    return P.encode(clock.notice(key, Flagged(flag, seat), step)).hex()


async def test_a_game_the_clock_ended_audits_as_ended_by_it_on_every_seat(
    tmp_path: Path, autojump_clock: MockClock, capsys: pytest.CaptureFixture[str]
) -> None:
    table = ClockTable(tmp_path, clock=SeatClock(6.0, 2.0), abandon=60.0)
    await table.play_to_the_end()
    person = table.person
    folders = [node.folder.path for node in table.nodes if node.folder is not None]
    assert len(folders) == len(table.nodes)
    for folder in folders:
        code, out = audit(folder, capsys)
        assert code == 0 and out.startswith("OK"), out
        assert "by the clock" in out and f"seat {person} ran out of time (no winner" in out, out
        saved = saved_table(folder)
        assert [n.end.seat for n in saved.notices] == [person]
        step = saved.notices[0].end.step
        for node in table.nodes:  # a true notice, signed by a seat, that does not fit the log
            assert node.session is not None and node.session.seat is not None
            seat = node.session.seat
            for about, at in (((person + 1) % 3, step), (person, step + 1)):
                notice = signed_notice(
                    saved.spec,
                    node.identity,
                    by=seat,
                    seat=about,
                    step=at,
                    flag=TimeFlag.OUT_OF_TIME,
                )
                edit_info(folder, time_notice=notice)
                code, out = audit(folder, capsys)
                assert code == 1 and out.startswith("FAILED") and "before the game ends" in out


async def test_a_clock_end_in_table_json_needs_a_notice_signed_by_a_seat_of_the_table(
    tmp_path: Path, autojump_clock: MockClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attacks: a clock end written by hand into ``table.json`` where the game merely
    stopped (its log cut short), with no notice; a notice signed by a key not at the table,
    by another seat's key than the seat it names, or changed after it was signed."""
    table = ClockTable(tmp_path, clock=SeatClock(6.0, 2.0), abandon=60.0)
    await table.play_to_the_end()
    person, host = table.person, table.nodes[0]
    assert host.folder is not None and host.session is not None
    spec = host.session.spec
    done = saved_table(host.folder.path)
    step = done.notices[0].end.step

    # a game merely stopped: the log cut at half, and a clock end claimed where it stops
    cut = tmp_path / "cut"
    shutil.copytree(host.folder.path, cut)
    records = list(LogFile(host.folder.path / "log").records)
    (cut / "log").unlink()
    log = LogFile(cut / "log")
    kept = records[: len(records) // 2]
    for data in kept:
        log.append(data, durable=False)
    log.close()
    spectator = P.TableSession(spec, None)
    for data in kept:
        spectator.receive(data)
    assert spectator.verdict is None and spectator.finished is None and spectator.waiting
    stopped, waiting = spectator.game.serial, min(spectator.waiting)
    edit_info(cut, end="out-of-time", flagged=waiting, end_step=stopped, time_notice=None)
    code, out = audit(cut, capsys)
    assert code == 1 and out.startswith("UNCHECKED"), out
    assert "cannot be checked" in out and "no signed time notice" in out, out

    # the game the clock did end, from a folder that keeps no notice (an older peer's)
    old = tmp_path / "old"
    shutil.copytree(host.folder.path, old)
    edit_info(old, time_notice=None)
    code, out = audit(old, capsys)
    assert code == 1 and out.startswith("UNCHECKED") and "cannot be checked" in out, out

    # forged notices, with table.json's hint left as the game wrote it
    stranger = P.Identity.generate()
    someone = next(n for n in table.nodes if n.session is not None and n.session.seat != person)
    assert someone.session is not None and someone.session.seat is not None
    true_notice = bytes.fromhex(
        signed_notice(
            spec,
            someone.identity,
            by=someone.session.seat,
            seat=person,
            step=step,
            flag=TimeFlag.OUT_OF_TIME,
        )
    )
    changed = P.decode(true_notice)
    forged = [
        signed_notice(spec, stranger, by=0, seat=person, step=step, flag=TimeFlag.OUT_OF_TIME),
        signed_notice(
            spec,
            someone.identity,
            by=(someone.session.seat + 1) % 3,
            seat=person,
            step=step,
            flag=TimeFlag.OUT_OF_TIME,
        ),
        P.encode(
            type(changed)("abandoned", changed.seat, changed.step, changed.by, changed.sig)
        ).hex(),
    ]
    for notice in forged:
        edit_info(host.folder.path, time_notice=notice)
        code, out = audit(host.folder.path, capsys)
        assert code == 1 and out.startswith("FAILED"), out
        assert "before the game ends" in out and "by the clock" not in out, out


async def test_a_relays_copy_of_a_game_the_clock_ended_audits_as_ended_by_it(
    tmp_path: Path, autojump_clock: MockClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The relay passes the time notices on and keeps each seat's first, signed by that
    seat, with the table: its copy audits as the seats' do."""
    table = ClockTable(tmp_path, clock=SeatClock(6.0, 2.0), abandon=60.0)
    with trio.fail_after(120):
        async with trio.open_nursery() as outer:
            relay = RelayNode(tmp_path / "relay", P.Identity.generate())
            via = ("127.0.0.1", await outer.start(relay.run))
            async with trio.open_nursery() as nursery:  # until every seat has left
                await table.open(nursery, via)
            outer.cancel_scope.cancel()
    person = table.person
    (folder,) = (tmp_path / "relay" / "relay").iterdir()
    code, out = audit(folder, capsys)
    assert code == 0 and out.startswith("OK"), out
    assert "by the clock" in out and f"seat {person} ran out of time (no winner" in out, out
