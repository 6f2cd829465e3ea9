"""The answers a Sodalis seat gives to its decisions.

Every answer is public once applied: Sodalis has no hands and no face-down cards.  The
simultaneous ones (turn tokens, rearranging, reversals) are kept secret only until every
asked seat has answered -- the protocol commits them and reveals them together; the engine
buffers them meanwhile and shows a seat only its own.  So ``public_part`` is the answer
itself.

Fields are ints, strings, booleans, None and tuples of those (they travel as canonical
JSON).  A space is ``(q, r)`` (axial coordinates of the arena); a unit is a seat number, or
``PARAGON`` (-1) for the Paragon; a card is its identity (``"squall"`` or ``"squall~r"``).
"""

from __future__ import annotations

import attrs

Space = tuple[int, int]


@attrs.frozen
class TurnTokens:
    """A team captain gives one of the team's tokens to each member: ``tokens[i]`` goes to
    the i-th member in seat order (the decision's ``members``)."""

    seat: int
    tokens: tuple[int, ...]


@attrs.frozen
class ChooseChampion:
    seat: int
    champion: str


@attrs.frozen
class Rearrange:
    """A captain reassigns the team's kept tokens: ``tokens[i]`` to the i-th member."""

    seat: int
    tokens: tuple[int, ...]


@attrs.frozen
class Reversals:
    """The arcana (ids, sorted) this seat turns to their reversal; the rest stay front up."""

    seat: int
    reversed: tuple[str, ...]


@attrs.frozen
class Place:
    seat: int
    space: Space


@attrs.frozen
class Step:
    """Turn action: move one space to ``to``, exhausting ``pay`` ("move", "minor", "major"
    or "speed" for the Speed tribute); ``carry`` moves the team's Artifact along (only when
    standing on it)."""

    seat: int
    to: Space
    pay: str
    carry: bool = False


@attrs.frozen
class Cast:
    """Turn action: cast ``card`` from the spread at ``target`` (a unit, for arcana that
    affect one unit; None for "all" and "self"), exhausting Sight (+1 range) and/or Strength
    (+2 power) if held."""

    seat: int
    card: str
    target: int | None = None
    sight: bool = False
    strength: bool = False


@attrs.frozen
class EndTurn:
    seat: int


@attrs.frozen
class ConfuseChoice:
    """A Confused champion exhausts its "major" or "minor" token."""

    seat: int
    token: str


@attrs.frozen
class Carry:
    """Before a forced movement's first step off its Artifact: carry it along, or leave it."""

    seat: int
    carry: bool


@attrs.frozen
class ForcedStep:
    """The caster picks where a push or pull goes when two spaces are equally "away"."""

    seat: int
    to: Space


@attrs.frozen
class Respawn:
    seat: int
    space: Space


@attrs.frozen
class GiveTribute:
    """A captain gives an earned tribute to ``to`` (a seat of the team holding fewest)."""

    seat: int
    to: int


@attrs.frozen
class StrengthRefresh:
    """A captain whose team already holds Strength refreshes ``token`` of ``champion`` (a
    seat of the team), or declines (both None)."""

    seat: int
    champion: int | None = None
    token: str | None = None


@attrs.frozen
class RefreshToken:
    """An arcana refreshes "any" token: the affected champion's seat names which."""

    seat: int
    token: str


@attrs.frozen
class OrderLife:
    """The caster orders the life changes of its cast, when the order changes a result:
    ``order`` is every affected champion (seats; the Paragon changes no life), first first."""

    seat: int
    order: tuple[int, ...]


SodalisAnswer = (
    TurnTokens
    | ChooseChampion
    | Rearrange
    | Reversals
    | Place
    | Step
    | Cast
    | EndTurn
    | ConfuseChoice
    | Carry
    | ForcedStep
    | Respawn
    | GiveTribute
    | StrengthRefresh
    | RefreshToken
    | OrderLife
)

ANSWER_KINDS: dict[str, type] = {
    "turn_tokens": TurnTokens,
    "champion": ChooseChampion,
    "rearrange": Rearrange,
    "reversals": Reversals,
    "place": Place,
    "step": Step,
    "cast": Cast,
    "end_turn": EndTurn,
    "confuse": ConfuseChoice,
    "carry": Carry,
    "forced_step": ForcedStep,
    "respawn": Respawn,
    "give_tribute": GiveTribute,
    "strength_refresh": StrengthRefresh,
    "refresh_token": RefreshToken,
    "order_life": OrderLife,
}


def public_part(answer: SodalisAnswer) -> SodalisAnswer:
    """Every Sodalis answer is public once applied."""
    return answer
