"""Custom decks, rulebook "Customizing Your Deck" (l. 259-267; readings in
docs/rules/sovereign.md §1.13): the deck file format, every way a deck can be refused (a
:class:`DeckError` naming the file, the card and the problem), each faction's own list as a
deck, and custom decks in whole games with the local referee."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import CardDataError, EngineError, MalformedAnswer
from fairtable.engine.requests import Shuffle
from fairtable.engine.sovereign import RULES, SovereignConfig, effects, flow, new_game
from fairtable.engine.sovereign.cards import standard_catalog
from fairtable.engine.sovereign.decks import (
    DECK_RULE,
    Deck,
    DeckError,
    load_deck,
    parse_deck,
    type_counts,
)
from tests.engine.sovereign.driver import Table
from tests.engine.sovereign.test_sovereign_games import card_zones

CATALOG = standard_catalog()
ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "docs" / "cards" / "sovereign-sample-deck.toml"
FACTIONS = CATALOG.faction_ids


def faction_data(fid: str) -> dict[str, Any]:
    f = CATALOG.faction(fid)
    return {"leader": f.leader, "cards": list(f.cards), "echoes": list(f.echoes)}


def sample_data() -> dict[str, Any]:
    return load_deck(SAMPLE).data()


def toml(data: dict[str, Any]) -> str:
    """A deck file's text for ``data`` (strings and lists of strings only)."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list):
            lines.append(f"{key} = [{', '.join(repr(v) for v in value)}]")
        else:
            lines.append(f"{key} = {value!r}")
    return "\n".join(lines) + "\n"


def refused(data: Any, file: str = "decks/test.toml") -> DeckError:
    with pytest.raises(DeckError) as info:
        parse_deck(data, CATALOG, file)
    err = info.value
    message = str(err)
    assert message[: len(file) + 1] in (file + ":", file + ",")
    assert message.endswith(f"({DECK_RULE})")
    assert "\n" not in message and "Traceback" not in message
    assert isinstance(err, CardDataError) and err.rule == DECK_RULE
    return err


def swap(data: dict[str, Any], field: str, old: str, new: str) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out[field] = [new if c == old else c for c in out[field]]
    return out


# -- the deck file -----------------------------------------------------------------------
@pytest.mark.parametrize("fid", FACTIONS)
def test_deck_building_each_faction_list_is_a_deck(fid: str) -> None:
    """A pre-built faction deck is a legal custom deck (30 of its own cards, 20 Echoes)."""
    f = CATALOG.faction(fid)
    deck = load_deck(toml({"name": f.name, **faction_data(fid)}), CATALOG, f"{fid}.toml")
    assert deck == Deck.of_faction(f)
    assert (deck.leader, deck.citadel, deck.faction) == (f.leader, f.citadel, fid)
    assert deck.deck == f.deck and len(deck.deck) == 50


def test_deck_building_sample_deck_file() -> None:
    deck = load_deck(SAMPLE)
    assert deck.name == "Iron and Wind"
    assert (deck.leader, deck.citadel, deck.faction) == (
        "md-tribune-castra",
        "md-bastion-of-the-legion",
        "myrmidon",
    )
    assert Counter(CATALOG.defs[c].faction for c in deck.cards) == {
        "myrmidon": 15,
        "windwalker": 15,
    }
    assert type_counts(deck) == {"unit": 12, "augment": 6, "facility": 6, "reflex": 6}
    assert load_deck(str(SAMPLE)) == deck == load_deck(SAMPLE.read_text(encoding="utf-8"))
    assert parse_deck(deck.data(), CATALOG) == deck


def test_deck_building_cards_are_sorted_and_name_is_optional() -> None:
    data = sample_data()
    del data["name"]
    data["cards"].reverse()
    deck = parse_deck(data, CATALOG)
    assert deck.name == "" and deck.cards == tuple(sorted(deck.cards))
    assert deck.echoes == tuple(sorted(deck.echoes))


def test_deck_building_exactly_15_of_the_leaders_faction_is_enough() -> None:
    """l. 264: 15 from the Leader's faction; l. 265: 15 more with no other limit."""
    data = faction_data("machina")
    data["cards"] = data["cards"][:15] + list(CATALOG.faction("utopian").cards[:15])
    data["echoes"] = list(CATALOG.faction("undercity").echoes)
    deck = parse_deck(data, CATALOG)
    assert deck.faction == "machina" and deck.citadel == "ms-foundry-core"


def test_deck_building_the_15_more_may_come_from_several_factions() -> None:
    data = faction_data("windwalker")
    others = [
        c
        for f in ("machina", "myrmidon", "neogenesis", "undercity", "utopian")
        for c in CATALOG.faction(f).cards[:3]
    ]
    data["cards"] = data["cards"][:15] + others
    data["echoes"] = [e for f in FACTIONS for e in CATALOG.faction(f).echoes[:4]][:20]
    assert parse_deck(data, CATALOG).faction == "windwalker"


def test_deck_building_same_name_different_cards_are_distinct() -> None:
    """Uniqueness is by card (id): Machina's and the Remnant's Bastion Walkers are two cards."""
    data = faction_data("machina")
    data["cards"] = [c for c in data["cards"] if c != "ms-scrap-mites"] + ["ur-bastion-walker"]
    assert CATALOG.defs["ur-bastion-walker"].name == CATALOG.defs["ms-bastion-walker"].name
    assert "ur-bastion-walker" in parse_deck(data, CATALOG).cards


# -- refused decks -------------------------------------------------------------------------
def test_deck_building_unknown_card_id() -> None:
    err = refused(swap(sample_data(), "cards", "ww-sentinels", "ww-sentinel"))
    assert (err.card, err.field) == ("ww-sentinel", "cards")
    assert "no card with this id" in str(err)


def test_deck_building_unknown_echo_id() -> None:
    err = refused(swap(sample_data(), "echoes", "ww-echo-storm-map", "ww-echo-stormmap"))
    assert (err.card, err.field) == ("ww-echo-stormmap", "echoes")


def test_deck_building_unknown_leader() -> None:
    data = sample_data()
    data["leader"] = "md-tribune"
    err = refused(data)
    assert (err.card, err.field) == ("md-tribune", "leader")


@pytest.mark.parametrize(
    "card,kind",
    [
        ("md-nautilus", "unit"),
        ("md-bastion-of-the-legion", "citadel"),
        ("md-echo-first-oath", "echo"),
    ],
)
def test_deck_building_leader_must_be_a_leader(card: str, kind: str) -> None:
    data = sample_data()
    data["leader"] = card
    err = refused(data)
    assert (err.card, err.field) == (card, "leader")
    assert f"{kind}, not a Leader" in str(err)


def test_deck_building_missing_leader() -> None:
    data = sample_data()
    del data["leader"]
    assert refused(data).field == "leader"


@pytest.mark.parametrize("count", [29, 31, 0])
def test_deck_building_thirty_cards(count: int) -> None:
    data = sample_data()
    extra = [c for c in CATALOG.faction("utopian").cards]
    data["cards"] = (data["cards"] + extra)[:count]
    err = refused(data)
    assert err.field == "cards" and f"not {count}" in str(err)


@pytest.mark.parametrize("count", [19, 21])
def test_deck_building_twenty_echoes(count: int) -> None:
    data = sample_data()
    data["echoes"] = (data["echoes"] + list(CATALOG.faction("utopian").echoes))[:count]
    err = refused(data)
    assert err.field == "echoes" and f"20 unique Echoes, not {count}" in str(err)


def test_deck_building_duplicate_card() -> None:
    data = swap(sample_data(), "cards", "ww-sentinels", "md-nautilus")
    err = refused(data)
    assert (err.card, err.field) == ("md-nautilus", "cards")
    assert "listed twice" in str(err)


def test_deck_building_duplicate_echo() -> None:
    data = swap(sample_data(), "echoes", "ww-echo-storm-map", "md-echo-first-oath")
    err = refused(data)
    assert (err.card, err.field) == ("md-echo-first-oath", "echoes")


def test_deck_building_too_few_cards_of_the_leaders_faction() -> None:
    data = swap(sample_data(), "cards", "md-nautilus", "ur-ark-tutors")
    err = refused(data)
    assert (err.card, err.field) == ("md-tribune-castra", "cards")
    assert "only 14 of the 30 cards" in str(err) and "Myrmidon Dominion" in str(err)


def test_deck_building_echo_among_the_cards() -> None:
    err = refused(swap(sample_data(), "cards", "ww-sentinels", "ur-echo-sun-prism"))
    assert (err.card, err.field) == ("ur-echo-sun-prism", "cards")
    assert "is an Echo" in str(err)


def test_deck_building_non_echo_among_the_echoes() -> None:
    err = refused(swap(sample_data(), "echoes", "ww-echo-storm-map", "ww-sentinels"))
    assert (err.card, err.field) == ("ww-sentinels", "echoes")
    assert "unit, not an Echo" in str(err)


@pytest.mark.parametrize(
    "card", ["ww-skyqueen-aerin", "ww-cloudspire", "md-tribune-castra", "md-bastion-of-the-legion"]
)
def test_deck_building_no_leader_or_citadel_among_the_cards(card: str) -> None:
    """The 15 more have "no limitations beyond ... one of each card" (l. 265), but a Leader
    and a Citadel are set aside, never shuffled in (l. 61): the 30 are deck cards."""
    err = refused(swap(sample_data(), "cards", "ww-sentinels", card))
    assert (err.card, err.field) == (card, "cards")


def test_deck_building_names_no_citadel() -> None:
    data = sample_data()
    data["citadel"] = "ww-cloudspire"
    err = refused(data)
    assert err.field == "citadel" and "Citadel of its Leader's faction" in str(err)


@pytest.mark.parametrize(
    "data,field",
    [
        ([], ""),
        ("leader = 'x'", ""),
        ({"leader": 3, "cards": [], "echoes": []}, "leader"),
        ({"leader": "md-tribune-castra", "cards": "md-nautilus", "echoes": []}, "cards"),
        ({"leader": "md-tribune-castra", "cards": [1, 2], "echoes": []}, "cards"),
        ({"leader": "md-tribune-castra", "echoes": []}, "cards"),
        (
            {"leader": "md-tribune-castra", "cards": list(CATALOG.faction("myrmidon").cards)},
            "echoes",
        ),
        ({"leader": "md-tribune-castra", "cards": [], "echoes": [], "deck": []}, "deck"),
        ({"name": 7, "leader": "md-tribune-castra", "cards": [], "echoes": []}, "name"),
        ({"name": "x" * 81, "leader": "md-tribune-castra", "cards": [], "echoes": []}, "name"),
    ],
)
def test_deck_building_malformed_file(data: Any, field: str) -> None:
    assert refused(data).field == field


def test_deck_building_not_toml_and_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match=r"^deck: not valid TOML"):
        load_deck("leader = [\ncards = ")
    path = tmp_path / "mine.toml"
    with pytest.raises(DeckError, match=r"mine\.toml: cannot read the deck file"):
        load_deck(path)
    path.write_bytes(b"\xff\xfe leader = 1")
    with pytest.raises(DeckError, match=r"mine\.toml: cannot read the deck file"):
        load_deck(path)
    path.write_text(toml(swap(sample_data(), "cards", "ww-sentinels", "ww-nope")))
    with pytest.raises(DeckError, match=r"mine\.toml: card 'ww-nope', field 'cards'"):
        load_deck(path)
    with pytest.raises(DeckError, match=r"^deck: expected a path or TOML text"):
        load_deck(42)  # type: ignore[arg-type]


def test_deck_building_refusal_changes_nothing() -> None:
    data = swap(sample_data(), "cards", "ww-sentinels", "md-nautilus")
    before = copy.deepcopy(data)
    defs = dict(CATALOG.defs)
    refused(data)
    assert data == before and CATALOG.defs == defs and standard_catalog() is CATALOG


_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(sorted(CATALOG.defs)),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.dictionaries(
        st.sampled_from(["name", "leader", "cards", "echoes", "x"]), _VALUES, max_size=4
    )
    | _VALUES
)
def test_deck_building_any_garbage_is_a_deck_error(data: Any) -> None:
    """No input crashes with anything but a one-line DeckError naming the file."""
    try:
        parse_deck(data, CATALOG, "fuzz.toml")
    except DeckError as err:
        assert str(err).startswith("fuzz.toml") and "\n" not in str(err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drop=st.integers(0, 29), add=st.sampled_from(sorted(CATALOG.defs)))
def test_deck_building_one_card_swapped(drop: int, add: str) -> None:
    """Swapping one card of the sample: a deck, or a DeckError naming the new card or the
    Leader (for the faction count)."""
    data = sample_data()
    old = data["cards"][drop]
    data["cards"][drop] = add
    try:
        deck = parse_deck(data, CATALOG)
    except DeckError as err:
        assert err.card in (add, "md-tribune-castra")
    else:
        d = CATALOG.defs[add]
        assert d.type in ("unit", "augment", "facility", "reflex")
        assert add == old or add not in sample_data()["cards"]
        assert len(set(deck.cards)) == 30


# -- the table -------------------------------------------------------------------------------
def custom(fid: str, other: str, name: str = "") -> Deck:
    """A deck of ``fid``'s Leader, 15 of its cards, 15 of ``other``'s, 10 + 10 Echoes."""
    f, o = CATALOG.faction(fid), CATALOG.faction(other)
    return parse_deck(
        {
            "name": name,
            "leader": f.leader,
            "cards": list(f.cards[::2] + o.cards[1::2]),
            "echoes": list(f.echoes[:10] + o.echoes[10:]),
        },
        CATALOG,
    )


def test_deck_building_no_decks_changes_nothing() -> None:
    plain = new_game(SovereignConfig(3))
    nones = new_game(SovereignConfig(3, decks=(None, None, None)))
    assert plain.digest() == nones.digest() and "decks" not in plain.public()
    assert plain.pending() == nones.pending()


def test_deck_building_faction_decks_given_as_decks_play_the_same() -> None:
    ids = SovereignConfig(2).seat_factions(CATALOG)
    decks = tuple(Deck.of_faction(CATALOG.faction(f)) for f in ids)
    a = new_game(SovereignConfig(2))
    b = new_game(SovereignConfig(2, decks=decks))
    assert a.pending() == b.pending() and a.state.hidden == b.state.hidden
    assert [x.public() for x in a.state.boards] == [x.public() for x in b.state.boards]


def test_deck_building_a_seat_plays_its_deck() -> None:
    sample = load_deck(SAMPLE)
    game = new_game(SovereignConfig(2, decks=(None, sample)))
    s = game.state
    b = s.boards[1]
    assert (b.faction, b.leader, b.citadel_card) == ("myrmidon", sample.leader, sample.citadel)
    assert s.boards[0].faction == "machina"  # the first faction no deck's Leader is from
    assert s.hidden[1] == list(sample.deck) and flow.deck_list(s, 1) == sample.deck
    shuffles = [r for r in game.pending() if isinstance(r, Shuffle)]
    assert shuffles[0].pile == "deck:0" and len(shuffles[0].cards) == 50
    # the deck lists are public: in every view, and in the digest
    for seat in (None, 0, 1):
        assert game.view(seat).public["decks"] == [None, sample.data()]
    other = new_game(SovereignConfig(2, decks=(None, custom("myrmidon", "utopian"))))
    assert other.digest() != game.digest()


def test_deck_building_decks_through_the_rules_options() -> None:
    sample = load_deck(SAMPLE)
    game = RULES.new_game(2, None, None, (("decks", (sample, None)),))
    assert game.state.boards[0].leader == sample.leader
    as_data = RULES.new_game(2, None, None, (("decks", [sample.data(), None]),))
    assert as_data.digest() == game.digest()
    bad = swap(sample.data(), "cards", "ww-sentinels", "ww-sentinel")
    with pytest.raises(DeckError, match=r"^seat 1's deck: card 'ww-sentinel', field 'cards'"):
        RULES.new_game(2, None, None, (("decks", (None, bad)),))


def test_deck_building_no_two_players_play_the_same_leader() -> None:
    sample = load_deck(SAMPLE)
    with pytest.raises(
        MalformedAnswer, match="seats 0 and 1 both play the Leader 'md-tribune-castra'"
    ) as info:
        new_game(SovereignConfig(2, decks=(sample, custom("myrmidon", "machina"))))
    assert info.value.rule == DECK_RULE
    with pytest.raises(MalformedAnswer, match="no two players may play the same leader"):
        new_game(SovereignConfig(2, factions=("myrmidon", "myrmidon"), decks=(None, sample)))
    # mirror faction decks without custom decks stay allowed (§1.14)
    new_game(SovereignConfig(2, factions=("myrmidon", "myrmidon")))


@pytest.mark.parametrize(
    "decks,match",
    [
        ((None,), "one deck \\(or None\\) per seat"),
        (("md-tribune-castra", None), "seat 0's deck is not a Deck"),
        ([None, None], "a tuple"),
    ],
)
def test_deck_building_table_config_refused(decks: Any, match: str) -> None:
    with pytest.raises(MalformedAnswer, match=match) as info:
        new_game(SovereignConfig(2, decks=decks))
    assert info.value.rule == DECK_RULE and isinstance(info.value, EngineError)


def test_deck_building_faction_and_deck_must_agree() -> None:
    with pytest.raises(
        MalformedAnswer, match="given the faction 'utopian' but its deck's Leader is of 'myrmidon'"
    ):
        new_game(
            SovereignConfig(2, factions=("utopian", "machina"), decks=(load_deck(SAMPLE), None))
        )
    game = new_game(
        SovereignConfig(2, factions=("myrmidon", "machina"), decks=(load_deck(SAMPLE), None))
    )
    assert [b.faction for b in game.state.boards] == ["myrmidon", "machina"]


def test_deck_building_a_forged_deck_object_is_rechecked() -> None:
    """A Deck built by hand (not parsed) is checked again when the table is set up."""
    sample = load_deck(SAMPLE)
    wrong_citadel = Deck(
        sample.leader, "ww-cloudspire", sample.faction, sample.cards, sample.echoes, sample.name
    )
    with pytest.raises(MalformedAnswer, match="does not match its card list"):
        new_game(SovereignConfig(2, decks=(wrong_citadel, None)))
    short = Deck(sample.leader, sample.citadel, sample.faction, sample.cards[:29], sample.echoes)
    with pytest.raises(DeckError, match=r"^seat 1's deck, field 'cards': a deck has 30"):
        new_game(SovereignConfig(2, decks=(None, short)))


# -- whole games ----------------------------------------------------------------------------
def deck_invariants(table: Table) -> None:
    s = table.truth.state
    assert effects.citizens_total(s) == s.creche_out, "citizens not conserved"
    for seat, b in enumerate(s.boards):
        if (
            not any(isinstance(r, Shuffle) and r.pile == f"deck:{seat}" for r in s.pending)
            and f"deck:{seat}" in table.referee.piles
        ):
            assert card_zones(table, seat) == Counter(flow.deck_list(s, seat)), (
                f"seat {seat}'s cards not conserved"
            )
        assert all(len(lane) <= 3 for lane in b.lanes)
        assert all(s.catalog.defs[c].type != "echo" for c in b.scrap), "an Echo was scrapped"
    spectator = table.truth.view(None)
    for seat in range(s.players):
        assert table.truth.view(seat).public == spectator.public


def test_deck_building_custom_mixed_decks_play_a_whole_game() -> None:
    sample = load_deck(SAMPLE)
    decks = (custom("undercity", "neogenesis", "Sewer Saints"), sample)
    table = Table(2, seed=17, mirrors=True, decks=decks)
    table.play(deck_invariants)
    s = table.truth.state
    assert s.over == "won" and s.winner is not None and len(s.boards[s.winner].scored) >= 12
    # the 15 more came into play: cards of neither Leader's faction are on the table
    played = {u.card for u in s.units.values()} | {f.card for f in s.facilities.values()}
    played |= {c for b in s.boards for c in b.scrap}
    assert {CATALOG.defs[c].faction for c in played} - {"undercity", "myrmidon"}
    assert s.boards[0].citadel_card == "ub-drowned-vault"


def test_deck_building_three_seats_custom_and_faction_decks() -> None:
    decks = (custom("utopian", "machina"), None, custom("windwalker", "utopian"))
    table = Table(3, seed=4, mirrors=True, round_limit=10, decks=decks)
    assert [b.faction for b in table.truth.state.boards] == ["utopian", "machina", "windwalker"]
    table.play(deck_invariants)
    assert table.truth.state.over in ("won", "round_limit")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("cards = " + "[" * 5_000 + "]" * 5_000, "nested deeper than 16"),
        ("leader = " + "9" * 5_000, "not valid TOML"),
        ("name = '" + "x" * 70_000 + "'", "70010 characters, over the 65536-character limit"),
    ],
    ids=["nested-5000-deep", "number-of-5000-digits", "long"],
)
def test_a_deck_file_nested_deep_or_with_a_huge_number_is_a_deck_error(text: str, why: str) -> None:
    """Issue 29's fuzz findings: tomllib recursed into the nesting (RecursionError) and
    Python refused the number's digits (a plain ValueError) -- neither a DeckError."""
    with pytest.raises(DeckError, match=f"^deck: {why}"):
        load_deck(text + "\n")
