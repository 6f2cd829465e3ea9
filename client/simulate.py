"""Bot-versus-bot simulation in one process.

``run_game`` plays one whole game with the engine, a local referee and bots;
``run_crypto_game`` plays it among in-memory protocol peers, each with its own
keys and engine, every secret going through the cryptographic protocol.  Both
return the JSON-ready summary that ``fairtable simulate`` prints.  The same
seed gives the same output, byte for byte, on every machine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fairtable.client.games import bot_maker
from fairtable.engine.canonical import canonical_bytes
from fairtable.engine.games import rules
from fairtable.engine.outcome import Outcome, Plain
from fairtable.engine.playout import play_to_end, seeded_players
from fairtable.engine.rng import ChanceStream

__all__ = ["run_crypto_game", "run_game"]


def _plain(outcome: Outcome | None) -> Plain:
    """The winner as the summary writes it (a seat, a team or None)."""
    return None if outcome is None else outcome.plain()


def run_game(game: str, players: int, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """Play one game of ``game`` to the end with bots and a seeded referee."""
    game_rules = rules(game)
    state = game_rules.new_game(players)
    referee, seats = seeded_players(seed, [bot_maker(game, kind) for kind in bots])
    play_to_end(state, seats, referee)
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "winner": _plain(state.outcome),
        "end": state.end,
        **game_rules.summary(state),
        "digest": state.digest(),
    }


def run_crypto_game(
    game: str,
    players: int,
    seed: int,
    bots: Sequence[str],
    *,
    cheat: str | None = None,
    cheater: int | None = None,
    departures: Mapping[int, int] | None = None,
    vanishings: Mapping[int, int] | None = None,
) -> tuple[dict[str, Any], Any]:
    """Play one game among in-memory protocol peers; returns the summary and the table.

    ``departures``: seat -> n, the seat leaves when asked its n-th decision (1: its first);
    ``vanishings``: seat -> n, the seat goes silent for good there and the others are told
    it vanished (the table's leavers rule is then ``go-on``).  The summary's ``departed``
    names the seats that left or vanished (``vanished`` those that vanished), and the
    others' ending is judged."""
    from fairtable.protocol.testing import cheating_session, make_table, run_table
    from fairtable.protocol.wire import LEAVERS_KEY, Leavers

    game_rules = rules(game)
    session_class = cheating_session(cheat) if cheat else None
    cheaters = [cheater] if cheat and cheater is not None else []
    kwargs: dict[str, Any] = {"cheaters": cheaters}
    if session_class is not None:
        kwargs["session_class"] = session_class
    if vanishings:
        kwargs["options"] = canonical_bytes({LEAVERS_KEY: Leavers.GO_ON.value})
    spec, sessions = make_table(
        players, seed, game=game, round_limit=game_rules.default_round_limit, **kwargs
    )
    root = ChanceStream.from_int(seed)
    seats = [bot_maker(game, kind)(root.child(f"bot/{seat}")) for seat, kind in enumerate(bots)]
    run = run_table(
        sessions,
        lambda seat, event: seats[seat].decide(event.view, event.decision),
        departures=departures,
        vanishings=vanishings,
    )
    vanished = sorted(
        {seat for s in sessions for seat in s.vanishing.vanished}
        | {s.resigned.seat for s in sessions if s.resigned is not None and s.resigned.vanished}
    )
    left = {s.seat for s in sessions if s.left is not None and s.seat is not None}
    departed = sorted(left | set(vanished))
    silent = set(vanishings or ())  # they went silent, or would have: never judged
    honest = [
        s
        for seat, s in enumerate(sessions)
        if seat not in cheaters and seat not in departed and seat not in silent
    ]
    result: dict[str, Any] = {
        "game": game,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "crypto": True,
        "messages": run.messages,
        "bytes": run.bytes,
    }
    if departures or vanishings:
        result["departed"] = departed
    if vanishings:
        result["vanished"] = vanished
    verdicts = {(v.seat, v.kind) for v in (s.verdict for s in honest) if v is not None}
    finished = {(f.outcome, f.digest, f.end) for f in (s.finished for s in honest) if f}
    if verdicts:
        (seat, kind), *others = sorted(verdicts, key=lambda v: (v[0] is None, v))
        agreed = not others and all(s.verdict is not None for s in honest)
        result["verdict"] = {"seat": seat, "kind": kind, "agreed": agreed}
        result["winner"] = None
        result["digest"] = None
    elif len(finished) == 1 and all(s.finished is not None for s in honest):
        outcome, digest, end = finished.pop()
        result.update(
            {
                "winner": _plain(outcome),
                "end": end,
                **game_rules.summary(honest[0].game),
                "digest": digest,
            }
        )
    else:
        result["verdict"] = {"seat": None, "kind": "desync", "agreed": False}
        result["winner"] = None
        result["digest"] = None
    return result, (spec, sessions)
