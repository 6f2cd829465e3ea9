"""High Card's screen model: the game-neutral :class:`client.screen_model.ScreenModel` with
this game's view, log words, menu and status line.

The view is the :class:`highcard.rules.HighCardView` record: the seat's ``hand``, each
seat's card ``counts`` and the ``revealed`` bids; the log's events are the records of
:mod:`highcard.events`.  The one decision, ``bid``, is a numbered
menu of every card of the hand at each stake; ``N`` or ``#N`` (or Up/Down and Enter) sends
one.
"""

from __future__ import annotations

from typing import Any

from fairtable.client.help_parts import F1_FOR_HELP, Help
from fairtable.client.screen_model import ScreenModel
from fairtable.engine.events import Event
from fairtable.engine.requests import Decision, DecisionKind
from fairtable.netplay import events as ev
from highcard import events as E
from highcard.rules import NAME, HighBid, HighCardDecisionKind, HighCardView, value

__all__ = ["HELP", "HighCardModel", "describe_event"]

HELP: dict[DecisionKind, str] = {
    HighCardDecisionKind.BID: "Bid one card of your hand face down, staking 1 or 2 points "
    "on it: the bids are shown together once every seat has bid, and the highest card wins.",
}
"""The help text of each decision kind (F1)."""


def _who(seat: int, me: int | None) -> str:
    return "you" if seat == me else f"seat {seat}"


def describe_event(event: Event, me: int | None) -> str:
    """One of the game's public events in words for the log ('' for none worth saying)."""
    match event:
        case E.Dealt(seat=seat, count=count):
            return f"{_who(seat, me).capitalize()} drew {count} cards"
        case E.Placed(seat=seat, stake=stake):
            return f"{_who(seat, me).capitalize()} bid a card face down, staking {stake}"
        case E.Revealed(shown=shown):
            return "Bids shown: " + ", ".join(f"{_who(s, me)} {c}" for s, c in shown)
        case _:
            return ""


class HighCardModel(ScreenModel):
    """What the screen shows of a High Card table, and what a typed line does."""

    game = NAME
    view: HighCardView | None

    def apply_event(self, event: ev.NodeEvent) -> None:
        if isinstance(event, ev.ViewChanged):
            self.view = event.view
            for e in event.events:
                line = describe_event(e, self.seat)
                if line:
                    self.log.append(line)
        elif isinstance(event, ev.DecisionAsked):
            self.view, self.decision = event.view, event.decision
            self.message = self.your_move(event.decision.kind)
        elif isinstance(event, ev.GameOver):
            outcome = event.outcome
            self.end(
                "Game over: nobody wins"
                if not outcome.decided
                else f"Game over: {_who(outcome.seats[0], self.seat)} won"
                + (" - you win!" if self.seat is not None and outcome.won(self.seat) else "")
            )
        elif not isinstance(event, ev.CardsShown):  # the hand is in the view
            super().apply_event(event)
            return
        self._update_status()

    def _update_status(self) -> None:
        if self.over or self.view is None:
            super()._update_status()
            return
        turn = "your move: bid" if self.decision is not None else "waiting for the others"
        self.status = f"High Card - {turn}"

    def hand(self) -> list[str]:
        return list(self.view.hand) if self.view is not None else []

    def menu(self) -> list[tuple[str, Any]]:
        d = self.decision
        if d is None or self.view is None:
            return []
        cards = sorted(self.view.hand, key=value, reverse=True)
        return [
            (f"bid {card} staking {stake}", HighBid(d.seat, stake, card))
            for card in cards
            for stake in (2, 1)
        ]

    def decide(self, d: Decision, text: str) -> None:
        menu = self.menu()
        number = text[1:] if text.startswith("#") else text
        if not number.isdecimal() or not 1 <= int(number) <= len(menu):
            self.message = (f"Type a number from 1 to {len(menu)}", F1_FOR_HELP, ".")
            return
        self._send(menu[int(number) - 1][1])

    def help_parts(self) -> Help:
        found = HELP.get(self.decision.kind) if self.decision is not None else None
        return (found or "High Card: the highest bid card wins.", *self.common_help())
