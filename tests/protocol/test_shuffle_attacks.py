"""Cheating shufflers are blamed at their step, before any card of their output is used
(docs/protocol.md §7.5, §8.5; issue 15): every shuffle, re-mix and re-handle carries a
proof of a correct shuffle that every peer checks on arrival."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.crypto as PC
import fairtable.protocol.testing as PT
import fairtable.protocol.wire as PW
from fairtable.client.games import bots_for
from fairtable.client.simulate import run_crypto_game
from fairtable.engine.games import rules
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.crypto import (
    ProofContext,
    add,
    base_mul,
    mul,
    prove_shuffle,
    random_scalar,
    rerandomise,
)


def _forged_step(
    session: P.TableSession,
    msg: PW.ShuffleStep,
    before: list[PC.Ciphertext],
    forged: list[PC.Ciphertext],
    key: bytes,
) -> PW.ShuffleStep:
    """``forged`` as the step's output, with the cheater's best attempt at a proof: the
    prover run on a witness it made up (it knows none)."""
    assert session.seat is not None
    rs = [random_scalar(session.secret(f"cheat/{j}", 64)) for j in range(len(forged))]
    proof = prove_shuffle(
        ProofContext(session.table, msg.step, session.seat),
        msg.deck,
        key,
        [(c.a, c.b) for c in before],
        [(c.a, c.b) for c in forged],
        list(range(len(forged))),
        rs,
    )
    return attrs.evolve(msg, cards=tuple(c.to_bytes() for c in forged), proof=proof)


class _Substitutes(P.TableSession):
    """The last shuffler of the first deck replaces its output with fresh encryptions of
    the deck's cards in an order of its choosing (reversed): every point valid, no card
    repeated -- it would know where every card lies."""

    forged_deck: str | None = None

    def publish(self, msg: Any) -> None:
        ex = self.exchanges.cards
        if (
            self.forged_deck is None
            and isinstance(msg, PW.ShuffleStep)
            and msg.deck in ex.decks
            and msg.step.endswith(f"/{self.seats[-1]}")
            and len(msg.cards) > 1
        ):
            self.forged_deck = msg.deck
            rec = ex.decks[msg.deck]
            assert ex.joint is not None
            forged = []
            for j, point in enumerate(reversed(rec.codebook.points)):
                r = random_scalar(self.secret(f"fresh/{j}", 64))
                forged.append(PC.Ciphertext(base_mul(r), add(point, mul(r, ex.joint))))
            msg = _forged_step(self, msg, rec.steps[-1], forged, ex.joint)
        super().publish(msg)


class _CopiesIntoPool(P.TableSession):
    """At its re-mix of a pool of face-down cards, copies (re-randomised) the deck
    ciphertext of a card another seat holds over one pool card, to read that card when
    the pool is revealed (Reign's covert re-mix)."""

    copied: str | None = None

    def publish(self, msg: Any) -> None:
        ex = self.exchanges.cards
        if self.copied is None and isinstance(msg, PW.ShuffleStep) and msg.deck.startswith("pool"):
            assert ex.joint is not None
            k = int(msg.step.split("/")[0][1:])
            pools = self.exchanges.reveals.pools[k]
            before = next(pool for army, pool in pools.items() if f"pool{army}" == msg.deck)
            target = next(
                ex.decks[deck].steps[-1][slot]
                for seat, held in sorted(ex.held.items())
                if seat != self.seat
                for (deck, slot) in sorted(held)
                if deck in ex.decks
            )
            copy = rerandomise(target, ex.joint, random_scalar(self.secret("copy", 64)))
            out = [PC.Ciphertext.unchecked(c) for c in msg.cards]
            self.copied = f"s{k}/open"
            msg = _forged_step(self, msg, before, [copy, *out[1:]], ex.joint)
        super().publish(msg)


class _SubstitutesRehandle(P.TableSession):
    """Re-handles its own cards as fresh encryptions, under its own key, of cards of its
    choosing (the first cards of its first deck) instead of its own (Sovereign)."""

    forged_deck: str | None = None

    def publish(self, msg: Any) -> None:
        ex = self.exchanges.cards
        if (
            self.forged_deck is None
            and isinstance(msg, PW.ShuffleStep)
            and msg.step.endswith("/rehandle")
        ):
            assert self.seat is not None
            self.forged_deck = msg.deck
            own = ex.keys[self.seat]
            points = next(iter(ex.decks.values())).codebook.points[: len(msg.cards)]
            forged = []
            for j, point in enumerate(points):
                r = random_scalar(self.secret(f"fresh/{j}", 64))
                forged.append(PC.Ciphertext(base_mul(r), add(point, mul(r, own))))
            holder, k = self.seat, int(msg.step.split("/")[0][1:])
            handles = self.game.pending()[0].handles
            before = [ex.held[holder][ex.handle_slot[h]] for h in handles]
            assert msg.deck == f"hand{holder}.{k}"
            msg = _forged_step(self, msg, before, forged, own)
        super().publish(msg)


def _run(game: str, players: int, seed: int, cls: type, cheater: int):
    """The game ``run_crypto_game`` plays (same seats, bots and seed), ``cheater`` being
    a ``cls``."""
    spec, sessions = PT.make_table(
        players,
        seed,
        game=game,
        round_limit=rules(game).default_round_limit,
        session_class=cls,
        cheaters=[cheater],
    )
    root = ChanceStream.from_int(seed)
    bots = [bots_for(game)["random"](root.child(f"bot/{seat}")) for seat in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    return spec, sessions


def _blamed_at_the_step(sessions: list[P.TableSession], cheater: int, deck: str) -> None:
    for honest in sessions:
        if honest.seat == cheater:
            continue
        verdict = honest.verdict
        assert verdict is not None, honest.seat
        assert (verdict.seat, verdict.kind) == (cheater, "bad-shuffle"), verdict
        assert honest.finished is None and not honest.exchanges.audit.audited
        # the entry carrying the bad step is the verdict's transferable evidence
        parts = [
            P.decode(raw)
            for data in verdict.evidence
            for raw in P.Entry.parse(data).message().parts
        ]
        assert any(isinstance(p, PW.ShuffleStep) and p.deck == deck for p in parts)
        ex = honest.exchanges.cards
        # no card of that output was ever drawn, held, revealed or shown
        assert all(slot[0] != deck for held in ex.held.values() for slot in held)
        assert deck not in ex.current.values()
        assert not any(key[1] == deck for key in honest.exchanges.held.published)


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("reign", 3, 21), ("sovereign", 2, 1), ("sodalis", 4, 0)]
)
def test_a_last_shuffler_substituting_fresh_encryptions_is_blamed_at_its_step(
    game: str, players: int, seed: int
) -> None:
    cheater = players - 1
    _, sessions = _run(game, players, seed, _Substitutes, cheater)
    deck = sessions[cheater].forged_deck  # type: ignore[attr-defined]
    assert deck is not None
    _blamed_at_the_step(sessions, cheater, deck)
    for honest in sessions[:cheater]:  # the deck stopped at the step before the cheater's
        assert len(honest.exchanges.cards.decks[deck].steps) == players


def test_reign_a_held_card_copied_into_a_re_mix_pool_is_blamed_before_the_pool_opens() -> None:
    cheater = 1
    _, sessions = _run("reign", 3, 21, _CopiesIntoPool, cheater)
    opened = sessions[cheater].copied  # type: ignore[attr-defined]
    assert opened is not None
    for honest in sessions:
        if honest.seat == cheater:
            continue
        assert honest.verdict is not None
        assert (honest.verdict.seat, honest.verdict.kind) == (cheater, "bad-shuffle")
        for data in honest.entries():  # nobody honest ever sent a share to open that pool
            for raw in P.Entry.parse(data).message().parts:
                part = P.decode(raw)
                assert not (isinstance(part, PW.DecryptShares) and part.step == opened)


def test_sovereign_a_substituted_re_handle_is_blamed_at_its_step() -> None:
    cheater = 0  # seat 0 is the first re-handled hand of this game
    _, sessions = _run("sovereign", 2, 0, _SubstitutesRehandle, cheater)
    deck = sessions[cheater].forged_deck  # type: ignore[attr-defined]
    assert deck is not None
    _blamed_at_the_step(sessions, cheater, deck)
    honest = sessions[1].exchanges.cards
    assert not any(r[1] == deck for r in honest.rehandles)


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("reign", 3, 4), ("sovereign", 3, 2), ("sodalis", 2, 1)]
)
def test_honest_games_with_every_shuffle_proven_blame_nobody(
    game: str, players: int, seed: int
) -> None:
    result, (spec, sessions) = run_crypto_game(game, players, seed, ["random"] * players)
    assert result.get("verdict") is None
    assert all(s.verdict is None and s.finished is not None for s in sessions)
    for session in sessions:
        assert P.audit_log(spec, session.entries()).ok
