"""How a game ended, in one type for every game: :class:`Outcome`.

A finished game's :attr:`~engine.contract.ContractGame.outcome` names the winning seats
(none: nobody won, e.g. the round limit) and, for a game played in teams, the winning
team.  Reign and Sovereign have one winning seat; in Sodalis a team wins, and with it
every seat of that team.  A game of teams names its teams by a :class:`TeamWord` (Sodalis's
``Team``), so the outcome holds the game's own member.

Logs, JSON lines, digests and saved games wrote the winner as a bare value before this
type existed -- a seat number, a team name, or ``null`` -- and still do:
:meth:`Outcome.plain` gives that value.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

import attrs

__all__ = ["Outcome", "Plain", "TeamWord", "team_display"]

Plain = int | str | None
"""The winner as serialised forms write it: a seat, a team, or nobody."""


class TeamWord(StrEnum):
    """The teams of a game played in teams: each such game declares its own subclass with
    a member per team (a member equals its word, so an outcome serialises as before)."""

    @property
    def display(self) -> str:
        """The team as text shows it to people ("Dawn"): its word, capitalised -- the one
        spelling of the screen, the audit and every command's lines."""
        return team_display(self)


def team_display(team: str) -> str:
    """A team's word as text shows it to people ("dawn" -> "Dawn"), whether it comes typed
    (a :class:`TeamWord`) or as read back from a log or a JSON line."""
    return str(team).title()


def _seats(value: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(value))


@attrs.frozen
class Outcome:
    """The winners of a finished game: ``seats`` (sorted; empty when nobody won) and, in a
    game of teams, the winning ``team``."""

    seats: tuple[int, ...] = attrs.field(default=(), converter=_seats)
    team: TeamWord | None = None

    def __attrs_post_init__(self) -> None:
        if any(type(s) is not int or s < 0 for s in self.seats):
            raise ValueError(f"winning seats are seat numbers, not {self.seats!r}")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError(f"a seat wins once, not {self.seats!r}")
        if self.team is not None and not self.seats:
            raise ValueError("a winning team has winning seats")
        if self.team is None and len(self.seats) > 1:
            raise ValueError("several seats win together only as a team")

    # -- building one -----------------------------------------------------------------------
    @classmethod
    def nobody(cls) -> Outcome:
        """The game ended without a winner (a round limit, a resignation)."""
        return cls()

    @classmethod
    def seat(cls, seat: int | None) -> Outcome:
        """Seat ``seat`` won (``None``: nobody did)."""
        return cls() if seat is None else cls((seat,))

    @classmethod
    def of_team(cls, team: TeamWord | None, seats: Iterable[int]) -> Outcome:
        """Team ``team``, whose seats are ``seats``, won (``None``: nobody did)."""
        return cls() if team is None else cls(tuple(seats), team)

    # -- reading one ------------------------------------------------------------------------
    @property
    def decided(self) -> bool:
        """Whether anybody won."""
        return bool(self.seats)

    def won(self, seat: int) -> bool:
        """Whether seat ``seat`` is among the winners."""
        return seat in self.seats

    def plain(self) -> Plain:
        """The winner as serialised forms write it: the team in a game of teams, else the
        winning seat, ``None`` when nobody won."""
        if self.team is not None:
            return self.team
        return self.seats[0] if self.seats else None

    def words(self) -> str:
        """``seat 2``, ``team Dawn`` or ``nobody``: how text output names the winner."""
        if self.team is not None:
            return f"team {team_display(self.team)}"
        if self.seats:
            return "seat " + ", ".join(map(str, self.seats))
        return "nobody"
