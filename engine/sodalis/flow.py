"""The order of play: setup, then turns until a team holds all three tributes.

Setup (docs/rules/sodalis.md, "Order of a game"): turn tokens (both captains at once) ->
champion selection (token order) -> rearranging (both captains at once) -> reversals (every
seat at once) -> each deck shuffled and its spread flipped -> life and action tokens ->
placement (turn order).  Then turns from token 1; after the highest token comes token 1
again (a round).  Each task in ``state.tasks`` names a step; :func:`advance` runs tasks
until one needs an answer (it sets ``state.pending``) or the game ends.  The handlers for
roll, shuffle and flip answers live here; seat decisions are in :mod:`.decide`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from fairtable.engine.errors import IllegalReveal, MalformedAnswer
from fairtable.engine.events import RoundLimit
from fairtable.engine.requests import (
    Decision,
    Flip,
    FlipAnswer,
    Roll,
    RollAnswer,
    Shuffle,
    ShuffleAnswer,
)
from fairtable.engine.sodalis import casting, movement, passives, tribute
from fairtable.engine.sodalis import events as E
from fairtable.engine.sodalis.decisions import (
    ChampionInfo,
    PlaceInfo,
    RearrangeInfo,
    ReversalsInfo,
    TurnInfo,
    TurnTokensInfo,
)
from fairtable.engine.sodalis.state import ACTIONS, SodalisState
from fairtable.engine.sodalis.steps import Step
from fairtable.engine.sodalis.team import TEAM_TOKENS, TEAMS, Team
from fairtable.engine.tasks import run_tasks


def start(state: SodalisState) -> None:
    state.artifacts = dict(state.arena.artifacts)
    state.tasks = [(Step.TURN_TOKENS,)]
    advance(state)


def advance(state: SodalisState) -> None:
    """Run the game's tasks until it needs an answer or is over."""
    run_tasks(state, HANDLERS)


# -- turn tokens, champions, rearranging, reversals ------------------------------------------
def token_options(team: Team, members: int) -> list[tuple[int, ...]]:
    """Every way a team may hand out its tokens (Dawn keeps token 1)."""
    return [
        p for p in itertools.permutations(TEAM_TOKENS[team], members) if team is Team.DUSK or 1 in p
    ]


def _turn_tokens(state: SodalisState) -> None:
    asked = []
    for team in TEAMS:
        members = tuple(state.members(team))
        options = token_options(team, len(members))
        if len(options) == 1:
            assign_tokens(state, members, options[0])
            continue
        asked.append(
            Decision(
                state.captain(team),
                TurnTokensInfo(
                    team=team,
                    members=members,
                    tokens=TEAM_TOKENS[team],
                    must_keep=(1,) if team is Team.DAWN else (),
                ),
                simultaneous=True,
            )
        )
    state.ask(*sorted(asked, key=lambda d: d.seat))
    state.buffered = {}
    state.push((Step.SELECTION,))


def assign_tokens(state: SodalisState, members: tuple[int, ...], tokens: tuple[int, ...]) -> None:
    for seat, token in zip(members, tokens, strict=True):
        state.seats[seat].token = token
    state.order = sorted(
        (s for s in range(state.players) if state.seats[s].token is not None),
        key=lambda s: state.seats[s].token or 0,
    )
    state.log(E.Tokens([[s, state.seats[s].token] for s in members]))


def _selection(state: SodalisState) -> None:
    state.push(*[(Step.CHOOSE, s) for s in state.order], (Step.REARRANGE,))


def _choose(state: SodalisState, seat: int) -> None:
    taken = {s.champion for s in state.seats}
    available = tuple(c for c in state.catalog.ids if c not in taken)
    if len(available) == 1:
        choose_champion(state, seat, available[0])
        return
    state.ask(Decision(seat, ChampionInfo(available=available)))


def choose_champion(state: SodalisState, seat: int, champion: str) -> None:
    s = state.seats[seat]
    s.champion = champion
    s.cards = state.catalog.by_id[champion].cards()
    state.log(E.Champion(seat, champion))


def _rearrange(state: SodalisState) -> None:
    asked = []
    for team in TEAMS:
        members = tuple(state.members(team))
        if len(members) < 2:
            continue
        kept = tuple(sorted(state.seats[s].token or 0 for s in members))
        asked.append(
            Decision(
                state.captain(team),
                RearrangeInfo(team=team, members=members, tokens=kept),
                simultaneous=True,
            )
        )
    state.ask(*asked)
    state.buffered = {}
    state.push((Step.REVERSALS,))


def _reversals(state: SodalisState) -> None:
    asked = []
    for seat in range(state.players):
        reversible = state.champion_of(seat).reversible
        if reversible:
            asked.append(Decision(seat, ReversalsInfo(arcana=reversible), simultaneous=True))
    state.ask(*asked)
    state.buffered = {}
    state.push((Step.DECKS,))


# -- decks, spreads, placement ----------------------------------------------------------------
def _decks(state: SodalisState) -> None:
    state.log(E.Order(state.order))
    state.push(
        *[(Step.SHUFFLE, s) for s in state.order],
        *[(Step.SPREAD, s) for s in state.order],
        (Step.READY,),
        *[(Step.PLACE, s) for s in state.order],
        (Step.FIRST_TURN,),
    )


def _shuffle(state: SodalisState, seat: int) -> None:
    state.ask(Shuffle(f"deck:{seat}", state.seats[seat].cards))


def check_shuffle(state: SodalisState, answer: ShuffleAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Shuffle)
    if answer.pile != req.pile:
        raise MalformedAnswer(f"expected the shuffle of {req.pile}", rule="Starting the Game")


def on_shuffle(state: SodalisState, answer: ShuffleAnswer) -> None:
    check_shuffle(state, answer)
    req = state.pending[0]
    assert isinstance(req, Shuffle)
    seat = int(req.pile.split(":")[1])
    state.pending = []
    state.seats[seat].unseen = len(req.cards)
    state.log(E.Shuffled(seat))


def _spread(state: SodalisState, seat: int) -> None:
    size = passives.spread_size(state.champion_of(seat).passive)
    state.ask(Flip(f"deck:{seat}", size))


def check_flip(state: SodalisState, answer: FlipAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Flip)
    rule = "Cycling"
    if (
        answer.pile != req.pile
        or not isinstance(answer.cards, tuple)
        or len(answer.cards) != req.count
        or any(not isinstance(c, str) for c in answer.cards)
    ):
        raise MalformedAnswer(f"expected {req.count} cards of {req.pile}", rule=rule)
    unseen = casting.possibly_unseen(state, int(req.pile.split(":")[1]))
    if len(set(answer.cards)) != len(answer.cards) or any(c not in unseen for c in answer.cards):
        raise IllegalReveal(
            f"a flipped card of {req.pile} is not one of its unseen cards", rule=rule
        )


def on_flip(state: SodalisState, answer: FlipAnswer) -> None:
    check_flip(state, answer)
    req = state.pending[0]
    assert isinstance(req, Flip)
    state.pending = []
    casting.flip_into_spread(state, int(req.pile.split(":")[1]), answer.cards)


def check_roll(state: SodalisState, answer: RollAnswer) -> None:
    req = state.pending[0]
    assert isinstance(req, Roll)
    values = answer.values
    if (
        not isinstance(values, tuple)
        or len(values) != len(req.sides)
        or any(
            type(v) is not int or not 1 <= v <= s for v, s in zip(values, req.sides, strict=False)
        )
    ):
        raise MalformedAnswer(
            f"expected {len(req.sides)} die faces, each 1 to its sides", rule="Affecting Units"
        )


def on_roll(state: SodalisState, answer: RollAnswer) -> None:
    check_roll(state, answer)
    state.pending = []
    casting.on_roll(state, answer.values)


def _ready(state: SodalisState) -> None:
    for seat, s in enumerate(state.seats):
        s.life = state.max_life(seat)
        s.up = dict.fromkeys(ACTIONS, True)


def _place(state: SodalisState, seat: int) -> None:
    options = movement.base_spaces(state, seat)
    if len(options) == 1:
        movement.place(state, seat, options[0])
        return
    state.ask(Decision(seat, PlaceInfo(spaces=options)))


def _first_turn(state: SodalisState) -> None:
    state.phase = "play"
    state.round = 1
    state.log(E.Round(1))
    state.push((Step.TURN_START, state.order[0]))


# -- turns ------------------------------------------------------------------------------------
def _turn_start(state: SodalisState, seat: int) -> None:
    state.active = seat
    s = state.seats[seat]
    s.confused = s.slowed = False
    s.casts = 0
    s.moved = False
    state.log(E.Turn(seat, state.round))
    state.push((Step.TURN, seat))
    casting.start_of_turn_cycle(state, seat)
    passives.start_of_turn(state, seat)


def turn_info(state: SodalisState, seat: int) -> TurnInfo | None:
    """The turn decision's public options (None when nothing is usable)."""
    pays = movement.payments(state, seat)
    steps = movement.open_steps(state, seat) if pays else ()
    casts = casting.cast_options(state, seat)
    if not steps and not casts:
        return None
    return TurnInfo(steps=steps, pay=pays, carry=movement.on_own_artifact(state, seat), casts=casts)


def _turn(state: SodalisState, seat: int) -> None:
    info = turn_info(state, seat)
    if info is None:
        state.log(E.NothingLeft(seat))
        state.push((Step.TURN_END, seat))
        return
    state.ask(Decision(seat, info))


def _turn_end(state: SodalisState, seat: int) -> None:
    """Refresh every token and tribute the champion controls (l. 190, 208); next seat."""
    s = state.seats[seat]
    s.up = dict.fromkeys(ACTIONS, True)
    for kind in s.tributes:
        s.tributes[kind] = True
    state.log(E.TurnEnd(seat))
    index = state.order.index(seat)
    if index + 1 < len(state.order):
        state.push((Step.TURN_START, state.order[index + 1]))
        return
    limit = state.config.round_limit
    if limit and state.round >= limit:
        state.over = "round_limit"
        state.phase = "over"
        state.active = None
        state.cast = None
        state.tasks = []
        state.log(RoundLimit(state.round))
        return
    state.round += 1
    state.log(E.Round(state.round))
    state.push((Step.TURN_START, state.order[0]))


HANDLERS: dict[str, Callable[..., None]] = {
    Step.TURN_TOKENS: _turn_tokens,
    Step.SELECTION: _selection,
    Step.CHOOSE: _choose,
    Step.REARRANGE: _rearrange,
    Step.REVERSALS: _reversals,
    Step.DECKS: _decks,
    Step.SHUFFLE: _shuffle,
    Step.SPREAD: _spread,
    Step.READY: _ready,
    Step.PLACE: _place,
    Step.FIRST_TURN: _first_turn,
    Step.TURN_START: _turn_start,
    Step.TURN: _turn,
    Step.TURN_END: _turn_end,
    **casting.HANDLERS,
    **movement.HANDLERS,
    **tribute.HANDLERS,
}
