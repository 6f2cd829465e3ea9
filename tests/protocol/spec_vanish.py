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

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .spec_crypto import ORDER, G, add, b64, card_point, dleq_ok, mul, sub, total

Parts = list[tuple[int, dict[str, Any]]]
Ref = tuple[int, str, int]
"""A pool card: its placer, and the (deck, slot) it held it at (§7.5)."""


class SpecFailure(Exception):
    """A check of the spec failed (the message names the part)."""


class CouldNotRecover(Exception):  # noqa: N818 -- not a failure: how a game ends
    """The vanishing the table agreed on at this step could not be recovered (§11.11, rule
    *end*): the game ended there, and nothing comes after it."""


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
    vote_parts: dict[tuple[tuple[int, int, int], int], dict[str, Any]]
    order: dict[int, int]
    departed: list[int]
    parts: Parts
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

    def before_votes(self, gone: int, k: int, recovery: Parts) -> None:
        """Every recovery part comes before its sender's vote in its feed, in the vote's entry
        or an earlier one (§11.11, "The vote"): one after it counts for nothing."""
        for (vote, seat), part in self.vote_parts.items():
            if vote[:2] != (gone, k) or vote not in self.votes or seat not in self.seats:
                continue
            if self.votes[vote] < set(self.seats) - {gone}:
                continue  # not the vote that carried
            for j, msg in recovery:
                if j == seat and self.order[id(msg)] > self.order[id(part)]:
                    raise self.fail(j, f"recovery shares of {msg['deck']} after its vote")

    def pools_complete(self, k: int, gone: int, handovers: Parts, parts: Parts) -> bool:
        """Whether the pools of step ``k`` were complete when the vote carried: every placer's
        hand-over in (§11.11), read from the log alone.  The other seats voted once they waited
        on ``gone`` alone, so theirs were in.  ``gone``'s are in if its hand-overs of each
        commitment it opened into these pools (steps ``s<k>/pool<m>``) cover exactly the slots
        of its opening of ``move:s<m>``; if it handed over nothing it placed nothing there
        exactly when the pools were built without it: re-mixed or opened at step ``k``
        (``s<k>/mix<seat>``, ``s<k>/open``), which no seat does before every hand-over is in."""
        mine: dict[int, set[tuple[str, int]]] = defaultdict(set)
        for seat, msg in handovers:
            if seat == gone:
                m = int(msg["step"].rsplit("pool", 1)[1])
                mine[m] |= {(msg["deck"], item["slot"]) for item in msg["cards"]}
        if not mine:
            return any(
                re.fullmatch(rf"s{k}/(mix\d+|open)", p["step"])
                for _, p in parts
                if p.get("type", "shares") in ("shuffle", "shares")
            )
        for m, handed in mine.items():
            opened = [
                p
                for seat, p in self.parts
                if seat == gone and p["type"] == "opening" and p["step"] == m
            ]
            slots = {(h["deck"], h["slot"]) for p in opened for h in p["slots"]}
            if len(opened) != 1 or slots != handed:
                return False
        return True

    def stale(
        self,
        gone: int | None,
        label: str,
        refs: list[Ref],
        before: list[bytes] | None,
        cts: list[bytes],
        msgs: Parts,
    ) -> None:
        """§11.11, rule *end*: a remaining seat's recovery shares of pool ``label`` that hold
        for its cards ``before`` the vanished seat's re-mix of it and not for them now
        (``cts``) went out with a vote of its that was void; it cannot send them again at this
        step, so the table could not recover the seat: the game ended here."""
        assert gone is not None
        if before is None:
            return  # the vanished seat did not re-mix this pool: nothing changed under a vote
        for j, msg in msgs:
            if (
                msg["deck"] == label
                and not self.holds(gone, j, msg, cts, refs)
                and self.holds(gone, j, msg, before, refs)
            ):
                raise CouldNotRecover

    def holds(
        self, gone: int, j: int, msg: dict[str, Any], cts: list[bytes], refs: list[Ref]
    ) -> bool:
        """Whether ``j``'s recovery shares ``msg`` hold for the pool cards ``cts``."""
        rs = [b64(one["share"]) for one in msg["shares"]]
        named = [(r["seat"], r["deck"], r["slot"]) for r in msg["cards"]]
        if [one["slot"] for one in msg["shares"]] != list(range(len(cts))) or named != refs:
            return False
        cards = [(i, ct[:32], r) for i, (ct, r) in enumerate(zip(cts, rs, strict=True))]
        context = f"recover/{gone}/{msg['step']}"
        return dleq_ok(self.table, context, j, self.share_key(gone, j), cards, b64(msg["proof"]))

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
        self.departed.append(gone)
