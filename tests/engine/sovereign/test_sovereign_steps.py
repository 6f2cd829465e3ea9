"""The flow's task queue: every task kind is a Step with its handler."""

from __future__ import annotations

from fairtable.engine.games import rules
from fairtable.engine.sovereign import flow
from fairtable.engine.sovereign.kinds import Step


def test_every_step_has_its_handler_and_every_handler_is_a_step() -> None:
    assert set(flow.HANDLERS) == set(Step)
    assert all(type(kind) is Step for kind in flow.HANDLERS)


def test_a_new_game_queues_steps_that_read_as_their_words() -> None:
    state = rules("sovereign").new_game(2).state
    assert state.tasks and all(type(task[0]) is Step for task in state.tasks)
    assert [task[0] for task in state.tasks][-1] == "first"
