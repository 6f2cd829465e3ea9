"""Every cheat that a Sodalis table offers is caught and names the cheater.

Sodalis has no face-down cards, so there is nothing to open falsely (``bad-reveal``
does not apply); every other kind -- a spoiled share proof on a flipped card, a
withheld die value, a forged shuffle, equivocation, replay, an illegal move, a wrong
digest -- must end the game on every honest peer with one verdict against the cheater.
"""

from __future__ import annotations

import pytest

from fairtable.client.simulate import run_crypto_game
from fairtable.protocol.testing import CHEATS

SODALIS_CHEATS = [c for c in CHEATS if c != "bad-reveal"]


@pytest.mark.parametrize("cheat", SODALIS_CHEATS)
def test_sodalis_cheat_is_blamed_on_the_cheater_by_every_honest_peer(cheat: str) -> None:
    result, _ = run_crypto_game("sodalis", 4, 3, ["random"] * 4, cheat=cheat, cheater=2)
    assert result["verdict"] == {"seat": 2, "kind": cheat, "agreed": True}
    assert result["winner"] is None and result["digest"] is None


def test_sodalis_bad_reveal_has_nothing_to_spoil_and_the_game_ends_honestly() -> None:
    result, _ = run_crypto_game("sodalis", 2, 3, ["random"] * 2, cheat="bad-reveal", cheater=1)
    assert "verdict" not in result and len(result["digest"]) == 64
