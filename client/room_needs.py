"""What a game's screen model tells the layout (:func:`client.room.plan`) that it needs beyond
its text: the rows its upper panes never give the log, and the hand cards the decision at
hand names.  Every screen model is one (:class:`client.screen_model.ScreenModel`); a game
overrides what it needs."""

from __future__ import annotations

__all__ = ["RoomNeeds"]


class RoomNeeds:
    """The layout's questions to a screen model, with the answers of a game that needs
    nothing of them."""

    def upper_least(self) -> int:
        """Rows the upper panes never give the log now (a game whose table must show, e.g.
        a map whose spaces the options name).  None by default."""
        return 0

    def hand_named(self) -> int:
        """How many of the hand's cards, from the first, the decision at hand may name (an
        option naming card N, a bare number picking it): the side pane (its title row, then
        the hand) keeps them on screen (client.room.hand_need).  None by default."""
        return 0
