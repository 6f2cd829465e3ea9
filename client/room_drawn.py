"""The screen's rows worked out once a draw: :func:`client.room.plan` (how the upper panes,
the log and the decision pane share the rows) asked once each time the layout is drawn, and
handed to every pane that draws then.

A plan reads every pane's text (the menu's, the hand's, the log since our move), so asking it
anew for each pane's height and cut took most of a draw.  :class:`PlannedContainer`, the
layout's top container, works the plan out as a draw begins and keeps it in the screen's
:class:`DrawnRows` while the panes under it draw; outside a draw (a key pressed, the ``?``
overlay drawn after the panes) the rows are worked out anew, from the model as it is then.
"""

from __future__ import annotations

import attrs
from prompt_toolkit.layout import AnyContainer, Float, FloatContainer
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition

from fairtable.client.room import Plan, plan
from fairtable.client.screen_model import ScreenModel

__all__ = ["DrawnRows", "PlannedContainer"]


@attrs.define
class DrawnRows:
    """The rows of the model's screen: the plan of the draw under way, else a new one."""

    model: ScreenModel
    drawn: Plan | None = None  # set while the layout draws (PlannedContainer)

    def plan(self) -> Plan:
        return self.drawn if self.drawn is not None else plan(self.model)

    def upper(self) -> int:
        """Rows of the two upper panes."""
        return self.plan().upper

    def log(self) -> int:
        """Rows of the log pane (at least one)."""
        return max(1, self.plan().log)

    def menu(self) -> int:
        """Rows of the decision pane (at least one, when it shows)."""
        return max(1, self.plan().menu)

    def given_way(self) -> bool:
        """The upper panes gave all their rows to what happened since our move."""
        return self.plan().given_way

    def wide(self) -> bool:
        """The hand the decision names is drawn compact across the screen, in place of
        both upper panes."""
        return self.plan().wide

    def for_log(self) -> bool:
        """The upper panes show less than they hold: the log took rows (Esc gives them
        back)."""
        return self.plan().for_log


class PlannedContainer(FloatContainer):
    """The layout's top container: each draw works the plan out once, before the panes
    under it ask their rows of ``rows``."""

    def __init__(self, rows: DrawnRows, content: AnyContainer, floats: list[Float]) -> None:
        super().__init__(content=content, floats=floats)
        self.rows = rows

    def write_to_screen(
        self,
        screen: Screen,
        mouse_handlers: MouseHandlers,
        write_position: WritePosition,
        parent_style: str,
        erase_bg: bool,
        z_index: int | None,
    ) -> None:
        self.rows.drawn = plan(self.rows.model)
        try:
            super().write_to_screen(
                screen, mouse_handlers, write_position, parent_style, erase_bg, z_index
            )
        finally:
            self.rows.drawn = None
