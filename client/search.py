"""The search bot: determinized Monte Carlo from its own seat's view, within a time budget.

For each decision the bot takes a few candidate answers (the game's default bot's -- its
rule-of-thumb player -- a pass where there is one, and distinct random legal answers), then
until its time is up: samples a world consistent with its view (the game's
``GameRules.sample_world``: the hidden cards dealt anew, each consistent world equally
likely), picks a candidate by UCB1, plays it in that world and the rest of the game (or the
next decisions up to the game's horizon, where whole games are too long for a budget) with
the default bot at every seat, and scores the end by its score differential (its own score
less the best rival's, plus a win bonus), as the game's :class:`SearchHints` say.
It answers the candidate with the best mean among those tried in at least three worlds
(the heuristic's own answer when none was); at once when only one answer is legal.

Sovereign is searched by paired comparison instead of UCB1 (``SearchHints.paired``): every
candidate still in the running is played in the same sampled world with the same later
chance and rollout bots (common random numbers), so two candidates' rewards differ only
by what the candidates did; from three worlds on, a candidate not ahead of the
heuristic's answer (or clearly behind the leader) drops out, so the worlds left go to those
that may yet show a lead; the search stops early when only the heuristic's answer is left.
It answers another candidate only on a significant paired lead over the heuristic's answer
(:func:`_adopted`): its rollouts are long (whole games of a few hundred decisions), so few
worlds fit a budget, and the best of a few noisy means would be noise.
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
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from fairtable.engine.errors import EngineError
from fairtable.engine.games import entry, rules
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream

__all__ = ["STRENGTHS", "SearchBot", "SearchHints", "Thinking", "reward_of", "search_hints"]

STRENGTHS: Mapping[str, float] = {"easy": 0.2, "normal": 1.0, "hard": 3.0}
"""Seconds a decision for each named strength (``play``, ``host --bot``, ``join --bot``)."""

CANDIDATES = ((0.5, 4), (2.0, 6), (math.inf, 8))  # (budget below, answers compared)
TRUSTED = 3  # rollouts before a candidate may replace the heuristic's answer
EXPLORE = 0.7  # UCB1's exploration constant, for rewards in [-1, 1]
PAIRED_Z = 2.0  # paired standard errors behind the leader that drop a candidate
# One-sided 95% points of Student's t by degrees of freedom (index 1..10, then beyond).
T95 = (math.inf, 6.31, 2.92, 2.35, 2.13, 2.02, 1.94, 1.89, 1.86, 1.83, 1.81, 1.72)


@attrs.frozen
class Thinking:
    """How a search stands while the bot thinks: for showing, never for deciding."""

    seconds: float  # thought so far
    worlds: int  # sampled worlds played out (per candidate in a paired search)
    leading: Any  # the answer ahead now
    mean: float  # its mean reward, in [-1, 1]


def _own_side(game: Any, seat: int) -> object:
    return seat


@attrs.frozen
class SearchHints:
    """What the search bot needs to know of a game to score a rollout's end; each game's
    hints live with its client parts (``client/<game>/search.py``) and its registry entry
    names them (:attr:`engine.games.GameEntry.search`).

    - ``scores(game)``: each seat's score on the game's victory track, in seat order.
    - ``win_score(game)``: the score that wins (the scale of a score lead).
    - ``side(game, seat)``: who wins together with ``seat`` (the seat itself; its team in a
      game of teams): seats of one side are not rivals.
    - ``horizon``: decisions a rollout plays before it is scored, where whole games are too
      long to play out within a budget; ``None``: rollouts play to the end.
    - ``paired``: the candidates are compared in common worlds (:meth:`SearchBot._paired`),
      not by UCB1 with a fresh world a rollout (Sovereign; the others' measured figures in
      docs/bots.md are UCB1's).
    """

    scores: Callable[[Any], list[int]]
    win_score: Callable[[Any], int]
    side: Callable[[Any, int], object] = _own_side
    horizon: int | None = None
    paired: bool = False


def search_hints(game_name: str) -> SearchHints | None:
    """Game ``game_name``'s search hints from its registry entry (``None``: it has none)."""
    hook = entry(game_name).search
    if hook is None:
        return None
    hints = hook()
    if not isinstance(hints, SearchHints):
        raise TypeError(f"the search hints of {game_name!r} are not SearchHints: {hints!r}")
    return hints


def reward_of(hints: SearchHints, game: Any, seat: int) -> float:
    """The end of a rollout for ``seat``, in [-1, 1]: half its score lead over the best
    other seat (scaled by the winning score), half winning (+1) or another winning (-1)."""
    scores = hints.scores(game)
    scale = hints.win_score(game)
    side = hints.side(game, seat)
    rivals = [s for i, s in enumerate(scores) if hints.side(game, i) != side]
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
        hints: SearchHints | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``heuristic`` makes the game's rule-of-thumb bot: the rollout policy and the first
        candidate (passed in by the bots registry, :func:`client.games.bot_maker`);
        ``hints`` score a rollout's end (``None``: the game's, from its registry entry);
        ``clock`` measures the budget: wall-clock seconds for people, the thinking thread's
        CPU seconds (``time.thread_time``) for a bench on a shared machine."""
        self.stream = stream
        self.clock = clock
        self.game = game
        self.seconds = seconds
        self.rollouts = rollouts
        self.rules = rules(game)
        if self.rules.sample_world is None:
            raise ValueError(f"{game} has no world sampler: the search bot cannot play it")
        self._sample = self.rules.sample_world
        found = search_hints(game) if hints is None else hints
        if found is None:
            raise ValueError(f"{game} has no search hints: the search bot cannot play it")
        self.hints = found
        self._heuristic = heuristic
        self._me = self._heuristic(stream.child("candidates"))
        self.last: list[tuple[Any, int, float]] = []  # (candidate, visits, mean) of the last
        self.stop = threading.Event()  # set from another thread: answer now (its setter clears)
        self.on_progress: Callable[[Thinking], None] | None = None  # told while it thinks

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
        left = -1 if self.hints.horizon is None else self.hints.horizon
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
        return reward_of(self.hints, world, seat)

    def decide(self, view: Any, decision: Decision) -> Any:
        legal = iter(self.rules.legal_answers(view, decision))
        first, second = next(legal, None), next(legal, None)
        if first is not None and second is None:
            return first  # one legal answer: no search
        candidates = self._candidates(view, decision)
        if len(candidates) == 1:
            return candidates[0]
        worlds = ChanceStream(self.stream.take(32))  # fresh worlds for every decision
        if self.hints.paired:
            visits, means, best = self._paired(view, decision.seat, candidates, worlds)
        else:
            visits, means = self._ucb(view, decision.seat, candidates, worlds)
            # The heuristic's answer (first) stands unless another did better over enough
            # worlds.
            trusted = [i for i in range(len(candidates)) if visits[i] >= TRUSTED] or [0]
            best = max(trusted, key=lambda i: (means[i], visits[i], -i))
        self.last = list(zip(candidates, visits, means, strict=True))
        return candidates[best]

    def _more(self, n: int, deadline: float) -> bool:
        """Whether another rollout fits the budget (``n`` done so far)."""
        if self.stop.is_set():
            return False
        if self.rollouts is not None:
            return n < self.rollouts
        return self.clock() < deadline

    def _told(self, start: float, worlds: int, candidates: list[Any], means: list[float]) -> None:
        if self.on_progress is not None:
            best = max(range(len(candidates)), key=lambda i: (means[i], -i))
            self.on_progress(Thinking(self.clock() - start, worlds, candidates[best], means[best]))

    def _ucb(
        self, view: Any, seat: int, candidates: list[Any], worlds: ChanceStream
    ) -> tuple[list[int], list[float]]:
        """UCB1 over the candidates, a fresh world for every rollout."""
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        start = self.clock()
        deadline = start + self.seconds
        n = 0
        while self._more(n, deadline):
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
            reward = self._rollout(view, candidates[pick], seat, worlds.child(f"world/{n}"))
            visits[pick] += 1
            totals[pick] += reward
            n += 1
            if n % len(candidates) == 0:
                means = [t / v if v else -2.0 for t, v in zip(totals, visits, strict=True)]
                self._told(start, n, candidates, means)
        means = [t / v if v else -2.0 for t, v in zip(totals, visits, strict=True)]
        return visits, means

    def _paired(
        self, view: Any, seat: int, candidates: list[Any], worlds: ChanceStream
    ) -> tuple[list[int], list[float], int]:
        """Every candidate still in the running played in the same sampled worlds (common
        random numbers: the same hidden cards, the same later chance, the same rollout
        bots), so their rewards are compared pair by pair (:func:`_survivors` drops those
        not ahead of the heuristic's answer); the search ends early when only the
        heuristic's answer is left.  Returns each candidate's
        worlds, its mean and the index of the answer to give (:func:`_adopted`)."""
        rewards: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        start = self.clock()
        deadline = start + self.seconds
        n = k = 0
        while len(alive) > 1 and self._more(n, deadline):
            for i in alive:
                if not self._more(n, deadline):
                    break  # out of time within a round: the candidates tried keep theirs
                world = worlds.child(f"world/{k}")  # a fresh stream: the same world for each
                rewards[i].append(self._rollout(view, candidates[i], seat, world))
                n += 1
            k += 1
            common = min(len(rewards[i]) for i in alive)
            means = [sum(r[:common]) / common if r and common else -2.0 for r in rewards]
            if common >= TRUSTED:
                alive = _survivors(alive, rewards, common)
            self._told(start, k, candidates, means)
        means = [sum(r) / len(r) if r else -2.0 for r in rewards]
        return [len(r) for r in rewards], means, _adopted(alive, rewards)


def _behind(ahead: list[float], behind: list[float], k: int, z: float) -> bool:
    """Whether ``behind`` trails ``ahead`` over their first ``k`` common worlds by more than
    ``z`` paired standard errors of the difference (``k`` >= 2)."""
    diffs = [a - b for a, b in zip(ahead[:k], behind[:k], strict=True)]
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return mean > 0 and mean > z * math.sqrt(var / k)


def _survivors(alive: list[int], rewards: list[list[float]], k: int) -> list[int]:
    """The candidates still worth playing after ``k`` common worlds: the heuristic's answer
    (index 0) always; another only while its paired mean is ahead of the heuristic's answer
    and it is not clearly behind the leader (``PAIRED_Z`` paired standard errors).  Only a
    clear lead over the heuristic's answer changes the answer (:func:`_adopted`), so the
    worlds left go to the candidates that may yet show one; one that scored exactly what
    the heuristic's answer scored in every world is no different, and drops out too."""
    means = {i: sum(rewards[i][:k]) / k for i in alive}
    leader = max(alive, key=lambda i: (means[i], -i))
    out = []
    for i in alive:
        if i != 0 and (means[i] <= means[0] or _behind(rewards[leader], rewards[i], k, PAIRED_Z)):
            continue
        out.append(i)
    return out


def _adopted(alive: list[int], rewards: list[list[float]]) -> int:
    """The candidate to answer: the heuristic's answer (index 0) unless another still in
    the running beat it over at least ``TRUSTED`` common worlds by a significant paired
    margin (one-sided, 95%: Student's t for so few worlds); the largest such margin wins.
    Picking the best of several noisy means would pick noise (the winner's curse): with
    rollouts of whole games a few worlds cannot tell most answers apart, and the
    heuristic's answer is the better bet until one clearly is."""
    best, margin = 0, 0.0
    for i in alive:
        k = min(len(rewards[i]), len(rewards[0]))
        if i == 0 or k < TRUSTED:
            continue
        t = T95[min(k - 1, len(T95) - 1)]
        if _behind(rewards[i], rewards[0], k, t):
            lead = (sum(rewards[i][:k]) - sum(rewards[0][:k])) / k
            if lead > margin:
                best, margin = i, lead
    return best
