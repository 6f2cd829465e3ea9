"""Sovereign's card data: factions (Leader, Citadel, 30 cards, 20 Echoes) from TOML.

One file per faction under ``data/factions/``.  Loading validates every field and
raises :class:`~engine.errors.CardDataError` naming the file, the card and the field.
Abilities are written in a small effect vocabulary (``docs/cards/sovereign.md``):

- *one-shot effects* (``play`` of a reflex, the ``effects`` of a facility or Leader
  ability, ``on_forge``/``upkeep``/``growth``/``on_score`` triggers, and the unit's
  ``on_damaged``/``on_health_lost`` triggers, FAQ l. 354): ``damage``,
  ``lose_health``, ``add_health``, ``restore_health``, ``gain``, ``flip_drones``,
  ``accelerate``, ``move``, ``draw``, ``sacrifice``, ``temp_stat``, ``hook``;
- *static effects* (``static`` of units and augments, ``lasting`` of reflexes, the
  ``effects`` of a perpetual ability): ``stat`` and ``breach_bonus``.

Anything the vocabulary cannot say is a named hook from :mod:`engine.sovereign.hooks`.
The rules never test a card's name.
"""

from __future__ import annotations

import re
import tomllib
from enum import StrEnum
from importlib import resources
from typing import Any, TypeVar

import attrs

from fairtable.engine.errors import CardDataError
from fairtable.engine.sovereign.hooks import HookName
from fairtable.engine.sovereign.kinds import (
    TRIGGERS,
    UNIT_TRIGGERS,
    CardType,
    EffectGroup,
    HealthSource,
    Mode,
    Op,
    Spread,
    Target,
    When,
    Who,
)
from fairtable.engine.words import word_of

__all__ = [
    "CardType",
    "HealthSource",
    "Op",
    "Target",
]  # the words, as the rules compare them (kinds.py)

W = TypeVar("W", bound=StrEnum)

_ID = re.compile(r"^[a-z][a-z0-9-]{0,47}$")


TYPES = (CardType.UNIT, CardType.AUGMENT, CardType.FACILITY, CardType.REFLEX, CardType.ECHO)
KEYWORDS = ("airborne", "slow")
ONE_SHOT_OPS: dict[Op, dict[str, bool]] = {  # op -> parameter -> required
    Op.DAMAGE: {"amount": True, "target": True, "spread": False},
    Op.LOSE_HEALTH: {"amount": True, "target": True},
    Op.ADD_HEALTH: {"amount": True, "target": True, "source": False},
    Op.RESTORE_HEALTH: {"amount": True, "target": True, "source": False},
    Op.GAIN: {"talents": False, "drones": False},
    Op.FLIP_DRONES: {"count": True, "target": False},
    Op.ACCELERATE: {"amount": True, "target": True},
    Op.MOVE: {"target": True},
    Op.DRAW: {"count": True},
    Op.SACRIFICE: {"target": True},
    Op.TEMP_STAT: {"attack": False, "armor": False, "who": True, "target": False},
    Op.HOOK: {"name": True, "target": False},
}
STATIC_OPS: dict[Op, dict[str, bool]] = {
    Op.STAT: {"attack": False, "armor": False, "who": True, "when": False, "target": False},
    Op.BREACH_BONUS: {"amount": True},
}
TARGETS = {  # what a target entry names
    Target.UNIT: "any unit in play",
    Target.ENEMY_UNIT: "a unit another seat controls",
    Target.OWN_UNIT: "a unit you control",
    Target.OWN_UNIT_IDLE: "a unit you control that is not in combat",
    Target.OWN_SLOT: "a card in your forge",
    Target.MOVE_OWN: "a unit you control and a move (up, down, other)",
    Target.SEAT: "a seat (its Citadel)",
}
UNIT_TARGETS = frozenset({Target.UNIT, Target.ENEMY_UNIT, Target.OWN_UNIT, Target.OWN_UNIT_IDLE})
HEALTH_OPS = frozenset({Op.ADD_HEALTH, Op.RESTORE_HEALTH})
STAT_WHO = tuple(Who)
STAT_WHEN = tuple(When)


@attrs.frozen
class Effect:
    op: Op
    amount: int = 0
    talents: int = 0
    drones: int = 0
    count: int = 0
    attack: int = 0
    armor: int = 0
    target: Target | None = None
    spread: Spread | None = None
    source: HealthSource = HealthSource.CITADEL
    who: Who | None = None
    when: When | None = None  # None: always
    name: HookName | None = None  # the hook of an ``Op.HOOK`` effect
    optional: bool = False  # a triggered "may": its user is asked (use, with targets, or not)


@attrs.frozen
class Ability:
    """A facility's or Leader's ability: ``mode`` ``triggered`` (``:``) or ``perpetual``
    (``➤``), worked by ``talents``/``drones`` citizens."""

    mode: Mode
    talents: int
    drones: int
    effects: tuple[Effect, ...]
    not_in_combat: bool = False


@attrs.frozen
class CardDef:
    id: str
    name: str
    faction: str
    type: CardType
    subtype: str = ""
    cost: int = 0
    attack: int = 0
    armor: int = 0
    talents: int = 0  # printed maximum health, by type
    drones: int = 0
    keywords: tuple[str, ...] = ()
    attach: CardType | None = None  # augments: UNIT or FACILITY
    static: tuple[Effect, ...] = ()
    lasting: tuple[Effect, ...] = ()
    play: tuple[Effect, ...] = ()
    ability: Ability | None = None
    triggers: tuple[tuple[EffectGroup, tuple[Effect, ...]], ...] = ()
    quick_forge: bool = False  # may be forged at any reflex moment, from hand or forge
    text: str = ""
    flavour: str = ""

    def trigger(self, when: EffectGroup) -> tuple[Effect, ...]:
        for name, effects in self.triggers:
            if name == when:
                return effects
        return ()

    @property
    def health(self) -> int:
        return self.talents + self.drones

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@attrs.frozen
class Faction:
    id: str
    name: str
    leader: str
    citadel: str
    cards: tuple[str, ...]  # the 30 unique cards, sorted
    echoes: tuple[str, ...]  # the 20 unique Echoes, sorted

    @property
    def deck(self) -> tuple[str, ...]:
        return tuple(sorted(self.cards + self.echoes))


@attrs.frozen
class Catalog:
    factions: tuple[Faction, ...]
    defs: dict[str, CardDef]

    def faction(self, faction_id: str) -> Faction:
        for f in self.factions:
            if f.id == faction_id:
                return f
        raise KeyError(faction_id)

    @property
    def faction_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.factions)


class _Reader:
    def __init__(self, file: str, card: str = "") -> None:
        self.file, self.card = file, card

    def fail(self, field: str, problem: str) -> CardDataError:
        return CardDataError(self.file, self.card, field, problem)

    def text(self, t: dict[str, Any], field: str, optional: bool = False) -> str:
        if field not in t:
            if optional:
                return ""
            raise self.fail(field, "is missing")
        value = t[field]
        if not isinstance(value, str) or len(value) > 400:
            raise self.fail(field, f"expected text of at most 400 characters, got {value!r}")
        return value

    def ident(self, t: dict[str, Any], field: str) -> str:
        value = self.text(t, field)
        if not _ID.match(value):
            raise self.fail(field, f"expected a lowercase kebab-case id, got {value!r}")
        return value

    def integer(
        self, t: dict[str, Any], field: str, lo: int, hi: int, default: int | None = None
    ) -> int:
        if field not in t:
            if default is not None:
                return default
            raise self.fail(field, "is missing")
        value = t[field]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(field, f"expected an integer from {lo} to {hi}, got {value!r}")
        return value

    def table(self, value: Any, field: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(field, f"expected a table, got {value!r}")
        return value

    def only(self, t: dict[str, Any], allowed: set[str], field: str) -> None:
        extra = sorted(set(t) - allowed)
        if extra:
            raise self.fail(field, f"unknown key(s) {', '.join(extra)}")

    def choice(
        self, t: dict[str, Any], field: str, options: tuple[str, ...], where: str, default: str = ""
    ) -> str:
        value = t.get(field, default)
        if value not in options:
            raise self.fail(
                f"{where}.{field}" if where else field,
                f"expected one of {', '.join(o or repr(o) for o in options)}, got {value!r}",
            )
        chosen: str = value
        return chosen

    def word(self, t: dict[str, Any], field: str, options: tuple[W, ...], where: str) -> W:
        """:meth:`choice` among the members ``options``: the member spelled as the file does."""
        value = self.choice(t, field, options, where)
        return options[options.index(value)]


def _effect(r: _Reader, raw: Any, field: str, static: bool) -> Effect:
    t = r.table(raw, field)
    ops = STATIC_OPS if static else ONE_SHOT_OPS
    op = word_of(Op, t.get("op"))
    if op is None or op not in ops:
        kind = "a static" if static else "a one-shot"
        raise r.fail(
            field + ".op", f"{t.get('op')!r} is not {kind} effect ({', '.join(sorted(ops))})"
        )
    params = ops[op]
    r.only(t, set(params) | {"op"} | (set() if static else {"optional"}), field)
    for key, required in params.items():
        if required and key not in t:
            raise r.fail(f"{field}.{key}", f"is required by op {op!r}")
    out: dict[str, Any] = {"op": op}
    for key in ("amount", "count"):
        if key in t:
            out[key] = r.integer(t, key, 1, 9)
    for key in ("talents", "drones"):
        if key in t:
            out[key] = r.integer(t, key, 0, 9)
    for key in ("attack", "armor"):
        if key in t:
            out[key] = r.integer(t, key, -9, 9)
    if "target" in t:
        out["target"] = r.word(t, "target", tuple(TARGETS), field)
    target = out.get("target")
    match op:
        case Op.DAMAGE | Op.LOSE_HEALTH | Op.ADD_HEALTH | Op.RESTORE_HEALTH | Op.SACRIFICE:
            if target not in UNIT_TARGETS:
                raise r.fail(field + ".target", f"op {op.value!r} targets a unit")
        case Op.ACCELERATE if target is not Target.OWN_SLOT:
            raise r.fail(field + ".target", "accelerate targets 'own_slot'")
        case Op.MOVE if target is not Target.MOVE_OWN:
            raise r.fail(field + ".target", "move targets 'move_own'")
        case Op.FLIP_DRONES if target not in (None, Target.SEAT):
            raise r.fail(field + ".target", "flip_drones targets a 'seat' (its Citadel)")
        case _:
            pass
    if "optional" in t:
        if not isinstance(t["optional"], bool):
            raise r.fail(field + ".optional", "expected true or false")
        out["optional"] = t["optional"]
    if "spread" in t:
        spread = r.choice(t, "spread", ("", *Spread), field)  # "": none, as if not given
        out["spread"] = Spread(spread) if spread else None
    if "source" in t:
        out["source"] = r.word(t, "source", tuple(HealthSource), field)
    if "who" in t:
        out["who"] = r.word(t, "who", STAT_WHO, field)
        if not static and out["who"] is Who.TARGET and target not in UNIT_TARGETS:
            raise r.fail(field + ".target", "who = 'target' needs a unit target")
        if static and "target" in t:
            raise r.fail(field + ".target", "a static effect chooses no target")
    if "when" in t:
        when = r.choice(t, "when", ("", *STAT_WHEN), field)  # "": always, as if not given
        out["when"] = When(when) if when else None
    if "name" in t:
        out["name"] = word_of(HookName, t["name"])
        if out["name"] is None:
            raise r.fail(field + ".name", f"no hook named {t['name']!r}")
    if op is Op.GAIN and not (t.get("talents") or t.get("drones")):
        raise r.fail(field, "gain names talents or drones")
    return Effect(**out)


def _effects(r: _Reader, t: dict[str, Any], field: str, static: bool) -> tuple[Effect, ...]:
    raw = t.get(field, [])
    if not isinstance(raw, list):
        raise r.fail(field, "expected a list of effect tables")
    return tuple(_effect(r, e, f"{field}[{i}]", static) for i, e in enumerate(raw))


def _ability(r: _Reader, raw: Any) -> Ability:
    t = r.table(raw, "ability")
    r.only(t, {"mode", "talents", "drones", "effects", "not_in_combat"}, "ability")
    mode = r.word(t, "mode", tuple(Mode), "ability")
    talents = r.integer(t, "talents", 0, 5, 0)
    drones = r.integer(t, "drones", 0, 5, 0)
    if talents + drones == 0:
        raise r.fail("ability", "an ability is worked by at least one citizen")
    nic = t.get("not_in_combat", False)
    if not isinstance(nic, bool):
        raise r.fail("ability.not_in_combat", "expected true or false")
    effects = _effects(r, t, "effects", static=(mode is Mode.PERPETUAL))
    return Ability(mode, talents, drones, effects, nic)


_COMMON = {"id", "name", "type", "text", "flavour"}
_BY_TYPE: dict[CardType, set[str]] = {
    CardType.LEADER: {"ability"},
    CardType.CITADEL: set(),
    CardType.UNIT: {"subtype", "cost", "attack", "armor", "health", "keywords", "static"}
    | set(TRIGGERS),
    CardType.AUGMENT: {"cost", "attach", "static", "quick_forge"} | set(TRIGGERS),
    CardType.FACILITY: {"cost", "ability"} | set(TRIGGERS),
    CardType.REFLEX: {"cost", "play", "lasting"},
    CardType.ECHO: {"cost"},
}


def _card(r: _Reader, t: dict[str, Any], faction: str, kind: CardType) -> CardDef:
    r.only(t, _COMMON | _BY_TYPE[kind], "")
    out: dict[str, Any] = {
        "id": r.card,
        "name": r.text(t, "name"),
        "faction": faction,
        "type": kind,
        "text": r.text(t, "text", optional=True),
        "flavour": r.text(t, "flavour", optional=True),
    }
    if kind not in (CardType.LEADER, CardType.CITADEL):
        out["cost"] = r.integer(t, "cost", 1, 9)
    if kind is CardType.UNIT:
        out["subtype"] = r.text(t, "subtype", optional=True)
        out["attack"] = r.integer(t, "attack", 0, 9)
        out["armor"] = r.integer(t, "armor", 0, 9)
        h = r.table(t.get("health"), "health")
        r.only(h, {"talents", "drones"}, "health")
        out["talents"] = r.integer(h, "talents", 0, 9, 0)
        out["drones"] = r.integer(h, "drones", 0, 9, 0)
        if out["talents"] + out["drones"] == 0:
            raise r.fail("health", "a unit has at least 1 maximum health")
        kw = t.get("keywords", [])
        if (
            not isinstance(kw, list)
            or any(k not in KEYWORDS for k in kw)
            or len(set(kw)) != len(kw)
        ):
            raise r.fail("keywords", f"expected distinct keywords among {', '.join(KEYWORDS)}")
        out["keywords"] = tuple(sorted(kw))
    if kind is CardType.AUGMENT:
        out["attach"] = r.word(t, "attach", (CardType.UNIT, CardType.FACILITY), "")
        quick = t.get("quick_forge", False)
        if not isinstance(quick, bool):
            raise r.fail("quick_forge", "expected true or false")
        out["quick_forge"] = quick
    if kind in (CardType.UNIT, CardType.AUGMENT):
        out["static"] = _effects(r, t, "static", static=True)
    if kind in (CardType.LEADER, CardType.FACILITY):
        out["ability"] = _ability(r, t.get("ability"))
    if kind is CardType.REFLEX:
        out["play"] = _effects(r, t, "play", static=False)
        out["lasting"] = _effects(r, t, "lasting", static=True)
        if not out["play"] and not out["lasting"]:
            raise r.fail("play", "a reflex does something")
    triggers = []
    for when in TRIGGERS:
        if when in t:
            if when in UNIT_TRIGGERS and CardType.UNIT not in (kind, out.get("attach")):
                raise r.fail(
                    when, "a unit's damage or health-loss trigger is for units and unit augments"
                )
            effects = _effects(r, t, when, static=False)
            if any(e.target and not e.optional for e in effects):
                raise r.fail(
                    when,
                    "a triggered effect chooses a target only if it is "
                    "optional (its user is asked)",
                )
            triggers.append((when, effects))
    out["triggers"] = tuple(triggers)
    for eff in out.get("static", ()) + out.get("lasting", ()):
        if eff.who is Who.HOST and kind is not CardType.AUGMENT:
            raise r.fail("static", "who = 'host' is for augments")
        if eff.who is Who.TARGET and kind is not CardType.REFLEX:
            raise r.fail("static", "who = 'target' is for a reflex's lasting effects")
    if kind is CardType.REFLEX and any(e.who is Who.TARGET for e in out["lasting"]):
        first = [e.target for e in out["play"] if e.target]
        if not first or first[0] not in UNIT_TARGETS:
            raise r.fail(
                "lasting", "who = 'target' binds the reflex's first target, which must be a unit"
            )
    ability = out.get("ability")
    if any(e.optional for e in out.get("play", ()) + (ability.effects if ability else ())):
        raise r.fail(
            "play" if kind is CardType.REFLEX else "ability",
            "optional is for triggered effects (a reflex or ability is used by choice)",
        )
    for eff in ability.effects if ability is not None else ():
        if eff.who is Who.TARGET and eff.op is Op.STAT:
            raise r.fail("ability", "a perpetual ability chooses no target")
    return CardDef(**out)


def _parse(file: str, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(file, "", "", f"not valid TOML: {exc}") from None


@attrs.frozen
class _Section:
    """A section of a faction file: its cards' type (``None``: each card's own ``type``
    field says), and whether it is one table (the Leader, the Citadel) or a list."""

    name: str
    kind: CardType | None
    single: bool


_SECTIONS = (
    _Section("leader", CardType.LEADER, single=True),
    _Section("citadel", CardType.CITADEL, single=True),
    _Section("card", None, single=False),
    _Section("echo", CardType.ECHO, single=False),
)


def build_catalog(files: dict[str, str]) -> Catalog:
    """Validate faction files given as ``{file name: TOML text}`` and build the catalog."""
    defs: dict[str, CardDef] = {}
    factions: list[Faction] = []
    for name, text in sorted(files.items()):
        doc = _parse(name, text)
        r = _Reader(name)
        r.only(doc, {"faction", "leader", "citadel", "card", "echo"}, "")
        head = r.table(doc.get("faction"), "faction")
        r.only(head, {"id", "name", "text"}, "faction")
        fid = r.ident(head, "id")
        if any(f.id == fid for f in factions):
            raise r.fail("faction.id", f"faction {fid!r} is defined twice")
        ids: dict[str, list[str]] = {"leader": [], "citadel": [], "card": [], "echo": []}
        for section in _SECTIONS:
            raw = doc.get(section.name, None if section.single else [])
            tables = [raw] if section.single else raw
            if not isinstance(tables, list) or not tables:
                raise r.fail(section.name, f"expected [{section.name}] table(s)")
            for t in tables:
                cr = _Reader(name, str(t.get("id", "?")) if isinstance(t, dict) else "?")
                t = cr.table(t, "")
                cr.card = cr.ident(t, "id")
                if cr.card in defs:
                    raise cr.fail("id", "this id is used by another card")
                kind = section.kind or cr.word(t, "type", TYPES[:4], "")
                if kind is CardType.ECHO and t.get("type", CardType.ECHO) != CardType.ECHO:
                    raise cr.fail("type", "an [[echo]] is of type 'echo'")
                defs[cr.card] = _card(cr, {k: v for k, v in t.items() if k != "type"}, fid, kind)
                ids[section.name].append(cr.card)
        if len(ids["card"]) != 30:
            raise r.fail("card", f"a faction has 30 unique cards, not {len(ids['card'])}")
        if len(ids["echo"]) != 20:
            raise r.fail("echo", f"a faction has 20 unique Echoes, not {len(ids['echo'])}")
        factions.append(
            Faction(
                fid,
                r.text(head, "name"),
                ids["leader"][0],
                ids["citadel"][0],
                tuple(sorted(ids["card"])),
                tuple(sorted(ids["echo"])),
            )
        )
    if not factions:
        raise CardDataError("factions", "", "", "no faction files")
    return Catalog(tuple(sorted(factions, key=lambda f: f.id)), defs)


_CATALOG: Catalog | None = None


def standard_catalog() -> Catalog:
    """The shipped factions (loaded and validated once per process)."""
    global _CATALOG
    if _CATALOG is None:
        root = resources.files("fairtable.engine.sovereign") / "data" / "factions"
        files = {
            f"factions/{e.name}": e.read_text(encoding="utf-8")
            for e in root.iterdir()
            if e.name.endswith(".toml")
        }
        _CATALOG = build_catalog(files)
    return _CATALOG
