"""Departures: a seat leaves the game for good and the others play on (docs/protocol.md §11.10).

A seat may leave only at a step where it owes a decision it has not answered (it has sent
no ``move``, nor a ``commit`` to a simultaneous one): no peer can pass that step without
it, so every peer applies the departure at the same step, whatever order the parts
arrive in.  The leaving seat publishes, in one entry and in this order:

1. for every deck with cards still face down (the current deck of each pile, slots from
   its top to its end, in label order), its decryption shares for those cards with one
   DLEQ proof (a ``shares`` part, deck ``<label>``, step ``s<k>/leave``, to ``-1``);
2. a ``leave`` part naming the step ``k``; it is the seat's last part.

Every peer, once its engine is at step ``k``, checks that the seat owes its decision there
and may leave (the engine's ``can_depart``), checks every share against the seat's deck key
(a failure names the leaver), and then **strips** the seat's layer from those cards,
``(A, B - x_L*A)``: they become ciphertexts under the survivors' joint key
``H' = H - Y_L``, the key every later shuffle, re-mix, pool and opening uses.  Later rounds
of every seat (shuffles, deals, flips, pool shares, joint randomness, the audit) run among
the survivors.  The cards the seat held are never opened: no share for them exists outside
its own key, which it never publishes (no audit opening).  Then the engine's ``depart``.

:class:`Departures` owns the filed departures and resignations, and applies the departures.
"""

from __future__ import annotations

from typing import Any

from ._cards import CardLedger
from ._chance import ChanceExchange
from ._decisions import DecisionExchange
from ._deck import Ciphertext, decryption_shares, strip_shares, verify_shares
from ._errors import blame
from ._events import SeatLeft
from ._group import sub
from ._messages import DecryptShares
from ._part_keys import CommitPart, MovePart, SharesPart
from ._port import Port
from ._session_messages import Leave, Resign
from ._verdict_kinds import VerdictKind

__all__ = ["Departures", "leave_step"]


def leave_step(k: int) -> str:
    """The step label of a leaving seat's shares at game step ``k``."""
    return f"s{k}/leave"


class Departures:
    """The seats that left, and the departures filed but not yet applied."""

    def __init__(
        self, port: Port, cards: CardLedger, chance: ChanceExchange, decisions: DecisionExchange
    ) -> None:
        self.port = port
        self.cards = cards
        self.chance = chance
        self.decisions = decisions
        self.filed: dict[int, int] = {}  # seat -> the step its leave names, not applied yet
        self.gone: dict[int, int] = {}  # seat -> the step it left at
        self.resignations: dict[int, int] = {}  # seat -> the step its resignation names

    def resigned(self, serial: int) -> tuple[int, int] | None:
        """The resignation that ends the game once our engine is at step ``serial``: the
        earliest step reached, then the lowest seat (docs/protocol.md §11.8); (seat, step)."""
        filed = sorted((step, seat) for seat, step in self.resignations.items())
        return next(((seat, step) for step, seat in filed if serial >= step), None)

    # -- what every peer computes alike -----------------------------------------------------
    def face_down(self) -> list[tuple[str, dict[int, Ciphertext]]]:
        """Every deck with cards still face down under the joint key: its label and its
        cards from the top, by slot, in label order."""
        out = []
        for label in sorted(set(self.cards.current.values())):
            rec = self.cards.decks[label]
            final = rec.steps[-1]
            if rec.top < len(final):
                out.append((label, {s: final[s] for s in range(rec.top, len(final))}))
        return out

    def owes_decision(self, seat: int) -> bool:
        """Whether ``seat`` is asked to decide at this step and has sent nothing for it."""
        port = self.port
        k = port.step
        if port.over or seat not in port.deciding_seats():
            return False
        return not (
            (seat, k) in self.decisions.applied
            or port.holds(seat, MovePart(k))
            or port.holds(seat, CommitPart(f"simul:s{k}"))
        )

    def may_leave(self, seat: int) -> bool:
        """Whether ``seat`` can leave here and now (see the module docstring)."""
        return self.owes_decision(seat) and self.port.can_depart(seat)

    # -- the leaving seat --------------------------------------------------------------------
    def resign(self) -> Resign:
        """Our resignation at this step (docs/protocol.md §11.8), filed."""
        assert self.port.me is not None
        self.resignations[self.port.me] = self.port.step
        return Resign(self.port.step)

    def leave(self) -> list[Any]:
        """Our seat asked to leave: nothing while it owes no decision; then the parts to
        publish -- a resignation where the game cannot go on without it."""
        me = self.port.me
        assert me is not None
        if not self.owes_decision(me):
            return []
        return self.leave_parts() if self.port.can_depart(me) else [self.resign()]

    def leave_parts(self) -> list[Any]:
        """Our shares for every face-down deck card, then our ``leave`` (in feed order)."""
        port = self.port
        me, k = port.me, port.step
        assert me is not None
        parts: list[Any] = [
            decryption_shares(
                port.deck_key,
                port.table,
                me,
                label,
                leave_step(k),
                cards,
                entropy=port.secret(f"leave/{label}/{k}", 32),
            )
            for label, cards in self.face_down()
        ]
        parts.append(Leave(k))
        return parts

    # -- every other peer --------------------------------------------------------------------
    def apply(self) -> int | None:
        """Apply the earliest filed departure our engine has reached (then the lowest seat);
        the seat that left, if one did.  Raises the blame of a leave that is not one
        (``bad-leave``) or whose shares fail (``bad-proof``)."""
        port = self.port
        for step, seat in sorted((step, seat) for seat, step in self.filed.items()):
            if step > port.step:
                continue
            del self.filed[seat]
            if step < port.step:
                raise blame(
                    seat, VerdictKind.BAD_LEAVE, f"seat {seat} left at step {step}, already past"
                )
            if not self.owes_decision(seat):
                raise blame(
                    seat,
                    VerdictKind.BAD_LEAVE,
                    f"seat {seat} left at step {step}, where it owes no decision",
                )
            if not port.can_depart(seat):
                raise blame(
                    seat, VerdictKind.BAD_LEAVE, f"seat {seat} left where the game cannot go on"
                )
            self._strip(seat, step)
            self.remove(seat, step)
            port.emit(SeatLeft(seat, step, port.digest()))
            return seat
        return None

    def remove(self, seat: int, step: int, *, revealing: bool = False) -> None:
        """``seat`` (its layer stripped from every face-down deck card) is gone at ``step``:
        the later rounds run among the others, and the engine departs it (``revealing``:
        the pending reveal's pools were complete and stay, docs/protocol.md §11.11)."""
        port = self.port
        self.gone[seat] = step
        port.seats = tuple(s for s in port.seats if s != seat)
        for jr, _reveal in self.chance.chance.values():
            if not jr.complete:
                jr.drop(seat)
        port.depart(seat, revealing=revealing)

    def _strip(self, seat: int, step: int) -> None:
        """Check the leaving seat's shares and strip its layer from every face-down deck card;
        the joint key becomes the survivors'."""
        port, ledger = self.port, self.cards
        stripped: list[tuple[str, dict[int, Ciphertext]]] = []
        for label, cards in self.face_down():
            msg: DecryptShares | None = port.stored(seat, SharesPart(label, leave_step(step)))
            if msg is None:
                raise blame(
                    seat,
                    VerdictKind.BAD_LEAVE,
                    f"seat {seat} left without its shares for the {label} deck",
                )
            shares = verify_shares(port.table, seat, ledger.keys[seat], msg, cards)
            stripped.append(
                (label, {slot: strip_shares(ct, [shares[slot]]) for slot, ct in cards.items()})
            )
        strip_layer(ledger, seat, stripped)


def strip_layer(
    ledger: CardLedger, seat: int, stripped: list[tuple[str, dict[int, Ciphertext]]]
) -> None:
    """Record ``seat``'s layer stripped from face-down deck cards (each deck gets a step
    holding its new ciphertexts) and take its key out of the joint key: by a leave's own
    shares (§11.10) or a vanishing's combined recovery shares (§11.11)."""
    for label, cards in stripped:
        rec = ledger.decks[label]
        after = list(rec.steps[-1])
        for slot, ct in cards.items():
            after[slot] = ct
        rec.steps.append(after)
    if ledger.joint is not None:  # else no card was shuffled yet: the keys of the seats
        ledger.joint = sub(ledger.joint, ledger.keys[seat])  # left make the joint key
