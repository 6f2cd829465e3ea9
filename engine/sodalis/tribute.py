"""Tributes and victory: earning, giving, the Strength refresh, Sight taken and stolen.

"When a team earns a Tribute, it can be given to any Champion on that team ... Tribute must
be distributed as evenly as possible" (l. 206): the captain gives it to a champion of the
team holding the fewest (asked only when several qualify).  Victory is checked at every gain
(l. 216): a team holding all three kinds wins at once, mid-turn if need be.
"""

from __future__ import annotations

from collections.abc import Callable

from fairtable.engine.requests import Decision
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.cards import Action
from fairtable.engine.sodalis.decisions import GiveTributeInfo, StrengthRefreshInfo
from fairtable.engine.sodalis.state import ACTIONS, PARAGON, SodalisState
from fairtable.engine.sodalis.steps import Step
from fairtable.engine.sodalis.team import TRIBUTES, Team, Tribute


def candidates(state: SodalisState, team: Team) -> tuple[int, ...]:
    """The team's champions holding the fewest tributes."""
    counts = {s: len(state.seats[s].tributes) for s in state.members(team)}
    low = min(counts.values())
    return tuple(s for s, n in counts.items() if n == low)


def earn(state: SodalisState, team_word: str, word: str) -> None:
    """Task: the team ``team_word`` earns (or steals) a tribute of kind ``word``."""
    team, kind = Team(team_word), Tribute(word)
    state.log(E.TributeEarned(team, kind))
    options = candidates(state, team)
    if len(options) == 1:
        give(state, team, options[0], kind)
        return
    state.ask(
        Decision(state.captain(team), GiveTributeInfo(team=team, tribute=kind, candidates=options))
    )


def give(state: SodalisState, team: Team, seat: int, kind: Tribute) -> None:
    """The tribute arrives face up with ``seat``; the team may have won."""
    state.seats[seat].tributes[kind] = True
    state.log(E.Tribute(team, kind, seat))
    if all(state.holder(team, k) is not None for k in TRIBUTES):
        win(state, team)


def win(state: SodalisState, team: Team) -> None:
    state.winner = team
    state.over = "tribute"
    state.phase = "over"
    state.active = None
    state.cast = None
    state.tasks = []
    state.pending = []
    state.buffered = {}
    state.log(E.Won(team))


def fallen(state: SodalisState, seat: int) -> None:
    """Task: a champion's life reached 0: the opposing team earns Strength (or, holding it
    already, its captain may refresh an action), then the champion respawns (l. 118, 234)."""
    team = state.other(state.team_of(seat))
    state.log(E.Fallen(seat))
    if state.holder(team, Tribute.STRENGTH) is None:
        state.push((Step.EARN, team, Tribute.STRENGTH), (Step.RESPAWN, seat))
    else:
        state.push((Step.STRENGTH_REFRESH, team), (Step.RESPAWN, seat))


def refresh_options(state: SodalisState, team: Team) -> tuple[tuple[int, Action], ...]:
    return tuple((s, a) for s in state.members(team) for a in ACTIONS if not state.seats[s].up[a])


def strength_refresh(state: SodalisState, team_word: str) -> None:
    """Task: "any unit on that team (``team_word``) may refresh an Action" -- the captain
    picks one exhausted action token of the team, or declines."""
    team = Team(team_word)
    options = refresh_options(state, team)
    if not options:
        state.log(E.StrengthRefresh(team, None, None))
        return
    state.ask(Decision(state.captain(team), StrengthRefreshInfo(team=team, options=options)))


def sight_check(state: SodalisState) -> None:
    """Task: after a critical roll, the Tribute of Sight is taken from the Paragon or stolen
    from an opposing holder among the affected units (l. 228-230)."""
    cast = state.cast
    if cast is None or not cast["critical"]:
        return
    caster = cast["seat"]
    team = state.team_of(caster)
    units = cast["units"]
    if PARAGON in units and state.paragon_sight:
        state.paragon_sight = False
        state.log(E.SightTaken(team, caster))
        state.push((Step.EARN, team, Tribute.SIGHT))
        return
    other = state.other(team)
    holder = state.holder(other, Tribute.SIGHT)
    if holder is not None and holder in units:
        del state.seats[holder].tributes[Tribute.SIGHT]
        state.log(E.SightStolen(team, caster, holder))
        state.push((Step.EARN, team, Tribute.SIGHT))


HANDLERS: dict[str, Callable[..., None]] = {
    Step.EARN: earn,
    Step.FALLEN: fallen,
    Step.STRENGTH_REFRESH: strength_refresh,
    Step.SIGHT_CHECK: sight_check,
}
