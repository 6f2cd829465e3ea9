"""The join-code exchange without sockets: codes, the SPAKE2 exchange, attempt counting."""

from __future__ import annotations

import base64
import hashlib
import math

import pytest

from fairtable.netplay.lan._codewords import WORDS
from fairtable.netplay.lan._joincode import (
    CODE_WORDS,
    CodeExchangeError,
    CodeHost,
    CodeJoiner,
    CodeRefused,
    CodeRetired,
    InviteHanded,
    JoinCode,
    JoinCodeError,
    WrongCodeTried,
    decode,
    looks_like_code,
)
from fairtable.netplay.table._invite import Invite

SECRET = hashlib.sha256(b"code secret").digest()
INVITE = Invite(
    "10.1.2.3",
    4711,
    hashlib.sha256(b"table").digest(),
    hashlib.sha256(b"key").digest(),
    SECRET,
    "reign",
    3,
)
CODE = JoinCode(7, ("amber", "falcon", "orbit", "zebra"))


def run(host: CodeHost, joiner: CodeJoiner) -> tuple[object, list[bytes], list[object]]:
    """Play one exchange; the outcome (invite or exception), what the host sent, its events."""
    exchange = host.exchange()
    sent: list[bytes] = []
    events: list[object] = []
    message = joiner.hello()
    try:
        while True:
            reply, event = exchange.receive(message)
            sent.append(reply)
            if event is not None:
                events.append(event)
            answer = joiner.receive(reply)
            if isinstance(answer, Invite):
                return answer, sent, events
            message = answer
    except (CodeRefused, CodeExchangeError) as exc:
        return exc, sent, events


def test_words_give_over_40_bits() -> None:
    assert len(set(WORDS)) == len(WORDS) == 2048
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 8 for w in WORDS)
    assert CODE_WORDS * math.log2(len(WORDS)) >= 40


def test_code_text_round_trip_and_forgiving_parse() -> None:
    assert CODE.text() == "7-amber-falcon-orbit-zebra"
    assert JoinCode.parse("7-amber-falcon-orbit-zebra") == CODE
    assert JoinCode.parse("  7 Amber falcon--ORBIT zebra ") == CODE
    fresh = JoinCode.generate()
    assert JoinCode.parse(fresh.text()) == fresh and 1 <= fresh.number <= 99
    assert "amber" not in repr(CODE)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "amber-falcon",
        "7",
        "0-amber-falcon-orbit-zebra",
        "7-amber-falcon-orbit",
        "7-amber-falcon-orbit-zebra-ant",
        "7-amber-falcon-orbit-zebraa",
        "1000-a-b-c-d",
        "7-ämber-a-b-c",
    ],
)
def test_bad_codes_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(JoinCodeError):
        JoinCode.parse(text)


def test_looks_like_code() -> None:
    assert looks_like_code("7-amber-falcon-orbit-zebra")
    assert looks_like_code(" 12-x")
    assert not looks_like_code(INVITE.text())
    assert not looks_like_code("amber-7")


def test_right_code_hands_the_invite() -> None:
    host = CodeHost(CODE, INVITE.text())
    outcome, _sent, events = run(host, CodeJoiner(CODE, INVITE.fingerprint))
    assert outcome == INVITE
    assert events == [InviteHanded()]
    assert host.failures == 0
    again, _, _ = run(host, CodeJoiner(JoinCode.parse(CODE.text())))  # many friends, one code
    assert again == INVITE


def _secret_bits(code: JoinCode) -> list[bytes]:
    b64 = base64.urlsafe_b64encode(SECRET).rstrip(b"=")
    return [SECRET, b64, INVITE.text().encode(), *(w.encode() for w in code.words)]


def test_wrong_code_is_refused_and_reveals_nothing() -> None:
    host = CodeHost(CODE, INVITE.text())
    wrong = JoinCode(7, ("amber", "falcon", "orbit", "zone"))
    joiner = CodeJoiner(wrong)
    outcome, sent, events = run(host, joiner)
    assert isinstance(outcome, CodeRefused) and str(outcome) == "wrong code"
    assert events == [WrongCodeTried(1, 5)]
    wire = b"".join(sent) + joiner.hello()
    for secret in _secret_bits(CODE):
        assert secret not in wire


def test_another_tables_number_is_not_counted() -> None:
    host = CodeHost(CODE, INVITE.text())
    outcome, _sent, events = run(host, CodeJoiner(JoinCode(8, CODE.words)))
    assert isinstance(outcome, CodeRefused) and "no table" in str(outcome)
    assert host.failures == 0 and events == []


def test_code_is_retired_after_too_many_wrong_tries() -> None:
    host = CodeHost(CODE, INVITE.text(), max_failures=3)
    wrong = JoinCode(7, ("ant", "ant", "ant", "ant"))
    events: list[object] = []
    for _ in range(3):
        outcome, _, new = run(host, CodeJoiner(wrong))
        assert str(outcome) == "wrong code"
        events += new
    assert events == [WrongCodeTried(1, 3), WrongCodeTried(2, 3), CodeRetired(3)]
    assert host.retired
    outcome, sent, _ = run(host, CodeJoiner(CODE))  # even the right code now
    assert isinstance(outcome, CodeRefused) and "retired" in str(outcome)
    assert host.failures == 3 and len(sent) == 1


def test_exchanges_under_way_when_the_code_retires_get_no_check() -> None:
    host = CodeHost(CODE, INVITE.text(), max_failures=1)
    right = CodeJoiner(CODE)
    pending = host.exchange()
    reply, _ = pending.receive(right.hello())
    confirm = right.receive(reply)
    run(host, CodeJoiner(JoinCode(7, ("ant",) * 4)))  # retires the code
    reply, event = pending.receive(confirm)
    assert decode(reply).reason == 2 and event is None  # type: ignore[union-attr]


def test_malformed_and_out_of_order_messages_end_the_exchange() -> None:
    host = CodeHost(CODE, INVITE.text())
    for junk in (
        b"",
        b"\x01",
        b"\x09hello",
        b"\x03" + bytes(32),
        b"\x01\x01\x00\x07" + bytes(33),
        b"\x01\x02\x00\x07" + bytes(33),
    ):
        with pytest.raises(CodeExchangeError):
            host.exchange().receive(junk)
    assert host.failures == 0
    joiner = CodeJoiner(CODE)
    with pytest.raises(CodeExchangeError):
        joiner.receive(b"\x04" + bytes(40))  # an invite before the key exchange


def test_an_invite_of_another_host_is_refused() -> None:
    host = CodeHost(CODE, INVITE.text())
    outcome, _, _ = run(host, CodeJoiner(CODE, "0" * 64))
    assert isinstance(outcome, CodeExchangeError)
