"""Errors on either side of the screen reach the caller (and so ``cli.main``'s one line and
crash log): a bug in a key press's handling, or the network side's own error, closes the
screen and is raised by ``_screen`` -- never printed by prompt_toolkit with "Press ENTER"."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import trio
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from fairtable.client.app import _screen
from fairtable.client.reign.model import ClientModel


class _BrokenModel(ClientModel):
    def command(self, text: str) -> None:
        raise RuntimeError(f"a bug handling {text!r}")


async def _idle_network(
    to_screen: trio.MemorySendChannel[dict[str, Any]], answers: trio.MemoryReceiveChannel[Any]
) -> None:
    await trio.sleep_forever()


async def _broken_network(
    to_screen: trio.MemorySendChannel[dict[str, Any]], answers: trio.MemoryReceiveChannel[Any]
) -> None:
    raise ValueError("the network side broke")


def _run(model: ClientModel, network: Any, keys: str) -> None:
    async def main() -> None:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            pipe.send_text(keys)
            await asyncio.wait_for(_screen(model, network), timeout=10)

    asyncio.run(main())


def test_a_bug_behind_a_key_closes_the_screen_and_is_raised() -> None:
    with pytest.raises(RuntimeError, match="a bug handling 'hello'"):
        _run(_BrokenModel(lambda answer: None), _idle_network, "hello\r")


def test_the_network_sides_error_closes_the_screen_and_is_raised() -> None:
    with pytest.raises(BaseExceptionGroup) as caught:
        _run(ClientModel(lambda answer: None), _broken_network, "")
    assert caught.group_contains(ValueError, match="the network side broke")
