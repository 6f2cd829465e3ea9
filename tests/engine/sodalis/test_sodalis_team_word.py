"""Setup: a seat's team is read once from its word into a ``Team`` member, wherever the
table's teams arrive (the config, a position line, a public state read back)."""

from __future__ import annotations

import pytest

from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.sodalis import SodalisConfig, new_game
from fairtable.engine.sodalis.catalog import standard_catalog
from fairtable.engine.sodalis.position import position
from fairtable.engine.sodalis.team import TEAM_TOKENS, Team
from tests.engine.sodalis.helpers import CATALOG


def test_setup_the_config_reads_each_team_word_into_its_member() -> None:
    config = SodalisConfig(4, teams=("dusk", "dawn", "dawn", "dusk"))
    config.check()
    assert config.teams == (Team.DUSK, Team.DAWN, Team.DAWN, Team.DUSK)
    assert all(type(t) is Team for t in config.teams)
    assert config.team_of(0) is Team.DUSK
    assert SodalisConfig(2).team_of(1) is Team.DUSK


@pytest.mark.parametrize(
    "teams", [("dawn", "noon"), ("Dawn", "dusk"), ["dawn", "dusk"], ("dawn", 1)]
)
def test_setup_a_word_that_names_no_team_is_refused_by_the_check(teams: object) -> None:
    config = SodalisConfig(2, teams=teams)  # type: ignore[arg-type]
    with pytest.raises(MalformedAnswer, match="team"):
        config.check()


def test_setup_a_team_word_is_the_same_text_in_the_public_state() -> None:
    game = new_game(SodalisConfig(2, teams=("dusk", "dawn")), catalog=CATALOG)
    assert game.state.team_of(0) is Team.DUSK and game.state.team_of(1).other is Team.DUSK
    assert [s["team"] for s in game.public()["seats"]] == ["dusk", "dawn"]


def test_turn_order_each_team_hands_out_its_own_tokens() -> None:
    assert TEAM_TOKENS[Team.DAWN] == (1, 3, 5) and TEAM_TOKENS[Team.DUSK] == (2, 4, 6)
    assert Team.DAWN.other is Team.DUSK and Team.DUSK.other is Team.DAWN


def test_setup_a_position_line_reads_its_team_words() -> None:
    line = (
        "sodalis players=2 champions=tempest,empress at=3:-1,5:-1 teams=dusk,dawn "
        "artifacts=dawn:5:-1"
    )
    game, _ = position(line, catalog=standard_catalog())
    assert game.state.config.teams == (Team.DUSK, Team.DAWN)
    assert all(type(t) is Team for t in game.state.artifacts)
    with pytest.raises(MalformedAnswer, match="unknown team 'noon'"):
        position(line.replace("artifacts=dawn", "artifacts=noon"), catalog=standard_catalog())
