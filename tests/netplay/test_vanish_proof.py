"""Issue 33's proof for vanishing, with real processes over loopback TCP: a four-seat Reign
table hosted with ``--leavers go-on`` (the host and its two bots in one process), whose bot
joiner -- a process of its own -- is killed with SIGKILL mid-game and never comes back.  Past
the abandon limit the three others agree it vanished, play on, finish on one digest, and
``fairtable audit`` accepts each one's saved table."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import trio

from fairtable.client.cli import main
from fairtable.netplay import Invite
from tests.netplay.peers import Peer

KILL_AFTER = 25  # steps the joiner has applied at least when it is killed: mid-game
THINKS = "3"  # seconds the joiner's bot waits before each decision: the kill lands in one
ABANDON = "10"  # seconds: past the 3 beats (6 s) after which a silent seat is offline, so a
# killed seat that owed a part of its own is seen gone, not as a live seat stalling (a verdict)


async def _owes_a_decision(joiner: Peer) -> None:
    """Wait until the joiner has said it applied ``KILL_AFTER`` steps and, after that, that
    the table asks its seat alone for a decision (its ``--json`` lines): a vanishing there is
    recovered (docs/protocol.md §11.11; one owing a pool's opening would end the game)."""

    def owes(events: list[dict[str, object]]) -> bool:
        applied = [i for i, e in enumerate(events) if e["event"] == "applied"]
        if len(applied) < KILL_AFTER:
            return False
        later = events[applied[KILL_AFTER - 1] :]
        return any(e["event"] == "asked" and e["alone"] for e in later)

    await joiner.until(owes)


def _audit(folder: Path) -> dict[str, object]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["audit", str(folder), "--json"])
    report: dict[str, object] = json.loads(out.getvalue())
    assert code == 0 and report["ok"], (folder, report)
    return report


async def test_a_joiner_killed_for_good_at_a_go_on_table_of_four_and_the_three_others_finish(
    tmp_path: Path,
) -> None:
    loopback = ["--listen-host", "127.0.0.1", "--advertise", "127.0.0.1"]
    quick = ["--bot", "random", "--json", *loopback]
    host = Peer(
        ["host", "reign", "--seats", "4", "--bots", "2", "--leavers", "go-on"]
        + ["--abandon-after", ABANDON, "--round-limit", "3", "--no-announce", *quick]
        + ["--pace", "0.1"]
        + ["--data-dir", str(tmp_path / "host")]
    )
    started: list[Peer] = []
    try:
        with trio.fail_after(240):
            async with trio.open_nursery() as nursery:
                started.append(host)
                await host.start(nursery)
                invite = Invite.parse((await host.event("table_open"))["invite"])
                assert invite.leavers.value == "go-on"
                joiner = Peer(
                    ["join", invite.text(), *quick, "--pace", THINKS]
                    + ["--data-dir", str(tmp_path / "j")]
                )
                started.append(joiner)
                await joiner.start(nursery)
                seated = await joiner.event("seated")
                await _owes_a_decision(joiner)
                joiner.kill()  # SIGKILL: no farewell, no last word; it never comes back
                await joiner.process.wait()  # type: ignore[union-attr]
                assert not any(e["event"] == "game_over" for e in host.events)
                over = await host.event("game_over")
                await host.process.wait()  # type: ignore[union-attr]
                nursery.cancel_scope.cancel()
    finally:
        with trio.CancelScope(shield=True):
            for peer in started:  # never leave a process behind, even on failure
                await peer.stop()
    gone = seated["seat"]
    kinds = [e["event"] for e in host.events]
    assert "verdict" not in kinds and "abandoned" not in kinds and "resigned" not in kinds
    assert {"event": "vanishing", "seat": gone} in host.events
    departed = next(e for e in host.events if e["event"] == "departed")
    assert departed["seat"] == gone and departed["vanished"] and not departed["you"]
    assert over["end"] != "vanished"
    survivors = sorted((tmp_path / "host").glob("tables/*"))
    survivors += sorted((tmp_path / "host").glob("bots/*/*/tables/*"))
    assert len(survivors) == 3
    for folder in survivors:  # the host and its two bots: one digest, each log audited
        report = _audit(folder)
        assert report["digest"] == over["digest"], (folder, report)
        assert f"seat {gone} vanished at step {departed['step']}" in str(report["summary"])
