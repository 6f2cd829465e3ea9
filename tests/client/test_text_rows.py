"""Issue 31: the panes break lines at spaces, never inside a word they could keep whole."""

from __future__ import annotations

from fairtable.client.room import clipped
from fairtable.client.text_rows import word_rows


def _texts(rows: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(text for _, text in row) for row in rows]


def test_a_status_line_breaks_at_a_space_and_keeps_its_styles() -> None:
    row = [("class:dim", "2 of 3 seats taken "), ("bold", "(no clock; offline limit 2:00)")]
    rows = word_rows(row, 41)
    assert _texts(rows) == ["2 of 3 seats taken (no clock; offline", "  limit 2:00)"]
    assert ("bold", "limit 2:00)") in rows[1]
    assert all(len(text) <= 41 for text in _texts(rows))


def test_a_word_longer_than_a_row_is_broken_where_it_must_and_short_lines_stay() -> None:
    assert _texts(word_rows([("", "see " + "x" * 30)], 12)) == [
        "see",
        "  xxxxxxxxxx",
        "  xxxxxxxxxx",
        "  xxxxxxxxxx",
    ]
    assert word_rows([("s", "short")], 12) == [[("s", "short")]]


def test_the_hand_pane_keeps_a_card_name_whole() -> None:
    lines = [("", " 3. High Confessor Aubrel Oriel [Oriel 3 unique]\n"), ("", " 4. Gloam")]
    out = "".join(text for _, text, *_ in clipped(lines, 10, 38))
    assert out.split("\n") == [" 3. High Confessor Aubrel Oriel [Oriel", "  3 unique]", " 4. Gloam"]
