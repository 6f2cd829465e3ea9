"""What a seat brings to a table from the command line, shared by the network commands
(:mod:`client.netcli`) and the screens (:mod:`client.play`): its deck (``--deck``), the
invite it holds (or the one a join code is handed on the LAN), and a bot peer's node.
Below both, so neither imports the other for these."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import protocol as P
from client.games import bots_for
from engine.errors import CardDataError, EngineError
from engine.games import rules
from engine.rng import ChanceStream
from netplay import (
    DISCOVERY_PORT,
    Invite,
    InviteError,
    NodeConfig,
    StorageError,
    TableNode,
    load_identity_seed,
)
from netplay._codelink import CodeNotFound, invite_by_code
from netplay._joincode import (
    CodeExchangeError,
    CodeRefused,
    JoinCode,
    JoinCodeError,
    looks_like_code,
)

__all__ = ["NetUsageError", "bot_node", "identity_at", "invite_from", "seat_option"]


class NetUsageError(Exception):
    """A network command cannot start; the message says why."""


def identity_at(data_dir: Path) -> P.Identity:
    """The identity kept in ``data_dir`` (made on first use)."""
    try:
        return P.Identity.from_seed(load_identity_seed(data_dir))
    except StorageError as exc:
        raise NetUsageError(str(exc)) from None


def seat_option(game: str, path: str | None) -> Any:
    """What this seat brings from ``--deck PATH`` (checked), or None without one."""
    if path is None:
        return None
    game_rules = rules(game)
    if game_rules.load_seat_option is None:
        raise NetUsageError(f"{game_rules.title} has no custom decks: drop --deck")
    try:
        return game_rules.load_seat_option(path)
    except (CardDataError, EngineError) as exc:
        raise NetUsageError(str(exc)) from None


async def invite_from(text: str, discovery_port: int = DISCOVERY_PORT) -> Invite:
    """The invite ``text`` is (spaces and line breaks in it ignored), or the one a join code
    (``7-amber-...``) is handed on the LAN."""
    text = "".join(text.split())  # a mouse copy of a wrapped invite brings line breaks
    if not looks_like_code(text):
        try:
            return Invite.parse(text)
        except InviteError as exc:
            raise NetUsageError(f"not an invite: {exc}") from None
    try:
        code = JoinCode.parse(text)
    except JoinCodeError as exc:
        raise NetUsageError(f"not a join code: {exc}") from None
    try:
        return await invite_by_code(code, discovery_port=discovery_port)
    except (CodeNotFound, CodeRefused) as exc:
        raise NetUsageError(str(exc)) from None
    except CodeExchangeError as exc:
        raise NetUsageError(f"the code exchange failed: {exc}") from None


def bot_node(data_dir: Path, index: int, invite: Invite, pace: float) -> TableNode:
    """Bot number ``index`` of a table this process seats bots at: its own keys and folder
    (``data_dir/bots/<index>``), the heuristic bot, ``pace`` seconds a decision."""
    folder = data_dir / "bots" / str(index)
    identity = identity_at(folder)
    bot = bots_for(invite.game)["heuristic"](ChanceStream(identity.seed).child("bot"))
    config = NodeConfig(data_dir=folder, pace=pace)
    return TableNode(config, identity, invite=invite,
                     decider=lambda event: bot.decide(event.view, event.decision))
