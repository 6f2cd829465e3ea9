"""Driving the real console screen without a terminal, for any game's model: keys through
prompt_toolkit's pipe input, and the layout drawn to text at a chosen size."""

from __future__ import annotations

import asyncio
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from fairtable.client.app import build_application


def run_keys(model: Any, keys: str, size: tuple[int, int] | None = None) -> None:
    """Type ``keys`` into the screen of ``model`` until the screen quits (bounded); ``size``:
    the terminal's (columns, rows), else prompt_toolkit's stand-in's."""
    output = DummyOutput() if size is None else SizedOutput(*size)

    async def main() -> None:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=output):
            app = build_application(model)
            pipe.send_text(keys)
            await asyncio.wait_for(app.run_async(), timeout=10)

    asyncio.run(main())


class SizedOutput(DummyOutput):
    """No output, but a terminal of a given size (the layout asks it)."""

    def __init__(self, width: int, height: int) -> None:
        self.size = Size(rows=height, columns=width)

    def get_size(self) -> Size:
        return self.size


def render(model: Any, width: int = 80, height: int = 24) -> list[str]:
    """The screen as text, drawn by the real layout at ``width`` x ``height``."""

    async def main() -> list[str]:
        output = SizedOutput(width, height)
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=output):
            app = build_application(model)
            with set_app(app):
                screen = Screen()
                app.layout.container.write_to_screen(
                    screen, MouseHandlers(), WritePosition(0, 0, width, height), "", False, None
                )
                screen.draw_all_floats()  # the '?' overlay, when open
                return [
                    "".join(screen.data_buffer[y][x].char for x in range(width)).rstrip()
                    for y in range(height)
                ]

    return asyncio.run(main())
