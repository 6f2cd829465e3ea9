"""The choices of the reveal in Reign's combat: who orders an army's cards, who settles a tie.

Combat Phase > The Reveal: "starting from the first player and proceeding clockwise each
player resolves any special abilities on military cards and effects on event cards in their
army" -- each army's owner, in turn order, orders its own cards within each pass
(``order_army``), asked only when the order changes the result.  Combat Phase > Regent's
Special Rules: "The Regent determines the winner of any and all ties in the combat phase" --
a tie met inside an effect (which army a strike at the strongest other army hits, which of
equally strong cards deserts) is settled by the Regent, else the first player
(``combat_tie``), asked only when it changes the result.  The resolving itself is
:mod:`engine.reign.combat`'s; this module only decides what to ask.
"""

from __future__ import annotations

from fairtable.engine.reign import combat
from fairtable.engine.reign.decisions import CombatTieInfo, OrderArmyInfo
from fairtable.engine.reign.state import ReignState
from fairtable.engine.requests import Decision

Orders = tuple[tuple[int, tuple[str, ...]], ...]
Picks = tuple[tuple[str, str], ...]


def combat_armies(state: ReignState) -> tuple[combat.ArmySpec, ...]:
    """``(owner, support house, card ids)`` of every army, in turn order."""
    return tuple(
        (s, next(iter(state.support_of(s)), None), tuple(sorted(state.armies[s])))
        for s in state.holders()
    )


def tie_chooser(state: ReignState) -> int:
    """ "The Regent determines the winner of any and all ties in the combat phase. If there
    is no Regent, the first player determines" them (Combat Phase > Regent's Special Rules)."""
    return state.regent if state.regent is not None else state.first_player


def settle(state: ReignState, orders: Orders, picks: Picks) -> combat.CombatResult | None:
    """The result of combat with every order and pick settled, or ``None`` after asking the
    next player who must choose (its answer queues ``resolve_combat`` again with the choice).

    ``orders`` holds one entry per army already settled (``()``: card-id order, nobody was
    asked); ``picks`` the ties settled so far."""
    armies = combat_armies(state)
    chosen: dict[int, tuple[str, ...]] = dict(orders)
    for owner, _, ids in armies:
        if owner in chosen:
            continue
        if combat.army_order_matters(state.catalog, armies, state.regent, owner, chosen):
            groups = combat.order_groups(state.catalog, ids)
            state.pending = [
                Decision(
                    owner,
                    OrderArmyInfo(
                        cards=tuple(c for g in groups for c in g),
                        groups=groups,
                        armies=armies,
                        orders=orders,
                        picks=picks,
                        regent=state.regent,
                    ),
                )
            ]
            return None
        chosen[owner] = ()
        orders = (*orders, (owner, ()))
    fixed, tie, result = combat.settle_ties(
        state.catalog, armies, state.regent, chosen, dict(picks)
    )
    if tie is not None:
        state.pending = [
            Decision(
                tie_chooser(state),
                CombatTieInfo(
                    key=tie.key,
                    army=tie.army,
                    card=tie.card,
                    op=tie.op,
                    options=tie.options,
                    armies=armies,
                    orders=orders,
                    picks=tuple(sorted(fixed.items())),
                    regent=state.regent,
                ),
            )
        ]
        return None
    return result
