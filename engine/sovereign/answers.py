"""The answers a Sovereign seat gives to its decisions.

No answer carries a hidden card identity: a seat names its face-down cards by their
opaque handles, and identities travel only through the contract's ``Deal``, ``Peek``
and ``Reveal`` requests.  So every answer's public part is the answer itself; playing a
hand card into the forge (``PlayToForge``) is the one answer that puts a card face down
(the handle it names is the commitment).

Targets are strings: a unit or facility in play ``"<owner>:<card>"``, a forge slot
``"slot:<handle>"``, a seat ``"seat:<n>"``, a move ``"<owner>:<card>>up|down|other"``.
"""

from __future__ import annotations

import attrs

from fairtable.engine.requests import DecisionKind
from fairtable.engine.sovereign.decisions import SovereignDecisionKind

Targets = tuple[str, ...]


@attrs.frozen
class Mulligan:
    """Setup: ``keep`` the hand, take the ``free`` mulligan, or a ``shown`` one (the
    whole hand is revealed and must hold no unit)."""

    seat: int
    choice: str


@attrs.frozen
class OrderTriggers:
    """The order (source refs) in which the seat's simultaneous triggers resolve."""

    seat: int
    order: tuple[str, ...]


@attrs.frozen
class UpkeepReturn:
    """Upkeep: take back one citizen (``talent``/``drone``) from each named facility ref or
    ``leader``."""

    seat: int
    returns: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class Pass:
    """Pass in a priority window; end the forge actions or the move phase."""

    seat: int


@attrs.frozen
class PlayToForge:
    """Put hand card ``handle`` face down into the forge with an idle talent."""

    seat: int
    handle: int


@attrs.frozen
class Accelerate:
    """Flip ``amount`` idle talents to drones to advance forge card ``handle``."""

    seat: int
    handle: int
    amount: int = 1


@attrs.frozen
class ForgeCard:
    """Reveal forge card ``handle``.  ``place``: ``lane:0``/``lane:1`` for a unit (back of
    the lane), ``host:<ref>`` or ``loose`` for an augment, ``""`` otherwise."""

    seat: int
    handle: int
    place: str = ""


@attrs.frozen
class PlayReflex:
    """Play hand card ``handle`` as a reflex, paying ``talents`` + ``drones`` idle
    citizens, with ``targets``."""

    seat: int
    handle: int
    talents: int
    drones: int
    targets: Targets = ()


@attrs.frozen
class Work:
    """Work facility ``card`` (a ref) or ``leader`` with ``uses`` times its printed
    citizens, for ``uses`` simultaneous uses."""

    seat: int
    card: str
    uses: int = 1
    targets: Targets = ()


@attrs.frozen
class Move:
    """Move unit ``unit`` ``up``, ``down`` or to the back of the ``other`` lane (the
    move-phase move, or an Airborne move when ``airborne``)."""

    seat: int
    unit: str
    where: str
    airborne: bool = False


@attrs.frozen
class QuickForge:
    """Forge a ``quick_forge`` augment at a reflex moment (Salamander Armor, FAQ l. 360):
    ``handle`` is a card of the seat's ``hand`` (its cost paid in idle talents, turned to
    drones) or ``forge`` (complete), as ``source`` says; it is attached to ``host`` at once."""

    seat: int
    handle: int
    source: str
    host: str


@attrs.frozen
class Attack:
    """Attack with the ``count`` front units of own lane ``lane`` the ``target_lane`` of
    seat ``target``; ``lane=None``: no attack."""

    seat: int
    lane: int | None
    count: int = 0
    target: int = 0
    target_lane: int = 0


@attrs.frozen
class FinishForge:
    """End of the forge actions: first health ``(ref, talents, drones)`` of each unit
    forged this phase, their lanes in order ``(ref, lane)``, hosts of loose augments
    ``(augment ref, host ref)``."""

    seat: int
    health: tuple[tuple[str, int, int], ...] = ()
    lanes: tuple[tuple[str, int], ...] = ()
    attach: tuple[tuple[str, str], ...] = ()


@attrs.frozen
class Losses:
    """For each listed unit, how many of its lost health tokens are talents."""

    seat: int
    talents: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class BreachPick:
    """Forge breach: which forge cards (handles) the attacker looks at."""

    seat: int
    handles: tuple[int, ...]


@attrs.frozen
class Findings:
    """After a breach look: the Echoes seen (handles, all of them) and, in a hand breach
    with none, the seen card to discard."""

    seat: int
    echoes: tuple[int, ...] = ()
    discard: int | None = None


@attrs.frozen
class AddHealth:
    """Adding health (glossary l. 285, FAQ l. 338: "you may use either citizen type"), or
    restoring it to a unit printing both types (l. 314, decision ``op`` =
    ``restore_health``): how many of the tokens are talents, the rest drones, within the
    decision's range."""

    seat: int
    talents: int


@attrs.frozen
class OptionalEffect:
    """A "may" effect that triggered (Apsynthos Memorial, l. 144): ``use`` it with
    ``targets``, or decline (``use=False``, no targets)."""

    seat: int
    use: bool
    targets: Targets = ()


SovereignAnswer = (
    Mulligan
    | OrderTriggers
    | UpkeepReturn
    | Pass
    | PlayToForge
    | Accelerate
    | ForgeCard
    | PlayReflex
    | Work
    | Move
    | Attack
    | FinishForge
    | Losses
    | BreachPick
    | Findings
    | QuickForge
    | AddHealth
    | OptionalEffect
)

ANSWER_KINDS: dict[str, type] = {
    "mulligan": Mulligan,
    "order_triggers": OrderTriggers,
    "upkeep_return": UpkeepReturn,
    "pass": Pass,
    "play_to_forge": PlayToForge,
    "accelerate": Accelerate,
    "forge_card": ForgeCard,
    "play_reflex": PlayReflex,
    "work": Work,
    "move": Move,
    "attack": Attack,
    "finish_forge": FinishForge,
    "losses": Losses,
    "breach_pick": BreachPick,
    "findings": Findings,
    "quick_forge": QuickForge,
    "add_health": AddHealth,
    "optional_effect": OptionalEffect,
}

# decision kind -> the answer classes it accepts
ACCEPTS: dict[DecisionKind, tuple[type, ...]] = {
    SovereignDecisionKind.MULLIGAN: (Mulligan,),
    SovereignDecisionKind.ORDER_TRIGGERS: (OrderTriggers,),
    SovereignDecisionKind.UPKEEP_RETURN: (UpkeepReturn,),
    SovereignDecisionKind.FORGE: (
        Pass,
        PlayToForge,
        Accelerate,
        ForgeCard,
        PlayReflex,
        Work,
        QuickForge,
    ),
    SovereignDecisionKind.WINDOW: (Pass, PlayReflex, Work, Move, QuickForge),
    SovereignDecisionKind.MOVE: (Pass, Move, PlayReflex, Work, QuickForge),
    SovereignDecisionKind.ATTACK: (Attack,),
    SovereignDecisionKind.FINISH_FORGE: (FinishForge,),
    SovereignDecisionKind.LOSSES: (Losses,),
    SovereignDecisionKind.BREACH_PICK: (BreachPick,),
    SovereignDecisionKind.FINDINGS: (Findings,),
    SovereignDecisionKind.ADD_HEALTH: (AddHealth,),
    SovereignDecisionKind.OPTIONAL_EFFECT: (OptionalEffect,),
}


def public_part(answer: SovereignAnswer) -> SovereignAnswer:
    """Every Sovereign answer is public as it is (identities move through requests)."""
    return answer
