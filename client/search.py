"""The search bot: determinized Monte Carlo from its own seat's view, within a time budget.

For each decision the bot takes a few candidate answers (the heuristic bot's, a pass
where there is one, and distinct random legal answers), then until its time is up: samples
a world consistent with its view (the game's ``GameRules.sample_world``: the hidden cards
dealt anew, each consistent world equally likely), picks a candidate by UCB1, plays it in
that world and the rest of the game (Sodalis: the next 60 decisions, whole games being too
long for a budget) with the heuristic bot at every seat, and scores the
end by its score differential (its own score less the best other's, plus a win bonus; the
score is Reign's legitimacy, a Sodalis team's tributes, a Sovereign seat's Echoes).
It answers the candidate with the best mean among those tried in at least three worlds
(the heuristic's own answer when none was); at once when only one answer is legal.
Fewer candidates at small budgets (4 below 0.5 s, 6 below 2 s, else 8), so each is tried
often enough to tell.
It never sees the game state: only the view it is handed and the worlds it samples from
it (Cowling, Powley & Whitehouse 2012 call this determinization; the candidates at the
root share statistics across worlds, as in their single-observer ISMCTS with one level).

The clock is read here (the client's), never in the engine; a time budget makes the
bot's answers depend on the machine's speed, so games with it are not replayable from
their seed alone (a ``rollouts`` budget is, for tests).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import EngineError
from engine.games import rules
from engine.requests import Decision
from engine.rng import ChanceStream

__all__ = ["STRENGTHS", "SearchBot", "reward_of"]

STRENGTHS: Mapping[str, float] = {"easy": 0.2, "normal": 1.0, "hard": 3.0}
"""Seconds a decision for each named strength (``play``, ``host --bot``, ``join --bot``)."""

CANDIDATES = ((0.5, 4), (2.0, 6), (math.inf, 8))  # (budget below, answers compared)
TRUSTED = 3  # rollouts before a candidate may replace the heuristic's answer
EXPLORE = 0.7  # UCB1's exploration constant, for rewards in [-1, 1]


def _reign_scores(game: Any) -> list[int]:
    return list(game.state.legitimacy)


def _sodalis_scores(game: Any) -> list[int]:
    s = game.state
    return [len(s.team_tributes(s.team_of(seat))) for seat in range(s.players)]


def _sovereign_scores(game: Any) -> list[int]:
    return [len(b.scored) for b in game.state.boards]


def _side(game_name: str, game: Any, seat: int) -> Any:
    """Who wins together with ``seat``: the seat, or its team (Sodalis)."""
    return game.state.team_of(seat) if game_name == "sodalis" else seat


SCORES: dict[str, Callable[[Any], list[int]]] = {
    "reign": _reign_scores,
    "sodalis": _sodalis_scores,
    "sovereign": _sovereign_scores,
}
"""Each game's score per seat, for the score differential (its victory track: Reign's
legitimacy, the tributes of a Sodalis seat's team, the Echoes a Sovereign seat scored)."""
WIN_SCORE: dict[str, Callable[[Any], int]] = {
    "reign": lambda game: 9,
    "sodalis": lambda game: 3,
    "sovereign": lambda game: int(game.state.config.target),
}
HORIZON: dict[str, int] = {"sodalis": 60}
"""Decisions a rollout plays before it is scored where whole games are too long to play out
within a budget (Sodalis); elsewhere rollouts play to the end."""


def reward_of(game_name: str, game: Any, seat: int) -> float:
    """The end of a rollout for ``seat``, in [-1, 1]: half its score lead over the best
    other seat (scaled by the winning score), half winning (+1) or another winning (-1)."""
    scores = SCORES[game_name](game)
    scale = WIN_SCORE[game_name](game)
    side = _side(game_name, game, seat)
    rivals = [s for i, s in enumerate(scores) if _side(game_name, game, i) != side]
    lead = scores[seat] - max(rivals)
    margin = max(-1.0, min(1.0, lead / scale))
    outcome = game.outcome
    won = 0.0 if outcome is None or not outcome.decided else (1.0 if outcome.won(seat) else -1.0)
    return 0.5 * margin + 0.5 * won


class SearchBot:
    """Determinized Monte Carlo over a few candidate answers, rollouts by the heuristic."""

    kind = "search"

    def __init__(
        self,
        stream: ChanceStream,
        game: str,
        seconds: float = 1.0,
        rollouts: int | None = None,
        *,
        heuristic: Callable[[ChanceStream], Any],
    ) -> None:
        """``heuristic`` makes the game's rule-of-thumb bot: the rollout policy and the first
        candidate (passed in by the bots registry, :func:`client.games.bot_maker`)."""
        self.stream = stream
        self.game = game
        self.seconds = seconds
        self.rollouts = rollouts
        self.rules = rules(game)
        if self.rules.sample_world is None:
            raise ValueError(f"{game} has no world sampler: the search bot cannot play it")
        self._sample = self.rules.sample_world
        self._heuristic = heuristic
        self._me = self._heuristic(stream.child("candidates"))
        self.last: list[tuple[Any, int, float]] = []  # (candidate, visits, mean) of the last

    def _candidates(self, view: Any, decision: Decision) -> list[Any]:
        out = [self._me.decide(view, decision)]
        legal = self.rules.legal_answers(view, decision)
        first = next(iter(legal), None)
        if first is not None and first not in out:
            out.append(first)  # the pass (or the first option) where there is one
        wanted = next(n for below, n in CANDIDATES if self.seconds < below)
        if self.rollouts is not None:
            wanted = max(2, min(8, self.rollouts // 2))
        tries = 0
        while len(out) < wanted and tries < 4 * wanted:
            answer = self.rules.random_answer(view, decision, self.stream)
            if answer not in out:
                out.append(answer)
            tries += 1
        return out

    def _rollout(self, view: Any, answer: Any, seat: int, stream: ChanceStream) -> float:
        world, referee = self._sample(view, stream)
        bots = [self._heuristic(stream.child(f"seat/{s}")) for s in range(world.state.players)]
        world.apply(answer)
        left = HORIZON.get(self.game, -1)
        while not world.over and left != 0:
            request = world.pending()[0]
            if not isinstance(request, Decision):
                world.apply(referee.answer(world, request))
                continue
            left -= 1
            view_ = world.view(request.seat)
            try:
                world.apply(bots[request.seat].decide(view_, request))
            except EngineError:  # a rollout never stops on a bot's slip: any legal answer
                world.apply(self.rules.random_answer(view_, request, stream))
        return reward_of(self.game, world, seat)

    def decide(self, view: Any, decision: Decision) -> Any:
        legal = iter(self.rules.legal_answers(view, decision))
        first, second = next(legal, None), next(legal, None)
        if first is not None and second is None:
            return first  # one legal answer: no search
        candidates = self._candidates(view, decision)
        if len(candidates) == 1:
            return candidates[0]
        worlds = ChanceStream(self.stream.take(32))  # fresh worlds for every decision
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        deadline = time.monotonic() + self.seconds
        n = 0
        while (
            (n < self.rollouts)
            if self.rollouts is not None
            else (n < len(candidates) or time.monotonic() < deadline)
        ):
            if n < len(candidates):
                pick = n
            else:
                log_n = math.log(n)
                pick = max(
                    range(len(candidates)),
                    key=lambda i: (
                        totals[i] / visits[i] + EXPLORE * math.sqrt(log_n / visits[i]),
                        -i,
                    ),
                )
            reward = self._rollout(
                view, candidates[pick], decision.seat, worlds.child(f"world/{n}")
            )
            visits[pick] += 1
            totals[pick] += reward
            n += 1
        means = [t / v if v else -2.0 for t, v in zip(totals, visits, strict=True)]
        self.last = list(zip(candidates, visits, means, strict=True))
        # The heuristic's answer (first) stands unless another did better over enough worlds.
        trusted = [i for i in range(len(candidates)) if visits[i] >= TRUSTED] or [0]
        best = max(trusted, key=lambda i: (means[i], visits[i], -i))
        return candidates[best]
