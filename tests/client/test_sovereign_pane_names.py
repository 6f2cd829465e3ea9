"""Issue 31 (N10): Sovereign's panes at 80 and 140 columns say card names whole wherever a
row breaks at words (the table pane: lanes, augments, the battle, facilities, reflexes,
cards seen; the side pane's Echoes and scrap), shorten a name only where a column cannot
hold it (a hand or forge row), after a whole word with one mark that ``info`` still finds,
and a cut of the side pane says what it cuts section by section ("Hand: +3 more")."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from fairtable.client.room import SECTION
from fairtable.client.sovereign.model import ClientModel
from fairtable.client.sovereign.panes import DEFS, name
from fairtable.client.text_rows import CUT_MARK
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame
from tests.client.screen import render
from tests.client.test_sovereign_model import first_forge, model_for, play

TABLE_80 = 80 - 38 - 1  # the table pane's columns at 80 (the side pane 38, the bar 1)


@cache
def busy_table() -> tuple[SovereignGame, Decision]:
    """A seeded decision with a unit carrying an augment, a facility, a reflex in play,
    Echoes scored, scrap, and a hand card whose name is longer than 19 columns."""
    found: list[tuple[SovereignGame, Decision]] = []

    def grab(game: SovereignGame, d: Decision) -> None:
        pub = game.public()
        boards = pub["boards"]
        hand = game.view(d.seat).hand
        if found or not hand:
            return
        if (
            any(u["augments"] for u in pub["units"].values())
            and any(b["facilities"] for b in boards)
            and any(b["reflexes"] for b in boards)
            and any(b["scored"] for b in boards)
            and any(b["scrap"] for b in boards)
            and max(len(DEFS[card].name) for _, card in hand) > 19
        ):
            found.append((game.copy(), d))

    play(["heuristic", "heuristic"], 1, on_decision=grab, round_limit=12)
    return found[0]


def busy_model() -> ClientModel:
    return model_for(*busy_table())[0]


def panes_of(screen: list[str], width: int) -> tuple[list[str], list[str]]:
    """The table pane's and the side pane's rows of a drawn screen (above the rule)."""
    rule = next(i for i, row in enumerate(screen) if row.startswith("--"))
    table = width - (max(24, min(width // 2 - 2, width * 48 // 100, 60))) - 1
    upper = screen[:rule]
    return [row[:table].rstrip() for row in upper], [row[table + 1 :].rstrip() for row in upper]


def hand_rows(side: list[str]) -> dict[int, str]:
    """The side pane's hand rows by number (those after its title, before your forge's)."""
    rows = side[1 : next((i for i, row in enumerate(side) if row.startswith("Your forge")), None)]
    return {int(row.split(" ", 1)[0]): row for row in rows if row[:1].isdigit()}


def flat(rows: list[str]) -> str:
    """Rows joined as one text, a row broken at a space read as that space."""
    return re.sub(r"\s+", " ", " ".join(rows))


def names_in_play(view: Any) -> set[str]:
    """Every card name the table pane shows: units and their augments, facilities and
    theirs, reflexes, loose augments."""
    table = view.table
    out: set[str] = set()
    for b in table.boards:
        for lane in b.lanes:
            for ref in lane:
                out |= {name(ref), *(name(a) for a in table.units[ref].augments)}
        for ref in b.facilities:
            out |= {name(ref), *(name(a) for a in table.facilities[ref].augments)}
        out |= {name(ref) for ref, _, _ in b.reflexes} | {name(ref) for ref in b.loose}
    return out


@pytest.mark.parametrize("width", [80, 140])
def test_the_table_pane_says_every_card_in_play_whole_and_breaks_only_at_words(
    width: int,
) -> None:
    model = busy_model()
    table, side = panes_of(render(model, width, 120), width)  # tall: nothing cut
    text = flat(table)
    wanted = names_in_play(model.view)
    assert wanted and all(n in text for n in wanted), (wanted, "\n".join(table))
    assert CUT_MARK not in text and not re.search(r"[a-z]\.(?=[ +;,|]|$)", text), text
    assert all(row.strip() not in (".", "+") for row in table)  # no mark left on a row alone
    piles = flat(side)
    boards = model.view.table.boards
    assert all(name(r) in piles for b in boards for r in (*b.scored, *b.scrap)), piles
    start = next(i for i, row in enumerate(side) if re.match(r"\S.* (Echoes|scrap): ", row))
    names = {d.name for d in DEFS.values()}
    for row in side[start:]:  # the lists break between cards, never inside a name
        cards = row.split(": ", 1)[1] if ": " in row else row.strip()
        if cards:
            assert all(card in names for card in cards.rstrip(",").split(", ")), row


@pytest.mark.parametrize("width", [80, 140])
def test_a_hand_row_shortens_a_name_only_where_its_column_cannot_hold_it(width: int) -> None:
    model = busy_model()
    _, side = panes_of(render(model, width, 120), width)
    hand = model.view.hand
    shown = hand_rows(side)
    long_kept = 0
    for number, (_, card) in enumerate(hand, start=1):
        row, whole = shown[number], name(card)
        assert len(row) <= len(side[0]) or len(row) <= width, row
        if whole in row:
            long_kept += len(whole) > 19
            continue
        cut = row[len(f"{number} ") :].split(CUT_MARK)[0]  # shortened: after a whole word
        assert CUT_MARK in row and whole.startswith(cut) and whole[len(cut)] in " ,", row
        model.command(f"info {cut}{CUT_MARK}")  # typed as the pane shows it
        assert whole in model.info, model.info
    assert long_kept or width == 80  # a wide pane holds the long name whole


def test_a_cut_side_pane_says_how_many_of_the_hand_it_cuts_and_names_the_rest() -> None:
    """Issue 31 (N10): "Hand 7" with cards 1-4 shown said "+8 more", every section's rows
    counted; the cut says the hand's own count first, then the rest."""
    game, d = first_forge()
    model, _ = model_for(game, d)
    model.log += [f"before {i}" for i in range(20)]
    model.log_mark = len(model.log)
    model.log += [f"since {i}" for i in range(8)]  # the log since our move wants rows
    screen = render(model, 80, 24)
    _, side = panes_of(screen, 80)
    hidden = len(model.view.hand) - len(hand_rows(side))
    said = next(row for row in reversed(side) if row)
    assert hidden > 0, "\n".join(screen)
    forge = len(model.view.table.boards[d.seat].forge)
    assert re.fullmatch(rf"Hand \+{hidden}, forge \+{forge} \(Esc shows them\)", said), said
    screen = render(model, 80, 60)  # a taller window: nothing cut, nothing said
    assert not any(" more" in row or "below" in row for row in panes_of(screen, 80)[1])


def test_every_section_of_the_side_pane_is_marked() -> None:
    """The hand, your forge, the Echoes and the scrap each start with a named section."""
    from fairtable.client.sovereign.panes import side_lines

    names = [text for style, text, *_ in side_lines(busy_model(), 38) if SECTION in style.split()]
    assert names[:2] == ["Hand", "forge"] and {"Echoes", "scrap"} <= set(names), names


def test_the_hand_and_forge_columns_line_up_and_a_shortened_name_sets_its_width() -> None:
    """At 80 columns: a name longer than 19 columns widens the hand's name column for every
    row (the tags line up), and a forge name shortened to fit pads the column only as far
    as what it shows ("The Architect's… 1/3", not a run of blanks after the mark)."""
    from fairtable.client.sovereign.panes import column_rows

    ids = {d.name: card for card, d in DEFS.items()}
    hand = ["Quartermaster's Depot", "Command Core", "Artillery Rangefinder"]
    rows = column_rows([(f"{i} ", ids[n], " F4") for i, n in enumerate(hand, 1)], 19, 38)
    texts = [text.rstrip("\n") for _, text, *_ in rows]
    assert {text.index(" F4") for text in texts} == {2 + len("Artillery Rangefinder")}, texts
    forge = ["The Architect's Blueprint", "Siege Mortar Team"]
    rows = column_rows([(f"{i} ", ids[n], " 1/3 2 to go") for i, n in enumerate(forge, 1)], 16, 38)
    texts = [text.rstrip("\n") for _, text, *_ in rows]
    assert texts[0] == f"1 The Architect's{CUT_MARK}  1/3 2 to go", texts
    assert texts[1] == "2 Siege Mortar Team 1/3 2 to go", texts
