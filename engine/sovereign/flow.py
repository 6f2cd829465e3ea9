"""The order of play: setup and mulligans, then turns of growth, upkeep, forge, battle,
move and draw, with priority windows between.

Each task in ``state.tasks`` is a tuple naming a step; :func:`advance` runs tasks until
one needs an answer (it sets ``state.pending``) or the game ends.  Battle steps are in
:mod:`.battle`, one-shot effects in :mod:`.resolve`, the handlers of the contract's
chance/shuffle/deal/peek/reveal answers in :mod:`.requests_in`.
"""

from __future__ import annotations

from collections.abc import Callable

from fairtable.engine.events import FirstPlayer, RoundLimit
from fairtable.engine.requests import Chance, Deal, Decision, Rehandle, Reveal, Shuffle
from fairtable.engine.sovereign import battle, effects, resolve
from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.decisions import (
    FinishForgeInfo,
    ForgeInfo,
    MoveInfo,
    MulliganInfo,
    OrderTriggersInfo,
    UpkeepReturnInfo,
    WindowInfo,
)
from fairtable.engine.sovereign.kinds import (
    LEADER,
    Area,
    CardType,
    ChanceLabel,
    EffectGroup,
    Ending,
    Mode,
    MulliganChoice,
    RevealLabel,
    Step,
    TurnPhase,
    Window,
)
from fairtable.engine.sovereign.placement import Placement, on_host
from fairtable.engine.sovereign.scoring import end_game, forget, score, take_public
from fairtable.engine.sovereign.state import (
    HAND_SIZE,
    MAX_SHOWN_MULLIGANS,
    Board,
    Facility,
    SovereignState,
    Unit,
)
from fairtable.engine.tasks import Task, push_front, run_tasks


def start(state: SovereignState) -> None:
    for deck in state.config.seat_decks(state.catalog):  # a custom deck or the faction's
        state.boards.append(
            Board(faction=deck.faction, leader=deck.leader, citadel_card=deck.citadel)
        )
        state.hidden.append(list(deck.deck))
    state.tasks = [*[(Step.SHUFFLE, s) for s in range(state.players)], (Step.FIRST,)]
    advance(state)


def advance(state: SovereignState) -> None:
    """Run the game's tasks until it needs an answer or is over."""
    run_tasks(state, HANDLERS)


# -- setup --------------------------------------------------------------------------------
def deck_list(state: SovereignState, seat: int) -> tuple[str, ...]:
    return state.config.seat_decks(state.catalog)[seat].deck


def _shuffle(state: SovereignState, seat: int) -> None:
    state.boards[seat].deck = len(deck_list(state, seat))
    if seat in state.departed:  # a seat that left: its deck is never shuffled nor drawn
        return
    state.pending = [Shuffle(f"deck:{seat}", deck_list(state, seat))]


def _first(state: SovereignState) -> None:
    state.pending = [Chance(ChanceLabel.FIRST_PLAYER, state.players, 1)]


def first_player(state: SovereignState, seat: int) -> None:
    state.first_player = seat
    state.log(FirstPlayer(seat))
    for i, s in enumerate(state.order_from(seat)):
        effects.from_creche(state, s, 0, i + 1)
    seats = [s for s in range(state.players) if s not in state.departed]
    state.window = {"name": Window.MULLIGAN, "seats": seats, "choices": {}}
    push_front(
        state, *[(Step.DEAL, s, HAND_SIZE) for s in state.order_from(seat)], (Step.MULLIGAN_ROUND,)
    )


def _deal(state: SovereignState, seat: int, count: int) -> None:
    if seat in state.departed:  # a seat that left is dealt nothing
        return
    count = min(count, state.boards[seat].deck)
    if count > 0:
        state.pending = [Deal(f"deck:{seat}", seat, count)]
    elif state.phase is TurnPhase.DRAW:
        state.log(E.DeckEmpty(seat))


def _mulligan_round(state: SovereignState) -> None:
    seats = state.window["seats"]
    if not seats:
        state.window = {}
        push_front(state, (Step.TURN, state.first_player))
        return
    state.window["choices"] = {}
    state.pending = [
        Decision(
            s,
            MulliganInfo(
                free=state.boards[s].mulligans[0] == 0,
                shown_left=MAX_SHOWN_MULLIGANS - state.boards[s].mulligans[1],
            ),
            simultaneous=True,
        )
        for s in seats
    ]
    state.buffered = {}
    push_front(state, (Step.MULLIGAN_RESOLVE,))


def _mulligan_resolve(state: SovereignState) -> None:
    choices = state.window["choices"]
    tasks: list[Task] = []
    for seat in sorted(choices, key=int):
        s, choice = int(seat), MulliganChoice(choices[seat])
        b = state.boards[s]
        if choice is MulliganChoice.KEEP:
            state.window["seats"].remove(s)
            state.log(E.Mulligan(s, choice))
            continue
        b.mulligans[0 if choice is MulliganChoice.FREE else 1] += 1
        state.log(E.Mulligan(s, choice))
        if choice is MulliganChoice.SHOWN:
            tasks.append((Step.REVEAL, RevealLabel.MULLIGAN, s, tuple(b.hand)))
        tasks += [(Step.REDEAL, s), (Step.DEAL, s, HAND_SIZE)]
    push_front(state, *tasks, (Step.MULLIGAN_ROUND,))


def _redeal(state: SovereignState, seat: int) -> None:
    """The hand goes back into the deck unseen and the deck is reshuffled."""
    b = state.boards[seat]
    for h in b.hand:
        forget(state, h)
    b.hand = []
    state.revealed = []
    _shuffle(state, seat)


def _reveal(state: SovereignState, label: str, seat: int, handles: tuple[int, ...]) -> None:
    if handles:
        state.pending = [Reveal(label, ((str(seat), tuple(handles), False),))]


# -- the turn -----------------------------------------------------------------------------
def _turn(state: SovereignState, seat: int) -> None:
    limit = state.config.round_limit
    if seat == state.first_player:
        if limit and state.round >= limit:
            state.log(RoundLimit(state.round))
            end_game(state, Ending.ROUND_LIMIT)
            return
        state.round += 1
    if seat in state.departed:  # a seat that left takes no turn
        push_front(state, (Step.TURN, (seat + 1) % state.players))
        return
    state.active = seat
    state.turn += 1
    state.moved = False
    state.log(E.Turn(state.turn, seat))
    push_front(state, *turn_tasks(state, seat))


def turn_tasks(state: SovereignState, seat: int) -> list[Task]:
    """The steps of ``seat``'s turn, from its growth phase to the next turn."""
    nxt = (seat + 1) % state.players
    return [
        (Step.PHASE, TurnPhase.GROWTH),
        (Step.GROWTH, seat),
        (Step.PHASE, TurnPhase.UPKEEP),
        (Step.UPKEEP, seat),
        (Step.PHASE, TurnPhase.FORGE),
        (Step.WINDOW, Window.FORGE_BEGIN),
        (Step.FORGE, seat),
        (Step.FORGE_FINISH, seat),
        (Step.WINDOW, Window.FORGE_END),
        (Step.PHASE, TurnPhase.BATTLE),
        (Step.WINDOW, Window.BATTLE_BEGIN),
        (Step.DECLARE, seat),
        (Step.PHASE, TurnPhase.MOVE),
        (Step.WINDOW, Window.MOVE_BEGIN),
        (Step.MOVE, seat),
        (Step.WINDOW, Window.MOVE_END),
        (Step.PHASE, TurnPhase.DRAW),
        (Step.DRAW, seat),
        (Step.PHASE, TurnPhase.BETWEEN),
        (Step.WINDOW, Window.BETWEEN_TURNS),
        (Step.TURN, nxt),
    ]


def _phase(state: SovereignState, name: str) -> None:
    state.phase = TurnPhase(name)
    state.temps = []  # "until end of phase" effects end with it


def triggers(state: SovereignState, seat: int, when: EffectGroup) -> list[tuple[str, int]]:
    """(source ref, scale) of the seat's cards triggering ``when``, in a canonical order."""
    out: list[tuple[str, int]] = []
    b = state.boards[seat]
    lref = effects.leader_ref(state, seat)
    for ref in [lref, *b.facilities]:
        d = state.defn(ref)
        if d.trigger(when):
            lv = effects.level(state, ref) if d.ability and d.ability.mode is Mode.PERPETUAL else 1
            if lv:
                out.append((ref, lv))
    for lane in b.lanes:
        for ref in lane:
            if state.defn(ref).trigger(when):
                out.append((ref, 1))
            # an augment is controlled by its host's controller, whoever owns it (l. 147)
            for aug in state.units[ref].augments:
                if state.defn(aug).trigger(when):
                    out.append((aug, 1))
    for ref in b.facilities:
        for aug in state.facilities[ref].augments:
            if state.defn(aug).trigger(when):
                out.append((aug, 1))
    return out


def fire(state: SovereignState, seat: int, when: EffectGroup) -> None:
    found = triggers(state, seat, when)
    _order_or_run(state, seat, when, found)


def _hurt(state: SovereignState, damaged: tuple[str, ...], lost: tuple[str, ...]) -> None:
    """Units that took damage and units that lost health (FAQ l. 354): their ``on_damaged``
    and ``on_health_lost`` triggers fire, seat by seat in player order from the active
    player (FAQ l. 340), each seat's own in the order it chooses.  Only units still in play
    react (a unit scrapped at once by an ability has left; one at 0 in a combat round is
    still there until the round ends, l. 197); an attacker's unit left out of the attack
    adds no text to combat."""
    tasks: list[Task] = []
    for seat in state.order_from(state.active):
        for when, refs in ((EffectGroup.ON_DAMAGED, damaged), (EffectGroup.ON_HEALTH_LOST, lost)):
            mine = tuple(
                r
                for r in refs
                if r in state.units
                and state.units[r].owner == seat
                and not effects.silenced(state, r)
            )
            if mine:
                tasks.append((Step.FIRE_UNITS, seat, when, mine))
    push_front(state, *tasks)


def _fire_units(state: SovereignState, seat: int, when: EffectGroup, refs: tuple[str, ...]) -> None:
    found = [
        (r, k)
        for r, k in triggers(state, seat, when)
        if r in refs or any(r in state.units[u].augments for u in refs if u in state.units)
    ]
    _order_or_run(state, seat, when, found)


def _order_or_run(
    state: SovereignState, seat: int, when: EffectGroup, found: list[tuple[str, int]]
) -> None:
    """Triggers ``found`` fire: two or more are ordered by their seat first."""
    if len(found) >= 2:
        state.window = {**state.window, "trigger": when}
        state.pending = [
            Decision(seat, OrderTriggersInfo(sources=tuple(r for r, _ in found), when=when))
        ]
        return
    push_front(state, *trigger_tasks(state, seat, when, found))


def trigger_tasks(
    state: SovereignState, seat: int, when: EffectGroup, found: list[tuple[str, int]]
) -> list[Task]:
    tasks: list[Task] = []
    for ref, scale in found:
        for i, eff in enumerate(state.defn(ref).trigger(when)):
            if eff.optional:  # "may": its user is asked (with its targets)
                tasks.append((Step.OPTIONAL, seat, ref, when, i, scale))
            else:
                tasks.append((Step.EFFECT, seat, ref, when, i, scale, ""))
    return tasks


def _growth(state: SovereignState, seat: int) -> None:
    effects.from_creche(state, seat, 2, 0)
    state.log(E.Growth(seat))
    fire(state, seat, EffectGroup.GROWTH)


def _upkeep(state: SovereignState, seat: int) -> None:
    push_front(
        state, (Step.UPKEEP_REFLEXES, seat), (Step.UPKEEP_RETURN, seat), (Step.UPKEEP_FORGE, seat)
    )
    fire(state, seat, EffectGroup.UPKEEP)


def _upkeep_reflexes(state: SovereignState, seat: int) -> None:
    b = state.boards[seat]
    for ref, citizens, _ in b.reflexes:
        b.citadel[0] += citizens[0]
        b.citadel[1] += citizens[1]
        effects.scrap_card(state, ref)
        state.log(E.ReflexEnds(ref))
    b.reflexes = []


def worked_cards(state: SovereignState, seat: int) -> list[str]:
    b = state.boards[seat]
    out = [LEADER] if sum(b.leader_workers) else []
    return out + [r for r in b.facilities if sum(state.facilities[r].workers)]


def _upkeep_return(state: SovereignState, seat: int) -> None:
    cards = worked_cards(state, seat)
    if cards:
        state.pending = [Decision(seat, UpkeepReturnInfo(cards=tuple(cards)))]


def _upkeep_forge(state: SovereignState, seat: int) -> None:
    for slot in state.boards[seat].forge:
        slot.progress += 1
    state.log(E.ForgeAdvance(seat))


# -- priority windows ------------------------------------------------------------------------
def _window(state: SovereignState, name: str) -> None:
    state.window = {
        "name": Window(name),
        "order": state.order_from(state.active),
        "i": 0,
        "passes": 0,
        "airborne": [],
    }
    push_front(state, (Step.WINDOW_STEP,))


def may_act(state: SovereignState, seat: int) -> bool:
    """Public grounds only: idle citizens, a free Airborne move at the start of battle, or
    a forge card far enough along to be a complete ``quick_forge`` card of the seat's deck
    (revealing it from the forge costs no citizen, FAQ l. 360; deck lists are public)."""
    b = state.boards[seat]
    if seat in state.departed:  # a seat that left never acts in a window
        return False
    if sum(b.citadel):
        return True
    if state.window_name() is Window.BATTLE_BEGIN and airborne_units(state, seat):
        return True
    costs = [
        state.catalog.defs[c].cost for c in state.hidden[seat] if state.catalog.defs[c].quick_forge
    ]
    return bool(costs) and any(x.progress >= min(costs) for x in b.forge)


def airborne_units(state: SovereignState, seat: int) -> list[str]:
    used = state.window.get("airborne", [])
    return [
        r
        for lane in state.boards[seat].lanes
        for r in lane
        if state.defn(r).has("airborne") and r not in used
    ]


def _window_step(state: SovereignState) -> None:
    w = state.window
    n = state.players
    while w["passes"] < n:
        seat = w["order"][w["i"]]
        if may_act(state, seat):
            state.pending = [Decision(seat, WindowInfo(window=Window(w["name"])))]
            return
        w["passes"] += 1
        w["i"] = (w["i"] + 1) % n
    state.window = {}


def window_done(state: SovereignState, acted: bool) -> None:
    """The asked seat passed or finished one action: the next seat is asked."""
    w = state.window
    w["passes"] = 0 if acted else w["passes"] + 1
    w["i"] = (w["i"] + 1) % state.players


# -- forge phase ----------------------------------------------------------------------------
def _forge(state: SovereignState, seat: int) -> None:
    state.pending = [Decision(seat, ForgeInfo())]


def forged(state: SovereignState, seat: int, handle: int, place: str) -> None:
    """A revealed forge card takes its place (the reveal already checked it may)."""
    b = state.boards[seat]
    card = dict(state.revealed)[handle]
    ref = f"{seat}:{card}"
    d = state.catalog.defs[card]
    b.forge = [s for s in b.forge if s.handle != handle]
    take_public(state, seat, handle, card)
    state.log(E.Forged(ref, place))
    if d.type is CardType.ECHO:
        b.citadel[0] += 1
        score(state, seat, ref)
        return
    b.citadel[1] += 1
    where = Placement.parse(place)  # the reveal checked it is this card's place
    assert where is not None
    if d.type is CardType.UNIT:
        assert where.lane is not None
        state.units[ref] = Unit(seat, card, [0, 0], new=True)
        b.lanes[where.lane].append(ref)
    elif d.type is CardType.FACILITY:
        state.facilities[ref] = Facility(seat, card)
        b.facilities.append(ref)
    elif d.type is CardType.AUGMENT:
        if where.host is not None:
            attach(state, ref, where.host)
        else:
            b.loose.append(ref)
    push_front(state, *trigger_tasks(state, seat, EffectGroup.ON_FORGE, [(ref, 1)]))


def quick_forged(state: SovereignState, seat: int, handle: int, source: Area, host: str) -> None:
    """A ``quick_forge`` augment revealed at a reflex moment (FAQ l. 360, a one-card forge
    phase): from hand its cost in idle talents is exhausted (one is its forge talent, the
    rest accelerate it); its forge talent returns as a drone; it is attached at once and
    forge effects trigger."""
    b = state.boards[seat]
    card = dict(state.revealed)[handle]
    ref = f"{seat}:{card}"
    if Area(source) is Area.HAND:
        cost = state.catalog.defs[card].cost
        b.citadel[0] -= cost
        b.citadel[1] += cost
    else:
        b.forge = [s for s in b.forge if s.handle != handle]
        b.citadel[1] += 1
    take_public(state, seat, handle, card)
    state.log(E.Forged(ref, on_host(host).word()))
    attach(state, ref, host)
    push_front(state, *trigger_tasks(state, seat, EffectGroup.ON_FORGE, [(ref, 1)]))


def attach(state: SovereignState, aug: str, host: str) -> None:
    target = state.units.get(host) or state.facilities.get(host)
    assert target is not None
    target.augments.append(aug)
    state.log(E.Attached(aug, host))


def host_options(state: SovereignState, aug: str) -> list[str]:
    if state.defn(aug).attach is CardType.UNIT:
        return sorted(r for r in state.units if state.lane_of(r) is not None)
    return sorted(state.facilities)


def _forge_finish(state: SovereignState, seat: int) -> None:
    b = state.boards[seat]
    new = [r for lane in b.lanes for r in lane if state.units[r].new]
    loose = list(b.loose)
    if not new and not loose:
        return
    state.pending = [Decision(seat, FinishForgeInfo(new_units=tuple(new), loose=tuple(loose)))]
    push_front(state, (Step.SWEEP,))


def _sweep(state: SovereignState) -> None:
    """Units at 0 health are scrapped (outside a combat round)."""
    for ref in sorted(state.units):
        if sum(state.units[ref].health) == 0 and not state.units[ref].new:
            effects.scrap_unit(state, ref)


# -- move and draw ----------------------------------------------------------------------------
def _move(state: SovereignState, seat: int) -> None:
    state.pending = [Decision(seat, MoveInfo(moved=state.moved))]


def _draw(state: SovereignState, seat: int) -> None:
    if seat in state.departed:  # a seat that left (during its own turn) draws nothing
        return
    b = state.boards[seat]
    want = max(0, HAND_SIZE - len(b.hand))
    if not want:  # "more than 8 cards … you will not draw any cards" (l. 247)
        return
    if b.deck == 0:
        state.log(E.DeckEmpty(seat))
        return
    push_front(state, (Step.DEAL, seat, want))


def _rehandle(state: SovereignState, seat: int) -> None:
    """After a hand breach the defender's hand gets fresh handles only it can map (the
    contract's ``Rehandle``)."""
    b = state.boards[seat]
    if b.hand:
        state.pending = [Rehandle(seat, tuple(b.hand))]


HANDLERS: dict[str, Callable[..., None]] = {
    Step.SHUFFLE: _shuffle,
    Step.FIRST: _first,
    Step.DEAL: _deal,
    Step.MULLIGAN_ROUND: _mulligan_round,
    Step.MULLIGAN_RESOLVE: _mulligan_resolve,
    Step.REDEAL: _redeal,
    Step.REVEAL: _reveal,
    Step.QUICK_FORGED: quick_forged,
    Step.TURN: _turn,
    Step.PHASE: _phase,
    Step.GROWTH: _growth,
    Step.UPKEEP: _upkeep,
    Step.UPKEEP_REFLEXES: _upkeep_reflexes,
    Step.UPKEEP_RETURN: _upkeep_return,
    Step.UPKEEP_FORGE: _upkeep_forge,
    Step.WINDOW: _window,
    Step.WINDOW_STEP: _window_step,
    Step.FORGE: _forge,
    Step.FORGE_FINISH: _forge_finish,
    Step.SWEEP: _sweep,
    Step.MOVE: _move,
    Step.DRAW: _draw,
    Step.REHANDLE: _rehandle,
    Step.FORGED: forged,
    Step.FIRE: fire,
    Step.HURT: _hurt,
    Step.FIRE_UNITS: _fire_units,
    **battle.HANDLERS,
    **resolve.HANDLERS,
}
