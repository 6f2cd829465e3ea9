"""Reign's compact hand (client.reign.panes.hand_columns), drawn across the screen when the
hand one card a row and the log's lines since our move cannot both fit (issue 31, S1b): two
columns of "N. name [tag]", every name whole -- a card too long for its column goes on on
the row under it, its tag never broken -- and, when even that is too tall for the rows
given, a last row saying which cards are cut and what shows them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fairtable.client.reign.panes import hand_columns
from fairtable.client.reign.words import card_label
from fairtable.client.seat_names import SeatNames
from fairtable.engine.reign import standard_catalog

DEFS = standard_catalog().defs
LONGEST = sorted(DEFS, key=lambda card: (-len(card_label(card)), card))[:11]


@dataclass
class Hand:
    """What hand_columns reads of a screen model: the hand, the cards picked, the view."""

    cards: list[str]
    chosen: list[tuple[str, int | None]] = field(default_factory=list)
    view: None = None
    names: SeatNames = field(default_factory=lambda: SeatNames(["", "", "Mira"], you=0))

    def hand(self) -> list[str]:
        return self.cards

    def picked(self) -> list[tuple[str, int | None]]:
        return self.chosen


def _rows(model: Hand, width: int, rows: int = 10**4) -> list[str]:
    text = "".join(part for _, part in hand_columns(model, width, rows, "Esc shows them"))
    return text.rstrip("\n").split("\n")


def _cards(rows: list[str]) -> dict[int, str]:
    """The cards shown, by number, each column's rows joined again (a card's further rows
    start with spaces in its column; the second column starts where its numbers do)."""
    starts = [m.start() for row in rows for m in re.finditer(r"(?<=  )[ >]\d+\. ", row)]
    second = min(starts, default=max(map(len, rows)))
    joined: list[str] = []
    for column in ([row[:second] for row in rows], [row[second:] for row in rows]):
        for i, row in enumerate(column):
            if row.startswith("  ") and row.strip() and i:
                joined[-1] = joined[-1].rstrip() + " " + row.strip()
            else:
                joined.append(row)
    entry = re.compile(r"(?:^|\s)[ >]?(\d+)\. (.+?\])")
    return {int(n): label for row in joined for n, label in entry.findall(row)}


def test_the_longest_names_show_whole_in_two_columns_at_80_columns() -> None:
    model = Hand(list(LONGEST))
    rows = _rows(model, 80)
    assert rows[0] == "Your hand: 11 cards"
    assert all(len(row) <= 80 for row in rows), rows
    assert _cards(rows[1:]) == {i: card_label(c) for i, c in enumerate(model.cards, start=1)}
    for row in rows[1:]:  # a tag is never broken over two rows
        assert row.count("[") == row.count("]"), rows
    assert len(rows) <= 1 + len(model.cards), rows  # even these: no more than a card a row


def test_a_hand_of_names_that_fit_takes_a_row_for_two_cards() -> None:
    shortest = sorted(DEFS, key=lambda card: (len(card_label(card)), card))[:11]
    model = Hand(shortest)
    rows = _rows(model, 80)
    assert len(rows) == 1 + 6, rows
    assert _cards(rows[1:]) == {i: card_label(c) for i, c in enumerate(model.cards, start=1)}


def test_a_wide_terminal_shows_every_card_on_one_row_beside_another() -> None:
    model = Hand(list(LONGEST))
    rows = _rows(model, 120)
    assert len(rows) == 1 + 6, rows  # the title and six rows of two cards
    assert _cards(rows[1:]) == {i: card_label(c) for i, c in enumerate(model.cards, start=1)}


def test_cards_picked_are_marked_and_say_where_they_go() -> None:
    cards = list(LONGEST[:8])
    model = Hand(cards, chosen=[(cards[2], 4), (cards[5], 2), (cards[6], None)])
    rows = _rows(model, 80)
    text = "\n".join(rows)
    assert all(len(row) <= 80 for row in rows), rows  # measured with the seat's name
    assert re.search(r">3\. .*-> seat 4", text.replace("\n", " ")), text
    assert re.search(r">6\. .*-> Mira\b", text.replace("\n", " ")), text
    assert ">7. " in text and " 1. " in text


def test_rows_short_the_last_row_says_which_cards_are_cut() -> None:
    model = Hand(list(LONGEST[:8]))
    rows = _rows(model, 80, rows=4)
    assert len(rows) == 4, rows
    cut = re.fullmatch(r"\+(\d+) more: cards ([\d, ]+) \(Esc shows them\)", rows[-1])
    assert cut, rows
    said = [int(n) for n in cut.group(2).split(", ")]
    assert sorted([*_cards(rows[1:-1]), *said]) == list(range(1, 9)), rows
    assert int(cut.group(1)) == len(said)
