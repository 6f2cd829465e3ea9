"""Exchanges: how each engine request becomes messages between the seats.

:class:`Exchanges` looks at the engine's pending request (step ``k``, the engine's
request serial) and hands it to the exchange that owns its kind, found by the request's
class in one table (as h11 dispatches on its state): the exchange either completes the
request -- every part it needs has arrived and checked out, so the answer is applied --
or names the seats it is waiting for.  Labels are ``s<k>`` (plus a suffix for
multi-round exchanges), so a part is tied to exactly one step.

=============  ===========================  ======================================
request        exchange (module)            parts
=============  ===========================  ======================================
Decision       DecisionExchange             the seat's :class:`Move` (public answer;
               (``_decisions``)             commitment to the slots of any face-down
                                            cards; shares proving face-up cards;
                                            re-encryptions of handed-over cards)
Chance, Roll   ChanceExchange (``_chance``) joint randomness: every seat commits,
                                            then reveals
Shuffle        PileExchange (``_piles``)    every seat in seat order re-randomises
                                            and permutes the deck
Deal           PileExchange                 every other seat's decryption shares for
                                            the dealt slots (only the recipient can
                                            finish); a hand-over: the cards the
                                            giver's move re-encrypted
Flip           PileExchange                 every seat's shares for the pile's next
                                            slots; everyone reads the cards
Peek,          HeldCardExchange             the holder's copies for the peeking
Rehandle       (``_held_cards``)            seat; its own re-shuffle
Reveal         RevealExchange               held cards: the holder's shares;
               (``_reveals``)               committed cards: openings with shares;
                                            mixed groups: pools, re-mixes, shares
(game over)    AuditExchange (``_audit``)   every seat's AuditOpening
=============  ===========================  ======================================

Every exchange talks to the session through one :class:`~protocol._port.Port` and keeps
the cards in the shared :class:`~protocol._cards.CardLedger`.  To add an exchange kind:
write a class taking ``(port, cards)`` with a ``REQUESTS`` table (request class -> the
name of its method taking the pending requests and returning whether it progressed), and
add it to :meth:`Exchanges.__init__`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from fairtable.engine.requests import Request, Reveal

from ._audit import AuditExchange
from ._cards import CardLedger
from ._chance import ChanceExchange
from ._decisions import DecisionExchange
from ._errors import LocalProtocolError
from ._held_cards import HeldCardExchange
from ._piles import PileExchange
from ._port import Port
from ._reveals import RevealExchange

__all__ = ["EXCHANGES", "ExchangeRounds", "Exchanges", "state_diagram"]


class ExchangeRounds(NamedTuple):
    """One row of :data:`EXCHANGES`: an engine request as the specification names it, its
    rounds of parts (who sends, the round's name, the part), and whether the session is done
    once they are in (the audit after the game) rather than back at the next request."""

    request: str
    rounds: tuple[tuple[str, str, str], ...]
    ends_session: bool = False


EXCHANGES: tuple[ExchangeRounds, ...] = (
    ExchangeRounds(
        "Decision",
        (
            (
                "deciding seat",
                "move",
                "Move: public answer, commitment, shown-card shares, hand-overs",
            ),
        ),
    ),
    ExchangeRounds(
        "Simultaneous decisions",
        (
            ("every deciding seat", "commit", "Commit simul:s<k> to its Move"),
            ("every deciding seat", "reveal", "Reveal simul:s<k>: the Move"),
        ),
    ),
    ExchangeRounds(
        "Chance or Roll",
        (
            ("every seat", "commit", "Commit chance:c<n> (sent with the reveal of c<n-1>)"),
            ("every seat", "reveal", "Reveal chance:c<n>"),
        ),
    ),
    ExchangeRounds(
        "Shuffle",
        (("seat 0, then 1, ... in turn", "shuffle", "ShuffleStep <pile>.<k> s<k>/<seat>"),),
    ),
    ExchangeRounds(
        "Deal", (("every seat but the recipient", "shares", "DecryptShares <deck> s<k>"),)
    ),
    ExchangeRounds(
        "Flip", (("every seat", "shares", "DecryptShares <deck> s<k> for the pile's next cards"),)
    ),
    ExchangeRounds(
        "Rehandle",
        (("the holder", "rehandle", "ShuffleStep hand<seat>.<k> s<k>/rehandle (own key)"),),
    ),
    ExchangeRounds(
        "Peek",
        (("the holder", "copy", "HandOver <deck> s<k>/peek to the peeking seat (not moved)"),),
    ),
    ExchangeRounds(
        "Reveal held cards",
        (("each holder", "shares", "DecryptShares <deck> s<k> for the named held cards"),),
    ),
    ExchangeRounds(
        "Reveal committed cards", (("each placer", "open", "Opening (nonce, slots, own shares)"),)
    ),
    ExchangeRounds(
        "Reveal mixed groups",
        (
            ("each placer", "pool", "Opening + HandOver to the joint key"),
            (
                "each pool's placers in seat order",
                "remix",
                "ShuffleStep pool<group> s<k>/mix<seat> (a pool of one card: none)",
            ),
            ("every seat", "open", "DecryptShares pool<group> s<k>/open"),
        ),
    ),
    ExchangeRounds(
        "Game over",
        (("every seat", "audit", "AuditOpening (deck key secret)"),),
        ends_session=True,
    ),
)
"""Each engine request, and the rounds of parts that complete it (docs/protocol.md §11)."""


def state_diagram() -> str:
    """The session state machine as a Mermaid diagram, generated from :data:`EXCHANGES`."""
    lines = ["stateDiagram-v2", "    [*] --> keys: every seat publishes KeyShare"]
    lines.append("    keys --> request: next engine request (step k)")
    for request, rounds, ends_session in EXCHANGES:
        node = request.replace(" ", "_").lower()
        lines.append(f"    request --> {node}_{rounds[0][1]}: {request}")
        for (who, name, part), nxt in zip(rounds, (*rounds[1:], None), strict=True):
            here = f"{node}_{name}"
            lines.append(f"    {here}: {name} -- {who} sends {part}")
            target = f"{node}_{nxt[1]}" if nxt else ("done" if ends_session else "request")
            lines.append(f"    {here} --> {target}: all parts in and checked")
    lines.append("    request --> verdict: a check fails / a waited-for seat times out")
    lines.append("    done --> [*]")
    lines.append("    verdict --> [*]")
    return "\n".join(lines)


class Exchanges:
    """Every exchange of one session, and the dispatch from request class to exchange."""

    def __init__(self, port: Port) -> None:
        self.port = port
        self.cards = CardLedger(port)
        self.decisions = DecisionExchange(port, self.cards)
        self.chance = ChanceExchange(port)
        self.piles = PileExchange(port, self.cards)
        self.held = HeldCardExchange(port, self.cards)
        self.reveals = RevealExchange(port, self.cards, self.held)
        self.audit = AuditExchange(port, self.cards)
        self.dispatch: dict[type, Callable[[tuple[Request, ...]], bool]] = {}
        for exchange in (self.decisions, self.chance, self.piles, self.held, self.reveals):
            for request, method in exchange.REQUESTS.items():
                self.dispatch[request] = getattr(exchange, method)

    def advance(self) -> bool:
        """Complete the pending request if everything it needs is here."""
        port = self.port
        port.waiting_for_reveal = False
        self.audit.note_early_openings()
        self.piles.complaints()
        if port.over or port.early_audit:
            return self.audit.advance()
        pending = port.pending()
        take = self.dispatch.get(type(pending[0]))
        if take is None:
            raise LocalProtocolError(f"no exchange for {type(pending[0]).__name__}")
        return take(pending)

    def decide(self, answer: Any) -> None:
        """Our seat's answer to its pending decision (see :class:`DecisionExchange`)."""
        self.decisions.decide(answer)

    def names_held(self, req: Reveal) -> bool:
        """Whether a reveal is of held cards, shown by their holders."""
        return self.held.names_held(req)

    @property
    def applied(self) -> set[tuple[int, int]]:
        """(seat, step) of every decision the engine has taken."""
        return self.decisions.applied

    @property
    def waiting_for_reveal(self) -> bool:
        return self.port.waiting_for_reveal
