"""Card data: the shipped set has the rulebook's counts, and bad files fail precisely.

Components: "75 military cards, 27 event cards, 5 support cards, and 1 onyx crown card."
"""

from __future__ import annotations

from collections import Counter
from importlib import resources

import pytest

from fairtable.engine.errors import CardDataError
from fairtable.engine.reign.cards import (
    COMBAT_OPS,
    INFLUENCE_OPS,
    CardKind,
    CardPhase,
    Op,
    build_catalog,
    standard_catalog,
)
from fairtable.engine.reign.hooks import EVENT_HOOKS, MILITARY_HOOKS, HookName

CATALOG = standard_catalog()


def test_components_75_military_27_events_5_support_cards() -> None:
    military = [c for c, d in CATALOG.defs.items() if d.kind == "military"]
    events = [c for c, d in CATALOG.defs.items() if d.kind == "event"]
    assert len(military) == 75
    assert len(events) == 27
    assert len(CATALOG.houses) == 5
    assert len({h.support for h in CATALOG.houses}) == 5


def test_card_anatomy_each_house_has_15_military_cards() -> None:
    for house in CATALOG.house_ids:
        assert len(CATALOG.military[house]) == 15
        assert all(CATALOG.defs[c].house == house for c in CATALOG.military[house])


def test_card_anatomy_unique_cards_have_one_copy() -> None:
    uniques = {d.id: d for d in CATALOG.defs.values() if d.unique}
    assert uniques, "the set has unique cards"
    assert all(d.copies == 1 for d in uniques.values())


def test_influence_phase_political_sabotage_is_an_influence_event() -> None:
    sabotage = [d for d in CATALOG.defs.values() if d.name == "Political Sabotage"]
    assert sabotage and all(d.phase == "influence" and d.kind == "event" for d in sabotage)


def test_event_cards_and_betrayal_the_set_has_betrayal_and_influence_events() -> None:
    kinds = Counter((d.betrayal, d.phase) for d in CATALOG.defs.values() if d.kind == "event")
    assert kinds[(True, "plotting")] >= 5
    assert kinds[(False, "influence")] >= 3
    assert kinds[(False, "plotting")] >= 5


def test_every_effect_op_of_the_vocabulary_is_used() -> None:
    used = {e.op for d in CATALOG.defs.values() for e in d.effects}
    assert used == COMBAT_OPS | INFLUENCE_OPS


def test_hooks_each_hook_name_has_one_hook_and_the_cards_name_members() -> None:
    assert set(MILITARY_HOOKS) | set(EVENT_HOOKS) == set(HookName)
    assert not set(MILITARY_HOOKS) & set(EVENT_HOOKS)
    named = [e.name for d in CATALOG.defs.values() for e in d.effects if e.op is Op.HOOK]
    assert set(named) == set(HookName) and {type(n) for n in named} == {HookName}
    assert HookName.KINGMAKER == "kingmaker"


def _files() -> tuple[dict[str, str], tuple[str, str]]:
    root = resources.files("fairtable.engine.reign") / "data"
    houses = {
        f"houses/{e.name}": e.read_text(encoding="utf-8")
        for e in (root / "houses").iterdir()
        if e.name.endswith(".toml")
    }
    return houses, ("events.toml", (root / "events.toml").read_text(encoding="utf-8"))


def test_the_shipped_files_rebuild_the_same_catalog() -> None:
    houses, events = _files()
    assert build_catalog(houses, events).defs.keys() == CATALOG.defs.keys()


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("force = 2", 'force = "two"', "force"),
        ("force = 2", "force = 99", "force"),
        ("copies = 4", "copies = 0", "copies"),
        ("effects = []", 'effects = [ { op = "teleport" } ]', "effects[0].op"),
        ("effects = []", "effects = [ { op = 3 } ]", "effects[0].op"),
        ("effects = []", 'effects = [ { op = "bid_force", amount = 1 } ]', "effects[0].op"),
        (
            "effects = []",
            'effects = [ { op = "boost", amount = 1, filter = { kind = "spy" } } ]',
            "effects[0].filter.kind",
        ),
        (
            "effects = []",
            'effects = [ { op = "desert", count = 1, which = "oldest" } ]',
            "effects[0].which",
        ),
        ("effects = []", 'effects = [ { op = "force" } ]', "effects[0].amount"),
        ("effects = []", 'effects = [ { op = "force", amount = 1, if = { moon = 1 } } ]', "if"),
        ("effects = []", 'effects = [ { op = "hook", name = "nope" } ]', "effects[0].name"),
        ("effects = []", 'effects = [ { op = "hook", name = "kingmaker" } ]', "effects[0].name"),
    ],
)
def test_a_bad_card_file_names_the_file_card_and_field(old: str, new: str, field: str) -> None:
    houses, events = _files()
    name = "houses/crimson.toml"
    text = houses[name]
    # Change the first card whose text contains `old`.
    blocks = text.split("[[card]]")
    for i, block in enumerate(blocks[1:], start=1):
        if old in block:
            blocks[i] = block.replace(old, new, 1)
            card = block.split('id = "', 1)[1].split('"', 1)[0]
            break
    else:
        pytest.fail(f"no crimson card has {old!r}")
    houses[name] = "[[card]]".join(blocks)
    with pytest.raises(CardDataError) as caught:
        build_catalog(houses, events)
    assert caught.value.file == name
    assert caught.value.card == card
    assert caught.value.field == field
    assert name in str(caught.value) and card in str(caught.value)


def test_a_file_that_is_not_toml_is_refused_with_its_name() -> None:
    houses, events = _files()
    with pytest.raises(CardDataError, match="events.toml.*not valid TOML"):
        build_catalog(houses, ("events.toml", "[[event]\nid ="))


def test_two_cards_with_one_id_are_refused() -> None:
    houses, (name, text) = _files()
    first = text.split("[[event]]")[1]
    with pytest.raises(CardDataError, match="used by another card"):
        build_catalog(houses, (name, text + "\n[[event]]" + first))


def test_event_cards_kinds_phases_and_ops_are_typed_and_equal_their_words() -> None:
    defs = list(CATALOG.defs.values())
    assert {type(d.kind) for d in defs} == {CardKind}
    assert {type(d.phase) for d in defs} == {CardPhase}
    assert {type(e.op) for d in defs for e in d.effects} == {Op}
    assert all(d.phase is CardPhase.COMBAT for d in defs if d.military)
    assert {d.phase for d in defs if not d.military} == {CardPhase.INFLUENCE, CardPhase.PLOTTING}
    assert CardKind.MILITARY == "military" and f"{CardPhase.INFLUENCE}" == "influence"


@pytest.mark.parametrize("word", ['"combat"', '"dawn"', "1"])
def test_event_cards_an_unknown_phase_names_the_file_card_and_field(word: str) -> None:
    houses, (name, text) = _files()
    assert 'id = "political-sabotage"' in text.split('phase = "influence"', 1)[0]
    text = text.replace('phase = "influence"', f"phase = {word}", 1)
    with pytest.raises(CardDataError) as caught:
        build_catalog(houses, (name, text))
    assert (caught.value.file, caught.value.card, caught.value.field) == (
        name,
        "political-sabotage",
        "phase",
    )
    assert "expected 'influence' or 'plotting'" in str(caught.value)
