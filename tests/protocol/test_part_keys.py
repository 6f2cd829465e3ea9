"""Part keys (docs/protocol.md §11.2): each part is filed under a typed key whose text is the
name the session has always used, and that text reads back into the same key."""

from __future__ import annotations

import pytest

import fairtable.protocol as P
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.testing import make_table, run_table

EVERY_KIND = {
    "key": PW.KeySharePart(),
    "commit:chance:c0": PW.CommitPart("chance:c0"),
    "reveal:move:s4": PW.RevealPart("move:s4"),
    "shuffle:main:s0": PW.ShufflePart("main", "s0"),
    "shares:main:s3": PW.SharesPart("main", "s3"),
    "handover:main:s3:2": PW.HandOverPart("main", "s3", 2),
    "handover:pool:open/1:-1": PW.HandOverPart("pool", "open/1", PW.JOINT),
    "move:12": PW.MovePart(12),
    "open:0": PW.OpeningPart(0),
    "audit": PW.AuditPart(),
    "note:7": PW.NotePart(7),
    "complaint:5:1": PW.ComplaintPart(5, 1),
    "resign": PW.ResignPart(),
    "digest:9": PW.DigestPart(9),
    "entry:30": PW.EntryPart(30),
}


@pytest.mark.parametrize("text", sorted(EVERY_KIND))
def test_11_2_a_key_writes_its_text_and_reads_back_from_it(text: str) -> None:
    key = EVERY_KIND[text]
    assert str(key) == text
    assert PW.parse_part_key(text) == key
    assert f"seat 1 sent {key} twice" == f"seat 1 sent {text} twice"  # as verdicts word it


def test_11_2_keys_of_different_parts_differ_even_with_equal_fields() -> None:
    assert PW.MovePart(3) != PW.NotePart(3)
    assert len({PW.MovePart(3), PW.NotePart(3), PW.OpeningPart(3), PW.MovePart(3)}) == 3


@pytest.mark.parametrize(
    "text",
    [
        "",
        "move",
        "move:",
        "move:x",
        "move:07",
        "move:-0",
        "move:+1",
        "note:1:2",
        "complaint:1",
        "key:1",
        "audit:",
        "shuffle:main",
        "handover:main:s3:me",
        "shares::s1",
        "reveal:a b",
        "walk:1",
    ],
)
def test_11_2_text_that_is_no_key_is_a_typed_decode_error(text: str) -> None:
    with pytest.raises(PW.MalformedPartKey) as err:
        PW.parse_part_key(text)
    assert isinstance(err.value, P.DecodeError) and err.value.kind == "decode"
    assert repr(text) in str(err.value)


def test_11_2_a_played_table_files_every_part_under_a_key_its_text_names() -> None:
    players, seed = 3, 4
    _, sessions = make_table(
        players, seed, game="reign", round_limit=rules("reign").default_round_limit
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for("reign")["random"](root.child(f"bot/{s}")) for s in range(players)]
    run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert all(s.finished is not None for s in sessions)
    filed = [key for (_, key) in sessions[0]._origin]  # noqa: SLF001 -- what the session filed
    assert all(PW.parse_part_key(str(key)) == key for key in filed)
    assert {key.KIND for key in filed} >= {"key", "commit", "reveal", "shuffle", "move", "audit"}
