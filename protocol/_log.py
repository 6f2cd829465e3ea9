"""Saved table logs, and the audit of a whole game from one.

A log file is UTF-8 text, one JSON document per line: first the header
``{"fairtable_log":1,"table":"<base64url of the canonical TableSpec>"}``, then
every feed entry in its canonical encoding.  :func:`audit_log` replays a log
on a spectator session -- every signature, chain link, commitment, proof
(every shuffle's proof of a correct shuffle included) and decision is checked
again -- and says plainly whether the game verifies, and if not, what failed and
where.  A log ending in a seat's resignation verifies up to the step it names, and
the summary says who resigned where; one a clock ended verifies only with a signed time
notice that holds for the table (``_clock_end``), and is unchecked -- neither verified nor
failed -- with only an unsigned claim.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import attrs

from fairtable.engine.outcome import Outcome

from ._clock_end import ClockEnd, ClockNotice
from ._codec import b64encode, decode_as, encode
from ._errors import DecodeError, LocalProtocolError, RemoteProtocolError
from ._feed import Entry, FeedLog
from ._session import TableSession
from ._table import TableSpec
from ._untrusted import Bounds, read_json
from ._verdict_kinds import VerdictKind

__all__ = ["AuditResult", "LogError", "audit_log", "read_log", "write_log"]


HEADER_BOUNDS = Bounds(size=1 << 18, depth=1)
"""A log's first line: one flat object (its table is base64 inside it)."""


class LogError(Exception):
    """A log file that cannot be read; the message says which line and why."""


def write_log(spec: TableSpec, entries: Iterable[bytes]) -> bytes:
    header = json.dumps(
        {"fairtable_log": 1, "table": b64encode(encode(spec))},
        separators=(",", ":"),
        sort_keys=True,
    )
    return (header + "\n" + "".join(e.decode("utf-8") + "\n" for e in entries)).encode("utf-8")


def read_log(data: bytes, source: str = "log") -> tuple[TableSpec, list[bytes]]:
    """The table and the entry lines of a log file (``source`` names it in a refusal);
    :class:`LogError` if its header cannot be read."""
    import base64

    lines = data.split(b"\n")
    try:
        header = read_json(lines[0], source, HEADER_BOUNDS)
        if type(header) is not dict or header.get("fairtable_log") != 1:
            raise ValueError("not a fairtable log")
        raw = header["table"]
        spec = decode_as(
            base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)), TableSpec, f"{source}'s table"
        )
    except (ValueError, KeyError, TypeError, AttributeError, DecodeError) as exc:
        raise LogError(f"line 1: not a fairtable log header ({exc})") from None
    return spec, [line for line in lines[1:] if line.strip()]


@attrs.frozen
class AuditResult:
    ok: bool
    summary: str
    outcome: Outcome | None = None  # who won a verified, finished game
    digest: str = ""
    blamed: int | None = None
    resigned: int | None = None  # the seat that gave the game up, if one did
    departed: tuple[int, ...] = ()  # the seats that left while the others played on
    unchecked: bool = False  # not ok, not failed: a clock's end with nothing signed to show it
    partial: bool = False  # not ok, not failed: a copy that stops after a seat left, all
    # it holds checking out (a seat that left keeps the game only up to its leave)


def audit_log(
    spec: TableSpec,
    entries: list[bytes],
    *,
    notices: Sequence[ClockNotice] = (),
    claimed: ClockEnd | None = None,
) -> AuditResult:
    """Replay and check a whole table log.  A log that stops waiting for a seat verifies as
    ended there by the clock, with no winner, if one of ``notices`` (the time notices kept
    with it) holds for the table and says that seat ran out at that step; ``claimed`` (an
    unsigned word that a clock ended it, kept with a copy that has no notice) only makes
    such a stop unchecked, neither verified nor failed."""
    try:
        feeds = FeedLog(spec.table_id, spec.roster())
    except RemoteProtocolError as exc:  # a seat's key that is no Ed25519 key
        return AuditResult(False, f"the table's roster cannot be read: {exc}")
    for number, data in enumerate(entries, start=2):
        try:
            entry = Entry.parse(data)
            feeds.add(entry)
        except RemoteProtocolError as exc:
            where = f"line {number}"
            return AuditResult(False, f"{where}: {exc}", blamed=exc.seat)
    for seat in range(spec.seats):
        gaps = feeds.gaps(seat)
        if gaps:
            start, stop = gaps[0]
            return AuditResult(
                False, f"seat {seat}'s feed is missing entries {start} to {stop - 1}"
            )
    try:
        session = TableSession(spec, None)
    except (LocalProtocolError, DecodeError) as exc:  # signed settings no game can start with
        return AuditResult(False, f"the table's settings make no game: {exc}")
    for seat in range(spec.seats):
        for entry in feeds.entries(seat):
            session.receive(encode(entry))
    if session.verdict is not None:
        v = session.verdict
        if v.kind is VerdictKind.INCONCLUSIVE:  # the log ends where the game stopped for it
            return AuditResult(
                False,
                f"the game stopped at step {session.game.serial} for an early audit that "
                f"found no seat at fault: {v.reason}",
            )
        if v.kind is VerdictKind.CANNOT_FOLLOW:
            return AuditResult(False, f"the audit cannot follow the table: {v.reason}")
        who = f"seat {v.seat}" if v.seat is not None else "nobody can be named"
        return AuditResult(False, f"verdict against {who}: {v.kind}: {v.reason}", blamed=v.seat)
    if session.finished is None:
        return _stopped(spec, session, len(entries), notices, claimed)
    done = session.finished
    if session.resigned is not None:
        gone = session.resigned
        how = "vanished (the table could not recover)" if gone.vanished else "resigned"
        return AuditResult(
            True,
            f"verified: {len(entries)} entries, every signature, "
            f"commitment, proof and shuffle up to the {how.split()[0]} checks out; "
            f"seat {gone.seat} {how} at step {gone.step}",
            None,
            done.digest,
            resigned=gone.seat,
        )
    winner = done.outcome.words() if done.outcome.decided else "nobody (round limit)"
    left_at = session.departures.gone
    vanished = session.vanishing.vanished
    left = "".join(
        f"; seat {seat} {'vanished' if seat in vanished else 'left'} at step {at}"
        for seat, at in sorted(left_at.items())
    )
    return AuditResult(
        True,
        f"verified: {len(entries)} entries, every signature, commitment, "
        f"proof and shuffle checks out{left}; winner {winner}",
        done.outcome,
        done.digest,
        departed=tuple(sorted(left_at)),
    )


def _stopped(
    spec: TableSpec,
    session: TableSession,
    count: int,
    notices: Sequence[ClockNotice],
    claimed: ClockEnd | None,
) -> AuditResult:
    """The audit of a log that stops before the game ends (``count`` entries, all checked):
    ended by the clock if a notice signed by a seat shows it, else unchecked if only an
    unsigned claim says so, else failed."""
    step = session.game.serial
    waiting = ", ".join(f"seat {s}" for s in sorted(session.waiting)) or "nobody"
    away = session.departures.gone
    left = "".join(f"; seat {seat} left at step {at}" for seat, at in sorted(away.items()))
    kept = " (a seat that left keeps the game only up to its leave)" if away else ""
    departed = tuple(sorted(away))

    def fits(end: ClockEnd) -> bool:
        return end.step == step and end.seat in session.waiting

    fitting = [notice for notice in notices if fits(notice.end)]
    proof = next((notice for notice in fitting if notice.holds(spec)), None)
    if proof is not None:
        return AuditResult(
            True,
            f"verified: {count} entries, every signature, commitment, proof and "
            f"shuffle checks out; ended at step {step} by the clock: "
            f"{proof.end.words()} (no winner; each peer measures the clocks, the log "
            f"holds no time){left}",
            departed=departed,
        )
    if not notices and claimed is not None and fits(claimed):
        return AuditResult(
            False,
            f"{count} entries, every signature, commitment, proof and shuffle checks out "
            f"up to step {step}, where the log stops waiting for {waiting}; this copy "
            f"says {claimed.words()} there, ending the game by the clock, but it keeps no "
            f"signed time notice to show it (copies saved before notices were kept have none), so "
            f"that end cannot be checked{left}",
            departed=departed,
            unchecked=True,
        )
    forged = "".join(
        f"; a time notice kept with it says {notice.end.words()} there, but it is no "
        f"notice seat {notice.by} signed for this table"
        for notice in fitting[:1]
    )
    if away and not forged:
        return AuditResult(
            False,
            f"{count} entries, every signature, commitment, proof and shuffle checks out "
            f"up to step {step}, where this copy stops before the game ends (waiting for "
            f"{waiting}){left}{kept}; a copy of a seat still at the table holds the rest",
            departed=departed,
            partial=True,
        )
    return AuditResult(
        False,
        f"the log stops at step {step} before the game ends (waiting for "
        f"{waiting}){left}{kept}{forged}",
        departed=departed,
    )
