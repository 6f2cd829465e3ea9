"""Sodalis's two teams, Dawn and Dusk, and the three Tributes a team earns, as the words
the rules compare.

A :class:`Team` member equals its word (``"dawn"``, ``"dusk"``), so views, logs, digests
and outcomes read as before; it is the game's :class:`~engine.outcome.TeamWord`, the
type an :class:`~engine.outcome.Outcome` holds its winning team by.  Each entry point
(the table's options, a position line, a public state read back, a stored event) reads the
word once with :func:`~engine.words.word_of`; the rules compare members after that.
A :class:`Tribute` is kept alike: the state's holdings, the captain's decision and the
events name a member, and what is stored holds its word.
"""

from __future__ import annotations

from enum import StrEnum

from fairtable.engine.outcome import TeamWord


class Team(TeamWord):
    """A team of Sodalis.  Dawn keeps turn token 1."""

    DAWN = "dawn"
    DUSK = "dusk"

    @property
    def other(self) -> Team:
        """The opposing team."""
        return Team.DUSK if self is Team.DAWN else Team.DAWN


TEAMS = tuple(Team)


class Tribute(StrEnum):
    """A tribute a team earns.  A member equals its word, so digests read the same."""

    STRENGTH = "strength"
    SPEED = "speed"
    SIGHT = "sight"


TRIBUTES = tuple(Tribute)
TEAM_TOKENS: dict[Team, tuple[int, ...]] = {Team.DAWN: (1, 3, 5), Team.DUSK: (2, 4, 6)}
