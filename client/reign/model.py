"""Reign's screen model: what the screen shows of a Reign game and what the player may type.

The model holds only what this seat may know -- its :class:`ReignView` (public
state plus its own hand), the decision it is asked, a log in words, the status
line -- and turns typed input into engine answers.  Every decision is offered
as a numbered menu whose first item is always a complete legal answer; cards
for bids, covert backing, discards and spoils are picked one by one and
confirmed with ``done``.  Input the rules refuse gets a one-line reason and
changes nothing.  What is not Reign's (the lobby, the log, resigning, card text)
is :class:`~client.screen_model.ScreenModel`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

import attrs

from fairtable.client import ending
from fairtable.client.clock_words import my_move_words, waiting_words
from fairtable.client.help_parts import F1_FOR_HELP, Help, Key, joined
from fairtable.client.reign import info as reign_info
from fairtable.client.reign.combat import breakdown_lines
from fairtable.client.reign.panes import hand_columns
from fairtable.client.reign.words import (
    HELP,
    TO_SEAT_WORD,
    SupportWhy,
    card_label,
    describe_public_event,
    house_word,
    pick_problem,
)
from fairtable.client.screen_model import SENDING, Lines, ScreenModel
from fairtable.engine.events import Event
from fairtable.engine.reign import (
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
from fairtable.engine.reign import events as E
from fairtable.engine.reign.answers import ReignAnswer
from fairtable.engine.reign.cards import Op
from fairtable.engine.reign.choices import army_cards, bid_groups, influence_events, legal_answers
from fairtable.engine.reign.decisions import (
    CombatTieInfo,
    CovertInfo,
    DiscardInfo,
    ReignDecisionKind,
    SpoilsInfo,
)
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from fairtable.protocol import SeenWhy

__all__ = ["ClientModel"]

DEFS = standard_catalog().defs


@attrs.define
class _Pick:
    """A multi-card answer being built: (card, target) pairs."""

    cards: list[tuple[str, int | None]] = attrs.Factory(list)


PICKING = (
    ReignDecisionKind.BID,
    ReignDecisionKind.COVERT,
    ReignDecisionKind.DISCARD,
    ReignDecisionKind.SPOILS,
)
"""Decisions built card by card: a bare number there picks a hand card, not an option."""
TO_SEAT = (ReignDecisionKind.COVERT, ReignDecisionKind.SPOILS)
"""Picking decisions whose cards each go to a seat (``N>S``)."""

PICKING_HINT: Help = (
    Key(" N", " card N"),  # plain mode's bare number picks an option, as in every game
    " picks hand card N, done sends;",
    Key(" #N or Enter:", " N or #N:"),  # no highlight in plain lines (Enter: the decision again)
    " an option",
)
"""The decision line's words in the decisions built card by card (:data:`PICKING`)."""

BY_NUMBER = Key("by their number", "with 'card N'")
"""How a hand card is picked, on the screen and in plain lines."""


class Word(Enum):
    """The words a decision takes besides numbers: typed input is parsed to one once."""

    PASS = "pass"
    CLEAR = "clear"
    DONE = "done"

    @classmethod
    def parse(cls, text: str) -> Word | None:
        """The word ``text`` is, or None (a number, ``#N``, ``N>S`` or a typo)."""
        return next((w for w in cls if w.value == text), None)


def passes(answer: ReignAnswer) -> bool:
    """Whether ``answer`` places, bids or plays nothing (what 'pass' sends)."""
    match answer:
        case Overt(target=None) | Bid(count=0) | Covert(targets=()):
            return True
    return False


def _own_first(answer: ReignAnswer, seat: int) -> tuple[bool, bool]:
    """Overt backing's menu order: the pass, your own army, then the others."""
    target = answer.target if isinstance(answer, Overt) else -1
    return (target is not None, target != seat)


class ClientModel(ScreenModel):
    """Everything the console screen shows of a Reign game, for one seat."""

    game = "reign"
    departed_seat = "nobody plays its seat: it is asked nothing more and cannot win"
    info_source: Any = reign_info
    view: ReignView | None

    def __init__(self, submit: Callable[[Any], None] = lambda answer: None) -> None:
        super().__init__(submit)
        self._revealed: tuple[Any, dict[int, list[str]]] = (None, {})  # this step's reveals
        self._ordered: dict[int, list[str]] = {}  # this battle's army orders (army_ordered)
        self._ties: list[tuple[str, str, str]] = []  # and its settled ties (combat_tie)
        self.pick = _Pick()
        self._empty_done: Decision | None = None  # 'done' with nothing picked asked once

    # -- from the network side -----------------------------------------------------------
    def apply_event(self, event: ev.NodeEvent) -> None:
        match event:
            case ev.ViewChanged():
                self.view = event.view
                for e in event.events:
                    line = self.describe(e)
                    if line:
                        self.log.extend(line.split("\n"))
            case ev.DecisionAsked():
                self.view = event.view
                self.decision = event.decision
                self.pick = _Pick()
                self.highlight = 0
                self.message = self.your_move(event.decision.kind)
            case ev.CardsShown():
                why = "drawn" if event.why is SeenWhy.DEALT else "handed to you"
                self.log.append(
                    f"You see the cards {why}: " + ", ".join(card_label(c) for c in event.cards)
                )
            case ev.GameOver():
                outcome = event.outcome
                if not outcome.decided:
                    self.end("Game over: nobody rules Kazath (round limit)")
                else:
                    self.end(
                        "Game over: "
                        + (
                            "you win!"
                            if self.seat is not None and outcome.won(self.seat)
                            else f"{outcome.words()} wins"
                        )
                    )
            case _:
                super().apply_event(event)
                return
        self._update_status()

    def describe(self, event: Event) -> str | None:
        """A public event in words; a battle's totals with each army's breakdown under them
        (counted from the armies, support and Regent as they stood: ``prior_view`` plus the
        cards this step revealed, with the orders and tie picks the battle was resolved
        with)."""
        prior = self.prior_view
        if self._revealed[0] is not prior:
            self._revealed = (prior, {})
        line = describe_public_event(event, self.seat, self._support_why(event))
        match event:
            case E.ArmyRevealed():
                self._revealed[1].setdefault(event.seat, []).extend(event.cards)
            case E.ArmyOrdered():
                self._ordered[event.seat] = list(event.order)
            case E.CombatTie():
                self._ties.append((event.card, event.op, event.pick))
            case E.Round():  # a battle's choices never outlive its round
                self._ordered, self._ties = {}, []
            case E.CombatTotals():
                if line and prior is not None:
                    line = "\n".join([line, *self._breakdown(event, prior)])
                self._ordered, self._ties = {}, []
        return line

    def _support_why(self, event: Event) -> SupportWhy | None:
        """Why a support card changed hands, from the views before and after the step and
        the armies' cards this battle showed (issue 31, N14); None for other events."""
        if not isinstance(event, (E.SupportGained, E.SupportLost, E.SupportReturned)):
            return None
        before = self.prior_view.table if self.prior_view is not None else None
        after = self.view.table if self.view is not None else None
        if isinstance(event, E.SupportGained):
            return SupportWhy(was=before.support.get(event.house) if before else None)
        if after is not None and event.seat in after.departed:
            return SupportWhy(left=True)
        if isinstance(event, E.SupportReturned):
            kept = [h for h, s in after.support.items() if s == event.seat] if after else []
            return SupportWhy(kept=kept[0] if kept else None)
        army = [
            *(before.armies.get(event.seat, ()) if before else ()),
            *self._revealed[1].get(event.seat, []),
        ]
        takes = [c for c in army if any(e.op is Op.LOSE_SUPPORT for e in DEFS[c].effects)]
        return SupportWhy(card=takes[0] if takes else None)

    def _breakdown(self, event: E.CombatTotals, prior: ReignView) -> list[str]:
        """Each army's total in combat, card by card, as it stood when combat began."""
        table = prior.table
        armies = {s: list(c) + self._revealed[1].get(s, []) for s, c in table.armies.items()}
        for s, cards in self._revealed[1].items():
            armies.setdefault(s, list(cards))
        return breakdown_lines(
            event.totals,
            armies,
            table.support,
            table.houses,
            table.regent,
            self.seat,
            self._ordered,
            self._ties,
        )

    def _update_status(self) -> None:
        if self.over:
            self.status = ending.status(self.over)
            return
        if self.view is None:
            return
        table = self.view.table
        counted = {r.seat for r in self.clock}  # a running clock says it already
        waited_for = {s: t for s, t in self.waiting.items() if s not in counted}
        if self.answer_on_its_way():  # the status line says so, not 'your move'
            turn = SENDING
        elif self.decision is not None:
            kind = self.decision.kind.replace("_", " ")
            turn = f"your move: {kind}" + my_move_words(self.clock, self.seat)
        else:  # a seat the table waits on says how long once, beside its name
            waited = (
                ", ".join(
                    f"seat {s} ({waited_for.pop(s)} s)" if s in waited_for else f"seat {s}"
                    for s in self.blocking
                )
                or "the others"
            )
            turn = waiting_words(self.clock, self.seat, waited)
        waiting = "".join(f"; waiting for seat {s} ({t} s)" for s, t in sorted(waited_for.items()))
        self.status = f"Round {table.round} - {table.phase} - {turn}{waiting}"

    # -- what the screen lists -------------------------------------------------------------
    def turn(self) -> tuple[int, str] | None:
        """A round's phase (the seats act in it together)."""
        return None if self.view is None else (self.view.table.round, self.view.table.phase)

    def hand(self) -> list[str]:
        return list(self.view.hand) if self.view is not None else []

    def clear_pick(self) -> None:
        self.pick = _Pick()

    def menu(self) -> list[tuple[str, ReignAnswer]]:
        """The numbered options: (label, answer)."""
        d, view = self.decision, self.view
        if d is None or view is None:
            return []
        kind = d.kind
        if kind == ReignDecisionKind.BID:
            options: list[tuple[str, ReignAnswer]] = [("pass: bid nothing", Bid(d.seat, 0, ()))]
            for house, cards in bid_groups(view, d).items():
                best = sorted(cards, key=lambda c: -DEFS[c].force)
                options.append(
                    (
                        f"bid all {house_word(house)}: " + ", ".join(card_label(c) for c in best),
                        Bid(d.seat, len(best), tuple(best)),
                    )
                )
            return options
        if kind == ReignDecisionKind.COVERT:
            return (
                [("place nothing face down", Covert(d.seat, (), ()))]
                if self._covert_may_pass()
                else [
                    (f"{card_label(c)} into your own army", Covert(d.seat, (d.seat,), (c,)))
                    for c in army_cards(view)[:1]
                ]
            )
        if kind == ReignDecisionKind.DISCARD:
            count = DiscardInfo.of(d).count
            worst = sorted(view.hand, key=lambda c: (DEFS[c].force, c))[:count]
            return [
                (
                    "discard the weakest: " + ", ".join(card_label(c) for c in worst),
                    Discard(d.seat, tuple(worst)),
                )
            ]
        if kind == ReignDecisionKind.SPOILS:
            must = list(SpoilsInfo.of(d).must_give)
            hand = sorted(view.hand, key=lambda c: (DEFS[c].force, c))
            gifts = tuple(sorted(zip(must, hand, strict=False)))
            counts = tuple((s, 1) for s, _ in gifts)
            label = "give each backer one card" if gifts else "keep every card"
            return [(label, Spoils(d.seat, counts, gifts))]
        if kind == ReignDecisionKind.DRAW:
            return [
                ("draw 3 military cards", DrawChoice(d.seat, 0)),
                ("draw 2 military cards and 1 event", DrawChoice(d.seat, 1)),
            ]
        options = [(self._label(a), a) for a in legal_answers(view, d)]
        if kind == ReignDecisionKind.OVERT:  # your own army first, then the others
            options.sort(key=lambda o: _own_first(o[1], d.seat))
        return options

    def _covert_may_pass(self) -> bool:
        d, view = self.decision, self.view
        assert d is not None and view is not None
        if d.seat != view.table.regent:
            return True
        return view.table.backing.get(d.seat, d.seat) == d.seat

    def _label(self, answer: ReignAnswer) -> str:
        match answer:
            case Overt(target=None):
                return "pass"
            case Overt(target=target, card=str() as card):
                where = "your own army" if target == self.seat else f"seat {target}'s army"
                return f"{card_label(card)} face up into {where}"
            case KeepSupport():
                return f"keep {house_word(answer.house)}"
            case TieBreak():
                return "you win" if answer.winner == self.seat else f"seat {answer.winner} wins"
            case OrderEvents() | OrderArmy():
                return ", then ".join(DEFS[c].name for c in answer.order)
            case CombatTie():
                asked = self.decision.info if self.decision is not None else None
                if isinstance(asked, CombatTieInfo) and asked.op == Op.STRIKE:
                    mine = answer.pick == str(self.seat)
                    where = "your army" if mine else f"seat {answer.pick}'s army"
                    return f"the strike hits {where}"
                return f"{card_label(answer.pick)} deserts"
            case RegentDiscard():
                return f"discard {card_label(answer.card)}"
        return repr(answer)

    def help_parts(self) -> Help:
        if self.decision is None:
            return ("Nothing to decide now. ", *self.keys_help(), *self.common_help())
        d = self.decision
        counts: dict[str, int] = {}
        match d.info:
            case CovertInfo(max_cards=limit):
                counts = {"max": limit}
            case DiscardInfo(count=count):
                counts = {"count": count}
        text = tuple(
            part.format(**counts) if counts and isinstance(part, str) else part
            for part in joined(HELP.get(d.kind, ""))
        )
        if d.kind not in PICKING:  # a bare number picks an option here, as in every game
            return (
                *text,
                " Type a menu number (N or #N)",
                Key(", or Up/Down and Enter"),
                ".",
                *self.common_help(),
            )
        seat = (TO_SEAT_WORD, " (card N to seat S),") if d.kind in TO_SEAT else ()
        passing = ", 'pass'" if d.kind in (ReignDecisionKind.BID, ReignDecisionKind.COVERT) else ""
        return (
            *text,
            Key(
                " Type '#N' for menu option N (or Up/Down and Enter); for cards: 'N'",
                " Type 'N' or '#N' for menu option N; for cards: 'card N'",
            ),
            " (toggle card N of your hand),",
            *seat,
            f" 'clear', 'done'{passing}.",
            *self.common_help(),
        )

    def game_keys(self) -> list[tuple[str, Help]]:
        d = self.decision
        if d is None or d.kind not in (
            ReignDecisionKind.BID,
            ReignDecisionKind.COVERT,
            ReignDecisionKind.DISCARD,
            ReignDecisionKind.SPOILS,
        ):
            menu = self.menu() if d is not None else []
            return [("pass", "option #1, a pass")] if menu and passes(menu[0][1]) else []
        keys: list[tuple[str, Help]] = [("N", "pick card N of your hand (again: take it back)")]
        if d.kind in TO_SEAT:
            keys.append(("N>S", "card N goes to seat S"))
        keys += [("done", "send the cards picked"), ("clear", "forget the cards picked")]
        if d.kind in (ReignDecisionKind.BID, ReignDecisionKind.COVERT):
            keys.append(
                ("pass", "place nothing" if d.kind == ReignDecisionKind.COVERT else "bid nothing")
            )
        return keys

    def picked(self) -> list[tuple[str, int | None]]:
        return list(self.pick.cards)

    def hand_named(self) -> int:
        """The whole hand at a decision that picks its cards by number (and names them)."""
        d = self.decision
        return len(self.hand()) if d is not None and d.kind in PICKING else 0

    def compact_hand(self, width: int, rows: int, remedy: str) -> Lines | None:
        """The hand in two columns (reign.panes.hand_columns) at a decision naming it."""
        return hand_columns(self, width, rows, remedy) if self.hand_named() else None

    def decide_hint(self) -> Help:
        """Bare numbers pick hand cards in the decisions built card by card: said there."""
        if self.decision is not None and self.decision.kind in PICKING:
            return PICKING_HINT
        return super().decide_hint()

    def decide(self, d: Decision, text: str) -> None:
        menu = self.menu()
        if text.startswith("#") and text[1:].isdecimal():  # menu item
            index = int(text[1:]) - 1
            if not 0 <= index < len(menu):
                self.message = f"There is no option {text}."
                return
            self._send(menu[index][1])
            return
        if d.kind not in PICKING:
            if text.isdecimal() and 1 <= int(text) <= len(menu):
                self._send(menu[int(text) - 1][1])
            elif Word.parse(text) is Word.PASS and menu and passes(menu[0][1]):
                self._send(menu[0][1])
            else:
                self.message = (f"Type a number from 1 to {len(menu)}", F1_FOR_HELP, ".")
            return
        self._build(d, text)

    def _build(self, d: Decision, text: str) -> None:
        hand = self.hand()
        match Word.parse(text):
            case Word.PASS:
                if d.kind == ReignDecisionKind.BID:
                    self._send(Bid(d.seat, 0, ()))
                elif d.kind == ReignDecisionKind.COVERT:
                    self._send(Covert(d.seat, (), ()))
                else:
                    self.message = "You cannot pass this decision."
                return
            case Word.CLEAR:
                self.pick = _Pick()
                self.message = "Selection cleared."
                return
            case Word.DONE:
                if not self.pick.cards and self._empty_done is not d:  # a pass by accident?
                    self._empty_done = d
                    what = (
                        "passes"
                        if d.kind in (ReignDecisionKind.BID, ReignDecisionKind.COVERT)
                        else "sends nothing"
                    )
                    self.message = (
                        f"Nothing is picked: 'done' again {what}; or pick cards ",
                        BY_NUMBER,
                        " first.",
                    )
                    return
                self._send(self._built(d))
                return
        card_text, arrow, target_text = text.partition(">")
        if arrow and d.kind not in (ReignDecisionKind.COVERT, ReignDecisionKind.SPOILS):
            self.message = (
                "Cards here go nowhere in particular: just type ",
                Key("the card's number", "'card N'"),
                ".",
            )
            return
        if not card_text.isdecimal() or not 1 <= int(card_text) <= len(hand):
            self.message = (f"Pick a card by its number, 1 to {len(hand)}", F1_FOR_HELP, ".")
            return
        card = hand[int(card_text) - 1]
        target: int | None = None
        if d.kind in (ReignDecisionKind.COVERT, ReignDecisionKind.SPOILS):
            if not target_text.isdecimal():
                self.message = (
                    "Say where it goes: ",
                    Key("N>S, e.g. 3>1", "card N>S, e.g. card 3>1"),
                    " puts card 3 with seat 1.",
                )
                return
            target = int(target_text)
        existing = [p for p in self.pick.cards if p[0] == card]
        problem = (
            ""
            if existing
            else pick_problem(d, card, target, [x for x, _ in self.pick.cards], self.players)
        )
        if problem:  # refused the moment it breaks a rule, with the rule's words
            self.message = f"Not allowed: {problem}"
            return
        if existing:
            self.pick.cards.remove(existing[0])
            self.message = f"Took back {card_label(card)}."
        else:
            self.pick.cards.append((card, target))
            self.message = (
                f"Picked {card_label(card)}"
                + (f" for seat {target}" if target is not None else "")
                + "; 'done' to confirm."
            )

    def _built(self, d: Decision) -> ReignAnswer:
        cards = tuple(c for c, _ in self.pick.cards)
        if d.kind == ReignDecisionKind.BID:
            military = [c for c in cards if DEFS[c].military]
            events = [c for c in cards if c in influence_events(self.view)]  # type: ignore[arg-type]
            ordered = tuple(military + events)
            return Bid(d.seat, len(ordered), ordered)
        if d.kind == ReignDecisionKind.COVERT:
            return Covert(d.seat, tuple(t for _, t in self.pick.cards), cards)  # type: ignore[misc]
        if d.kind == ReignDecisionKind.DISCARD:
            return Discard(d.seat, tuple(sorted(cards)))
        gifts = tuple(sorted((t, c) for c, t in self.pick.cards if t is not None))
        seats = sorted({s for s, _ in gifts})
        return Spoils(d.seat, tuple((s, sum(1 for g, _ in gifts if g == s)) for s in seats), gifts)

    def completions(self) -> list[str]:
        words = ["?", "help", "done", "pass", "clear", "quit", "resign", "info"]
        return (
            words
            + [f"#{i + 1}" for i in range(len(self.menu()))]
            + [str(i + 1) for i in range(max(len(self.hand()), len(self.menu())))]
        )
