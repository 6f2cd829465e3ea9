"""Answering for the player a decision that has one legal answer (a Sovereign priority window
where only ``pass`` is legal, or the end of a forge phase with one way to finish it), after
the pause the player's own answers take.

Whether a player had a choice depends on its hidden hand, so answering at once would tell
everyone watching the clock that it had none.  :class:`AutoPass` waits as long as this
player took to answer its recent decisions of the same kind by hand (the median of the last
few, 2 s before there are any), varied a little, then answers: each kind keeps its own pace,
so slow finishes typed part by part do not slow the windows, nor quick windows hurry a
finish.  It has no clock or timer of its own: the
screen calls :meth:`AutoPass.tick` a few times a second with the time.
"""

from __future__ import annotations

import random
import statistics
from collections import deque

from fairtable.client.screen_model import ScreenModel
from fairtable.engine.requests import Decision, DecisionKind

__all__ = ["AutoPass"]

DEFAULT_PAUSE = 2.0  # seconds, before this player has answered a window by hand
LIMITS = (0.8, 8.0)  # never quicker or slower than this
REMEMBERED = 5  # hand answers the pause follows


class AutoPass:
    """Watches ``model``'s decisions; answers those with one legal answer after a pause."""

    def __init__(self, model: ScreenModel, rng: random.Random | None = None) -> None:
        self.model = model
        self.rng = rng or random.SystemRandom()
        self.by_hand: dict[DecisionKind, deque[float]] = {}  # a kind's recent hand answers
        self._decision: Decision | None = None
        self._since = 0.0
        self._pause = DEFAULT_PAUSE
        self._answered = False  # the current decision was answered here

    def pause(self, kind: DecisionKind) -> float:
        """How long to wait before answering a decision of ``kind``: like this player's own
        recent answers to that kind."""
        hand = self.by_hand.get(kind)
        base = statistics.median(hand) if hand else DEFAULT_PAUSE
        return min(LIMITS[1], max(LIMITS[0], base * self.rng.uniform(0.8, 1.2)))

    def tick(self, now: float) -> bool:
        """Called often with the time; True when it answered a decision just now."""
        d = self.model.decision
        if d is not self._decision:
            if (
                self._decision is not None
                and not self._answered
                and self.model.only_answer_kind(self._decision)
            ):
                hand = self.by_hand.setdefault(self._decision.kind, deque(maxlen=REMEMBERED))
                hand.append(now - self._since)  # the player answered one by hand
            self._decision, self._since, self._answered = d, now, False
            self._pause = self.pause(d.kind) if d is not None else DEFAULT_PAUSE
        if d is None or self._answered or now - self._since < self._pause:
            return False
        answer = self.model.only_answer()
        if answer is None or not self.model.open_to_answer():  # none, or the player answered
            return False
        self._answered = True
        self.model.auto_answer(answer)
        return True
