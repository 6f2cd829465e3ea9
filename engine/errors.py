"""The typed errors the engine raises when an answer cannot be applied.

Every error leaves the state exactly as it was.  Each names the rule it
enforces (a rulebook section, e.g. ``"Influence Phase > Bidding"``) so that a
user interface can show a one-line reason and the protocol can blame a peer
with a precise verdict.  Messages never contain another seat's hidden cards:
an error about a seat's secret answer is only ever raised on the machine that
already knows that answer.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class: the answer was refused and nothing changed."""

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule
        self.reason = message


class MalformedAnswer(EngineError):
    """The answer is not even of the right shape (wrong types, garbage values)."""


class NotPending(EngineError):
    """Nobody asked for this answer now."""


class WrongSeat(NotPending):
    """The answer comes from (or is for) a seat that is not being asked."""


class WrongPhase(NotPending):
    """The answer is of a kind the game is not waiting for."""


class IllegalMove(EngineError):
    """A well-formed decision that breaks a rule of the game."""


class IllegalReveal(EngineError):
    """Revealed card identities contradict the rules or public knowledge.

    In a networked game this means the seat that committed to the cards lied;
    the protocol turns it into a verdict against ``seat`` (``None`` when the
    cards were mixed and the culprit can only be found by the audit).
    """

    def __init__(self, message: str, *, rule: str = "", seat: int | None = None) -> None:
        super().__init__(message, rule=rule)
        self.seat = seat


class UnknownSecret(EngineError):
    """The answer needs hidden information this engine instance does not hold,
    or carries hidden information it must not be given."""


class GameOver(NotPending):
    """The game has ended; no more answers are taken."""


class CannotDepart(EngineError):
    """A seat cannot leave the game now: the game cannot go on without it, it left already,
    it is no seat of this table, or the game is over.  Nothing changed."""


class CardDataError(Exception):
    """A card data file is invalid: the message names the file, card and field."""

    def __init__(self, file: str, card: str, field: str, problem: str) -> None:
        where = f"{file}: card {card!r}" if card else file
        if field:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")
        self.file = file
        self.card = card
        self.field = field
        self.problem = problem
