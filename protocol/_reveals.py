"""Reveals of committed face-down cards: opened by their placers, or pooled and re-mixed.

A :class:`~engine.requests.Reveal` is answered one of three ways, by what it names:

- held cards named by handle (unmixed groups): their holder shows them
  (:class:`~protocol._held_cards.HeldCardExchange`);
- unmixed groups of committed cards: each placer publishes an :class:`Opening` of its
  move's commitment with its decryption shares for the cards;
- any mixed group: each placer opens its commitment and re-encrypts those cards to the
  joint key into the group's pool (a ``HandOver``), each pool's contributors re-mix it in
  seat order (:func:`pool_mixers`), then every seat publishes its shares for the pooled
  cards, so nobody learns who placed which card.

:class:`RevealExchange` owns the pools and which re-mixes it has taken.
"""

from __future__ import annotations

from typing import ClassVar

from fairtable.engine.errors import IllegalReveal
from fairtable.engine.requests import Request, Reveal, RevealAnswer

from ._cards import CardLedger, Commitment, Slot, slot_bytes
from ._commit import commitment_digest
from ._deck import (
    Ciphertext,
    decryption_shares,
    hand_over,
    strip_shares,
    verify_hand_over,
    verify_shares,
    verify_shuffle_step,
)
from ._errors import BadCommitment, BadProof, blame
from ._held_cards import HeldCardExchange
from ._messages import JOINT, CardRef, DecryptShares, HandOver, PoolPlace
from ._part_keys import HandOverPart, OpeningPart, SharesPart, ShufflePart
from ._port import Port
from ._session_messages import HeldSlot, Opening
from ._verdict_kinds import VerdictKind

__all__ = ["RevealExchange", "pool_mixers"]


def pool_mixers(contributors: list[int]) -> tuple[int, ...]:
    """The seats that re-mix a pool, in order, given the seat that placed each of its cards.

    A pool's contributors re-mix it, in ascending seat order; a pool of one card is not
    re-mixed. This hides as much as every seat re-mixing would (docs/protocol.md §7.5):
    whoever does not hold every mixer's permutation cannot link a pooled card to its
    placer, and a set of seats that holds them all contains every placer, so it knows
    which cards are whose anyway. One card has no
    order to hide: its placer is public (the hand-over names the seat and the slot).
    """
    return tuple(sorted(set(contributors))) if len(contributors) > 1 else ()


class RevealExchange:
    """Reveal requests (see the module docstring)."""

    REQUESTS: ClassVar[dict[type, str]] = {Reveal: "advance"}

    def __init__(self, port: Port, cards: CardLedger, held: HeldCardExchange) -> None:
        self.port = port
        self.cards = cards
        self.held = held
        self.pools: dict[int, dict[str, list[Ciphertext]]] = {}
        self.mixers: dict[int, dict[str, tuple[int, ...]]] = {}  # step -> pool -> seats
        # step -> pool -> its cards, each named by its placer and (deck, slot), in pool order
        # (what every re-mix step and every pool's shares say, docs/protocol.md §7.5)
        self.members: dict[int, dict[str, tuple[CardRef, ...]]] = {}
        self.remixed: set[tuple[str, str, str]] = set()
        # Proofs already checked while a reveal still waited on other seats' parts, so a
        # later pass does not check them again: (step, pool label, seat) -> its shares, and
        # (step, commitment step, deck) -> the placer's re-encrypted cards.
        self.opened: dict[tuple[int, str, int], dict[int, bytes]] = {}
        self.contributed: dict[tuple[int, int, str], dict[int, Ciphertext]] = {}

    def advance(self, pending: tuple[Request, ...]) -> bool:
        req = pending[0]
        assert isinstance(req, Reveal)
        if self.held.names_held(req):
            return self.held.reveal(req)
        if all(not mixed for _, _, mixed in req.groups):
            return self.reveal_opened(req)
        return self.reveal_pooled(req)

    def opened_slots(self, c: Commitment, extra: str = "") -> Opening | None:
        """Publish our opening of ``c`` (if ours) and return the seat's opening, checked."""
        if c.seat == self.port.me:

            def opening(_me: int) -> Opening:
                nonce, slots = self.cards.my_openings[c.step]
                step = f"s{self.port.step}"
                shown = self.cards.shares_for(list(slots), step) if not extra else ()
                return Opening(c.step, nonce, tuple(HeldSlot(d, s) for d, s in slots), shown)

            self.port.publish_once(OpeningPart(c.step), opening)
        msg = self.port.part(c.seat, OpeningPart(c.step))
        if msg is None:
            self.port.waiting_for_reveal = True
            return None
        slots = tuple((h.deck, h.slot) for h in msg.slots)
        expected = commitment_digest(
            self.port.table, c.seat, f"move:s{c.step}", msg.nonce, slot_bytes(slots)
        )
        if expected != c.digest:
            raise BadCommitment(
                f"seat {c.seat}'s opening does not match its commitment", seat=c.seat
            )
        if len(slots) != len(c.handles) or len(set(slots)) != len(slots):
            raise BadCommitment(f"seat {c.seat} opened the wrong number of cards", seat=c.seat)
        if any(slot not in self.cards.held[c.seat] for slot in slots):
            raise BadCommitment(f"seat {c.seat} committed to cards it does not hold", seat=c.seat)
        opened: Opening = msg
        return opened

    def reveal_opened(self, req: Reveal) -> bool:
        """Unmixed groups of committed cards: each placer opens its commitment with its
        shares for the cards, and every peer reads them."""
        k = self.port.step
        openings = {}
        for group, handles, _mixed in req.groups:
            c = self.cards.commitment_for(handles[0])
            msg = self.opened_slots(c)
            if msg is not None:
                openings[group] = (c, msg)
        if len(openings) < len(req.groups):
            return False
        answer = []
        for group, _handles, _mixed in req.groups:
            c, msg = openings[group]
            order = [(h.deck, h.slot) for h in msg.slots]
            cards = dict(zip(order, self.read_slots(c.seat, msg, order, f"s{k}"), strict=True))
            answer.append((group, tuple(cards[slot] for slot in order)))
        self.port.apply(RevealAnswer(req.label, tuple(answer)))
        return True

    def read_slots(self, seat: int, msg: Opening, order: list[Slot], step: str) -> list[str]:
        if sorted((m.deck, s.slot) for m in msg.shown for s in m.shares) != sorted(order):
            raise blame(
                seat, VerdictKind.BAD_REVEAL, f"seat {seat}'s opening lacks shares for its cards"
            )
        by_slot: dict[Slot, str] = {}
        for one in msg.shown:
            ids = self.cards.read_shown(seat, (one,), step)
            for share, card in zip(one.shares, ids, strict=True):
                by_slot[(one.deck, share.slot)] = card
        return [by_slot[slot] for slot in order]

    def reveal_pooled(self, req: Reveal) -> bool:
        """Groups revealed as multisets: the placers re-encrypt their cards into one pool per
        group, each pool's contributors re-mix it in turn, then all decrypt them together."""
        k = self.port.step
        assert self.cards.joint is not None
        if k not in self.pools:
            contributed = self.pool_contributions(req)
            if contributed is None:
                return False
            self.pools[k], self.members[k] = contributed
            self.mixers[k] = {
                group: pool_mixers([self.cards.commitment_for(h).seat for h in handles])
                for group, handles, _mixed in req.groups
            }
        pools = self.pools[k]
        members = self.members[k]
        mixed = [
            self.remix(group, pools, self.mixers[k][group], members[group])
            for group in sorted(pools)
        ]
        if not all(mixed):  # every pool taken as far as it has come, then wait
            return False
        step = f"s{k}/open"
        for group in sorted(pools):

            def opened(
                me: int,
                label: str = f"pool{group}",
                pool: list[Ciphertext] = pools[group],
                refs: tuple[CardRef, ...] = members[group],
            ) -> DecryptShares:
                return decryption_shares(
                    self.port.deck_key,
                    self.port.table,
                    me,
                    label,
                    step,
                    dict(enumerate(pool)),
                    entropy=self.port.secret(f"open/{label}/{step}", 32),
                    refs=refs,
                )

            self.port.publish_once(SharesPart(f"pool{group}", step), opened)
        shares: dict[str, list[dict[int, bytes]]] = {}
        for group in sorted(pools):
            label = f"pool{group}"
            for seat in self.port.seats:
                msg = self.port.part(seat, SharesPart(label, step))
                if msg is not None:
                    if (k, label, seat) not in self.opened:
                        self.opened[(k, label, seat)] = verify_shares(
                            self.port.table,
                            seat,
                            self.cards.keys[seat],
                            msg,
                            dict(enumerate(pools[group])),
                            refs=members[group],
                        )
                    shares.setdefault(label, []).append(self.opened[(k, label, seat)])
        if any(len(shares.get(f"pool{a}", [])) < len(self.port.seats) for a in pools):
            return False
        answer = []
        for group, _handles, _mixed in req.groups:
            label = f"pool{group}"
            ids = []
            for index, ct in enumerate(pools[group]):
                point = strip_shares(ct, [d[index] for d in shares[label]]).b
                if point not in self.cards.point_card:
                    raise IllegalReveal("a pooled card is not a card")
                ids.append(self.cards.point_card[point])
            answer.append((group, tuple(sorted(ids))))
        self.port.apply(RevealAnswer(req.label, tuple(answer)))
        return True

    # -- a seat vanished while a pool was open (docs/protocol.md §11.11) ----------------------
    def pooled(self) -> bool:
        """Whether the pending reveal's pools are complete: every placer's cards are in."""
        return self.port.step in self.pools

    def open_pools(self) -> list[tuple[str, dict[int, Ciphertext], tuple[CardRef, ...]]]:
        """Every pool of the pending reveal as it stands (label, position -> its latest
        ciphertext, its cards' names), in label order; none before they are complete."""
        k = self.port.step
        pools, members = self.pools.get(k, {}), self.members.get(k, {})
        return [
            (f"pool{group}", dict(enumerate(pools[group])), members[group])
            for group in sorted(pools)
        ]

    def owes_mix(self, seat: int) -> bool:
        """Whether ``seat``'s re-mix of a pool of the pending reveal is still to come."""
        k = self.port.step
        return any(
            seat in mixers and (str(seat), f"pool{group}", f"s{k}/mix{seat}") not in self.remixed
            for group, mixers in self.mixers.get(k, {}).items()
        )

    def strip_pool(self, label: str, cards: dict[int, Ciphertext], seat: int) -> None:
        """Pool ``label`` of the pending reveal is now ``cards`` (``seat``'s layer stripped);
        its later re-mixes are the other placers' (``seat`` re-mixes nothing more)."""
        k, group = self.port.step, label.removeprefix("pool")
        self.pools[k][group] = [cards[i] for i in range(len(cards))]
        self.mixers[k][group] = tuple(m for m in self.mixers[k][group] if m != seat)

    def remix(
        self,
        group: str,
        pools: dict[str, list[Ciphertext]],
        mixers: tuple[int, ...],
        members: tuple[CardRef, ...],
    ) -> bool:
        """Take the re-mixes of one pool, in its mixers' order, as far as they have come
        (publishing ours when its turn comes); whether the pool is fully re-mixed.  Each
        step names the pool's cards, ``members``, and must name exactly those."""
        assert self.cards.joint is not None
        k, label, stage = self.port.step, f"pool{group}", self.remixed
        for seat in mixers:
            step = f"s{k}/mix{seat}"
            if (str(seat), label, step) in stage:
                continue
            if seat == self.port.me:
                self.cards.my_shuffle(label, step, pools[group], inputs=members)
            msg = self.port.part(seat, ShufflePart(label, step))
            if msg is None:
                return False
            if seat != self.port.me:  # shuffle proof
                verify_shuffle_step(
                    self.port.table, seat, msg, pools[group], self.cards.joint, inputs=members
                )
            cards = self.cards.shuffled_cards(seat, msg.cards)
            if len(cards) != len(pools[group]):
                raise BadProof("a re-mix changed the number of cards", seat=seat)
            self.cards.shuffles.append((seat, label, step, pools[group], cards))
            pools[group] = cards
            stage.add((str(seat), label, step))
        return True

    def pool_contributions(
        self, req: Reveal
    ) -> tuple[dict[str, list[Ciphertext]], dict[str, tuple[CardRef, ...]]] | None:
        """Every placer opens its commitments and re-encrypts those cards into the pools:
        each pool's cards, and what names each (its placer and held slot), in pool order."""
        assert self.cards.joint is not None
        k = self.port.step
        commitments: dict[int, Commitment] = {}
        for _group, handles, _mixed in req.groups:
            for h in handles:
                c = self.cards.commitment_for(h)
                commitments[c.step] = c
        fresh_by_handle: dict[int, Ciphertext] = {}
        ref_by_handle: dict[int, CardRef] = {}
        place_of = {
            h: PoolPlace(f"pool{group}", i)  # where the request puts each card
            for group, handles, _mixed in req.groups
            for i, h in enumerate(handles)
        }
        complete = True
        for c in sorted(commitments.values(), key=lambda c: c.step):
            step = f"s{k}/pool{c.step}"
            if c.seat == self.port.me:
                _, mine = self.cards.my_openings[c.step]
                by_deck: dict[str, dict[int, Ciphertext]] = {}
                places: dict[str, dict[int, PoolPlace]] = {}
                for (deck, index), handle in zip(mine, c.handles, strict=True):
                    by_deck.setdefault(deck, {})[index] = self.cards.held[c.seat][(deck, index)]
                    places.setdefault(deck, {})[index] = place_of[handle]
                for deck, held in sorted(by_deck.items()):

                    def pooled(
                        me: int,
                        deck: str = deck,
                        held: dict[int, Ciphertext] = held,
                        step: str = step,
                        where: dict[int, PoolPlace] = places[deck],
                    ) -> HandOver:
                        assert self.cards.joint is not None
                        return hand_over(
                            self.port.deck_key,
                            self.port.table,
                            me,
                            deck,
                            step,
                            JOINT,
                            self.cards.joint,
                            held,
                            entropy=self.port.secret(f"pool/{step}/{deck}", 32),
                            places=where,
                        )[0]

                    self.port.publish_once(HandOverPart(deck, step, JOINT), pooled)
            opening = self.opened_slots(c, extra="pool")
            if opening is None:
                complete = False
                continue
            opened = [(h.deck, h.slot) for h in opening.slots]
            fresh: dict[Slot, Ciphertext] = {}
            for deck in sorted({d for d, _ in opened}):
                msg = self.port.part(c.seat, HandOverPart(deck, step, JOINT))
                if msg is None:
                    complete = False
                    break
                if (k, c.step, deck) not in self.contributed:
                    held = {n: self.cards.held[c.seat][(deck, n)] for d, n in opened if d == deck}
                    where = {
                        n: place_of[h]
                        for (d, n), h in zip(opened, c.handles, strict=True)
                        if d == deck
                    }
                    self.contributed[(k, c.step, deck)] = verify_hand_over(
                        self.port.table,
                        c.seat,
                        self.cards.keys[c.seat],
                        self.cards.joint,
                        msg,
                        held,
                        places=where,
                    )
                got = self.contributed[(k, c.step, deck)]
                fresh.update({(deck, n): ct for n, ct in got.items()})
            else:
                for handle, slot in zip(c.handles, opened, strict=True):
                    fresh_by_handle[handle] = fresh[slot]
                    ref_by_handle[handle] = CardRef(c.seat, *slot)
        if not complete:
            self.port.waiting_for_reveal = True
            return None
        for c in commitments.values():
            opening = self.port.stored(c.seat, OpeningPart(c.step))
            self.cards.hand_out(c.seat, [(h.deck, h.slot) for h in opening.slots])
        return (
            {group: [fresh_by_handle[h] for h in handles] for group, handles, _mixed in req.groups},
            {
                group: tuple(ref_by_handle[h] for h in handles)
                for group, handles, _mixed in req.groups
            },
        )
