"""Issue 31: the panes break lines at spaces, never inside a word they could keep whole."""

from __future__ import annotations

from fairtable.client.room import SECTION, clipped, cut_words
from fairtable.client.text_rows import CUT_MARK, SPLIT_MARK, listed, shortened, word_rows


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


def test_a_name_too_long_for_its_column_is_shortened_after_a_whole_word_with_one_mark() -> None:
    """Issue 31 (N10): "Shieldwal.", "Reassembly ." and "Cannon of the K." -- cut
    mid-word, a mark after a space, a dangling "of the"."""
    assert shortened("Reassembly Protocol", 14) == "Reassembly" + CUT_MARK
    assert shortened("Cannon of the Kings", 16) == "Cannon" + CUT_MARK
    assert shortened("Axiom, the First Awakened", 12) == "Axiom" + CUT_MARK
    assert shortened("Fabrication Vault", 8) == "Fabrica" + CUT_MARK  # one word too long
    assert shortened("Shieldwall Cohort", 17) == "Shieldwall Cohort"  # fits: whole
    for width in range(2, 30):
        cut = shortened("Genetrix Ysolde, the Unfinished", width)
        assert len(cut) <= width and cut.count(CUT_MARK) <= 1 and " " + CUT_MARK not in cut


def test_a_cut_pane_of_sections_says_each_sections_count_not_one_total() -> None:
    """Issue 31 (N10): "Hand 7" with cards 1-4 shown said "+8 more", the rows of every
    section after it counted too."""
    lines = [("class:title " + SECTION, "Hand"), ("class:title", " 7\n")]
    lines += [("", f"{i} card {i}\n") for i in range(1, 8)]
    lines += [("class:title", "Your "), ("class:title " + SECTION, "forge"), ("", " (acc N)\n")]
    lines += [("", "1 forge card\n"), ("", "2 forge card\n")]
    wide = "".join(text for _, text in clipped(lines, 6, 80, "Esc shows them"))
    assert wide.splitlines() == [
        "Hand 7",
        "1 card 1",
        "2 card 2",
        "3 card 3",
        "4 card 4",
        "Hand: +3 more; forge: +2 more (Esc shows them)",
    ]
    narrow = "".join(text for _, text in clipped(lines, 6, 30, "Esc shows them"))
    assert narrow.splitlines()[-1] == "Hand +3, forge +2 (Esc)"
    assert cut_words([("", False)] * 3, "Esc shows them", 38) == "+3 more (Esc shows them)"
    plain = "".join(text for _, text in clipped([("", f"{i}\n") for i in range(9)], 4, 38))
    assert plain.splitlines()[-1] == "+6 more (a taller window shows them)"  # no sections


def test_a_list_breaks_between_its_items_and_reads_aloud_as_one_line() -> None:
    """Issue 31 (N10): a list of card names broke inside a name ("Cannon of the K." was
    shortened though the row wrapped anyway); it breaks at ", " instead."""
    items = ["The Muster Roll", "Cannon of the Kings", "Orbital Beacon"]
    assert listed("you Echoes: ", items, ", ", 38).split("\n") == [
        "you Echoes: The Muster Roll,",
        "  Cannon of the Kings, Orbital Beacon",
    ]
    assert listed("  L: ", ["Phalanx 2/1 2d", "Mites 1/0 1d"], " | ", 21).split("\n") == [
        "  L: Phalanx 2/1 2d |",
        "    Mites 1/0 1d",
    ]
    assert listed("you Echoes: ", items, ", ", None) == "you Echoes: " + ", ".join(items)


def test_a_cut_counts_the_rows_of_one_list_as_one_line() -> None:
    """A pile's list broken over three rows is one line when a cut counts it ("scrap +1",
    not "+3"), as its cards are not three lines of the pane."""
    scrap = listed("your scrap: ", ["Last Stand", "Hunter-Seeker", "Shield Bash"], ", ", 16)
    lines = [("class:title " + SECTION, "Hand"), ("", " 1\n1 card\n")]
    lines += [("", "your "), (SECTION, "scrap"), ("", scrap[len("your scrap") :] + "\n")]
    assert scrap.count("\n") == 2
    said = "".join(text for _, text in clipped(lines, 3, 80, "Esc shows them"))
    assert said.splitlines()[-1] == "scrap: +1 more (Esc shows them)"
