"""Which cards of a combat army's pass may change the result by their place in its order.

:func:`order_sensitive` is what :mod:`engine.reign.combat` asks before it tries orders: an
effect's reads and writes of the army's resources (its force, the cards removed, a ward,
the bonus...) tell which cards commute with every other card of the pass, so that only the
others are tried in every order.  A write says how it changes its resource: a
:class:`Change` and a value (the sign of a sum, the value set; ``-1``: it depends on what
came before).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import Enum

from fairtable.engine.reign.cards import CardDef, CardKind, Catalog, Effect, Op, StrikeTarget
from fairtable.engine.reign.hooks import HookName


class Change(Enum):
    """How an effect changes a resource: adds to it (a force clamped at 0 at each change),
    sets it, or raises a flag."""

    ADD = "add"
    SET = "set"
    FLAG = "flag"


Write = tuple[Change, int]
"""How a resource is changed, and the sign or value (``-1``: depends on what came before)."""


_ADDS = ("flat", "ward", "backer", "others")  # sums no clamp touches before the end


def _touches(e: Effect, d: CardDef) -> tuple[set[str], dict[str, Write]] | None:
    """What one effect of card ``d`` reads, and writes (resource -> (how, value)), while
    its pass runs in its own army; ``None`` for an effect this analysis does not know."""
    reads: set[str] = set()
    writes: dict[str, Write] = {}
    cond = e.cond
    if cond is not None and (cond.min is not None or cond.max is not None):
        reads.add("removed")  # a count of the cards still in the army
    match e.op:
        case Op.FORCE | Op.FORCE_PER:
            if e.op is Op.FORCE_PER:
                reads.add("removed")
            if d.military:  # the card's own force, clamped at 0 at each change
                writes["force"] = (Change.ADD, 1 if e.amount >= 0 else -1)
            else:
                writes["flat"] = (Change.ADD, 0)
        case Op.BOOST:
            reads.add("removed")
            writes["force"] = (Change.ADD, 1 if e.amount >= 0 else -1)
        case Op.DESERT:
            reads.update(("removed", "force"))
            writes["removed"] = (Change.SET, -1)  # which card leaves depends on what came before
        case Op.WARD:
            writes["ward"] = (Change.ADD, 0)
        case Op.NO_HOUSE_BONUS:
            writes["no_bonus"] = (Change.FLAG, 0)
        case Op.HOUSE_BONUS:
            writes["bonus"] = (Change.SET, e.amount)
        case Op.LOSE_SUPPORT:
            writes["lose_support"] = (Change.FLAG, 0)
        case Op.STRIKE:
            if e.target is not StrikeTarget.ALL_OTHERS:
                reads.add("others")
            writes["others"] = (Change.ADD, 0)
        case Op.COUNTS_AS_ARMY_HOUSE:
            pass  # settled before the passes
        case Op.HOOK if e.name is HookName.KINGMAKER:
            writes["backer"] = (Change.ADD, 0)
        case Op.HOOK if e.name is HookName.MIRROR_STRONGEST:
            reads.add("removed")
            writes["force"] = (Change.SET, -1)  # sets its own force from the others' printed ones
        case _:
            return None
    return reads, writes


def _commute(a: Write, b: Write, resource: str) -> bool:
    if a[0] is Change.ADD and b[0] is Change.ADD:
        return resource in _ADDS or a[1] == b[1]  # one sign: no clamp tells them apart
    return a == b and a[0] in (Change.FLAG, Change.SET) and a[1] != -1


def order_sensitive(catalog: Catalog, group: Sequence[str], warded: bool) -> tuple[str, ...]:
    """The cards of one pass of an army (``group``) whose place in the order may change the
    result: those with an effect that writes what another card's effect reads, or whose
    writes do not commute with another's (sums commute, clamped changes of one sign
    commute, equal settings commute).  Every other card commutes with all of the group,
    so it may stand anywhere.  In an army with a ward (``warded``) the betrayals all are
    (the order says which is cancelled); a card with an effect this analysis does not know
    makes the whole group sensitive."""
    touched: list[tuple[str, set[str], dict[str, Write]]] = []
    for cid in group:
        d = catalog.defs[cid]
        reads: set[str] = set()
        writes: dict[str, Write] = {}
        if d.military:
            reads.add("removed")  # a deserted soldier's ability does not run
        if d.kind is CardKind.EVENT and d.betrayal and warded:
            reads.add("ward_use")
            writes["ward_use"] = (Change.SET, -1)
        for e in d.effects:
            t = _touches(e, d)
            if t is None:
                return tuple(group)
            reads |= t[0]
            for r, w in t[1].items():
                if r in writes and not _commute(writes[r], w, r):
                    w = (Change.SET, -1)  # the card's own effects keep their order between them
                writes[r] = w
        touched.append((cid, reads, writes))
    out: set[str] = set()
    for (a, ra, wa), (b, rb, wb) in itertools.combinations(touched, 2):
        if (
            ra & wb.keys()
            or rb & wa.keys()
            or any(not _commute(wa[r], wb[r], r) for r in wa.keys() & wb.keys())
        ):
            out.update((a, b))
    return tuple(c for c in group if c in out)
