"""A game from outside fairtable, played over its protocol with every secret cryptographic.

High Card (a shuffled hidden deck, a private draw of two cards each, one secret bid each,
committed and then revealed) is known to ``engine.games`` through its installed entry
point only; the protocol plays it through the engine contract, with no change to
``protocol/`` or ``netplay/`` (tests/test_layers_name_no_example.py proves no layer names
it).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from highcard import rules as highcard_rules
from highcard.rules import CARDS, NAME, HighBid, value

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.games import game_names, rules


def _highest(seat: int, event: P.DecisionNeeded) -> HighBid:
    return HighBid(seat, 2, max(event.view.hand, key=value))


def _play(seats: int, seed: int) -> list[P.TableSession]:
    _, sessions = PT.make_table(seats, seed, game=NAME)
    PT.run_table(sessions, _highest)
    return sessions


def test_the_installed_game_is_known_by_name() -> None:
    assert NAME in game_names()
    assert rules(NAME) is highcard_rules.RULES


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (2, 2), (3, 3)])
def test_high_card_plays_over_the_protocol_with_crypto(seats: int, seed: int) -> None:
    sessions = _play(seats, seed)
    assert all(s.verdict is None for s in sessions)
    finished = [s.finished for s in sessions]
    assert all(f is not None and f.end == "won" for f in finished)
    assert len({(f.outcome, f.digest) for f in finished if f is not None}) == 1
    assert all(s.exchanges.audit.audited for s in sessions)  # every shuffle and key opened
    # every peer saw the same bids revealed, each seat's the highest of its own two cards
    revealed = {tuple(sorted(s.game.state.revealed.items())) for s in sessions}
    assert len(revealed) == 1
    shown = dict(revealed.pop())
    for seat, session in enumerate(sessions):
        kept = session.game.state.hands  # what this seat's own engine was dealt, less its bid
        assert set(kept) == {seat}  # never another seat's cards
        assert shown[seat] in CARDS and len(kept[seat]) == 1
        assert value(shown[seat]) > value(kept[seat][0])  # it bid the higher of its two
    (winner,) = finished[0].outcome.seats  # type: ignore[union-attr]
    assert shown[winner] == max(shown.values(), key=value)


def test_each_seat_sees_only_its_own_draw() -> None:
    _, sessions = PT.make_table(2, 5, game=NAME)
    seen: dict[int, list[str]] = {0: [], 1: []}

    def decide(seat: int, event: P.DecisionNeeded) -> HighBid:
        seen[seat] = list(event.view.hand)
        return _highest(seat, event)

    PT.run_table(sessions, decide)
    assert all(s.finished is not None for s in sessions)
    assert all(len(hand) == 2 for hand in seen.values())
    assert not set(seen[0]) & set(seen[1])  # two private draws from one hidden deck


@pytest.mark.parametrize(
    "kind",
    [
        "illegal-move",
        "bad-reveal",
        "bad-proof",
        "bad-shuffle",
        "invalid-point",
        "equivocation",
        "replay",
        "wrong-digest",
    ],
)
def test_a_cheater_at_high_card_is_named(kind: str) -> None:
    _, sessions = PT.make_table(
        3, 7, game=NAME, session_class=PT.cheating_session(kind), cheaters=[1]
    )
    PT.run_table(sessions, _highest)
    honest = [s for i, s in enumerate(sessions) if i != 1]
    verdicts = {(s.verdict.seat, s.verdict.kind) for s in honest if s.verdict is not None}
    assert verdicts and all(seat == 1 for seat, _ in verdicts), verdicts
    assert all(s.verdict is not None for s in honest)


def test_the_rules_module_uses_neither_protocol_nor_netplay() -> None:
    tree = ast.parse(Path(highcard_rules.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert imported and all(
        not (m or "").startswith(("fairtable.protocol", "fairtable.netplay")) for m in imported
    )
    assert any((m or "").startswith("fairtable.engine") for m in imported)
