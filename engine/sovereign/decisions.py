"""The kinds of decision Sovereign asks a seat for, and the public limits of each: one
:class:`~engine.requests.DecisionInfo` record per kind."""

from __future__ import annotations

import attrs

from fairtable.engine.requests import DecisionInfo, DecisionKind, info_key
from fairtable.engine.sovereign.kinds import Area, EffectGroup, HealthSource, Op, Window


class SovereignDecisionKind(DecisionKind):
    MULLIGAN = "mulligan"
    ORDER_TRIGGERS = "order_triggers"
    UPKEEP_RETURN = "upkeep_return"
    FORGE = "forge"
    WINDOW = "window"
    MOVE = "move"
    ATTACK = "attack"
    FINISH_FORGE = "finish_forge"
    LOSSES = "losses"
    BREACH_PICK = "breach_pick"
    FINDINGS = "findings"
    ADD_HEALTH = "add_health"
    OPTIONAL_EFFECT = "optional_effect"


@attrs.frozen(kw_only=True)
class MulliganInfo(DecisionInfo):
    """The seat may mulligan: for ``free`` (its first), or showing cards (``shown_left``
    such mulligans left)."""

    KIND = SovereignDecisionKind.MULLIGAN

    free: bool
    shown_left: int


@attrs.frozen(kw_only=True)
class OrderTriggersInfo(DecisionInfo):
    """Abilities of ``sources`` trigger together (``when``): the seat orders them."""

    KIND = SovereignDecisionKind.ORDER_TRIGGERS

    sources: tuple[str, ...]
    when: EffectGroup


@attrs.frozen(kw_only=True)
class UpkeepReturnInfo(DecisionInfo):
    """Upkeep: the seat takes workers back from some of ``cards``."""

    KIND = SovereignDecisionKind.UPKEEP_RETURN

    cards: tuple[str, ...]


@attrs.frozen(kw_only=True)
class ForgeInfo(DecisionInfo):
    """The forge phase: the seat forges, or passes."""

    KIND = SovereignDecisionKind.FORGE


@attrs.frozen(kw_only=True)
class WindowInfo(DecisionInfo):
    """Priority window ``window``: the seat acts, or passes."""

    KIND = SovereignDecisionKind.WINDOW

    window: Window


@attrs.frozen(kw_only=True)
class MoveInfo(DecisionInfo):
    """The move phase: the seat moves a unit (``moved``: one has moved already), or not."""

    KIND = SovereignDecisionKind.MOVE

    moved: bool


@attrs.frozen(kw_only=True)
class AttackInfo(DecisionInfo):
    """The seat may attack one of ``targets``."""

    KIND = SovereignDecisionKind.ATTACK

    targets: tuple[int, ...]


@attrs.frozen(kw_only=True)
class FinishForgeInfo(DecisionInfo):
    """Forged ``new_units`` take lanes and ``loose`` augments take hosts."""

    KIND = SovereignDecisionKind.FINISH_FORGE

    new_units: tuple[str, ...]
    loose: tuple[str, ...]


@attrs.frozen(kw_only=True)
class LossesInfo(DecisionInfo):
    """Each ``(unit, health)`` of ``units`` loses that much health of the types chosen."""

    KIND = SovereignDecisionKind.LOSSES

    units: tuple[tuple[str, int], ...]


@attrs.frozen(kw_only=True)
class BreachPickInfo(DecisionInfo):
    """A breach of the forge: the attacker picks ``count`` of the face-down ``slots``."""

    KIND = SovereignDecisionKind.BREACH_PICK

    count: int
    slots: tuple[int, ...]


@attrs.frozen(kw_only=True)
class FindingsInfo(DecisionInfo):
    """The attacker saw ``handles`` of ``defender``'s ``area``: it scores echoes or makes a
    discard."""

    KIND = SovereignDecisionKind.FINDINGS

    handles: tuple[int, ...]
    area: Area
    defender: int


@attrs.frozen(kw_only=True)
class AddHealthInfo(DecisionInfo):
    """``amount`` health comes to ``unit`` by ``op`` of ``source`` (used by seat ``by``):
    the chooser splits it, from ``talents[0]`` to ``talents[1]`` talents."""

    KIND = SovereignDecisionKind.ADD_HEALTH

    unit: str
    amount: int
    talents: tuple[int, int]
    source: HealthSource
    op: Op
    by: int = attrs.field(metadata=info_key("from"))


@attrs.frozen(kw_only=True)
class OptionalEffectInfo(DecisionInfo):
    """Effect ``index`` of the ``which`` effects of ``source`` is a "may" (``k`` times): the
    seat uses it or not."""

    KIND = SovereignDecisionKind.OPTIONAL_EFFECT

    source: str
    which: EffectGroup
    index: int
    k: int
