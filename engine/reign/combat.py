"""Combat in Reign: resolving abilities and events, and counting force.

Combat Phase > The Reveal: in turn order from the first player, all military
abilities resolve, then all non-betrayal events, then all betrayal events (one
pass each over every army, see docs/rules/reign.md); then each army counts the
force of its military cards plus 1 for each card of the army's support-card
house.  Effects act on the army their card sits in; only a military ``strike``
reaches other armies.  The module is pure: it reads card definitions and
returns totals and side effects; the caller changes the game state.

Two things a player settles are inputs here: the order of the cards within one army (its
owner "resolves" them, see :func:`army_order_matters`) and ties met inside card effects
("the Regent determines the winner of any and all ties in the combat phase": ``picks``,
see :func:`next_tie`).  Each is asked only when it changes the result.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence

import attrs

from fairtable.engine.reign.cards import (
    CardDef,
    CardKind,
    Catalog,
    Condition,
    Effect,
    Filter,
    Op,
    StrikeTarget,
    Which,
)
from fairtable.engine.reign.hooks import EVENT_HOOKS, MILITARY_HOOKS
from fairtable.engine.reign.order_analysis import order_sensitive


@attrs.define(eq=False)
class CombatCard:
    id: str
    card: CardDef
    house: str | None  # effective house (a mercenary may count as the army's)
    printed: int
    force: int
    removed: bool = False


@attrs.define(eq=False)
class Army:
    owner: int
    house: str | None  # the owner's support-card house
    cards: list[CombatCard]
    flat: int = 0
    ward: int = 0
    bonus: int = 1
    no_bonus: bool = False
    lose_support: bool = False
    backer_bonus: int = 0

    def military(self) -> list[CombatCard]:
        return [c for c in self.cards if c.card.military and not c.removed]

    def total(self) -> int:
        total = self.flat
        house = self.house
        bonus = 0 if self.no_bonus or house is None else self.bonus
        for c in self.cards:  # the military cards still in the army
            if c.card.military and not c.removed:
                total += c.force
                if bonus and c.house == house:
                    total += bonus
        return max(total, 0)


@attrs.frozen
class Tie:
    """A tie met inside a card effect: which army a ``strike`` at the strongest other army
    hits (``options`` are seats, as text), or which of equally strong (weak) cards a
    ``desert`` removes (``options`` are card ids).  Without a pick the first is taken."""

    key: str  # "army:card:effect index[:step]"
    army: int
    card: str
    op: Op
    options: tuple[str, ...]


@attrs.frozen
class CombatResult:
    totals: tuple[tuple[int, int], ...]  # (owner, total) in turn order
    lose_support: tuple[int, ...]
    backer_bonus: tuple[tuple[int, int], ...]
    ties: tuple[Tie, ...] = ()  # ties met without a pick, in resolution order

    def outcome(self) -> tuple[object, ...]:
        """What a choice can change: who wins combat (or ties for it), who loses support,
        the backers' bonus."""
        best = max((t for _, t in self.totals), default=0)
        top = tuple(sorted(s for s, t in self.totals if t == best))
        return (top, self.lose_support, self.backer_bonus)


@attrs.define
class _Context:
    armies: list[Army]
    regent: int | None
    picks: Mapping[str, str] = attrs.field(factory=dict)
    ties: list[Tie] = attrs.field(factory=list)

    def pick(
        self, key: str, army: Army, source: CombatCard, op: Op, options: tuple[str, ...]
    ) -> str:
        if len(options) == 1:
            return options[0]
        chosen = self.picks.get(key)
        if chosen in options:
            return chosen
        self.ties.append(Tie(key, army.owner, source.id, op, options))
        return options[0]


def _matches(f: Filter | None, card: CombatCard, army: Army, source: CombatCard) -> bool:
    if f is None:
        return True
    d = card.card
    if f.kind is not None and d.kind != f.kind:
        return False
    if f.house is not None:
        want = {"army": army.house, "own": source.house}.get(f.house, f.house)
        if want is None or card.house != want:
            return False
    if f.unique is not None and d.unique != f.unique:
        return False
    if f.betrayal is not None and d.betrayal != f.betrayal:
        return False
    if f.min_force is not None and (not d.military or d.force < f.min_force):
        return False
    return not (f.max_force is not None and (not d.military or d.force > f.max_force))


def _others(army: Army, source: CombatCard, f: Filter | None) -> int:
    return sum(
        1 for c in army.cards if c is not source and not c.removed and _matches(f, c, army, source)
    )


def _holds(cond: Condition | None, ctx: _Context, army: Army, source: CombatCard) -> bool:
    if cond is None:
        return True
    if cond.you_are_regent is not None and (ctx.regent == army.owner) != cond.you_are_regent:
        return False
    if cond.support_house is not None and army.house != cond.support_house:
        return False
    if cond.army_house is not None and (
        (army.house is not None and source.house == army.house) != cond.army_house
    ):
        return False
    if cond.min is not None and _others(army, source, cond.min.filter) < cond.min.count:
        return False
    return not (cond.max is not None and _others(army, source, cond.max.filter) > cond.max.count)


def _apply(e: Effect, ctx: _Context, army: Army, source: CombatCard, index: int) -> None:
    op = e.op
    match op:
        case Op.FORCE | Op.FORCE_PER:
            amount = e.amount
            if op is Op.FORCE_PER:
                n = _others(army, source, e.filter)
                amount *= n if e.max is None else min(n, e.max)
            if source.card.military:
                # A soldier's own bonus is its own force: it counts when strength is
                # compared (desertion) and leaves with it.
                source.force = max(0, source.force + amount)
            else:
                army.flat += amount
        case Op.BOOST:
            for c in army.military():
                if _matches(e.filter, c, army, source):
                    c.force = max(0, c.force + e.amount)
        case Op.DESERT:
            for step in range(e.count):  # one card at a time: each step may meet a tie
                pool = [c for c in army.military() if _matches(e.filter, c, army, source)]
                if not pool:
                    break
                forces = [c.force for c in pool]
                edge = max(forces) if e.which is Which.STRONGEST else min(forces)
                tied = tuple(sorted(c.id for c in pool if c.force == edge))
                key = f"{army.owner}:{source.id}:{index}:{step}"
                chosen = ctx.pick(key, army, source, op, tied)
                next(c for c in pool if c.id == chosen).removed = True
        case Op.WARD:
            army.ward += e.count
        case Op.NO_HOUSE_BONUS:
            army.no_bonus = True
        case Op.HOUSE_BONUS:
            army.bonus = e.amount
        case Op.LOSE_SUPPORT:
            army.lose_support = True
        case Op.STRIKE:
            others = [a for a in ctx.armies if a is not army]
            if e.target is StrikeTarget.STRONGEST_OTHER and others:
                best = max(a.total() for a in others)
                tied = tuple(str(a.owner) for a in others if a.total() == best)
                chosen = ctx.pick(f"{army.owner}:{source.id}:{index}", army, source, op, tied)
                others = [a for a in others if str(a.owner) == chosen]
            for a in others:
                a.flat -= e.amount
        case Op.HOOK if e.name is not None:  # the card data names a hook for each
            hooks = MILITARY_HOOKS if source.card.military else EVENT_HOOKS
            hooks[e.name](ctx, army, source)
        case _:
            pass  # counts_as_army_house is applied before the passes start; influence ops
            # work only in bid_totals.


ArmySpec = tuple[int, str | None, Sequence[str]]


def _in_order(ids: Sequence[str], order: Sequence[str] | None) -> list[str]:
    """An army's cards in the order its owner resolves them: ``order`` first (the cards
    whose order can matter), the rest in card-id order."""
    if not order:
        return sorted(ids)
    first = [c for c in order if c in ids]
    return first + sorted(c for c in ids if c not in first)


def resolve(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]] | None = None,
    picks: Mapping[str, str] | None = None,
) -> CombatResult:
    """Resolve combat.  ``armies`` are ``(owner, support house, card ids)`` in turn order;
    ``orders`` the order each owner resolves its cards in (default: card-id order);
    ``picks`` the chosen option of each tie met inside an effect (default: the first)."""
    built, ties = _run(catalog, armies, regent, orders, picks)
    return CombatResult(
        totals=tuple((a.owner, a.total()) for a in built),
        lose_support=tuple(a.owner for a in built if a.lose_support),
        backer_bonus=tuple((a.owner, a.backer_bonus) for a in built if a.backer_bonus),
        ties=ties,
    )


def resolved_armies(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]] | None = None,
    picks: Mapping[str, str] | None = None,
) -> list[Army]:
    """The armies after every pass of :func:`resolve` (with the same ``orders`` and
    ``picks``): each card's force, the cards that deserted, the flat changes of events and
    the house bonus -- what a total is made of (the console explains combat with it)."""
    return _run(catalog, armies, regent, orders, picks)[0]


def _run(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]] | None,
    picks: Mapping[str, str] | None,
) -> tuple[list[Army], tuple[Tie, ...]]:
    """The three passes: the armies as they end, and the ties met without a pick."""
    built: list[Army] = []
    defs = catalog.defs
    for owner, house, ids in armies:
        cards = []
        for cid in _in_order(ids, orders.get(owner) if orders else None):
            d = defs[cid]
            # a mercenary counts as the army's house (when the army has one)
            eff_house = house if d.joins_army_house and house is not None else d.house
            cards.append(CombatCard(cid, d, eff_house, d.force, d.force))
        built.append(Army(owner, house, cards))
    ctx = _Context(built, regent, dict(picks or {}))
    for army in built:  # pass 1: special abilities on military cards
        for c in list(army.cards):
            if c.card.military and not c.removed:
                for i, e in enumerate(c.card.effects):
                    if e.cond is None or _holds(e.cond, ctx, army, c):
                        _apply(e, ctx, army, c, i)
    for betrayal in (False, True):  # pass 2: non-betrayal events; pass 3: betrayal events
        for army in built:
            for c in army.cards:
                if c.card.kind is not CardKind.EVENT or c.card.betrayal != betrayal:
                    continue
                if betrayal and army.ward > 0:
                    army.ward -= 1
                    continue
                for i, e in enumerate(c.card.effects):
                    if e.cond is None or _holds(e.cond, ctx, army, c):
                        _apply(e, ctx, army, c, i)
    return built, tuple(ctx.ties)


# -- choices the players make while combat resolves ---------------------------------------
def order_groups(catalog: Catalog, ids: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """An army's cards whose order can matter, by pass (military abilities, non-betrayal
    events, betrayal events), each in card-id order; passes with fewer than two dropped."""
    groups: list[list[str]] = [[], [], [], []]
    passes = catalog.acting_pass()
    for cid in sorted(ids):
        groups[passes[cid]].append(cid)
    return tuple(tuple(g) for g in groups[:3] if len(g) > 1)


def army_orders(groups: Sequence[Sequence[str]]) -> Iterator[tuple[str, ...]]:
    """Every order of the groups' cards that keeps the passes in the rulebook's order."""
    for parts in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield tuple(c for part in parts for c in part)


ARMY_ORDER_LIMIT = 5040
"""Above this many orders of one army's cards, the order is asked without checking that it
matters."""


def army_order_matters(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    owner: int,
    orders: Mapping[int, Sequence[str]],
) -> bool:
    """Whether ``owner``'s order of its own cards changes the result, the armies before it
    in the orders already chosen (``orders``), the later ones in card-id order.

    Only the cards of a pass whose effects do not commute with another's
    (:func:`order_sensitive`) are tried in every order: the others give the same result
    wherever they stand, so the answer is :func:`order_changes_result`'s, found faster."""
    ids = tuple(next(ids for o, _, ids in armies if o == owner))
    passes, counts = catalog.acting_pass(), [0, 0, 0, 0]
    for c in ids:
        counts[passes[c]] += 1
    if counts[0] < 2 and counts[1] < 2 and counts[2] < 2:
        return False  # no pass holds two cards whose order could matter: no groups
    memo = catalog.memo.setdefault("sensitive_groups", {})  # a function of the cards alone
    if ids not in memo:
        if len(memo) > 4096:  # a long search meets many armies: keep the memo small
            memo.clear()
        groups = order_groups(catalog, ids)
        warded = any(e.op is Op.WARD for c in ids for e in catalog.defs[c].effects)
        too_many = math.prod(math.factorial(len(g)) for g in groups) > ARMY_ORDER_LIMIT
        each = (order_sensitive(catalog, g, warded) for g in groups)
        memo[ids] = None if too_many else tuple(s for s in each if len(s) > 1)
    sensitive: tuple[tuple[str, ...], ...] | None = memo[ids]
    if sensitive is None:
        return True
    return bool(sensitive) and _outcomes_differ(catalog, armies, regent, owner, orders, sensitive)


def order_changes_result(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    owner: int,
    orders: Mapping[int, Sequence[str]],
) -> bool:
    """:func:`army_order_matters` by resolving combat under every order of ``owner``'s
    cards, without the shortcut (the tests hold the two equal)."""
    ids = next(ids for o, _, ids in armies if o == owner)
    groups = order_groups(catalog, ids)
    if not groups:
        return False
    if math.prod(math.factorial(len(g)) for g in groups) > ARMY_ORDER_LIMIT:
        return True
    return _outcomes_differ(catalog, armies, regent, owner, orders, groups)


def _outcomes_differ(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    owner: int,
    orders: Mapping[int, Sequence[str]],
    groups: Sequence[Sequence[str]],
) -> bool:
    seen = set()
    for order in army_orders(groups):
        seen.add(resolve(catalog, armies, regent, {**orders, owner: order}).outcome())
        if len(seen) > 1:
            return True
    return False


def next_tie(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]],
    picks: Mapping[str, str],
) -> tuple[dict[str, str], Tie | None]:
    """The first tie inside an effect whose settling changes the result (later ties taking
    their first option), with ``picks`` grown by the first option of every earlier tie that
    changes nothing; ``None`` when no tie left changes the result."""
    fixed, tie, _ = settle_ties(catalog, armies, regent, orders, picks)
    return fixed, tie


def settle_ties(
    catalog: Catalog,
    armies: Sequence[ArmySpec],
    regent: int | None,
    orders: Mapping[int, Sequence[str]],
    picks: Mapping[str, str],
) -> tuple[dict[str, str], Tie | None, CombatResult]:
    """:func:`next_tie`, with the result of combat under the grown ``picks`` (the final
    result when no tie is left to ask)."""
    fixed = dict(picks)
    while True:
        result = resolve(catalog, armies, regent, orders, fixed)
        if not result.ties:
            return fixed, None, result
        tie = result.ties[0]
        results = {
            resolve(catalog, armies, regent, orders, {**fixed, tie.key: o}).outcome()
            for o in tie.options
        }
        if len(results) > 1:
            return fixed, tie, result
        fixed[tie.key] = tie.options[0]


def bid_events(catalog: Catalog, bids: Sequence[tuple[int, Sequence[str]]]) -> tuple[str, ...]:
    """The influence events of the bids in their default order: turn order from the first
    player (``bids`` come in that order), each bid's events in card-id order."""
    return tuple(cid for _, ids in bids for cid in sorted(ids) if not catalog.defs[cid].military)


def bid_totals(
    catalog: Catalog,
    bids: Sequence[tuple[int, Sequence[str]]],
    order: Sequence[str] | None = None,
) -> dict[int, tuple[str, int]]:
    """Influence Phase: each bidder's (house, combined force) after influence events.

    ``bids`` are ``(seat, card ids)`` in turn order from the first player.
    Special abilities on military cards do not work in this phase; influence
    events resolve before any support card is taken, in ``order`` (card ids, as the
    first player or Regent determined it) or else :func:`bid_events`'s order."""
    out: dict[int, tuple[str, int]] = {}
    owner: dict[str, int] = {}
    for seat, ids in bids:
        military = [catalog.defs[c] for c in ids if catalog.defs[c].military]
        if military:
            out[seat] = (military[0].house or "", sum(d.force for d in military))
        owner.update((c, seat) for c in ids)
    for cid in bid_events(catalog, bids) if order is None else order:
        seat = owner[cid]
        if seat not in out:
            continue
        house = out[seat][0]
        for e in catalog.defs[cid].effects:
            match e.op:
                case Op.BID_FORCE:
                    out[seat] = (house, max(0, out[seat][1] + e.amount))
                case Op.SABOTAGE:
                    for other, (h, force) in list(out.items()):
                        if other != seat and h == house:
                            out[other] = (h, max(0, force - e.amount))
                case _:
                    pass
    return out


ORDER_LIMIT = 7
"""Above this many influence events at once, the order is asked without checking that it
matters (7! orders are still cheap to compare; more are not)."""


def _leaders(totals: dict[int, tuple[str, int]]) -> dict[str, tuple[int, ...]]:
    """House -> the seats with its highest bid (one: the winner; several: a tie)."""
    best: dict[str, int] = {}
    for house, force in totals.values():
        best[house] = max(best.get(house, 0), force)
    return {
        house: tuple(sorted(s for s, (h, f) in totals.items() if h == house and f == top))
        for house, top in best.items()
    }


def event_order_matters(catalog: Catalog, bids: Sequence[tuple[int, Sequence[str]]]) -> bool:
    """Whether two orders of the influence events change who wins a house or ties for it
    (bids never drop below 0, so a sabotage before or after a raise can)."""
    events = bid_events(catalog, bids)
    if len(events) < 2:
        return False
    if len(events) > ORDER_LIMIT:
        return True
    first = _leaders(bid_totals(catalog, bids, events))
    return any(
        _leaders(bid_totals(catalog, bids, order)) != first
        for order in itertools.permutations(events)
    )
