"""Worlds one seat cannot tell apart in Sodalis: the decks' unseen order, sampled.

Sodalis hides nothing but the order of each deck's unseen cards (no instance holds it) and
other seats' simultaneous answers not yet applied.  :func:`sample_world` rebuilds the game
from a seat's view (``public`` and ``play``, both public) and gives a referee each deck's
unseen cards in a uniformly random order: every order is equally likely, as every
consistent world is.  Other seats' buffered answers are not in the view; in the world
those seats are still asked (the seat's own buffered answer is kept).
"""

from __future__ import annotations

from typing import Any

from fairtable.engine.common_state import copied
from fairtable.engine.referee import Referee
from fairtable.engine.rng import ChanceStream
from fairtable.engine.sodalis import answers
from fairtable.engine.sodalis.game import SodalisGame
from fairtable.engine.sodalis.state import ACTIONS, Seat, SodalisConfig, SodalisState
from fairtable.engine.sodalis.team import Team
from fairtable.engine.sodalis.view import SodalisView

__all__ = ["sample_world"]


def _space(value: Any) -> tuple[int, int] | None:
    return None if value is None else (value[0], value[1])


def _seat(data: dict[str, Any]) -> Seat:
    return Seat(
        team=Team(data["team"]),
        token=data["token"],
        champion=data["champion"],
        cards=tuple(data["cards"]),
        at=_space(data["at"]),
        life=data["life"],
        up={a: a in data["up"] for a in ACTIONS},
        confused=data["confused"],
        slowed=data["slowed"],
        casts=data["casts"],
        moved=data["moved"],
        side=list(data["side"]),
        top=data["top"],
        unseen=data["unseen"],
        bottom=list(data["bottom"]),
        continuous=[(c, tuple(u)) for c, u in data["continuous"]],
        tributes=dict(data["tributes"]),
    )


def unseen_cards(seat: Seat) -> list[str]:
    """The deck's cards whose place nobody knows: its nine, less every one in sight."""
    seen = {c for c in seat.side if c is not None} | set(seat.bottom)
    seen |= {c for c, _ in seat.continuous}
    if seat.top is not None:
        seen.add(seat.top)
    return sorted(c for c in seat.cards if c not in seen)


def sample_world(view: SodalisView, stream: ChanceStream) -> tuple[SodalisGame, Referee]:
    """One world consistent with ``view``: an omniscient game and a referee holding each
    deck's unseen cards in a uniformly random order."""
    if view.seat is None or view.play is None:
        raise ValueError("a world is sampled from a seat's view")
    pub, play = view.public, view.play
    config = SodalisConfig(pub["players"], pub["round_limit"], play.teams)
    state = SodalisState(
        config=config,
        catalog=view.catalog,
        arena=play.arena,
        known=frozenset(range(pub["players"])),
        seats=[_seat(s) for s in pub["seats"]],
    )
    state.round, state.phase = pub["round"], pub["phase"]
    state.order, state.active = list(pub["order"]), pub["active"]
    state.paragon_sight = pub["paragon"]["sight"]
    state.artifacts = {Team(t): _space(v) for t, v in pub["artifacts"].items()}
    state.cast = copied(pub["cast"])
    state.last_roll = copied(pub["last_roll"])
    state.tasks = list(play.tasks)
    state.pending = list(play.pending)
    state.winner = None if pub["winner"] is None else Team(pub["winner"])
    state.over = pub["over"]
    state.decisions, state.serial = play.decisions, play.serial
    state.departed = tuple(pub.get("departed", ()))
    if view.secret is not None:  # the seat's own simultaneous answer, waiting
        fields = dict(view.secret)
        kinds = {cls.__name__: cls for cls in answers.ANSWER_KINDS.values()}
        kind = kinds[fields.pop("answer")]
        state.buffered[view.seat] = kind(**{k: _tuple(v) for k, v in fields.items()})
    referee = Referee(stream.take(32))
    for s, seat in enumerate(state.seats):
        if seat.unseen:
            cards = unseen_cards(seat)
            if len(cards) != seat.unseen:
                raise ValueError(f"seat {s}'s deck does not add up in this view")
            order = stream.permutation(len(cards))
            referee.piles[f"deck:{s}"] = [cards[i] for i in order]
    return SodalisGame(state), referee


def _tuple(value: Any) -> Any:
    return tuple(_tuple(v) for v in value) if isinstance(value, list | tuple) else value
