"""Small finished tables for the replay tests: in-memory protocol peers played by bots,
their logs written as ``simulate --log`` writes them (3 seats; Sodalis 2)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from fairtable.client.games import bots_for
from fairtable.engine.rng import ChanceStream
from fairtable.protocol import write_log
from fairtable.protocol.testing import cheating_session, make_table, run_table

SEATS = {"reign": 3, "sovereign": 3, "sodalis": 2}
ROUNDS = {"reign": 60, "sovereign": 3, "sodalis": 4}  # short games: the tests step through all


@functools.cache
def played(
    game: str, seed: int = 1, cheat: str | None = None, cheater: int | None = None
) -> tuple[Any, list[Any]]:
    """(spec, sessions) of one whole game (cached: each test module plays it once)."""
    kwargs: dict[str, Any] = {}
    if cheat is not None:
        kwargs = {"session_class": cheating_session(cheat), "cheaters": [cheater]}
    spec, sessions = make_table(SEATS[game], seed, game=game, round_limit=ROUNDS[game], **kwargs)
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{s}")) for s in range(SEATS[game])]
    run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return spec, sessions


def log_file(
    folder: Path,
    game: str,
    seed: int = 1,
    *,
    seat: int = 0,
    cheat: str | None = None,
    cheater: int | None = None,
) -> Path:
    spec, sessions = played(game, seed, cheat, cheater)
    path = folder / f"{game}-{seed}-{cheat or 'honest'}-seat{seat}.log"
    path.write_bytes(write_log(spec, sessions[seat].entries()))
    return path


def seen_by(game: str, seat: int, seed: int = 1) -> list[str]:
    """Every card seat ``seat``'s own peer saw dealt or handed to it, from its own log and
    secret seed (a restarted peer replays its log and sees them again)."""
    from fairtable.protocol import CardsSeen, TableSession
    from fairtable.protocol.testing import peer_secrets

    spec, sessions = played(game, seed)
    identity, secret = peer_secrets(seed, seat)
    again = TableSession(spec, seat, identity, secret_seed=secret, saved=sessions[seat].entries())
    cards: list[str] = []
    while (event := again.next_event()) is not None:
        if isinstance(event, CardsSeen):
            cards += event.cards
    return cards
