"""Sodalis positions from one line of text, for tests and bug reports.

    sodalis players=2 champions=tempest,empress at=3:-1,5:-1 life=10,7 active=0
            up=Mmv,mv marks=-,c spread0=squall,tempest_bolt,tempest_mend
            bottom0=tempest_hex unseen0=tempest_lure,... cont1=empress_ward@1
            tributes=strength:0,sight:1* artifacts=dawn:8:0,dusk:- round=3 phase=turn

(one line; wrapped here).  Per-seat lists are comma-separated in seat order; a space is
``q:r``.  ``up``: the face-up action tokens (M major, m minor, v move; ``-`` none; default
all).  ``marks``: c Confused, s Slowed.  ``spreadN``: the spread, the cards beside the deck
first and the deck's visible top last (default: the first cards of the champion file).
``bottomN``: the known cards under the deck, top first.  ``unseenN``: the unseen cards,
top first -- the returned referee flips them in that order; cards listed nowhere are added
to the unseen part (front up).  ``contN``: continuous effects, ``card@unit.unit``.
``tributes``: ``kind:seat`` (``*`` = exhausted); Sight is on the Paragon unless given.
``artifacts``: ``team:q:r`` or ``team:-`` (delivered).  ``tokens``: turn tokens (default:
seat + 1).  ``phase``: ``turn`` (the active seat is asked its turn decision) or ``start``
(its turn begins: marks cleared, continuous effects cycled, start-of-turn passive).  Every
seat is known (an omniscient instance).  Cards are identities (``squall~r`` is reversed).
"""

from __future__ import annotations

from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.position_line import PositionLine
from fairtable.engine.referee import Referee
from fairtable.engine.sodalis import flow, passives
from fairtable.engine.sodalis.arena import Space, standard_arena
from fairtable.engine.sodalis.cards import Action, Catalog, card_id, split_card
from fairtable.engine.sodalis.catalog import standard_catalog
from fairtable.engine.sodalis.game import SodalisGame
from fairtable.engine.sodalis.state import (
    ACTIONS,
    Seat,
    SodalisConfig,
    SodalisState,
)
from fairtable.engine.sodalis.steps import Step
from fairtable.engine.sodalis.team import TEAMS, TRIBUTES, Team, Tribute
from fairtable.engine.words import word_of

_TOKEN_LETTERS = {"M": Action.MAJOR, "m": Action.MINOR, "v": Action.MOVE}


def _space(text: str) -> Space:
    try:
        q, r = text.split(":")
        return int(q), int(r)
    except ValueError:
        raise MalformedAnswer(f"a space is q:r, not {text!r}") from None


def _deck(state: SodalisState, seat: int, fields: PositionLine, referee: Referee) -> None:
    s = state.seats[seat]
    champion = state.champion_of(seat)
    own = {a.id for a in champion.arcana}
    used: dict[str, str] = {}

    def take(cards: list[str]) -> list[str]:
        for c in cards:
            arcana, rev = split_card(c)
            if arcana not in own or (rev and state.catalog.arcana[arcana].reversal is None):
                raise MalformedAnswer(f"{c!r} is not a card of {champion.id}")
            if arcana in used:
                raise MalformedAnswer(f"{arcana} is listed twice")
            used[arcana] = c
        return cards

    size = passives.spread_size(champion.passive)
    default = [a.id for a in champion.arcana][:size]
    spread = take(fields.items(f"spread{seat}", ",".join(default)))
    bottom = take(fields.items(f"bottom{seat}"))
    unseen = take(fields.items(f"unseen{seat}"))
    cont = []
    for item in fields.items(f"cont{seat}"):
        card, _, units = item.partition("@")
        take([card])
        cont.append(
            (card, tuple(PositionLine.whole(f"cont{seat}", u) for u in units.split(".") if u))
        )
    unseen += [card_id(a.id, False) for a in champion.arcana if a.id not in used]
    for c in unseen:
        used[split_card(c)[0]] = c
    if not spread:
        raise MalformedAnswer("a spread holds at least one card")
    s.cards = tuple(sorted(used.values()))
    s.side, s.top = list(spread[:-1]), spread[-1]
    s.bottom, s.continuous, s.unseen = bottom, cont, len(unseen)
    referee.piles[f"deck:{seat}"] = list(unseen)


def position(
    line: str, seed: int = 0, catalog: Catalog | None = None
) -> tuple[SodalisGame, Referee]:
    """Build a game in play and its referee from one line of text."""
    fields = PositionLine.parse(line, "sodalis", "Sodalis")
    catalog = catalog or standard_catalog()
    players = fields.number("players", 2)
    teams = tuple(fields.items("teams")) if fields.has("teams") else None
    config = SodalisConfig(players, fields.number("round_limit", 100), teams)
    config.check()
    state = SodalisState(
        config=config,
        catalog=catalog,
        arena=standard_arena(),
        known=frozenset(range(players)),
        seats=[Seat(team=config.team_of(s)) for s in range(players)],
    )
    state.artifacts = dict(state.arena.artifacts)
    champions = fields.items("champions")
    if len(champions) != players or len(set(champions)) != players:
        raise MalformedAnswer("name one different champion per seat")
    tokens = fields.numbers("tokens", ",".join(str(s + 1) for s in range(players)))
    referee = Referee(seed)
    for seat, cid in enumerate(champions):
        if cid not in catalog.by_id:
            raise MalformedAnswer(f"unknown champion {cid!r}")
        s = state.seats[seat]
        s.champion, s.token = cid, tokens[seat]
        s.life = state.max_life(seat)
        _deck(state, seat, fields, referee)
    state.order = sorted(range(players), key=lambda x: state.seats[x].token or 0)
    spaces = fields.items("at")
    for seat in state.order:
        s = state.seats[seat]
        if spaces:
            s.at = _space(spaces[seat])
        else:
            s.at = next(
                b for b in sorted(state.arena.base_of(s.team)) if not state.closed_for(seat, b)
            )
    for seat, life in enumerate(fields.numbers("life")):
        state.seats[seat].life = life
    for seat, up in enumerate(fields.items("up")):
        state.seats[seat].up = {a: False for a in ACTIONS}
        for letter in up.replace("-", ""):
            state.seats[seat].up[_TOKEN_LETTERS[letter]] = True
    for seat, marks in enumerate(fields.items("marks")):
        state.seats[seat].confused = "c" in marks
        state.seats[seat].slowed = "s" in marks
    for item in fields.items("tributes"):
        word, _, holder = item.partition(":")
        kind = word_of(Tribute, word)
        if kind is None:
            raise MalformedAnswer(f"unknown tribute {word!r}")
        state.seats[PositionLine.whole("tributes", holder.rstrip("*"))].tributes[
            kind
        ] = not holder.endswith("*")
        if kind == Tribute.SIGHT:
            state.paragon_sight = False
    for item in fields.items("artifacts"):
        word, _, where = item.partition(":")
        team = word_of(Team, word)
        if team is None:
            raise MalformedAnswer(f"unknown team {word!r}")
        state.artifacts[team] = None if where == "-" else _space(where)
    active = fields.number("active", state.order[0])
    state.active = active
    state.seats[active].casts = fields.number("casts", 0)
    state.seats[active].moved = fields.text("moved", "0") == "1"
    state.round = fields.number("round", 1)
    state.phase = "play"
    _check(state)
    phase = fields.text("phase", "turn")
    if phase not in (Step.TURN, "start"):
        raise MalformedAnswer("phase is turn or start")
    state.tasks = [(Step.TURN if phase == "turn" else Step.TURN_START, active)]
    flow.advance(state)
    return SodalisGame(state), referee


def _check(state: SodalisState) -> None:
    spaces = [s.at for s in state.seats] + [state.arena.paragon]
    if len(set(spaces)) != len(spaces):
        raise MalformedAnswer("two units share a space")
    for seat, s in enumerate(state.seats):
        if s.at not in state.arena.passable:
            raise MalformedAnswer(f"seat {seat} stands off the passable arena")
        if state.artifacts[state.other(s.team)] == s.at:
            raise MalformedAnswer(f"seat {seat} stands on the opposing Artifact")
        if not 0 <= s.life <= state.max_life(seat):
            raise MalformedAnswer(f"seat {seat}'s life is out of range")
    for team in TEAMS:
        for kind in TRIBUTES:
            if sum(kind in state.seats[s].tributes for s in state.members(team)) > 1:
                raise MalformedAnswer(f"{team} holds two {kind} tributes")
