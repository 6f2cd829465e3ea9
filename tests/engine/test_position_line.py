"""The one-line position frame every game reads and writes (engine/position_line.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fairtable.engine.errors import MalformedAnswer
from fairtable.engine.position_line import PositionLine
from fairtable.engine.reign.position import position as reign_position
from fairtable.engine.sodalis.position import position as sodalis_position
from fairtable.engine.sovereign.position import position as sovereign_position


def test_a_line_is_read_into_its_game_and_words_and_written_back_the_same() -> None:
    line = "reign players=4 legit=0,3,2,0 support=crimson:1,azure:- hand0="
    parsed = PositionLine.parse(line, "reign")
    assert parsed.game == "reign" and parsed.write() == line
    assert parsed.number("players", 3) == 4 and parsed.number("round", 1) == 1
    assert parsed.numbers("legit") == [0, 3, 2, 0] and parsed.items("hand0") == []
    assert parsed.items("support") == ["crimson:1", "azure:-"]
    assert parsed.has("hand0") and not parsed.has("hand1")
    assert parsed.text("phase", "influence") == "influence"


def test_a_line_is_built_from_words_numbers_and_lists() -> None:
    built = PositionLine.build("sodalis", [("players", 2), ("at", ["3:-1", "5:-1"]), ("up", "M")])
    assert built.write() == "sodalis players=2 at=3:-1,5:-1 up=M"
    assert PositionLine.parse(built.write(), "sodalis") == built
    with pytest.raises(ValueError):
        PositionLine.build("reign", [("hand0", ["a b"])])
    with pytest.raises(ValueError):
        PositionLine.build("reign", [("round", 1), ("round", 2)])


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("", "starts with 'reign'"),
        ("sodalis players=2", "starts with 'reign'"),
        ("reign players", "key=value"),
        ("reign =4", "key=value"),
        ("reign round=1 round=2", "one key=value per key"),
    ],
)
def test_a_line_that_is_not_one_is_refused(line: str, why: str) -> None:
    with pytest.raises(MalformedAnswer, match=why):
        PositionLine.parse(line, "reign", "Reign")


@pytest.mark.parametrize("value", ["four", "4.0", "²", "--1", "1e3"])
def test_a_number_that_is_not_a_whole_number_is_refused(value: str) -> None:
    parsed = PositionLine.parse(f"reign players={value} legit=1,{value}", "reign")
    with pytest.raises(MalformedAnswer, match="players is a whole number"):
        parsed.number("players", 3)
    with pytest.raises(MalformedAnswer, match="legit is a whole number"):
        parsed.numbers("legit")


@pytest.mark.parametrize(
    ("build", "game"),
    [(reign_position, "reign"), (sodalis_position, "sodalis"), (sovereign_position, "sovereign")],
)
def test_every_game_reads_its_position_through_the_shared_frame(
    build: Callable[[str], object], game: str
) -> None:
    with pytest.raises(MalformedAnswer, match="position starts with"):
        build("chess players=2")
    with pytest.raises(MalformedAnswer, match="one key=value per key"):
        build(f"{game} players=2 players=3")
    with pytest.raises(MalformedAnswer, match="players is a whole number"):
        build(f"{game} players=two")


@pytest.mark.parametrize("phase", ["", "phase=influence", "phase=plotting", "phase=draw"])
def test_a_reign_position_resumes_in_the_round_it_names_with_or_without_a_phase(
    phase: str,
) -> None:
    game, _ = reign_position(f"reign players=3 round=2 {phase} support=crimson:-,azure:-")
    assert game.state.round == 2


def test_a_reign_position_names_a_phase_play_can_resume_in() -> None:
    with pytest.raises(MalformedAnswer, match="phase is one of influence, plotting, draw"):
        reign_position("reign players=3 phase=combat")
