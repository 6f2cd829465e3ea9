"""Vanishing in a table session: a seat gone for good no longer ends the game (§11.11).

This module owns, for one session at a table whose rule is :attr:`Leavers.GO_ON` (three
seats or more), everything the session does about vanishing; at any other table it does
nothing at all (no part, no byte, no check):

* **Setup.**  Every seat's ``vss-deal`` goes out with its key share.  Before the game's
  first step every peer takes every deal (the public checks, and a holder opens its share);
  a holder that finds its share bad publishes a ``vss-complaint`` at once, so before any part
  of the game's first step.  While a complaint is open the game waits for the dealer's
  ``vss-answer``.  A deal that fails the public checks, a complaint about nothing, and an
  answer that does not fit the commitments are verdicts (``bad-proof``) naming their author.
* **The vote.**  When the caller says a seat ``d`` is gone (:meth:`Vanishing.vanish`) and
  our engine waits at step ``k`` on nothing but ``d``, we publish our vote
  ``vanish {d, k, seen}`` -- ``seen`` the number of ``d``'s entries we have filed -- after
  our ``vss-recover`` parts for step ``s<k>/vanish`` when the table can recover.  From then
  on we file no more of ``d``'s entries (``d`` is *frozen*): a part ``d`` signs late cannot
  move us past ``k``.  A peer that has filed more than ``seen`` of ``d``'s entries and did
  not cast that vote answers ``present {d, k, seen}``; the vote is then void, its voter files
  the rest of ``d``'s feed and may vote again.  A vote and a ``present`` for the same
  ``(d, k, seen)`` cannot both exist among honest seats (a voter never files past ``seen``),
  so whether a vote carries is the same on every peer, whatever the arrival order.
* **Applying it.**  Once every seat still playing but ``d`` has voted the same
  ``(d, k, seen)`` and our engine is at ``k``, the rule of the exchange ``d`` owes decides
  (:meth:`Vanishing.rule`): *recover* -- every voter's recovery shares are checked (a bad
  one names its author) and combined into ``d``'s decryption shares for every face-down deck
  card, ``d``'s layer is stripped from them (``(A, B - D_d)``) and ``d`` departs exactly as
  a leaving seat does (:mod:`protocol._departures`).  A pool open at ``k`` goes on without
  ``d``: before every placer's cards are in, the engine sets ``d``'s aside and asks the reveal
  again; once they are, the pools' cards are recovered and stripped like the deck's, ``d``'s
  re-mix is skipped and its cards are played (``depart(d, revealing=True)``).  A voter's
  recovery parts count only if filed before its vote, so every peer judges the same parts;
  *withheld* -- ``d`` owes the reveal of something it committed to (joint randomness, a
  simultaneous move, a face-down card), so playing on would let it choose an outcome by
  vanishing: the ``withheld-reveal`` verdict naming ``d``; *end* -- the table cannot recover
  (a second departure, a deal not settled, the game cannot go on without ``d``, or a voter's
  shares for a pool went out with a void vote, before ``d``'s re-mix changed the pool): the
  game ends for everyone at ``k``, nobody blamed.

No recovery is ever made for a card ``d`` holds: only the deck cards still face down under
the joint key and the cards of a complete pool, which ``d`` would have had to share anyway.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

from fairtable.engine.requests import Chance, Decision, Reveal, Roll, Shuffle

from ._cards import CardLedger
from ._deck import Ciphertext, strip_shares
from ._departures import Departures, strip_layer
from ._errors import BadProof, LocalProtocolError, blame
from ._events import SeatLeft
from ._exchanges import Exchanges
from ._identity import Identity, PublicIdentity
from ._messages import CardRef
from ._part_keys import (
    CommitPart,
    OpeningPart,
    RecoverPart,
    ShareAnswerPart,
    ShareDealPart,
)
from ._port import Port
from ._session_messages import Present, Vanish
from ._table import Leavers, TableSpec
from ._vanishing import KeyEscrow
from ._verdict_kinds import VerdictKind
from ._vss import holders_of
from ._vss_messages import RecoveryShares, ShareAnswer, ShareComplaint, ShareDeal

__all__ = ["VANISHING_PARTS", "Rule", "Vanishing", "vanish_step"]

VANISHING_PARTS = (Vanish, Present, ShareComplaint, ShareAnswer)
"""The parts the session hands to :meth:`Vanishing.filed` as they are filed."""


def vanish_step(k: int) -> str:
    """The step label of the recovery shares for a seat that vanished at game step ``k``."""
    return f"s{k}/vanish"


class Rule(enum.Enum):
    """What a vanishing the table agreed on does, by what the seat owed (module docstring)."""

    RECOVER = "recover"
    WITHHELD = "withheld"
    UNANSWERED = "unanswered"
    END = "end"


Vote = tuple[int, int, int]
"""(seat that vanished, game step, entries of its feed filed)."""


class Vanishing:
    """One session's vanishing: the deals at setup, the votes, and applying a vanishing."""

    def __init__(
        self,
        port: Port,
        exchanges: Exchanges,
        departures: Departures,
        spec: TableSpec,
        identity: Identity | None,
        cursor: Callable[[int], int],
        cut: Callable[[int, int], None],
        end: Callable[[int, int], None],
    ) -> None:
        self.port = port
        self.exchanges = exchanges
        self.cards: CardLedger = exchanges.cards
        self.departures = departures
        self.on = spec.leavers() is Leavers.GO_ON and spec.seats >= 3
        self.seats = spec.seats
        self._cursor = cursor  # seat -> how many of its entries the session has filed
        self._cut = cut  # nothing of a seat's feed from entry ``seen`` on counts: (seat, seen)
        self._end = end  # the game ends at a step, nobody blamed: (seat, step)
        self.escrow: KeyEscrow | None = None
        if self.on:
            roster: list[PublicIdentity] = [spec.roster()[s] for s in range(spec.seats)]
            self.escrow = KeyEscrow(port.table, port.me, identity, roster)
        self.ready = not self.on  # every deal taken (setup done)
        self.asked: set[int] = set()  # seats the caller said are gone for good
        self.frozen: dict[int, int] = {}  # seat -> the entries of it we file (our vote's seen)
        self.lost: str | None = None  # a spectator past a vote that carried: why it stops
        self.mine: dict[int, Vote] = {}  # seat -> our standing vote about it
        self.votes: dict[Vote, set[int]] = {}  # a vote -> the seats that cast it
        self.void: set[Vote] = set()  # votes answered by a ``present``
        self.answered: set[Vote] = set()  # votes we answered with our ``present``
        self.others_void: set[Vote] = set()  # votes a seat other than their subject answered
        self.vanished: dict[int, int] = {}  # seat -> the step it vanished at (recovered)
        self._early: list[tuple[int, ShareComplaint]] = []  # complaints before our deals
        self.recoveries: dict[int, set[RecoverPart]] = {}  # seat -> its recovery parts filed
        # (vote, voter) -> the voter's recovery parts filed by its vote: the only ones that
        # count for that vote, whenever a later one arrives (§11.11, "The vote")
        self.backing: dict[tuple[Vote, int], frozenset[RecoverPart]] = {}
        self.applied: list[tuple[int, int, Rule, str]] = []  # (seat, step, rule, what it owed)

    # -- setup --------------------------------------------------------------------------
    def our_deal(self) -> ShareDeal | None:
        """Our ``vss-deal``, to go out with our key share (None: nothing to share here)."""
        if self.escrow is None or self.port.me is None:
            return None
        entropy = self.port.secret("vss-deal", 32)
        return self.escrow.our_deal(self.port.deck_key, entropy=entropy)

    def blocks(self) -> bool:
        """Whether the game must wait: a deal not yet taken, or a complaint not answered
        (we then wait on the seats that owe the part)."""
        if self.escrow is None:
            return False
        if not self.ready:
            self._take_deals()
        if not self.ready:
            return True
        open_ = self.escrow.open_complaints()
        for dealer in open_:
            self.port.part(dealer, ShareAnswerPart(next(iter(self._complainers(dealer)))))
        return bool(open_)

    def _complainers(self, dealer: int) -> list[int]:
        assert self.escrow is not None
        return sorted(c for d, c in self.escrow.complaints if d == dealer)

    def _take_deals(self) -> None:
        port, escrow = self.port, self.escrow
        assert escrow is not None
        if not self.cards.need_keys():
            return
        escrow.know_keys([self.cards.keys[s] for s in range(self.seats)])
        deals = {s: port.part(s, ShareDealPart()) for s in range(self.seats) if s != port.me}
        if any(msg is None for msg in deals.values()):
            return
        for dealer, msg in sorted(deals.items()):
            complaint = escrow.take_deal(dealer, msg)
            if complaint is not None:
                port.publish(complaint)
        self.ready = True
        early, self._early = self._early, []
        for seat, msg in early:
            self._complaint(seat, msg)

    def _complaint(self, seat: int, msg: ShareComplaint) -> None:
        assert self.escrow is not None
        answer = self.escrow.take_complaint(seat, msg)
        if answer is not None:
            self.port.publish(answer)

    def filed(self, seat: int, msg: Any) -> None:
        """A vanishing part of ``seat`` was filed (in its feed's order)."""
        if isinstance(msg, Vanish):
            vote = (msg.seat, msg.step, msg.seen)
            self.votes.setdefault(vote, set()).add(seat)
            self.backing[(vote, seat)] = frozenset(self.recoveries.get(seat, ()))
            if seat == self.port.me:  # ours, read back after a restart: it stands
                self.mine[msg.seat] = vote
                self.frozen[msg.seat] = msg.seen
            self._spectator_past(vote)
        elif isinstance(msg, Present):
            vote = (msg.seat, msg.step, msg.seen)
            if seat == msg.seat and seat != self.port.me:
                return  # the seat itself says it is here: its entry counts through our cursor
            self.void.add(vote)
            if seat != msg.seat:  # another seat filed more of the subject's feed: void for all
                self.others_void.add(vote)
            if seat == self.port.me:
                self.answered.add(vote)
            if self.mine.get(msg.seat) == vote:  # our vote is void: file the rest of its feed
                del self.mine[msg.seat]
                self.frozen.pop(msg.seat, None)
                self.asked.discard(msg.seat)  # and forget the call: the caller calls again
        elif self.escrow is None:
            raise blame(seat, VerdictKind.BAD_PROOF, "a key-sharing part at a table without it")
        elif isinstance(msg, ShareComplaint):
            if seat == self.port.me:
                return  # ours: filed when we made it
            if self.ready:
                self._complaint(seat, msg)
            else:  # it names a deal we may not hold yet: judged once we took them all
                self._early.append((seat, msg))
        elif seat != self.port.me:
            self.escrow.take_answer(seat, msg)

    def recovery_filed(self, seat: int, key: RecoverPart) -> None:
        """A ``vss-recover`` part of ``seat`` was filed (in its feed's order)."""
        self.recoveries.setdefault(seat, set()).add(key)

    def _spectator_past(self, vote: tuple[int, int, int]) -> None:
        """A spectator (no seat, so no ``present`` to answer with) that filed more of ``d``'s
        feed than a vote every other seat still playing cast: the table went on without
        what it played, so it cannot follow the survivors; it stops naming nobody rather
        than blame a survivor for the digest it cannot share (§11.11)."""
        d, k, seen = vote
        port = self.port
        if port.me is not None or vote in self.void or d not in port.seats:
            return
        if self.votes[vote] >= {s for s in port.seats if s != d} and self._cursor(d) > seen:
            self.lost = (  # it files nothing more, and stops once it cannot go on (stuck)
                f"every other seat agreed that seat {d} vanished at step {k} after {seen} "
                f"entries, and a later entry of seat {d} was already played here"
            )

    # -- the caller ---------------------------------------------------------------------
    def vanish(self, seat: int) -> None:
        """The caller says ``seat`` is gone for good (see :meth:`TableSession.vanish`)."""
        if not self.on:
            raise LocalProtocolError("this table ends the game when a seat vanishes (leavers: end)")
        if seat == self.port.me or seat not in self.port.seats:
            raise LocalProtocolError(f"seat {seat} is no other seat still playing")
        self.asked.add(seat)

    def holds_back(self, seat: int) -> bool:
        """Whether we file no more of ``seat``'s entries now: our vote about it stands, or
        its vote about us does (past its vote, it plays at a table without us: if every other
        seat voted alike our game is over, else a ``present`` voids the vote)."""
        if self._voted_us(seat):
            return True
        if self.lost is not None:
            return True
        frozen = self.frozen.get(seat)
        return frozen is not None and self._cursor(seat) >= frozen

    def _voted_us(self, seat: int) -> bool:
        """Whether ``seat`` cast a vote about our seat that no other seat voided: what it
        sends after that vote is for a table without us."""
        me = self.port.me
        return any(
            vote[0] == me and seat in voters and vote not in self.others_void
            for vote, voters in self.votes.items()
        )

    # -- when the exchanges cannot go on ---------------------------------------------------
    def stuck(self, waiting: set[int]) -> bool:
        """Our engine cannot go on: answer votes we know more than, vote, or apply a vote
        every seat still playing cast.  Whether anything changed."""
        if not self.on:
            return False
        if self.lost is not None:
            raise blame(None, VerdictKind.CANNOT_FOLLOW, self.lost)
        moved = self._answer_votes()
        port = self.port
        for vote, voters in sorted(self.votes.items()):
            d, k, seen = vote
            if d == port.me:  # a vote about us carries if every other seat cast it, whatever
                # our step (we may have answered since): they froze our feed before our answer
                if vote not in self.others_void and voters >= set(port.seats) - {d}:
                    self._apply(d, k, seen)
                    return True
                continue
            if vote in self.void or d not in port.seats or k != port.step:
                continue
            # every voter's parts of step k come before its vote in its feed (it voted once it
            # waited on d alone): a peer still waiting on a voter (a spectator, which casts no
            # vote) waits for them, else it would apply the vote to another state (§11.11)
            if (
                voters >= {s for s in port.seats if s != d}
                and self._cursor(d) >= seen
                and waiting <= {d}
            ):
                self._apply(d, k, seen)
                return True
        if waiting and waiting <= self.asked and port.me is not None:
            d = min(waiting)  # several gone at once: one at a time, the lowest seat first
            if d in port.seats and d not in self.mine:
                vote = (d, port.step, self._cursor(d))
                if vote not in self.void:
                    self._vote(vote)
                    moved = True
        return moved

    def _answer_votes(self) -> bool:
        """``present`` for every standing vote about a seat of which we filed more."""
        if self.port.me is None:
            return False
        moved = False
        for vote in sorted(self.votes):
            d, _k, seen = vote
            if vote in self.void or vote in self.answered or self.mine.get(d) == vote:
                continue
            if d == self.port.me or self._cursor(d) > seen:  # we are here: more of our feed
                self.answered.add(vote)
                self.void.add(vote)
                self.port.publish(Present(*vote))
                moved = True
        return moved

    def rule(self, d: int) -> Rule:
        """What a vanishing of ``d`` agreed at this step does (module docstring)."""
        port, escrow = self.port, self.escrow
        if escrow is not None and d in escrow.open_complaints():
            return Rule.UNANSWERED
        if (
            escrow is None
            or port.over
            or self.departures.gone
            or self.vanished
            or not escrow.dealt(d)
            or not port.can_depart(d)
        ):
            return Rule.END
        req = port.pending()[0]
        if isinstance(req, Chance | Roll):
            return Rule.WITHHELD
        if isinstance(req, Decision):
            committed = port.holds(d, CommitPart(f"simul:s{port.step}"))
            return Rule.WITHHELD if committed else Rule.RECOVER
        if isinstance(req, Reveal) and not self.exchanges.names_held(req):
            if any(mixed for _group, _handles, mixed in req.groups):
                return Rule.RECOVER  # a pool's hand-over, re-mix or opening (§7.5, §11.11)
            for _group, handles, _mixed in req.groups:
                try:
                    c = self.cards.commitment_for(handles[0])
                except LocalProtocolError:
                    continue  # no commitment: no opening owed for this group
                if c.seat == d and not port.holds(d, OpeningPart(c.step)):
                    return Rule.WITHHELD
            return Rule.END  # no opening of its own owed: nothing the table could recover
        return Rule.RECOVER

    def owed(self, d: int) -> str:
        """What ``d`` owes at this step, in a word for the record: the pending request's
        kind, or which round of a pool it owes (``Pool hand-over``, ``re-mix``, ``opening``)."""
        pending = self.port.pending()
        if not pending:
            return "over"
        req = pending[0]
        if not isinstance(req, Reveal) or not any(mixed for _g, _h, mixed in req.groups):
            return type(req).__name__
        reveals = self.exchanges.reveals
        if not reveals.pooled():
            return "Pool hand-over"
        return "Pool re-mix" if reveals.owes_mix(d) else "Pool opening"

    def _vote(self, vote: Vote) -> None:
        d, k, seen = vote
        if self.rule(d) is Rule.RECOVER:
            for part in self._recovery(d, k):
                self.port.publish(part)
        self.port.publish(Vanish(d, k, seen))
        assert self.port.me is not None
        self.votes.setdefault(vote, set()).add(self.port.me)
        self.mine[d] = vote
        self.frozen[d] = seen

    def _recovery(self, d: int, k: int) -> list[RecoveryShares]:
        """Our recovery shares of ``d``'s layer for every face-down deck card."""
        port, escrow = self.port, self.escrow
        assert escrow is not None and port.me is not None
        out = [
            escrow.our_recovery(
                d,
                label,
                vanish_step(k),
                cards,
                entropy=port.secret(f"vanish/{d}/{label}/{k}", 32),
            )
            for label, cards in self.departures.face_down()
        ]
        for label, cards, refs in self.exchanges.reveals.open_pools():
            out.append(
                escrow.our_recovery(
                    d,
                    label,
                    vanish_step(k),
                    cards,
                    refs=refs,
                    entropy=port.secret(f"vanish/{d}/{label}/{k}", 32),
                )
            )
        return out

    def _apply(self, d: int, k: int, seen: int) -> None:
        """Every seat still playing voted ``(d, k, seen)``: the rule of the step decides."""
        if d == self.port.me:  # we were away, and the table went on without us
            self._end(d, k)
            return
        rule = self.rule(d)
        if rule is Rule.RECOVER and self._stale((d, k, seen)):
            rule = Rule.END
        self.applied.append((d, k, rule, self.owed(d)))
        if rule is Rule.WITHHELD:
            raise blame(
                d,
                VerdictKind.WITHHELD_REVEAL,
                f"seat {d} vanished at step {k} owing the reveal of what it committed to",
            )
        if rule is Rule.UNANSWERED:
            raise blame(
                d, VerdictKind.BAD_PROOF, f"seat {d} vanished owing the answer to a complaint"
            )
        self.frozen[d] = seen
        self._cut(d, seen)
        if rule is Rule.END:
            self._end(d, k)
            return
        pooled = self.exchanges.reveals.pooled()  # its pools stay, d's cards in them played
        self._strip((d, k, seen))
        self.vanished[d] = k
        pile = self._shuffle_in_progress()
        self.departures.remove(d, k, revealing=pooled)
        if pile is not None:  # restarted among the others, under their joint key
            self.exchanges.piles.restarts[k] = f"{pile}.{k}.v{d}"
        port = self.port
        port.emit(SeatLeft(d, k, port.digest(), vanished=True))

    def _stale(self, vote: Vote) -> bool:
        """Whether a voter's recovery shares for a pool are for the pool as it stood before
        ``d``'s re-mix of it: made with a vote of its that was void (``d``'s re-mix was filed
        after it), they cannot be sent again at this step (a part is sent once), so the table
        cannot recover ``d`` here (§11.11).  Shares that hold for neither are a cheat, named
        when they are checked."""
        d, k, _seen = vote
        escrow = self.escrow
        assert escrow is not None
        for label, cards, refs in self.exchanges.reveals.open_pools():
            before = [
                b
                for seat, deck, step, b, _after in self.cards.shuffles
                if (seat, deck, step) == (d, label, f"s{k}/mix{d}")
            ]
            if not before:
                continue  # the pool is as it was when every voter's shares were made
            for holder in holders_of(d, self.seats):
                key = RecoverPart(d, label, vanish_step(k))
                msg = self.port.stored(holder, key)
                if (
                    msg is not None
                    and (holder == self.port.me or key in self.backing.get((vote, holder), ()))
                    and not escrow.fits(holder, msg, cards, refs)
                    and escrow.fits(holder, msg, dict(enumerate(before[0])), refs)
                ):
                    return True
        return False

    def _shuffle_in_progress(self) -> str | None:
        req = self.port.pending()[0]
        if not isinstance(req, Shuffle):
            return None
        label = f"{req.pile}.{self.port.step}"
        self.cards.decks.pop(label, None)
        return str(req.pile)

    def _strip(self, vote: Vote) -> None:
        """Check every voter's recovery shares, combine them into ``d``'s decryption shares
        and strip ``d``'s layer from every face-down deck card and every open pool's card."""
        d = vote[0]
        stripped = [
            (label, self._stripped(vote, label, cards, ()))
            for label, cards in self.departures.face_down()
        ]
        reveals = self.exchanges.reveals
        for label, cards, refs in reveals.open_pools():
            reveals.strip_pool(label, self._stripped(vote, label, cards, refs), d)
        strip_layer(self.cards, d, stripped)

    def _stripped(
        self, vote: Vote, label: str, cards: dict[int, Ciphertext], refs: tuple[CardRef, ...]
    ) -> dict[int, Ciphertext]:
        """``cards`` of deck or pool ``label`` without ``d``'s layer, by every holder's
        recovery shares (checked: a missing or wrong one names its holder).  A holder's part
        counts only if it was filed before its vote (§11.11, "The vote"): one that comes
        later is as missing, on every peer, whenever it arrives."""
        port, escrow = self.port, self.escrow
        assert escrow is not None
        d, k, _seen = vote
        combined: dict[int, bytes] | None = None
        for holder in holders_of(d, self.seats):
            key = RecoverPart(d, label, vanish_step(k))
            msg = port.stored(holder, key)
            if msg is None or (
                holder != port.me and key not in self.backing.get((vote, holder), ())
            ):
                raise BadProof(
                    f"seat {holder} voted without its recovery shares for the {label} cards",
                    seat=holder,
                )
            combined = escrow.take_recovery(holder, msg, cards, refs=refs)
        assert combined is not None
        return {slot: strip_shares(ct, [combined[slot]]) for slot, ct in cards.items()}
