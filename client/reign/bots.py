"""Reign's bot: a player that answers decisions from its seat's view only.

A bot sees what a person in its seat would see (a :class:`ReignView`) and the
decision it is asked; it never touches the game state.  (The random bot
of every game is :class:`client.bots.RandomBot`.)  ``HeuristicBot`` plays
Reign sensibly: it bids for a house in the centre, or for a rival's house its
hand can take even while it holds a support card; it builds its own army when it
holds one, backs the strongest-looking army otherwise, and slips betrayal events
into its rivals' armies.  It never makes a rival king: no card of its own that is
not a betrayal goes into the army of a rival whose crowning would win the game
(a *threat*, on 6 legitimacy or more), it never backs one, and its last card --
the one that says whom it backs -- always goes where it means to back (a
betrayal event goes first, and never alone).  It values its cards by what
they do (a Forged Crown Seal's +3 bid is worth a force-3 soldier) when the Regent
discards or anyone discards down to 8.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from fairtable.engine.reign import (
    WIN_LEGITIMACY,
    Bid,
    CombatTie,
    Covert,
    Discard,
    DrawChoice,
    KeepSupport,
    OrderArmy,
    OrderEvents,
    Overt,
    RegentDiscard,
    ReignView,
    Spoils,
    TieBreak,
    standard_catalog,
)
from fairtable.engine.reign.answers import ReignAnswer
from fairtable.engine.reign.cards import INFLUENCE_OPS
from fairtable.engine.reign.choices import army_cards, bid_groups, influence_events
from fairtable.engine.reign.combat import CombatResult, army_orders, bid_totals, resolve
from fairtable.engine.reign.decisions import (
    CombatTieInfo,
    CovertInfo,
    DiscardInfo,
    KeepSupportInfo,
    OrderArmyInfo,
    OrderEventsInfo,
    OvertInfo,
    ReignDecisionKind,
    SpoilsInfo,
    TieBreakInfo,
)
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.engine.rng import ChanceStream


class HeuristicBot:
    """A sensible Reign player."""

    kind = "heuristic"

    def __init__(self, stream: ChanceStream) -> None:
        self.stream = stream
        self.defs = standard_catalog().defs

    # -- card values -------------------------------------------------------------------
    def _my_house(self, view: ReignView) -> str | None:
        for house, holder in view.table.support.items():
            if holder == view.seat:
                found: str = house
                return found
        return None

    def value(self, view: ReignView, card: str) -> int:
        d = self.defs[card]
        if d.military:
            bonus = 1 if d.house == self._my_house(view) else 0
            return 2 * (d.force + bonus) + (1 if d.effects else 0)
        if d.influence:
            return 2 * sum(e.amount for e in d.effects if e.op in INFLUENCE_OPS)
        return 3 if d.betrayal else 4

    def _army_strength(self, view: ReignView, holder: int) -> int:
        table = view.table
        up = table.armies.get(holder, ())
        down = len(table.army_down.get(holder, ()))
        force = sum(self.defs[c].force for c in up if self.defs[c].military)
        return 2 * force + 5 * down + (3 if holder == table.regent else 0)

    def _favourite(self, view: ReignView, targets: tuple[int, ...]) -> int:
        return max(targets, key=lambda t: (self._army_strength(view, t), -t))

    @staticmethod
    def threats(view: ReignView, targets: tuple[int, ...]) -> tuple[int, ...]:
        """The rivals among ``targets`` whose crowning now would win them the game: the
        Regent gains 3 legitimacy and wins on 9, so anyone on 6 or more."""
        legitimacy = view.table.legitimacy
        return tuple(t for t in targets if t != view.seat and legitimacy[t] + 3 >= WIN_LEGITIMACY)

    def _allies(self, view: ReignView, targets: tuple[int, ...]) -> tuple[int, ...]:
        """The armies it may strengthen: its own, and rivals who would not win by it."""
        danger = self.threats(view, targets)
        return tuple(t for t in targets if t not in danger)

    # -- decisions ---------------------------------------------------------------------
    def decide(self, view: ReignView, decision: Decision) -> ReignAnswer:
        return HANDLERS[decision.kind](self, view, decision)

    def _bid(self, view: ReignView, d: Decision) -> Bid:
        mine = self._my_house(view)
        groups = {h: c for h, c in bid_groups(view, d).items() if h != mine}
        if not groups:
            return Bid(d.seat, 0, ())
        support = view.table.support
        danger = set(self.threats(view, tuple(s for s in support.values() if s is not None)))

        def force(cards: list[str]) -> int:
            return sum(self.defs[c].force for c in cards)

        if mine is not None:
            # Holding a house already, it contests another only where its hand is strong
            # (or the house would carry a rival to victory), and keeps the better one.
            groups = {
                h: c
                for h, c in groups.items()
                if force(c) >= 6 or (support.get(h) in danger and force(c) >= 3)
            }
            if not groups:
                return Bid(d.seat, 0, ())

        def score(item: tuple[str, list[str]]) -> tuple[int, int, int, str]:
            house, cards = item
            return (
                1 if support.get(house) in danger else 0,
                1 if support.get(house) is None else 0,
                force(cards),
                house,
            )

        house, cards = max(groups.items(), key=score)
        cards = sorted(cards, key=lambda c: (self.defs[c].force, c))
        chosen = cards[: max(2, len(cards) - 1)] if len(cards) > 2 else cards
        chosen = chosen + influence_events(view)
        return Bid(d.seat, len(chosen), tuple(chosen))

    def _keep_support(self, view: ReignView, d: Decision) -> KeepSupport:
        def in_hand(house: str) -> int:
            return sum(1 for c in view.hand if self.defs[c].house == house)

        return KeepSupport(d.seat, max(KeepSupportInfo.of(d).houses, key=lambda h: (in_hand(h), h)))

    def _tie_break(self, view: ReignView, d: Decision) -> TieBreak:
        tied = TieBreakInfo.of(d).tied
        if d.seat in tied:
            return TieBreak(d.seat, d.seat)
        return TieBreak(d.seat, min(tied, key=lambda s: (view.table.legitimacy[s], s)))

    def _order_events(self, view: ReignView, d: Decision) -> OrderEvents:
        """The order that leaves its own bid furthest ahead of the best rival bid for the
        same house (the order as given when it did not bid)."""
        info = OrderEventsInfo.of(d)
        events: tuple[str, ...] = info.events
        bids = info.bids
        catalog = standard_catalog()

        def margin(order: tuple[str, ...]) -> int:
            totals = bid_totals(catalog, bids, order)
            if d.seat not in totals:
                return 0
            house, mine = totals[d.seat]
            rivals = [f for s, (h, f) in totals.items() if s != d.seat and h == house]
            return mine - max(rivals, default=0)

        orders = itertools.islice(itertools.permutations(events), 5040)
        return OrderEvents(d.seat, max(orders, key=margin))

    def _combat_score(
        self,
        seat: int,
        d: Decision,
        orders: tuple[tuple[int, tuple[str, ...]], ...],
        picks: tuple[tuple[str, str], ...],
    ) -> tuple[int, int, int]:
        """How good a combat result is for ``seat``: winning alone, then not losing its
        support, then its lead over the strongest other army (all 0 without an army)."""
        info = d.info
        assert isinstance(info, OrderArmyInfo | CombatTieInfo)  # asked by those two only
        result: CombatResult = resolve(
            standard_catalog(), info.armies, info.regent, dict(orders), dict(picks)
        )
        totals = dict(result.totals)
        if seat not in totals:
            return (0, 0, 0)
        lead = totals[seat] - max((t for s, t in totals.items() if s != seat), default=0)
        return (1 if lead > 0 else 0, 0 if seat in result.lose_support else 1, lead)

    def _order_army(self, view: ReignView, d: Decision) -> OrderArmy:
        """The order of its own cards that is best for itself (see :meth:`_combat_score`)."""
        info = OrderArmyInfo.of(d)
        orders = itertools.islice(army_orders(info.groups), 5040)
        return OrderArmy(
            d.seat,
            max(
                orders,
                key=lambda o: self._combat_score(
                    d.seat, d, (*info.orders, (d.seat, o)), info.picks
                ),
            ),
        )

    def _combat_tie(self, view: ReignView, d: Decision) -> CombatTie:
        """The option best for itself; the first when none is better."""
        info = CombatTieInfo.of(d)
        full = dict(info.orders)
        return CombatTie(
            d.seat,
            max(
                info.options,
                key=lambda p: self._combat_score(
                    d.seat, d, tuple(full.items()), (*info.picks, (info.key, p))
                ),
            ),
        )

    def _regent_discard(self, view: ReignView, d: Decision) -> RegentDiscard:
        return RegentDiscard(d.seat, min(view.hand, key=lambda c: (self.value(view, c), c)))

    def _placeable(self, view: ReignView) -> list[str]:
        return sorted(army_cards(view), key=lambda c: (-self.value(view, c), c))

    def _overt(self, view: ReignView, d: Decision) -> Overt:
        targets: tuple[int, ...] = OvertInfo.of(d).targets
        placeable = self._placeable(view)
        cards = [c for c in placeable if not self.defs[c].betrayal]
        if d.seat in targets:
            return Overt(d.seat, d.seat, cards[0]) if cards else Overt(d.seat, None, None)
        if view.table.regent == d.seat:
            return Overt(d.seat, None, None)
        danger = self.threats(view, targets)
        allies = self._allies(view, targets)
        if not allies:  # whoever wins combat wins the game: it backs none of them
            return Overt(d.seat, None, None)
        if not cards:
            return Overt(d.seat, None, None)
        # Against a threat it lends its best card to the strongest other army.
        return Overt(d.seat, self._favourite(view, allies), cards[0] if danger else cards[-1])

    def _covert(self, view: ReignView, d: Decision) -> Covert:
        info = CovertInfo.of(d)
        targets: tuple[int, ...] = info.targets
        limit = info.max_cards
        cards = self._placeable(view)
        good = [c for c in cards if not self.defs[c].betrayal]
        bad = [c for c in cards if self.defs[c].betrayal]
        own = d.seat in targets
        regent = view.table.regent == d.seat
        if regent and not own:
            return Covert(d.seat, (), ())
        danger = self.threats(view, targets)
        allies = self._allies(view, targets)
        home = d.seat if own else (self._favourite(view, allies) if allies else None)
        if home is None:  # whoever wins combat wins the game: it backs none of them
            return Covert(d.seat, (), ())
        rivals = tuple(t for t in targets if t != home)
        help_home = good[: limit - 1 if bad and rivals and limit > 1 else limit]
        if not (own or danger):
            help_home = help_home[:1]
        plan: list[tuple[int, str]] = []
        if bad and rivals and help_home:
            # A betrayal goes first, so that its last card still says whom it backs; alone
            # it would back the rival it weakens.
            plan.append((self._favourite(view, danger or rivals), bad[0]))
        plan.extend((home, c) for c in help_home)
        plan = plan[:limit]
        backs = view.table.backing.get(d.seat, d.seat)
        if regent and cards and (plan[-1][0] if plan else backs) != home:
            # the Regent's last card goes into its own army (its overt card went elsewhere)
            plan = [p for p in plan if p[0] == home] or [(home, (good or cards)[0])]
        return Covert(d.seat, tuple(t for t, _ in plan), tuple(c for _, c in plan))

    def _spoils(self, view: ReignView, d: Decision) -> Spoils:
        hand = sorted(view.hand, key=lambda c: (self.value(view, c), c))
        gifts = tuple(sorted(zip(SpoilsInfo.of(d).must_give, hand, strict=False)))
        counts = tuple((s, 1) for s, _ in gifts)
        return Spoils(d.seat, counts, gifts)

    def _draw(self, view: ReignView, d: Decision) -> DrawChoice:
        events = sum(1 for c in view.hand if not self.defs[c].military)
        return DrawChoice(d.seat, 1 if events < 2 else 0)

    def _discard(self, view: ReignView, d: Decision) -> Discard:
        worst = sorted(view.hand, key=lambda c: (self.value(view, c), c))[: DiscardInfo.of(d).count]
        return Discard(d.seat, tuple(sorted(worst)))


HANDLERS: dict[DecisionKind, Callable[[HeuristicBot, ReignView, Decision], ReignAnswer]] = {
    ReignDecisionKind.BID: HeuristicBot._bid,
    ReignDecisionKind.OVERT: HeuristicBot._overt,
    ReignDecisionKind.COVERT: HeuristicBot._covert,
    ReignDecisionKind.KEEP_SUPPORT: HeuristicBot._keep_support,
    ReignDecisionKind.TIE_BREAK: HeuristicBot._tie_break,
    ReignDecisionKind.ORDER_EVENTS: HeuristicBot._order_events,
    ReignDecisionKind.ORDER_ARMY: HeuristicBot._order_army,
    ReignDecisionKind.COMBAT_TIE: HeuristicBot._combat_tie,
    ReignDecisionKind.REGENT_DISCARD: HeuristicBot._regent_discard,
    ReignDecisionKind.SPOILS: HeuristicBot._spoils,
    ReignDecisionKind.DRAW: HeuristicBot._draw,
    ReignDecisionKind.DISCARD: HeuristicBot._discard,
}
"""The heuristic bot's answer to each kind of decision."""


BOTS: dict[str, Callable[[ChanceStream], HeuristicBot]] = {
    "heuristic": HeuristicBot,
}
