"""Answering for the player a decision that has one legal answer (a Sovereign priority window
where only ``pass`` is legal), after the pause the player's own answers take.

Whether a player had a choice depends on its hidden hand, so answering at once would tell
everyone watching the clock that it had none.  :class:`AutoPass` waits as long as this
player took to answer its recent windows by hand (the median of the last few, 2 s before
there are any), varied a little, then answers.  It has no clock or timer of its own: the
screen calls :meth:`AutoPass.tick` a few times a second with the time.
"""

from __future__ import annotations

import random
import statistics
from collections import deque
from typing import Any

from fairtable.client.screen_model import ScreenModel

__all__ = ["AutoPass"]

DEFAULT_PAUSE = 2.0  # seconds, before this player has answered a window by hand
LIMITS = (0.8, 8.0)  # never quicker or slower than this
REMEMBERED = 5  # hand answers the pause follows


class AutoPass:
    """Watches ``model``'s decisions; answers those with one legal answer after a pause."""

    def __init__(self, model: ScreenModel, rng: random.Random | None = None) -> None:
        self.model = model
        self.rng = rng or random.SystemRandom()
        self.by_hand: deque[float] = deque(maxlen=REMEMBERED)
        self._decision: Any = None
        self._since = 0.0
        self._pause = DEFAULT_PAUSE
        self._answered = False  # the current decision was answered here

    def pause(self) -> float:
        """How long to wait before answering: like this player's own recent answers."""
        base = statistics.median(self.by_hand) if self.by_hand else DEFAULT_PAUSE
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
                self.by_hand.append(now - self._since)  # the player answered a window
            self._decision, self._since, self._answered = d, now, False
            self._pause = self.pause()
        if d is None or self._answered or now - self._since < self._pause:
            return False
        answer = self.model.only_answer()
        if answer is None or not self.model.open_to_answer():  # none, or the player answered
            return False
        self._answered = True
        self.model.auto_answer(answer)
        return True
