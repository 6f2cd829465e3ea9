"""A forge card's place: each word reads back as the placement that writes it, and a word
that spells no place reads as None (the rules then refuse the answer)."""

from __future__ import annotations

import pytest

from fairtable.engine.sovereign.placement import LOOSE, NOWHERE, Placement, in_lane, on_host


@pytest.mark.parametrize(
    ("word", "placement"),
    [
        ("", NOWHERE),
        ("loose", LOOSE),
        ("lane:0", in_lane(0)),
        ("lane:1", in_lane(1)),
        ("host:1:sentinel", on_host("1:sentinel")),
    ],
)
def test_a_place_word_reads_as_the_placement_that_writes_it(
    word: str, placement: Placement
) -> None:
    assert Placement.parse(word) == placement
    assert placement.word() == word


@pytest.mark.parametrize("word", ["lane:2", "lane:01", "lane:", "Loose", "host", 3, None])
def test_a_word_that_spells_no_place_reads_as_none(word: object) -> None:
    assert Placement.parse(word) is None
