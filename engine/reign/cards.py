"""Reign's card data: the houses, military cards, events and support cards.

Cards are TOML files under ``data/`` (one per house, plus ``events.toml``),
loaded and validated once.  A bad file raises :class:`CardDataError` naming the
file, the card and the field.  Abilities are written in a small effect
vocabulary (see ``docs/engine.md``); anything the vocabulary cannot say is a
named hook from :mod:`engine.reign.hooks`.

Every physical card has its own identity string: the card's id, with ``.N``
appended for each copy when a card has several copies (``crimson-pike.2``).
"""

from __future__ import annotations

import re
import tomllib
from enum import StrEnum
from importlib import resources
from typing import Any

import attrs

from fairtable.engine.errors import CardDataError
from fairtable.engine.reign.hooks import EVENT_HOOKS, MILITARY_HOOKS, HookName
from fairtable.engine.words import word_of

_ID = re.compile(r"^[a-z][a-z0-9-]{0,47}$")


class CardKind(StrEnum):
    """What a card is, as the card files say: a house's military card or an event.

    A member equals its word, so views, logs and digests read the same as with plain text.
    """

    MILITARY = "military"
    EVENT = "event"


class CardPhase(StrEnum):
    """When a card is played: ``combat`` (every military card), ``influence`` or ``plotting``."""

    COMBAT = "combat"
    INFLUENCE = "influence"
    PLOTTING = "plotting"


class Op(StrEnum):
    """An effect's ``op`` in the card files' effect vocabulary (``docs/engine.md``)."""

    FORCE = "force"
    FORCE_PER = "force_per"
    BOOST = "boost"
    DESERT = "desert"
    WARD = "ward"
    NO_HOUSE_BONUS = "no_house_bonus"
    HOUSE_BONUS = "house_bonus"
    LOSE_SUPPORT = "lose_support"
    STRIKE = "strike"
    COUNTS_AS_ARMY_HOUSE = "counts_as_army_house"
    HOOK = "hook"
    BID_FORCE = "bid_force"
    SABOTAGE = "sabotage"


class Which(StrEnum):
    """Which card a ``desert`` effect removes."""

    STRONGEST = "strongest"
    WEAKEST = "weakest"


class StrikeTarget(StrEnum):
    """Whom a ``strike`` effect hits."""

    STRONGEST_OTHER = "strongest_other"
    ALL_OTHERS = "all_others"


COMBAT_OPS = frozenset(
    {
        Op.FORCE,
        Op.FORCE_PER,
        Op.BOOST,
        Op.DESERT,
        Op.WARD,
        Op.NO_HOUSE_BONUS,
        Op.HOUSE_BONUS,
        Op.LOSE_SUPPORT,
        Op.STRIKE,
        Op.COUNTS_AS_ARMY_HOUSE,
        Op.HOOK,
    }
)
MILITARY_ONLY_OPS = frozenset({Op.STRIKE, Op.COUNTS_AS_ARMY_HOUSE})
INFLUENCE_OPS = frozenset({Op.BID_FORCE, Op.SABOTAGE})
_OP_PARAMS: dict[Op, dict[str, bool]] = {  # parameter -> required
    Op.FORCE: {"amount": True},
    Op.FORCE_PER: {"amount": True, "filter": True, "max": False},
    Op.BOOST: {"amount": True, "filter": False},
    Op.DESERT: {"count": True, "which": True, "filter": False},
    Op.WARD: {"count": True},
    Op.NO_HOUSE_BONUS: {},
    Op.HOUSE_BONUS: {"amount": True},
    Op.LOSE_SUPPORT: {},
    Op.STRIKE: {"amount": True, "target": True},
    Op.COUNTS_AS_ARMY_HOUSE: {},
    Op.HOOK: {"name": True},
    Op.BID_FORCE: {"amount": True},
    Op.SABOTAGE: {"amount": True},
}


@attrs.frozen
class Filter:
    kind: CardKind | None = None
    house: str | None = None  # a house id, "army" or "own"
    unique: bool | None = None
    betrayal: bool | None = None
    min_force: int | None = None
    max_force: int | None = None


@attrs.frozen
class CountCondition:
    count: int
    filter: Filter


@attrs.frozen
class Condition:
    you_are_regent: bool | None = None
    support_house: str | None = None
    army_house: bool | None = None
    min: CountCondition | None = None
    max: CountCondition | None = None


@attrs.frozen
class Effect:
    op: Op
    amount: int = 0
    count: int = 0
    which: Which | None = None
    target: StrikeTarget | None = None
    name: HookName | None = None  # the hook of an ``Op.HOOK`` effect
    max: int | None = None
    filter: Filter | None = None
    cond: Condition | None = None


@attrs.frozen
class CardDef:
    """One printed card (possibly in several copies)."""

    id: str
    name: str
    kind: CardKind
    house: str | None
    force: int
    unique: bool
    betrayal: bool
    phase: CardPhase  # COMBAT for military cards, INFLUENCE or PLOTTING for events
    text: str
    flavour: str
    effects: tuple[Effect, ...]
    copies: int
    # Worked out once from the fields above: the rules ask them at nearly every step.
    military: bool = attrs.field(init=False, eq=False, repr=False)
    """A house's military card (not an event)."""
    influence: bool = attrs.field(init=False, eq=False, repr=False)
    """An influence-phase event: placed face down with a bid, never into an army."""
    joins_army_house: bool = attrs.field(init=False, eq=False, repr=False)
    """A military card that counts as its army's house (``counts_as_army_house``)."""

    @military.default
    def _is_military(self) -> bool:
        return self.kind is CardKind.MILITARY

    @influence.default
    def _is_influence(self) -> bool:
        return self.phase is CardPhase.INFLUENCE

    @joins_army_house.default
    def _joins_army_house(self) -> bool:
        return self.military and any(e.op is Op.COUNTS_AS_ARMY_HOUSE for e in self.effects)


@attrs.frozen
class House:
    id: str
    name: str
    colour: str
    support: str
    text: str


@attrs.frozen
class Catalog:
    """Every house and every physical card of the game, in a canonical order."""

    houses: tuple[House, ...]
    defs: dict[str, CardDef]  # physical card id -> definition
    military: dict[str, tuple[str, ...]]  # house id -> physical card ids, sorted
    events: tuple[str, ...]  # physical event ids, sorted
    memo: dict[str, dict[Any, Any]] = attrs.field(factory=dict, init=False, eq=False, repr=False)
    """What the rules work out from the cards alone, kept for the next time (e.g. which cards
    of an army may change the result by their order: engine.reign.combat).  A pure function
    of the cards, so sharing it between games and copies changes nothing."""

    def house(self, house_id: str) -> House:
        for house in self.houses:
            if house.id == house_id:
                return house
        raise KeyError(house_id)

    @property
    def house_ids(self) -> tuple[str, ...]:
        return tuple(h.id for h in self.houses)

    def acting_pass(self) -> dict[str, int]:
        """Each card's combat pass (0 military abilities, 1 non-betrayal events, 2 betrayal
        events) when it does anything while the passes run, so its place in an army's order
        can matter (every event: a betrayal also uses up a ward; a soldier with an ability
        other than counting as the army's house); 3 when it never does."""
        passes: dict[str, int] | None = self.memo.get("acting_pass")
        if passes is None:
            passes = self.memo["acting_pass"] = {
                cid: (2 if d.betrayal else 1)
                if not d.military
                else (0 if any(e.op is not Op.COUNTS_AS_ARMY_HOUSE for e in d.effects) else 3)
                for cid, d in sorted(self.defs.items())
            }
        return passes


class _Reader:
    """Validation helpers bound to one file and card, for precise error messages."""

    def __init__(self, file: str, card: str = "") -> None:
        self.file, self.card = file, card

    def fail(self, field: str, problem: str) -> CardDataError:
        return CardDataError(self.file, self.card, field, problem)

    def text(self, table: dict[str, Any], field: str, *, optional: bool = False) -> str:
        if field not in table:
            if optional:
                return ""
            raise self.fail(field, "is missing")
        value = table[field]
        if not isinstance(value, str) or len(value) > 400:
            raise self.fail(field, f"expected text of at most 400 characters, got {value!r}")
        return value

    def ident(self, table: dict[str, Any], field: str) -> str:
        value = self.text(table, field)
        if not _ID.match(value):
            raise self.fail(field, f"expected a lowercase kebab-case id, got {value!r}")
        return value

    def integer(self, table: dict[str, Any], field: str, lo: int, hi: int) -> int:
        if field not in table:
            raise self.fail(field, "is missing")
        value = table[field]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(field, f"expected an integer from {lo} to {hi}, got {value!r}")
        return value

    def boolean(self, table: dict[str, Any], field: str, default: bool) -> bool:
        value = table.get(field, default)
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {value!r}")
        return value

    def only(self, table: dict[str, Any], allowed: set[str], where: str) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            raise self.fail(where, f"unknown key(s) {', '.join(extra)}")

    def table(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a table, got {value!r}")
        return value


def _filter(r: _Reader, raw: Any, field: str, houses: set[str]) -> Filter:
    t = r.table(raw, field)
    r.only(t, {"kind", "house", "unique", "betrayal", "min_force", "max_force"}, field)
    kind = word_of(CardKind, t.get("kind"))
    if kind is None and "kind" in t:
        raise r.fail(field + ".kind", f"expected 'military' or 'event', got {t['kind']!r}")
    house = t.get("house")
    if house is not None and house not in houses | {"army", "own"}:
        raise r.fail(field + ".house", f"unknown house {house!r}")
    out: dict[str, Any] = {"kind": kind, "house": house}
    for key in ("unique", "betrayal"):
        if key in t:
            out[key] = r.boolean(t, key, False)
    for key in ("min_force", "max_force"):
        if key in t:
            out[key] = r.integer(t, key, 0, 20)
    return Filter(**out)


def _condition(r: _Reader, raw: Any, houses: set[str]) -> Condition:
    t = r.table(raw, "if")
    r.only(t, {"you_are_regent", "support_house", "army_house", "min", "max"}, "if")
    out: dict[str, Any] = {}
    for key in ("you_are_regent", "army_house"):
        if key in t:
            out[key] = r.boolean(t, key, False)
    if "support_house" in t:
        if t["support_house"] not in houses:
            raise r.fail("if.support_house", f"unknown house {t['support_house']!r}")
        out["support_house"] = t["support_house"]
    for key in ("min", "max"):
        if key in t:
            c = r.table(t[key], "if." + key)
            r.only(c, {"count", "filter"}, "if." + key)
            out[key] = CountCondition(
                count=r.integer(c, "count", 0, 20),
                filter=_filter(r, c.get("filter", {}), f"if.{key}.filter", houses),
            )
    return Condition(**out)


def _effect(
    r: _Reader, raw: Any, index: int, kind: CardKind, phase: CardPhase, houses: set[str]
) -> Effect:
    field = f"effects[{index}]"
    t = r.table(raw, field)
    op = word_of(Op, t.get("op"))
    allowed_ops = INFLUENCE_OPS if phase is CardPhase.INFLUENCE else COMBAT_OPS
    if kind is CardKind.EVENT:
        allowed_ops = allowed_ops - MILITARY_ONLY_OPS
    if op is None or op not in allowed_ops:
        raise r.fail(
            field + ".op", f"{t.get('op')!r} is not an effect a {phase} {kind} card may have"
        )
    params = _OP_PARAMS[op]
    r.only(t, set(params) | {"op", "if"}, field)
    for key, required in params.items():
        if required and key not in t:
            raise r.fail(f"{field}.{key}", f"is required by op {op!r}")
    out: dict[str, Any] = {"op": op}
    if "amount" in t:
        out["amount"] = r.integer(t, "amount", -20, 20)
    if "count" in t:
        out["count"] = r.integer(t, "count", 1, 10)
    if "max" in t:
        out["max"] = r.integer(t, "max", 1, 20)
    if "which" in t:
        out["which"] = word_of(Which, t["which"])
        if out["which"] is None:
            raise r.fail(field + ".which", "expected 'strongest' or 'weakest'")
    if "target" in t:
        out["target"] = word_of(StrikeTarget, t["target"])
        if out["target"] is None:
            raise r.fail(field + ".target", "expected 'strongest_other' or 'all_others'")
    if "name" in t:
        hooks = MILITARY_HOOKS if kind is CardKind.MILITARY else EVENT_HOOKS
        hook = word_of(HookName, t["name"])
        if hook is None or hook not in hooks:
            raise r.fail(field + ".name", f"no {kind} hook named {t['name']!r}")
        out["name"] = hook
    if "filter" in t:
        out["filter"] = _filter(r, t["filter"], field + ".filter", houses)
    if "if" in t:
        out["cond"] = _condition(r, t["if"], houses)
    return Effect(**out)


def _card(
    r: _Reader, t: dict[str, Any], kind: CardKind, house: str | None, houses: set[str]
) -> CardDef:
    common = {"id", "name", "copies", "text", "flavour", "effects"}
    if kind is CardKind.MILITARY:
        r.only(t, common | {"force", "unique"}, "")
        force, unique, betrayal, phase = (
            r.integer(t, "force", 0, 9),
            r.boolean(t, "unique", False),
            False,
            CardPhase.COMBAT,
        )
    else:
        r.only(t, common | {"betrayal", "phase"}, "")
        force, unique = 0, False
        betrayal = r.boolean(t, "betrayal", False)
        word = t.get("phase", CardPhase.PLOTTING)
        found = word_of(CardPhase, word)
        if found is None or found is CardPhase.COMBAT:
            raise r.fail("phase", f"expected 'influence' or 'plotting', got {word!r}")
        phase = found
        if betrayal and phase is CardPhase.INFLUENCE:
            raise r.fail("betrayal", "an influence-phase event cannot carry the betrayal dagger")
    copies = r.integer(t, "copies", 1, 8)
    if unique and copies != 1:
        raise r.fail("copies", "a unique card has exactly one copy")
    raw_effects = t.get("effects", [])
    if not isinstance(raw_effects, list):
        raise r.fail("effects", "expected a list of effect tables")
    effects = tuple(_effect(r, e, i, kind, phase, houses) for i, e in enumerate(raw_effects))
    return CardDef(
        id=r.card,
        name=r.text(t, "name"),
        kind=kind,
        house=house,
        force=force,
        unique=unique,
        betrayal=betrayal,
        phase=phase,
        text=r.text(t, "text", optional=True),
        flavour=r.text(t, "flavour", optional=True),
        effects=effects,
        copies=copies,
    )


def physical_ids(card: CardDef) -> list[str]:
    if card.copies == 1:
        return [card.id]
    return [f"{card.id}.{n}" for n in range(1, card.copies + 1)]


def _parse(file: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(file, "", "", f"not valid TOML: {exc}") from None


def build_catalog(house_files: dict[str, str], events_file: tuple[str, str]) -> Catalog:
    """Validate card data given as ``{file name: TOML text}`` and build the catalog."""
    parsed = {name: _parse(name, text) for name, text in sorted(house_files.items())}
    houses: list[House] = []
    for name, doc in parsed.items():
        r = _Reader(name)
        r.only(doc, {"house", "card"}, "")
        h = r.table(doc.get("house"), "house")
        r.only(h, {"id", "name", "colour", "support", "text"}, "house")
        houses.append(
            House(
                id=r.ident(h, "id"),
                name=r.text(h, "name"),
                colour=r.text(h, "colour"),
                support=r.text(h, "support"),
                text=r.text(h, "text", optional=True),
            )
        )
    house_ids = {h.id for h in houses}
    if len(house_ids) != len(houses):
        raise CardDataError("houses", "", "house.id", "two house files share one id")
    defs: dict[str, CardDef] = {}
    military: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()

    def add(r: _Reader, card: CardDef) -> list[str]:
        if card.id in seen:
            raise r.fail("id", "this id is used by another card")
        seen.add(card.id)
        ids = physical_ids(card)
        for pid in ids:
            defs[pid] = card
        return ids

    for (name, doc), house in zip(parsed.items(), houses, strict=True):
        cards = doc.get("card", [])
        if not isinstance(cards, list) or not cards:
            raise CardDataError(name, "", "card", "expected a list of [[card]] tables")
        ids: list[str] = []
        for t in cards:
            r = _Reader(name, str(t.get("id", "?")) if isinstance(t, dict) else "?")
            t = r.table(t, "")
            r.card = r.ident(t, "id")
            ids += add(r, _card(r, t, CardKind.MILITARY, house.id, house_ids))
        military[house.id] = tuple(sorted(ids))
    ev_name, ev_text = events_file
    doc = _parse(ev_name, ev_text)
    _Reader(ev_name).only(doc, {"event"}, "")
    raw_events = doc.get("event", [])
    if not isinstance(raw_events, list) or not raw_events:
        raise CardDataError(ev_name, "", "event", "expected a list of [[event]] tables")
    events: list[str] = []
    for t in raw_events:
        r = _Reader(ev_name, str(t.get("id", "?")) if isinstance(t, dict) else "?")
        t = r.table(t, "")
        r.card = r.ident(t, "id")
        events += add(r, _card(r, t, CardKind.EVENT, None, house_ids))
    return Catalog(
        houses=tuple(sorted(houses, key=lambda h: h.id)),
        defs=defs,
        military=military,
        events=tuple(sorted(events)),
    )


_CATALOG: Catalog | None = None


def standard_catalog() -> Catalog:
    """The shipped card set (loaded and validated once per process)."""
    global _CATALOG
    if _CATALOG is None:
        root = resources.files("fairtable.engine.reign") / "data"
        house_files = {
            f"houses/{entry.name}": entry.read_text(encoding="utf-8")
            for entry in (root / "houses").iterdir()
            if entry.name.endswith(".toml")
        }
        events = ("events.toml", (root / "events.toml").read_text(encoding="utf-8"))
        _CATALOG = build_catalog(house_files, events)
    return _CATALOG
