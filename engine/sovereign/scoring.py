"""Echoes scored, hidden cards made public, and the end of the game: the changes to the
state that the turn's flow (:mod:`.flow`), the battle (:mod:`.battle`) and one-shot
effects (:mod:`.resolve`) all make.  Below all three, so none of them imports another's
module to reach these."""

from __future__ import annotations

from fairtable.engine.sovereign import events as E
from fairtable.engine.sovereign.kinds import EffectGroup, Ending, Step, TurnPhase
from fairtable.engine.sovereign.state import SovereignState
from fairtable.engine.tasks import push_front

__all__ = ["end_game", "forget", "score", "take_public"]


def end_game(state: SovereignState, how: Ending, winner: int | None = None) -> None:
    """The game is over (``how``: e.g. won, round limit); nothing more is asked."""
    state.over = how
    state.winner = winner
    state.phase = TurnPhase.OVER
    state.tasks = []
    state.pending = []
    state.log(E.GameOver(how, winner))


def forget(state: SovereignState, handle: int) -> None:
    """A handle no longer stands for a hidden card: every secret record of it goes."""
    for sec in state.secrets.values():
        sec.cards.pop(handle, None)
        sec.seen.pop(handle, None)


def take_public(state: SovereignState, seat: int, handle: int, card: str) -> None:
    """A face-down card of ``seat`` is now public: no longer hidden, its handle forgotten."""
    if card in state.hidden[seat]:
        state.hidden[seat].remove(card)
    b = state.boards[seat]
    if handle in b.hand:
        b.hand.remove(handle)
    forget(state, handle)


def score(state: SovereignState, seat: int, ref: str) -> None:
    """``seat`` scores the Echo ``ref``; reaching the target wins the game."""
    b = state.boards[seat]
    b.scored.append(ref)
    state.log(E.Scored(seat, ref))
    if len(b.scored) >= state.config.target:
        end_game(state, Ending.WON, seat)
        return
    # its on_score triggers, in the order its controller chooses if several (FAQ l. 340)
    push_front(state, (Step.FIRE, seat, EffectGroup.ON_SCORE))
