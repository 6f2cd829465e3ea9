"""What a game's screen model tells the layout (:func:`client.room.plan`) that it needs beyond
its text: the rows its upper panes never give the log, the hand cards the decision at hand
names, a compact hand drawn across the screen when rows are short, and the turn the table is
at (a spectator's log keeps what happened since it began).  Every screen model is one
(:class:`client.screen_model.ScreenModel`); a game overrides what it needs."""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["RoomNeeds"]

Lines = list[tuple[str, str]]  # styled text (client.screen_model.Lines)


class RoomNeeds:
    """The layout's questions to a screen model, with the answers of a game that needs
    nothing of them."""

    def upper_least(self) -> int:
        """Rows the upper panes never give the log now (a game whose table must show, e.g.
        a map whose spaces the options name).  None by default."""
        return 0

    def turn(self) -> Hashable:
        """What names the turn the table is at now: a spectator, who has no move of its own,
        keeps on screen what happened since it changed (client.screen_model).  None by
        default: a spectator's log then keeps what happened since it was last read (Esc)."""
        return None

    def hand_named(self) -> int:
        """How many of the hand's cards, from the first, the decision at hand may name (an
        option naming card N, a bare number picking it): the side pane (its title row, then
        the hand) keeps them on screen (client.room.hand_need).  None by default."""
        return 0

    def compact_hand(self, width: int, rows: int, remedy: str) -> Lines | None:
        """The hand cards the decision names drawn compact across ``width`` columns (the
        whole screen's: a title row, then two columns), which :func:`client.room.plan` draws
        in place of both upper panes when the lines since our move and a hand one card a
        row cannot both fit; in ``rows`` rows at most, the last saying which cards it cut
        and what shows them (``remedy``).  None: the game has none (the hand keeps its
        pane)."""
        return None
