"""The vanishing checks of the spec-only log verifier (docs/protocol.md §7.11, §11.11).

Like ``spec_log`` it imports nothing of ours.  :class:`VanishChecks` is the part of
``spec_log.LogVerifier`` that reads the key sharing and a vanishing the table agreed on:
every deal's public checks and every answer to a complaint; where every other remaining seat's
vote carried, their recovery shares for exactly the face-down deck cards -- and, when the
step was a pooled reveal whose pools were complete, for every card of every pool of the step
-- each checked against the holder's public share, combined by Lagrange at zero and stripped;
the steps of a shuffle the seat never finished, proven and never used.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .spec_crypto import ORDER, G, add, b64, card_point, dleq_ok, mul, sub, total

Parts = list[tuple[int, dict[str, Any]]]
Ref = tuple[int, str, int]
"""A pool card: its placer, and the (deck, slot) it held it at (§7.5)."""


class SpecFailure(Exception):
    """A check of the spec failed (the message names the part)."""


class VanishChecks:
    """Mixed into ``spec_log.LogVerifier``, whose state it reads and changes."""

    table: bytes
    seats: list[int]
    keys: dict[int, bytes]
    joint: bytes
    slots: dict[tuple[str, int], tuple[int | None, bytes]]
    piles: dict[str, str]
    flipped: set[tuple[str, int]]
    deals: dict[int, list[bytes]]
    votes: dict[tuple[int, int, int], set[int]]
    checked: dict[str, int]

    def fail(self, seat: int, what: str) -> SpecFailure:
        return SpecFailure(f"seat {seat}: {what}")

    proven: Callable[[int, dict[str, Any], list[bytes], bytes, str], list[bytes]]
    """``LogVerifier.proven``: a shuffle or re-mix step's proof checked, its output returned."""

    def share_key(self, dealer: int, holder: int) -> bytes:
        """``S_j = sum_i e_j^i C_i`` with ``e_j = j + 1``."""
        e = holder + 1
        return total([mul(e**i % ORDER, c) for i, c in enumerate(self.deals[dealer])])

    def check_deals(self, answers: Parts) -> None:
        """Every deal's public checks; every answer's share against the complainer's S_j."""
        if not self.deals:
            return
        n = len(self.seats)
        for dealer, commitments in self.deals.items():
            if len(commitments) != n - 1 or commitments[0] != self.keys[dealer]:
                raise self.fail(dealer, "a deal's commitments are not t = n - 1 from its key")
            self.checked["deals"] += 1
        for dealer, msg in answers:
            share = b64(msg["share"])
            if mul(share, G) != self.share_key(dealer, msg["complainer"]):
                raise self.fail(dealer, "an answered share does not fit its commitments")
            self.checked["answers"] += 1

    def carried(self, k: int) -> int | None:
        """The seat whose vanishing every other remaining seat voted at step ``k``."""
        for (d, step, _seen), voters in sorted(self.votes.items()):
            if step == k and d in self.seats and voters >= set(self.seats) - {d}:
                return d
        return None

    def abandoned(self, steps: Parts) -> None:
        """The steps of a shuffle the vanished seat never finished: proven in seat order
        under the joint key of their time, then never used (§11.11)."""
        chains: dict[str, Parts] = defaultdict(list)
        for seat, msg in steps:
            chains[msg["deck"]].append((seat, msg))
        for deck, chain in chains.items():
            chain.sort(key=lambda one: one[0])
            if [seat for seat, _ in chain] != self.seats[: len(chain)]:
                raise SpecFailure(f"{deck}: the shufflers are not seats 0, 1, ... in turn")
            n = len(chain[0][1]["cards"])
            cards = [G + add(card_point(self.table, deck, i), self.joint) for i in range(n)]
            for seat, msg in chain:
                cards = self.proven(seat, msg, cards, self.joint, f"abandoned shuffle {deck}")
                self.checked["abandoned shuffle steps"] += 1

    def pool_recovered(
        self, gone: int | None, label: str, refs: list[Ref], cts: list[bytes], msgs: Parts
    ) -> list[bytes]:
        """Pool ``label`` (its cards ``refs``, position by position, now ``cts``) stripped of
        the layer of ``gone`` by the remaining seats' recovery shares for every position."""
        assert gone is not None
        return self.recovered(gone, label, list(range(len(cts))), cts, msgs, refs)

    def recovered(
        self,
        gone: int,
        label: str,
        positions: list[int],
        cts: list[bytes],
        msgs: Parts,
        refs: list[Ref] | None = None,
    ) -> list[bytes]:
        """Every remaining seat's recovery shares of ``label`` (one part each, for exactly
        ``positions`` by ascending order, whose ciphertexts are ``cts``, naming the pool
        cards ``refs``: none for a deck), each proof checked against its public share,
        combined by Lagrange at zero: ``cts`` stripped of the vanished seat's layer."""
        holders = [s for s in self.seats if s != gone]
        sent = {j: m for j, m in msgs if m["deck"] == label and m["departed"] == gone}
        if sorted(sent) != holders:
            raise SpecFailure(f"{label}: not every remaining seat sent its recovery shares")
        combined: list[bytes | None] = [None] * len(cts)
        for j in holders:
            msg = sent[j]
            rs = [b64(s["share"]) for s in msg["shares"]]
            named = [(r["seat"], r["deck"], r["slot"]) for r in msg["cards"]]
            if [s["slot"] for s in msg["shares"]] != positions or msg["to_seat"] != -1:
                raise self.fail(j, f"recovery shares of {label} are not its face-down cards")
            if named != (refs or []):
                raise self.fail(j, f"recovery shares of {label} name other cards")
            cards = [(p, ct[:32], r) for p, ct, r in zip(positions, cts, rs, strict=True)]
            context = f"recover/{gone}/{msg['step']}"
            if not dleq_ok(
                self.table, context, j, self.share_key(gone, j), cards, b64(msg["proof"])
            ):
                raise self.fail(j, f"recovery proof of {label} {msg['step']}")
            self.checked["recovery parts"] += 1
            lam_num, lam_den = 1, 1
            for m in holders:
                if m != j:
                    lam_num, lam_den = lam_num * (m + 1) % ORDER, lam_den * (m - j) % ORDER
            lam = lam_num * pow(lam_den, -1, ORDER) % ORDER
            for i, r in enumerate(rs):
                got = combined[i]
                combined[i] = mul(lam, r) if got is None else add(got, mul(lam, r))
        out = []
        for ct, d in zip(cts, combined, strict=True):
            assert d is not None
            out.append(ct[:32] + sub(ct[32:], d))
            self.checked["cards recovered"] += 1
        return out

    def vanish(self, k: int, gone: int, parts: Parts) -> None:
        """The remaining seats' recovery shares for exactly the face-down deck cards (the
        pools' are read with the pools), stripped; the remaining seats go on.  (A vanishing
        the table could not recover ends the game: nothing is checked after it.)"""
        down: dict[str, list[int]] = defaultdict(list)
        for (deck, slot), (holder, _) in sorted(self.slots.items()):
            if holder is None and deck in self.piles.values() and (deck, slot) not in self.flipped:
                down[deck].append(slot)
        decks = [(j, m) for j, m in parts if not m["deck"].startswith("pool")]
        for j in self.seats:
            if j != gone and sorted(m["deck"] for s, m in decks if s == j) != sorted(down):
                raise self.fail(j, f"recovers {gone} at s{k} without exactly the face-down decks")
        for deck, slots in sorted(down.items()):
            cts = [self.slots[(deck, slot)][1] for slot in slots]
            for slot, ct in zip(slots, self.recovered(gone, deck, slots, cts, decks), strict=True):
                self.slots[(deck, slot)] = (None, ct)
        self.seats = [s for s in self.seats if s != gone]
        self.joint = sub(self.joint, self.keys[gone])
