"""The words of Sovereign that the rules compare, as enumerations: a card's ``type``, an
effect's ``op``, what its ``target`` names, whom and when it changes, where its health
comes from, an ability's ``mode``, a damage effect's ``spread`` and which of a card's
effect lists an effect is in (from the card files);
a citizen's kind, the area a card is taken from, a mulligan and where a move goes (from an
answer); the phases of a turn and the priority windows;
and why the rules ask a chance or a reveal (a request's label).

:mod:`engine.sovereign.cards` parses each word once, when it reads a faction file (an
unknown word is a :class:`~engine.errors.CardDataError` naming file, card and field).  A
member equals its word, so views, logs and digests read the same as with plain text.
"""

from __future__ import annotations

from enum import StrEnum


class CardType(StrEnum):
    """A card's ``type``, as the faction files say.  A member equals its word, so views,
    logs and digests read the same as with plain text."""

    LEADER = "leader"
    CITADEL = "citadel"
    UNIT = "unit"
    AUGMENT = "augment"
    FACILITY = "facility"
    REFLEX = "reflex"
    ECHO = "echo"


class Op(StrEnum):
    """An effect's ``op`` in the effect vocabulary (``docs/cards/sovereign.md``)."""

    DAMAGE = "damage"
    LOSE_HEALTH = "lose_health"
    ADD_HEALTH = "add_health"
    RESTORE_HEALTH = "restore_health"
    GAIN = "gain"
    FLIP_DRONES = "flip_drones"
    ACCELERATE = "accelerate"
    MOVE = "move"
    DRAW = "draw"
    SACRIFICE = "sacrifice"
    TEMP_STAT = "temp_stat"
    HOOK = "hook"
    STAT = "stat"
    BREACH_BONUS = "breach_bonus"


class Target(StrEnum):
    """What an effect's target entry names."""

    UNIT = "unit"
    ENEMY_UNIT = "enemy_unit"
    OWN_UNIT = "own_unit"
    OWN_UNIT_IDLE = "own_unit_idle"
    OWN_SLOT = "own_slot"
    MOVE_OWN = "move_own"
    SEAT = "seat"


class Who(StrEnum):
    """Which units a stat effect changes."""

    SELF = "self"
    HOST = "host"
    OWN_UNITS = "own_units"
    OTHER_OWN_UNITS = "other_own_units"
    OWN_LANE_OTHERS = "own_lane_others"
    ADJACENT = "adjacent"
    ATTACKERS_VS_YOU = "attackers_vs_you"
    ENEMY_UNITS = "enemy_units"
    TARGET = "target"


class When(StrEnum):
    """When a static stat effect applies (none: always)."""

    ATTACKING = "attacking"
    DEFENDING = "defending"
    FRONT = "front"


class Mode(StrEnum):
    """How an ability works: ``triggered`` (used, once a turn) or ``perpetual`` (by level)."""

    TRIGGERED = "triggered"
    PERPETUAL = "perpetual"


class HealthSource(StrEnum):
    """Where the tokens of an ``add_health`` or ``restore_health`` effect come from."""

    CITADEL = "citadel"
    CRECHE = "creche"


class Citizen(StrEnum):
    """A citizen: a talent or a drone (an :class:`~engine.sovereign.answers.UpkeepReturn`
    names one by its word)."""

    TALENT = "talent"
    DRONE = "drone"

    @property
    def place(self) -> int:
        """Its place in a ``[talents, drones]`` pair."""
        return 0 if self is Citizen.TALENT else 1


class Spread(StrEnum):
    """How a ``damage`` effect spreads past its target (none: it does not)."""

    ADJACENT = "adjacent"


class Area(StrEnum):
    """Where a seat's face-down card lies: its hand or its forge (a ``QuickForge`` answer's
    ``source``, the part of a Citadel a breach looks at)."""

    HAND = "hand"
    FORGE = "forge"


class Window(StrEnum):
    """An open window of play (the state's ``window["name"]``): a priority window, named by
    when it opens (a ``WindowInfo``'s ``window``), or the set-up's mulligans."""

    MULLIGAN = "mulligan"  # the seats still choosing; never a ``WindowInfo``'s window

    FORGE_BEGIN = "forge_begin"
    FORGE_END = "forge_end"
    BATTLE_BEGIN = "battle_begin"
    COMBAT = "combat"
    BATTLE_END = "battle_end"
    MOVE_BEGIN = "move_begin"
    MOVE_END = "move_end"
    BETWEEN_TURNS = "between_turns"


class ChanceLabel(StrEnum):
    """Why the rules ask for a chance (a ``Chance`` request's ``label``)."""

    FIRST_PLAYER = "first_player"
    BREACH_HAND = "breach_hand"


class RevealLabel(StrEnum):
    """Why the rules ask a seat to reveal cards (a ``Reveal`` request's ``label``)."""

    MULLIGAN = "mulligan"
    FORGE = "forge"
    REFLEX = "reflex"
    QUICK_FORGE = "quick_forge"
    FINDINGS = "findings"


class MulliganChoice(StrEnum):
    """A seat's mulligan: keep its hand, take the free mulligan, or a shown one."""

    KEEP = "keep"
    FREE = "free"
    SHOWN = "shown"


class Shift(StrEnum):
    """Where a move takes a unit: up or down its lane, or to the back of the other lane."""

    UP = "up"
    DOWN = "down"
    OTHER = "other"


class TurnPhase(StrEnum):
    """Where play stands: set-up, a phase of the active seat's turn, or the game over."""

    SETUP = "setup"
    GROWTH = "growth"
    UPKEEP = "upkeep"
    FORGE = "forge"
    BATTLE = "battle"
    MOVE = "move"
    DRAW = "draw"
    BETWEEN = "between"
    OVER = "over"


class Step(StrEnum):
    """A task of the flow's queue (``state.tasks``): the word each task tuple starts with,
    naming its handler (``flow.HANDLERS``)."""

    BATTLE_CLOSE = "battle_close"
    BATTLE_ENDED = "battle_ended"
    BREACH = "breach"
    COMBAT_ROUND = "combat_round"
    DAMAGE = "damage"
    DEAL = "deal"
    DECLARE = "declare"
    DRAW = "draw"
    EFFECT = "effect"
    FINDINGS = "findings"
    FIRE = "fire"
    FIRE_UNITS = "fire_units"
    FIRST = "first"
    FORGE = "forge"
    FORGE_FINISH = "forge_finish"
    FORGED = "forged"
    FOUND = "found"
    GROWTH = "growth"
    HURT = "hurt"
    LOSSES = "losses"
    MOVE = "move"
    MULLIGAN_RESOLVE = "mulligan_resolve"
    MULLIGAN_ROUND = "mulligan_round"
    OPTIONAL = "optional"
    PHASE = "phase"
    QUICK_FORGED = "quick_forged"
    REDEAL = "redeal"
    REFLEX = "reflex"
    REHANDLE = "rehandle"
    REVEAL = "reveal"
    ROUND_END = "round_end"
    SHUFFLE = "shuffle"
    SWEEP = "sweep"
    TURN = "turn"
    UPKEEP = "upkeep"
    UPKEEP_FORGE = "upkeep_forge"
    UPKEEP_REFLEXES = "upkeep_reflexes"
    UPKEEP_RETURN = "upkeep_return"
    WINDOW = "window"
    WINDOW_STEP = "window_step"


class Ending(StrEnum):
    """How the game ended (the state's ``over``, the ``GameOver`` event's ``how``): a seat
    won, or the round limit was reached."""

    WON = "won"
    ROUND_LIMIT = "round_limit"


class LossCause(StrEnum):
    """What a ``losses`` task takes health for: a combat round, or an effect (after which
    the units at 0 are swept at once)."""

    COMBAT = "combat"
    EFFECT = "effect"


class EffectGroup(StrEnum):
    """Which of a card's effect lists an effect belongs to: what a reflex does when played
    (``play``) and while in play (``lasting``), an ability's, a unit's or augment's
    ``static`` effects, or the effects of one trigger (``on_forge`` ... ``on_health_lost``,
    :data:`TRIGGERS`).  A one-shot effect's task, a "may" decision and an "until end of
    phase" effect name their list by it."""

    PLAY = "play"
    LASTING = "lasting"
    ABILITY = "ability"
    STATIC = "static"
    ON_FORGE = "on_forge"
    UPKEEP = "upkeep"
    GROWTH = "growth"
    ON_SCORE = "on_score"
    ON_DAMAGED = "on_damaged"
    ON_HEALTH_LOST = "on_health_lost"


TRIGGERS = (
    EffectGroup.ON_FORGE,
    EffectGroup.UPKEEP,
    EffectGroup.GROWTH,
    EffectGroup.ON_SCORE,
    EffectGroup.ON_DAMAGED,
    EffectGroup.ON_HEALTH_LOST,
)
"""The triggers, in the order a card file's are read."""

UNIT_TRIGGERS = (EffectGroup.ON_DAMAGED, EffectGroup.ON_HEALTH_LOST)
"""The triggers about a unit: on units and unit augments only."""


LEADER = "leader"
"""The card key naming a seat's own Leader (its ability worked, its citizens taken back):
each seat's Leader has its own ref, so answers and decisions name it by this word."""
