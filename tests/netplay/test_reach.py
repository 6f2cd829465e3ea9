"""Why a dial failed, in a user's words (netplay/links/_reach.py), from real failures."""

from __future__ import annotations

import socket

import pytest
import trio

from fairtable.netplay import Unreachable
from fairtable.netplay.links._reach import unreachable_event, why_unreachable
from fairtable.netplay.links._wire import LinkClosed


def _closed_from(cause: BaseException, reason: str = "unreachable") -> LinkClosed:
    try:
        raise LinkClosed(reason) from cause
    except LinkClosed as exc:
        return exc


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _dial_error(host: str, port: int) -> BaseException:
    with trio.fail_after(10):
        try:
            await trio.open_tcp_stream(host, port)
        except OSError as exc:
            return exc
    raise AssertionError("the dial did not fail")


async def test_a_closed_port_is_connection_refused() -> None:
    error = await _dial_error("127.0.0.1", _free_port())
    assert why_unreachable(_closed_from(error)) == "connection refused"


async def test_an_unknown_name_is_name_not_known() -> None:
    error = await _dial_error("no-such-host.invalid", 80)
    assert why_unreachable(_closed_from(error)) == "name not known"


@pytest.mark.parametrize(
    ("reason", "words"), [("timeout", "timed out"), ("unreachable", "cannot connect")]
)
def test_a_link_reason_alone(reason: str, words: str) -> None:
    assert why_unreachable(LinkClosed(reason)) == words


def test_a_refusal_by_the_peer_names_its_reason() -> None:
    assert why_unreachable(LinkClosed("busy", by_peer=True)) == "the link was refused (busy)"


def test_the_event_says_where_why_and_which_attempt() -> None:
    event = unreachable_event(
        ("192.168.1.20", 4711), _closed_from(ConnectionRefusedError(111, "refused")), 3, 1.234
    )
    assert event == Unreachable("192.168.1.20:4711", "connection refused", 3, 1.2)
    assert unreachable_event(("::1", 80), LinkClosed("timeout"), 1, 0).address == "[::1]:80"
