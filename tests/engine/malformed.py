"""The check every malformed-answer fuzz makes: a typed refusal that changes nothing, or an
accepted answer that leaves a state that still digests."""

from __future__ import annotations

import contextlib
from typing import Any

from fairtable.engine.errors import EngineError


def refused_cleanly_or_digestible(original: Any, answer: Any) -> None:
    """Offer ``answer`` to a copy of ``original``: ``check`` and ``apply`` may raise only
    :class:`~engine.errors.EngineError`; a refusal leaves the digest as it was."""
    game = original.copy()
    before = game.digest()
    with contextlib.suppress(EngineError):
        game.check(answer)
    assert game.digest() == before
    try:
        game.apply(answer)
    except EngineError:
        assert game.digest() == before
    else:
        game.digest()  # an accepted answer leaves a state that digests
