"""The kinds of decision Sodalis asks a seat (or a unit's owner) for, and the public limits
of each: one :class:`~engine.requests.DecisionInfo` record per kind."""

from __future__ import annotations

from typing import Any

import attrs

from fairtable.engine.requests import DecisionInfo, DecisionKind, info_key
from fairtable.engine.sodalis.arena import Space
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.team import Team, Tribute


class SodalisDecisionKind(DecisionKind):
    TURN_TOKENS = "turn_tokens"
    CHAMPION = "champion"
    REARRANGE = "rearrange"
    REVERSALS = "reversals"
    PLACE = "place"
    TURN = "turn"
    CONFUSE = "confuse"
    REFRESH_TOKEN = "refresh_token"
    CARRY = "carry"
    FORCED_STEP = "forced_step"
    RESPAWN = "respawn"
    GIVE_TRIBUTE = "give_tribute"
    STRENGTH_REFRESH = "strength_refresh"
    ORDER_LIFE = "order_life"


@attrs.frozen(kw_only=True)
class TurnTokensInfo(DecisionInfo):
    """The captain of ``team`` gives its ``members`` turn ``tokens`` (keeping
    ``must_keep``)."""

    KIND = SodalisDecisionKind.TURN_TOKENS

    team: Team
    members: tuple[int, ...]
    tokens: tuple[int, ...]
    must_keep: tuple[int, ...]


@attrs.frozen(kw_only=True)
class ChampionInfo(DecisionInfo):
    """The seat picks its champion among ``available``."""

    KIND = SodalisDecisionKind.CHAMPION

    available: tuple[str, ...]


@attrs.frozen(kw_only=True)
class RearrangeInfo(DecisionInfo):
    """The captain of ``team`` may rearrange its ``members``' turn ``tokens``."""

    KIND = SodalisDecisionKind.REARRANGE

    team: Team
    members: tuple[int, ...]
    tokens: tuple[int, ...]


@attrs.frozen(kw_only=True)
class ReversalsInfo(DecisionInfo):
    """The seat may reverse some of its champion's ``arcana``."""

    KIND = SodalisDecisionKind.REVERSALS

    arcana: tuple[str, ...]


@attrs.frozen(kw_only=True)
class SpacesInfo(DecisionInfo):
    """The seat puts its champion on one of ``spaces`` (:class:`PlaceInfo`,
    :class:`RespawnInfo`)."""

    spaces: tuple[Space, ...]


@attrs.frozen(kw_only=True)
class PlaceInfo(SpacesInfo):
    """The seat places its champion on one of ``spaces`` as the game starts."""

    KIND = SodalisDecisionKind.PLACE


@attrs.frozen(kw_only=True)
class TurnInfo(DecisionInfo):
    """The seat's turn: a step to one of ``steps`` (paid with one of ``pay``, carrying its
    artifact if ``carry``), a cast among ``casts``, or the end of the turn."""

    KIND = SodalisDecisionKind.TURN

    steps: tuple[Space, ...]
    pay: tuple[str, ...]
    carry: bool
    casts: tuple[tuple[Any, ...], ...]


@attrs.frozen(kw_only=True)
class TokenChoiceInfo(DecisionInfo):
    """The unit picks one of its action tokens ``options`` (:class:`ConfuseInfo`,
    :class:`RefreshTokenInfo`)."""

    options: tuple[str, ...]


@attrs.frozen(kw_only=True)
class ConfuseInfo(TokenChoiceInfo):
    """The confused unit exhausts one of the action tokens ``options``."""

    KIND = SodalisDecisionKind.CONFUSE


@attrs.frozen(kw_only=True)
class RefreshTokenInfo(TokenChoiceInfo):
    """The unit refreshes one of its exhausted tokens ``options``."""

    KIND = SodalisDecisionKind.REFRESH_TOKEN


@attrs.frozen(kw_only=True)
class CarryInfo(DecisionInfo):
    """``unit``, moved by ``caster``'s ``movement`` (``steps`` left, from ``origin``) to
    ``to``, may carry its artifact along."""

    KIND = SodalisDecisionKind.CARRY

    unit: int
    to: Space
    movement: str
    steps: int
    origin: Space = attrs.field(metadata=info_key("from"))
    caster: int


@attrs.frozen(kw_only=True)
class ForcedStepInfo(DecisionInfo):
    """The caster moves ``unit`` one step of its ``movement`` (push or pull, away from or
    toward ``origin``) to one of ``options``; ``steps`` are left, ``carry`` says whether
    its artifact comes along."""

    KIND = SodalisDecisionKind.FORCED_STEP

    unit: int
    options: tuple[Space, ...]
    movement: str
    steps: int
    carry: int
    origin: Space = attrs.field(metadata=info_key("from"))


@attrs.frozen(kw_only=True)
class RespawnInfo(SpacesInfo):
    """The fallen champion comes back on one of ``spaces``."""

    KIND = SodalisDecisionKind.RESPAWN


@attrs.frozen(kw_only=True)
class GiveTributeInfo(DecisionInfo):
    """The captain of ``team`` gives the ``tribute`` to one of ``candidates``."""

    KIND = SodalisDecisionKind.GIVE_TRIBUTE

    team: Team
    tribute: Tribute
    candidates: tuple[int, ...]


@attrs.frozen(kw_only=True)
class StrengthRefreshInfo(DecisionInfo):
    """The captain of ``team`` may refresh one ``(seat, action)`` of ``options``."""

    KIND = SodalisDecisionKind.STRENGTH_REFRESH

    team: Team
    options: tuple[tuple[int, Action], ...]


@attrs.frozen(kw_only=True)
class OrderLifeInfo(DecisionInfo):
    """The caster orders the life changes of ``units``."""

    KIND = SodalisDecisionKind.ORDER_LIFE

    units: tuple[int, ...]
