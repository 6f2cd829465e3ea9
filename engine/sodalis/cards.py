"""Sodalis card data: champions, their arcana and the two faces of each arcana.

Each champion is one TOML file (``data/champions/<id>.toml``, format in
``docs/cards/sodalis.md``), loaded and validated once.  A bad file raises
:class:`~engine.errors.CardDataError` naming the file, the card and the field.

Card identities: an arcana lying front side up is named by its id (``"squall"``); lying
reversal side up, by its id and ``~r`` (``"squall~r"``).  The orientation is fixed before
the shuffle, so the identity names the face for the whole game (``docs/rules/sodalis.md``,
"Reversals").  Arcana ids use lowercase letters and ``_`` only, so ``~`` never clashes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Any

import attrs

from fairtable.engine.errors import CardDataError
from fairtable.engine.words import word_of

REVERSED = "~r"
_CHAMPION_ID = re.compile(r"^[a-z]{1,24}$")
_ARCANA_ID = re.compile(r"^[a-z][a-z_]{0,39}$")
_SYMBOL = re.compile(r"^[A-Z]$")
ARCANA_PER_CHAMPION = 9
MIN_REVERSALS = 6


class Action(StrEnum):
    """An action token of a champion (a card costs a Major or a Minor action)."""

    MAJOR = "major"
    MINOR = "minor"
    MOVE = "move"


ACTIONS = (Action.MAJOR, Action.MINOR)  # what a card's cast costs


class Range(StrEnum):
    """How a face's reach counts: up to its numeral, exactly at it, or anywhere."""

    WITHIN = "within"
    AT = "at"
    ANYWHERE = "anywhere"


class Targets(StrEnum):
    """Whom a face affects: one unit in range, all of them, or the caster."""

    ONE = "one"
    ALL = "all"
    SELF = "self"


class Who(StrEnum):
    """Which units a face may affect: anyone, the caster's opponents (and the Paragon), or
    the caster's team."""

    ANY = "any"
    ENEMY = "enemy"
    FRIEND = "friend"


class FaceEffect(StrEnum):
    """What a face's roll does to life (a recoil's ``effect`` too)."""

    DAMAGE = "damage"
    HEAL = "heal"
    NONE = "none"


RANGES = tuple(Range)
TARGETS = tuple(Targets)
WHO = tuple(Who)
EFFECTS = tuple(FaceEffect)


class AuraStat(StrEnum):
    """What a continuous arcana's aura changes (its ``stat``)."""

    INERTIA = "inertia"
    POWER = "power"
    RANGE = "range"
    PIERCING = "piercing"


class AuraTo(StrEnum):
    """Whom an aura touches (its ``to``): the caster, the caster's team, or the units the
    face affected."""

    CASTER = "caster"
    FRIENDS = "friends"
    AFFECTED = "affected"


class PassiveName(StrEnum):
    """A champion's passive, as its file names it: the hook :mod:`.passives` runs."""

    ROYAL_GUARD = "royal_guard"
    KINDRED_GROWTH = "kindred_growth"
    BLOOD_SCENT = "blood_scent"
    SHARED_SOUL = "shared_soul"
    STEADY_AIM = "steady_aim"
    SUFFERING = "suffering"
    MANY_PATHS = "many_paths"
    CHAIN_LIGHTNING = "chain_lightning"
    ENDURANCE = "endurance"


AURA_STATS = tuple(AuraStat)
AURA_TO = tuple(AuraTo)


class Refreshed(StrEnum):
    """Which action token a refresh effect makes ready again (an ``Extra``'s ``token``):
    one named token, or ``any``, whichever the affected champion's seat names."""

    MOVE = "move"
    MINOR = "minor"
    MAJOR = "major"
    ANY = "any"

    @property
    def action(self) -> Action | None:
        """The named token, or None for ``any``."""
        return None if self is Refreshed.ANY else Action(self.value)


REFRESH_TOKENS = tuple(Refreshed)


class ExtraKind(StrEnum):
    """The ``kind`` of an additional effect, as written in the card files.

    A member equals its word, so views, logs and digests read the same as with plain text.
    """

    CONFUSE = "confuse"
    SLOW = "slow"
    PUSH = "push"
    PULL = "pull"
    REFRESH = "refresh"
    RECOIL = "recoil"
    CRITICAL_CONFUSE = "critical_confuse"
    CRITICAL_SLOW = "critical_slow"

    @property
    def critical(self) -> bool:
        """Whether the effect happens only on a critical roll."""
        return self in (ExtraKind.CRITICAL_CONFUSE, ExtraKind.CRITICAL_SLOW)

    @property
    def base(self) -> ExtraKind:
        """The effect itself, critical or not (``critical_slow`` -> ``slow``)."""
        return ExtraKind(self.removeprefix("critical_"))

    @property
    def forced(self) -> bool:
        """Whether the effect (critical or not) moves the target: a push or a pull."""
        return self.base in (ExtraKind.PUSH, ExtraKind.PULL)


EXTRA_FIELDS: dict[ExtraKind, dict[str, tuple[Any, ...]]] = {  # kind -> field -> allowed values
    ExtraKind.CONFUSE: {},
    ExtraKind.SLOW: {},
    ExtraKind.PUSH: {"steps": (1, 2, 3)},
    ExtraKind.PULL: {"steps": (1, 2, 3)},
    ExtraKind.REFRESH: {"token": REFRESH_TOKENS},
    ExtraKind.RECOIL: {"effect": ("damage", "heal"), "power": (1, 2, 3, 4)},
    ExtraKind.CRITICAL_CONFUSE: {},
    ExtraKind.CRITICAL_SLOW: {},
}
CHAMPION_FIELDS = {
    "id",
    "name",
    "symbol",
    "inertia",
    "max_life",
    "passive",
    "passive_text",
    "arcana",
}
ARCANA_FIELDS = {"id", "ultimate", "continuous", "front", "reversal"}
FACE_FIELDS = {
    "name",
    "text",
    "action",
    "range",
    "reach",
    "targets",
    "who",
    "effect",
    "power",
    "accuracy",
    "piercing",
    "extra",
    "aura",
}


@attrs.frozen
class Extra:
    """One additional effect (``kind`` from :data:`EXTRA_FIELDS`)."""

    kind: ExtraKind
    steps: int = 0
    token: Refreshed | None = None  # a refresh's only
    effect: str = ""
    power: int = 0


@attrs.frozen
class Aura:
    stat: AuraStat
    amount: int
    to: AuraTo


@attrs.frozen
class Face:
    name: str
    text: str
    action: Action
    range: Range
    reach: int
    targets: Targets
    who: Who
    effect: FaceEffect
    power: int
    accuracy: bool
    piercing: int
    extra: tuple[Extra, ...]
    aura: Aura | None

    @property
    def recoils(self) -> tuple[Extra, ...]:
        return tuple(x for x in self.extra if x.kind == ExtraKind.RECOIL)


@attrs.frozen
class Arcana:
    id: str
    champion: str
    ultimate: bool
    continuous: bool
    front: Face
    reversal: Face | None


@attrs.frozen
class Champion:
    id: str
    name: str
    symbol: str
    inertia: int
    max_life: int
    passive: PassiveName
    passive_text: str
    arcana: tuple[Arcana, ...]

    def cards(self, reversed_ids: Iterable[str] = ()) -> tuple[str, ...]:
        """The champion's nine card identities with the given arcana reversed, sorted."""
        flip = set(reversed_ids)
        return tuple(sorted(card_id(a.id, a.id in flip) for a in self.arcana))

    @property
    def reversible(self) -> tuple[str, ...]:
        return tuple(sorted(a.id for a in self.arcana if a.reversal is not None))


def card_id(arcana: str, reversed_: bool) -> str:
    return arcana + REVERSED if reversed_ else arcana


def split_card(card: str) -> tuple[str, bool]:
    if card.endswith(REVERSED):
        return card[: -len(REVERSED)], True
    return card, False


@attrs.frozen(eq=False)
class Catalog:
    """Every champion of a game, sorted by id, with lookups by champion, arcana and card."""

    champions: tuple[Champion, ...]
    by_id: dict[str, Champion] = attrs.field(init=False)
    arcana: dict[str, Arcana] = attrs.field(init=False)
    faces: dict[str, Face] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "by_id", {c.id: c for c in self.champions})
        arcana = {a.id: a for c in self.champions for a in c.arcana}
        faces: dict[str, Face] = {}
        for a in arcana.values():
            faces[a.id] = a.front
            if a.reversal is not None:
                faces[a.id + REVERSED] = a.reversal
        object.__setattr__(self, "arcana", arcana)
        object.__setattr__(self, "faces", faces)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.champions)

    def face(self, card: str) -> Face:
        return self.faces[card]

    def arcana_of(self, card: str) -> Arcana:
        return self.arcana[split_card(card)[0]]


# -- validation -------------------------------------------------------------------------------
class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, card: str, field: str, problem: str) -> CardDataError:
        return CardDataError(self.file, card, field, problem)

    def text(self, data: dict[str, Any], key: str, card: str, prefix: str = "") -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(card, prefix + key, "expected non-empty text")
        return value

    def number(
        self,
        data: dict[str, Any],
        key: str,
        card: str,
        low: int,
        high: int,
        default: int | None = None,
        prefix: str = "",
    ) -> int:
        value = data.get(key, default)
        if type(value) is not int or not low <= value <= high:
            raise self.fail(card, prefix + key, f"expected a whole number from {low} to {high}")
        return value

    def choice(
        self, data: dict[str, Any], key: str, card: str, options: tuple[str, ...], prefix: str = ""
    ) -> str:
        value = data.get(key)
        if value not in options:
            raise self.fail(card, prefix + key, f"expected one of {', '.join(options)}")
        return str(value)

    def flag(self, data: dict[str, Any], key: str, card: str, prefix: str = "") -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(card, prefix + key, "expected true or false")
        return value

    def unknown(self, data: dict[str, Any], allowed: set[str], card: str, prefix: str) -> None:
        for key in sorted(set(data) - allowed):
            raise self.fail(card, prefix + key, "unknown field")


def _extra(r: _Reader, raw: Any, card: str, field: str) -> Extra:
    word = raw.get("kind") if isinstance(raw, dict) else None
    if not isinstance(word, str) or word not in EXTRA_FIELDS:
        raise r.fail(card, field + ".kind", f"expected one of {', '.join(EXTRA_FIELDS)}")
    kind = ExtraKind(word)
    fields = EXTRA_FIELDS[kind]
    r.unknown(raw, {"kind", *fields}, card, field + ".")
    values: dict[str, Any] = {}
    for name, allowed in fields.items():
        value = raw.get(name)
        if value not in allowed or isinstance(value, bool):
            raise r.fail(
                card, f"{field}.{name}", f"expected one of {', '.join(str(a) for a in allowed)}"
            )
        values[name] = next(a for a in allowed if a == value)  # the member, read once
    return Extra(kind, **values)


def _face(r: _Reader, raw: Any, card: str, side: str, continuous: bool, ultimate: bool) -> Face:
    if not isinstance(raw, dict):
        raise r.fail(card, side, "expected a table of face fields")
    p = side + "."
    r.unknown(raw, FACE_FIELDS, card, p)
    name = r.text(raw, "name", card, p)
    text = r.text(raw, "text", card, p)
    action = Action(r.choice(raw, "action", card, ACTIONS, p))
    if ultimate and action != Action.MAJOR:
        raise r.fail(card, p + "action", "an ultimate costs a Major action (l. 130)")
    range_ = Range(r.choice(raw, "range", card, RANGES, p))
    reach = r.number(raw, "reach", card, 0, 3, 0 if range_ is Range.ANYWHERE else None, p)
    if reach == 0 and range_ is Range.AT:
        raise r.fail(card, p + "reach", "reach 0 only with range 'within'")
    targets = Targets(r.choice(raw, "targets", card, TARGETS, p))
    who = Who(r.choice(raw, "who", card, WHO, p))
    if targets is Targets.SELF and (range_ is not Range.WITHIN or who is Who.ENEMY):
        raise r.fail(
            card,
            p + "targets",
            "'self' needs range 'within' and who 'any' or "
            "'friend' (the caster is at distance 0 and on its own team)",
        )
    effect = FaceEffect(r.choice(raw, "effect", card, EFFECTS, p))
    power = r.number(raw, "power", card, 0, 8, None, p)
    if (power == 0) != (effect is FaceEffect.NONE):
        raise r.fail(card, p + "power", "power is 0 exactly when effect is 'none'")
    accuracy = r.flag(raw, "accuracy", card, p)
    piercing = r.number(raw, "piercing", card, 0, 3, 0, p)
    extras_raw = raw.get("extra", [])
    if not isinstance(extras_raw, list):
        raise r.fail(card, p + "extra", "expected a list of tables")
    extra = tuple(_extra(r, x, card, f"{p}extra[{i}]") for i, x in enumerate(extras_raw))
    if effect is FaceEffect.NONE and any(x.kind.critical for x in extra):
        raise r.fail(card, p + "extra", "a critical needs a roll: effect 'none' rolls nothing")
    aura = None
    if "aura" in raw:
        if not continuous:
            raise r.fail(card, p + "aura", "only a continuous arcana has an aura")
        a = raw["aura"]
        if not isinstance(a, dict):
            raise r.fail(card, p + "aura", "expected a table")
        r.unknown(a, {"stat", "amount", "to"}, card, p + "aura.")
        amount = r.number(a, "amount", card, -2, 2, None, p + "aura.")
        if amount == 0:
            raise r.fail(card, p + "aura.amount", "an aura changes something (not 0)")
        aura = Aura(
            AuraStat(r.choice(a, "stat", card, AURA_STATS, p + "aura.")),
            amount,
            AuraTo(r.choice(a, "to", card, AURA_TO, p + "aura.")),
        )
    return Face(
        name,
        text,
        action,
        range_,
        reach,
        targets,
        who,
        effect,
        power,
        accuracy,
        piercing,
        extra,
        aura,
    )


def parse_champion(data: dict[str, Any], file: str, passives: Iterable[str]) -> Champion:
    """Validate one champion file's parsed TOML."""
    r = _Reader(file)
    raw_id = data.get("id")
    if not isinstance(raw_id, str) or not _CHAMPION_ID.match(raw_id):
        raise r.fail("", "id", "a champion id is lowercase letters")
    cid = raw_id
    if Path(file).name != f"{cid}.toml":
        raise r.fail(cid, "id", f"the file of champion {cid!r} is named {cid}.toml")
    r.unknown(data, CHAMPION_FIELDS, cid, "")
    name = r.text(data, "name", cid)
    symbol = data.get("symbol")
    if not isinstance(symbol, str) or not _SYMBOL.match(symbol):
        raise r.fail(cid, "symbol", "one capital letter")
    inertia = r.number(data, "inertia", cid, 2, 9)
    max_life = r.number(data, "max_life", cid, 4, 20)
    hooks = sorted(passives)
    passive = word_of(PassiveName, data.get("passive"))
    if passive is None or passive not in hooks:
        raise r.fail(cid, "passive", f"expected one of the passive hooks: {', '.join(hooks)}")
    passive_text = r.text(data, "passive_text", cid)
    raw_arcana = data.get("arcana")
    if not isinstance(raw_arcana, list) or len(raw_arcana) != ARCANA_PER_CHAMPION:
        raise r.fail(cid, "arcana", f"exactly {ARCANA_PER_CHAMPION} arcana per champion")
    arcana = []
    for i, raw in enumerate(raw_arcana):
        if not isinstance(raw, dict):
            raise r.fail(cid, f"arcana[{i}]", "expected a table")
        aid = raw.get("id")
        if not isinstance(aid, str) or not _ARCANA_ID.match(aid):
            raise r.fail(f"{cid} arcana[{i}]", "id", "lowercase letters and _")
        r.unknown(raw, ARCANA_FIELDS, aid, "")
        ultimate = r.flag(raw, "ultimate", aid)
        continuous = r.flag(raw, "continuous", aid)
        if "front" not in raw:
            raise r.fail(aid, "front", "every arcana has a front face")
        front = _face(r, raw["front"], aid, "front", continuous, ultimate)
        reversal = None
        if "reversal" in raw:
            reversal = _face(r, raw["reversal"], aid, "reversal", continuous, ultimate)
        arcana.append(Arcana(aid, cid, ultimate, continuous, front, reversal))
    ids = [a.id for a in arcana]
    if len(set(ids)) != len(ids):
        raise r.fail(cid, "arcana", "an arcana id is used twice")
    if sum(a.ultimate for a in arcana) != 1:
        raise r.fail(cid, "arcana", "exactly one arcana is the ultimate")
    if sum(a.reversal is not None for a in arcana) < MIN_REVERSALS:
        raise r.fail(cid, "arcana", f"at least {MIN_REVERSALS} arcana have a reversal")
    return Champion(cid, name, symbol, inertia, max_life, passive, passive_text, tuple(arcana))
