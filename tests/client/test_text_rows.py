"""Issue 31: the panes break lines at spaces, never inside a word they could keep whole."""

from __future__ import annotations

from fairtable.client.room import clipped
from fairtable.client.text_rows import SPLIT_MARK, word_rows


def _texts(rows: list[list[tuple[str, str]]]) -> list[str]:
    return ["".join(text for _, text in row) for row in rows]


def test_a_status_line_breaks_at_a_space_and_keeps_its_styles() -> None:
    row = [("class:dim", "2 of 3 seats taken "), ("bold", "(no clock; offline limit 2:00)")]
    rows = word_rows(row, 41)
    assert _texts(rows) == ["2 of 3 seats taken (no clock; offline", "  limit 2:00)"]
    assert ("bold", "limit 2:00)") in rows[1]
    assert all(len(text) <= 41 for text in _texts(rows))


def test_a_word_longer_than_a_row_is_split_marked_and_short_lines_stay() -> None:
    assert _texts(word_rows([("", "see " + "x" * 30)], 12)) == [
        "see",
        "  xxxxxxxxx" + SPLIT_MARK,
        "  xxxxxxxxx" + SPLIT_MARK,
        "  xxxxxxxxx" + SPLIT_MARK,
        "  xxx",
    ]
    assert word_rows([("s", "short")], 12) == [[("s", "short")]]


def test_only_a_word_longer_than_the_pane_is_split() -> None:
    """Issue 31: a long word that fits a row of its own moves down whole; a line of one
    word (no space to break at) longer than the pane is split, marked, not left to the
    terminal to fold mid-word unmarked."""
    line = "Malediction of Weariness: the audit path /home/ada/.local/share/fairtable/x.log"
    rows = _texts(word_rows([("", line)], 38))
    assert all(len(r) <= 38 for r in rows)
    words = [w for r in rows for w in r.replace(SPLIT_MARK, "").split()]
    assert "Weariness:" in words and SPLIT_MARK in rows[-2]
    assert "".join(r.strip().rstrip(SPLIT_MARK) for r in rows[-2:]).endswith("/x.log")
    assert all(SPLIT_MARK not in r for r in rows[:-2])
    one_word = _texts(word_rows([("", "y" * 20)], 12))
    assert one_word == ["y" * 11 + SPLIT_MARK, "  " + "y" * 9]


def test_the_hand_pane_keeps_a_card_name_whole() -> None:
    lines = [("", " 3. High Confessor Aubrel Oriel [Oriel 3 unique]\n"), ("", " 4. Gloam")]
    out = "".join(text for _, text, *_ in clipped(lines, 10, 38))
    assert out.split("\n") == [" 3. High Confessor Aubrel Oriel [Oriel", "  3 unique]", " 4. Gloam"]


def test_printed_rows_break_at_spaces_and_never_inside_a_path() -> None:
    """Issue 31: a command's printed lines keep to 80 columns at word boundaries; a path
    (even one with a space in it) is one piece, alone on its row when longer than one."""
    from fairtable.client.text_rows import plain_rows, verdict_rows

    assert plain_rows(["OK", "a:", "b"]) == ["OK a: b"]
    assert plain_rows([]) == [""]
    words = ("word " * 40).split()
    rows = plain_rows(words)
    assert all(len(r) <= 80 for r in rows) and all(r.startswith("  ") for r in rows[1:])
    assert " ".join(" ".join(rows).split()) == " ".join(words)
    path = "/home/a user/" + "x" * 90 + "/game.log"
    assert plain_rows(["see", path, "then"]) == ["see", f"  {path}", "  then"]
    summary = "verified: 491 entries, every signature, commitment, proof and shuffle checks out"
    assert verdict_rows("OK", "617d09e57cc4", "winner Ann") == ["OK 617d09e57cc4: winner Ann"]
    short = verdict_rows("OK", "617d09e57cc4", summary + "; winner Ada (heuristic)")
    assert short[0].startswith("OK 617d09e57cc4: verified:") and len(short) == 2
    assert all(len(r) <= 80 for r in short)
    long = verdict_rows("FAILED", path, summary)
    assert long[:2] == ["FAILED", f"  {path}"] and all(len(r) <= 80 for r in long[2:])
    assert " ".join(" ".join(long[2:]).split()) == summary
