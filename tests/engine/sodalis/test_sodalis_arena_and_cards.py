"""The arena (docs/rules/sodalis.md section 5, "The arena") and the card data format
(docs/cards/sodalis.md): authored data, validated on load."""

from __future__ import annotations

import copy
import tomllib
from collections import deque
from pathlib import Path

import pytest

from fairtable.engine.errors import CardDataError
from fairtable.engine.sodalis.arena import (
    IMPASSABLE_COUNT,
    find_mirror,
    hexagon,
    neighbours_of,
    parse_arena,
    standard_arena,
)
from fairtable.engine.sodalis.cards import (
    ARCANA_PER_CHAMPION,
    ExtraKind,
    parse_champion,
    split_card,
)
from fairtable.engine.sodalis.catalog import catalog_dir, load_catalog, standard_catalog
from fairtable.engine.sodalis.passives import PASSIVES
from tests.engine.sodalis.helpers import CATALOG, FIXTURES

ARENA = standard_arena()
ARENA_FILE = Path(__file__).parents[3] / "engine" / "sodalis" / "data" / "arena.toml"
RAW_ARENA = tomllib.loads(ARENA_FILE.read_text(encoding="utf-8"))


# -- the arena --------------------------------------------------------------------------------
def test_components_three_hexagonal_board_pieces_joined() -> None:
    assert len(ARENA.pieces) == 3
    for _, centre, radius in ARENA.pieces:
        assert hexagon(centre, radius) <= ARENA.spaces
    assert len(ARENA.spaces) == sum(len(hexagon(c, r)) for _, c, r in ARENA.pieces)


def test_components_ten_impassable_spaces_none_in_a_base_or_on_centre_or_paragon() -> None:
    assert len(ARENA.impassable) == IMPASSABLE_COUNT == 10
    for team in ("dawn", "dusk"):
        assert not ARENA.impassable & ARENA.bases[team]
    assert ARENA.centre not in ARENA.impassable and ARENA.paragon not in ARENA.impassable


def test_setup_each_artifact_starts_at_the_centre_of_the_other_teams_base() -> None:
    assert ARENA.artifacts["dawn"] == ARENA.base_centres["dusk"]
    assert ARENA.artifacts["dusk"] == ARENA.base_centres["dawn"]


def test_setup_each_base_has_at_least_six_free_spaces() -> None:
    for team in ("dawn", "dusk"):
        free = ARENA.bases[team] - {ARENA.base_centres[team]} - ARENA.impassable
        assert len(free) >= 6


def test_the_arena_is_connected_and_distances_are_walking_distances() -> None:
    start = next(iter(sorted(ARENA.passable)))
    seen = {start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for n in neighbours_of(here):
            if n in ARENA.passable and n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == ARENA.passable
    for a in sorted(ARENA.passable)[::7]:
        for b in ARENA.passable:
            d = ARENA.distance(a, b)
            assert d is not None
            if a != b:
                assert any(ARENA.distance(a, n) == d - 1 for n in ARENA.neighbours(b))
    assert ARENA.distance((0, 0), (4, -2)) is None  # impassable: no distance


def test_the_arena_is_fair_a_reflection_swaps_the_bases() -> None:
    mirror = find_mirror(ARENA)
    assert mirror is not None
    assert mirror(ARENA.centre) == ARENA.centre and mirror(ARENA.paragon) == ARENA.paragon
    assert ARENA.distance(ARENA.centre, ARENA.artifacts["dawn"]) == ARENA.distance(
        ARENA.centre, ARENA.artifacts["dusk"]
    )


def test_the_arena_fits_an_80_by_24_terminal() -> None:
    rows, cols = ARENA.text_size
    assert rows <= 20 and cols <= 76
    positions = {(row, col) for _, row, col in ARENA.text_positions()}
    assert len(positions) == len(ARENA.spaces)
    for space in ARENA.spaces:
        row, col = ARENA.text_position(space)
        assert 0 <= row < rows and 0 <= col < cols
        for n in neighbours_of(space):
            if n in ARENA.spaces:
                nrow, ncol = ARENA.text_position(n)
                assert abs(nrow - row) <= 1 and abs(ncol - col) in (2, 4)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["impassable"].pop(), "impassable"),
        (lambda d: d["impassable"].__setitem__(0, [0, 0]), "bases.dawn"),  # in the Dawn base
        (lambda d: d.__setitem__("paragon", [5, -2]), "paragon"),
        (lambda d: d["artifacts"].__setitem__("dawn", [0, 0]), "artifacts.dawn"),
        (lambda d: d["pieces"][0]["spaces"].pop(), "pieces[0].spaces"),
        (lambda d: d.__setitem__("paragon", [7, -4]), "pieces"),  # breaks the symmetry
        (lambda d: d.__setitem__("colour", "red"), "colour"),
    ],
)
def test_the_arena_file_is_validated_on_load(change, field: str) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(RAW_ARENA)
    change(data)
    with pytest.raises(CardDataError) as info:
        parse_arena(data, "arena.toml")
    assert info.value.field == field and info.value.file == "arena.toml"


# -- the card data ----------------------------------------------------------------------------
def test_card_data_fixtures_load_one_champion_per_passive() -> None:
    assert len(CATALOG.champions) == 9
    assert sorted(c.passive for c in CATALOG.champions) == sorted(PASSIVES)
    for champion in CATALOG.champions:
        assert len(champion.arcana) == ARCANA_PER_CHAMPION
        assert sum(a.ultimate for a in champion.arcana) == 1


def test_card_data_the_identity_names_the_face() -> None:
    assert split_card("squall") == ("squall", False)
    assert split_card("squall~r") == ("squall", True)
    tempest = CATALOG.by_id["tempest"]
    cards = tempest.cards(["tempest_hex"])
    assert "tempest_hex~r" in cards and "tempest_hex" not in cards
    assert CATALOG.face("tempest_hex~r").name == "Mire"


def _tempest() -> dict:  # type: ignore[type-arg]
    return tomllib.loads((FIXTURES / "tempest.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("change", "card", "field"),
    [
        (lambda d: d.__setitem__("inertia", 12), "tempest", "inertia"),
        (lambda d: d.__setitem__("passive", "flight"), "tempest", "passive"),
        (lambda d: d["arcana"].pop(), "tempest", "arcana"),
        (lambda d: d["arcana"][0]["front"].__setitem__("range", "near"), "squall", "front.range"),
        (lambda d: d["arcana"][0]["front"].__setitem__("power", 0), "squall", "front.power"),
        (lambda d: d["arcana"][0]["front"].__setitem__("reach", 0), "squall", "front.reach"),
        (
            lambda d: d["arcana"][0]["front"].__setitem__("extra", [{"kind": "push"}]),
            "squall",
            "front.extra[0].steps",
        ),
        (
            lambda d: d["arcana"][0]["front"].__setitem__(
                "aura", {"stat": "power", "amount": 1, "to": "caster"}
            ),
            "squall",
            "front.aura",
        ),
        (lambda d: d["arcana"][8].__setitem__("ultimate", False), "tempest", "arcana"),
        (
            lambda d: d["arcana"][8]["front"].__setitem__("action", "minor"),
            "tempest_ultimate",
            "front.action",
        ),
        (lambda d: d["arcana"][1].__setitem__("colour", "red"), "tempest_strike", "colour"),
    ],
)
def test_card_data_errors_name_file_card_and_field(change, card: str, field: str) -> None:  # type: ignore[no-untyped-def]
    data = _tempest()
    change(data)
    with pytest.raises(CardDataError) as info:
        parse_champion(data, "champions/tempest.toml", PASSIVES)
    assert (info.value.file, info.value.card, info.value.field) == (
        "champions/tempest.toml",
        card,
        field,
    )


@pytest.mark.parametrize("word", ["shove", ["push"], 3])
def test_card_data_an_unknown_extra_kind_is_a_card_data_error(word: object) -> None:
    data = _tempest()
    data["arcana"][0]["front"]["extra"] = [{"kind": word, "steps": 1}]
    with pytest.raises(CardDataError) as info:
        parse_champion(data, "champions/tempest.toml", PASSIVES)
    assert (info.value.card, info.value.field) == ("squall", "front.extra[0].kind")
    assert "expected one of confuse, slow, push, pull" in str(info.value)


def test_card_data_extra_kinds_are_typed_and_equal_their_words() -> None:
    kinds = {x.kind for c in CATALOG.champions for a in c.arcana for x in a.front.extra}
    assert kinds and all(type(k) is ExtraKind for k in kinds)
    assert ExtraKind.CRITICAL_SLOW.base is ExtraKind.SLOW and ExtraKind.CRITICAL_SLOW.critical
    assert ExtraKind.PULL.forced and not ExtraKind.RECOIL.forced
    assert ExtraKind.PUSH == "push" and f"{ExtraKind.PUSH}" == "push"


def test_card_data_the_file_is_named_after_the_champion(tmp_path: Path) -> None:
    (tmp_path / "storm.toml").write_text((FIXTURES / "tempest.toml").read_text())
    with pytest.raises(CardDataError) as info:
        catalog_dir(tmp_path)
    assert info.value.field == "id"


def test_card_data_ids_and_symbols_are_unique_across_champions(tmp_path: Path) -> None:
    text = (FIXTURES / "sage.toml").read_text().replace('symbol = "S"', 'symbol = "T"')
    (tmp_path / "sage.toml").write_text(text)
    (tmp_path / "tempest.toml").write_text((FIXTURES / "tempest.toml").read_text())
    with pytest.raises(CardDataError) as info:
        load_catalog(sorted(tmp_path.glob("*.toml")))
    assert info.value.field == "symbol"


def test_card_data_the_standard_catalog_is_nine_valid_champions() -> None:
    catalog = standard_catalog()
    assert len(catalog.champions) == 9
    assert sorted(c.passive for c in catalog.champions) == sorted(PASSIVES)
    assert catalog.by_id["empress"].inertia == 7  # l. 158
    squall = catalog.face("squall")
    assert (
        squall.range,
        squall.reach,
        squall.action,
        squall.effect,
        squall.power,
        squall.targets,
    ) == ("at", 2, "major", "damage", 3, "one")
