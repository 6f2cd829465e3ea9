"""Verdict kinds (docs/protocol.md §12.1): one enum, its members the texts verdicts always
carried, and one property saying which of them accuse a seat."""

from __future__ import annotations

import json

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.wire as PW
from fairtable.client import ending
from fairtable.netplay import events as ev
from fairtable.protocol.testing import CHEATS

NO_BLAME = {"out-of-time", "abandoned", "starved", "cannot-follow"}


def _remote_errors(cls: type[P.RemoteProtocolError]) -> list[type[P.RemoteProtocolError]]:
    return [cls, *(sub for c in cls.__subclasses__() for sub in _remote_errors(c))]


def test_12_1_a_kind_is_its_text_in_comparisons_formats_and_json() -> None:
    for kind in P.VerdictKind:
        assert kind == kind.value and f"{kind}" == kind.value and str(kind) == kind.value
        assert json.dumps(kind) == json.dumps(kind.value)
        assert P.VerdictKind(kind.value) is kind
    verdict = ev.Verdict(seat=1, kind=P.VerdictKind.BAD_PROOF, reason="r")
    assert ev.event_line(verdict) == '{"event":"verdict","kind":"bad-proof","reason":"r","seat":1}'


def test_12_1_only_the_clocks_starvation_and_a_lost_spectator_blame_nobody() -> None:
    assert {k.value for k in P.VerdictKind if not k.blames} == NO_BLAME


def test_12_1_every_error_a_peer_can_cause_and_every_cheat_is_a_kind() -> None:
    errors = _remote_errors(P.RemoteProtocolError)
    assert PC.BadProof in errors and PW.MalformedPartKey in errors
    assert all(isinstance(cls.kind, P.VerdictKind) for cls in errors)
    assert {P.VerdictKind(cheat) for cheat in CHEATS} <= set(P.VerdictKind)


def test_12_1_the_client_words_a_verdict_by_whether_its_kind_blames() -> None:
    own_words = {
        P.VerdictKind.INCONCLUSIVE: "The game stopped for an early audit that found no seat "
        "at fault: why",
        P.VerdictKind.CANNOT_FOLLOW: "Could not follow the table: why",
        # a clock's end: every seat's game ends, nobody wins (issue 31, N3)
        P.VerdictKind.OUT_OF_TIME: "The game is over: why; it ends for every seat, with no winner",
        P.VerdictKind.ABANDONED: "The game is over: why; it ends for every seat, with no winner",
    }
    for kind in P.VerdictKind:
        said = ending.stopped(ev.Verdict(seat=2, kind=kind, reason="why"), abandoned=None)
        if kind in own_words:
            assert said == own_words[kind]
        elif kind.blames:
            assert said == f"The game stopped: seat 2 is blamed for {kind.value} (why)"
        else:
            assert said == "The game is over: why"
    assert ev.event_line(ev.Verdict(None, P.VerdictKind.CANNOT_FOLLOW, "r")) == (
        '{"event":"verdict","kind":"cannot-follow","reason":"r","seat":null}'
    )
    ran_out = ev.Verdict(seat=2, kind="abandoned", reason="gone")  # a text converts
    assert ran_out.kind is P.VerdictKind.ABANDONED
    assert ending.stopped(ran_out, abandoned=2) == (
        "The game is abandoned: seat 2 never came back (gone)"
    )
