"""What a hand-over, a shuffle step and a batch of shares say they answer (docs/protocol.md
§7.5, §7.6, version 8): a placer's hand-over into the pools names each card's pool and
place, a re-mix names its pool's cards, a re-handle its held cards, shares the seat they
decrypt for and a pool's cards.  Every peer checks what is carried against what its
own engine derives, so a seat that lies in these fields is blamed at once, by everyone."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream


class _Liar(P.TableSession):
    """An honest peer that lies once in what one of its parts says it answers."""

    done = False

    def lie(self, msg: Any) -> Any:
        return None

    def publish(self, msg: Any) -> None:
        if not self.done:
            lied = self.lie(msg)
            if lied is not None:
                self.done = True
                msg = lied
        super().publish(msg)


def _reversed(refs: tuple[PW.CardRef, ...]) -> tuple[PW.CardRef, ...] | None:
    flipped = tuple(reversed(refs))
    return flipped if flipped != refs else None


class _LyingRemix(_Liar):
    def lie(self, msg: Any) -> Any:
        if isinstance(msg, PW.ShuffleStep) and msg.deck.startswith("pool"):
            refs = _reversed(msg.inputs)
            return None if refs is None else attrs.evolve(msg, inputs=refs)
        return None


class _LyingPoolShares(_Liar):
    def lie(self, msg: Any) -> Any:
        if isinstance(msg, PW.DecryptShares) and msg.deck.startswith("pool"):
            refs = _reversed(msg.cards)
            return None if refs is None else attrs.evolve(msg, cards=refs)
        return None


class _LyingPlacer(_Liar):
    """Puts a card into a pool at another place than the request's."""

    def lie(self, msg: Any) -> Any:
        if isinstance(msg, PW.HandOver) and msg.places:
            first = msg.places[0]
            moved = attrs.evolve(first, index=first.index + 1)
            return attrs.evolve(msg, places=(moved, *msg.places[1:]))
        return None


class _LyingDealShares(_Liar):
    """Says its shares for a private draw are a public reveal's."""

    def lie(self, msg: Any) -> Any:
        if isinstance(msg, PW.DecryptShares) and msg.to_seat != PW.JOINT:
            return attrs.evolve(msg, to_seat=PW.JOINT)
        return None


class _LyingRehandle(_Liar):
    def lie(self, msg: Any) -> Any:
        if isinstance(msg, PW.ShuffleStep) and msg.step.endswith("/rehandle"):
            refs = _reversed(msg.inputs)
            return None if refs is None else attrs.evolve(msg, inputs=refs)
        return None


def _play(
    game: str, players: int, seed: int, liar: type[P.TableSession], cheater: int
) -> list[P.TableSession]:
    _, sessions = PT.make_table(
        players,
        seed,
        game=game,
        session_class=liar,
        round_limit=rules(game).default_round_limit,
        cheaters=[cheater],
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{seat}")) for seat in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return sessions


@pytest.mark.parametrize(
    ("game", "players", "seed", "cheater", "liar", "kind"),
    [
        ("reign", 5, 7, 1, _LyingRemix, "bad-shuffle"),
        ("reign", 5, 7, 1, _LyingPoolShares, "bad-proof"),
        ("reign", 5, 7, 1, _LyingPlacer, "bad-proof"),
        ("reign", 3, 1, 1, _LyingDealShares, "bad-proof"),
        ("sovereign", 2, 2, 0, _LyingRehandle, "bad-shuffle"),
    ],
)
def test_a_seat_that_names_other_inputs_than_its_own_is_blamed_by_every_peer(
    game: str, players: int, seed: int, cheater: int, liar: type[_Liar], kind: str
) -> None:
    sessions = _play(game, players, seed, liar, cheater)
    liar_session = sessions[cheater]
    assert isinstance(liar_session, _Liar) and liar_session.done, "the liar never lied"
    for session in sessions:
        if session.seat != cheater:
            assert session.verdict is not None, f"seat {session.seat} saw no lie"
            assert (session.verdict.seat, session.verdict.kind) == (cheater, kind)
