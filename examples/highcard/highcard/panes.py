"""High Card's two upper panes: the table (each seat's cards and shown bid) and the hand."""

from __future__ import annotations

from typing import Any

from fairtable.client.games import Pane
from fairtable.client.invite_words import invite_lines
from fairtable.client.screen_model import Lines

__all__ = ["panes"]


def panes(model: Any) -> tuple[Pane, Pane]:
    """The table pane and the hand pane beside it (short rows: none is cut to a width)."""
    return (lambda width: table_lines(model)), (lambda width: hand_lines(model))


def table_lines(model: Any) -> Lines:
    view = model.view
    out: Lines = [("class:title", "High Card\n")]
    if view is None:
        out.append(("", model.status + "\n"))
        return out + (invite_lines(model) if model.invite else [])
    for seat, count in sorted(view.counts.items()):
        style = "class:mine" if seat == model.seat else ""
        who = "you" if seat == model.seat else f"seat {seat}"
        shown = view.revealed.get(seat)
        bid = f", bid {shown}" if shown else ""
        out.append((style, f"{who}: {count} in hand{bid}\n"))
    out.append(("class:dim", "the highest bid card wins\n"))
    return out


def hand_lines(model: Any) -> Lines:
    if model.seat is None:
        return [("class:title", "Hands\n"), ("class:dim", "hidden from spectators\n")]
    out: Lines = [("class:title", "Your hand\n")]
    out += [("class:card", f" {i}. {card}\n") for i, card in enumerate(model.hand(), start=1)]
    return out
