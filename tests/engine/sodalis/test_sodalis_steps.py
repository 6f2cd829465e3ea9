"""Sodalis's task queue: every task kind is a Step with its handler."""

from __future__ import annotations

from fairtable.engine.games import rules
from fairtable.engine.sodalis import flow
from fairtable.engine.sodalis.steps import Step


def test_every_step_has_its_handler_and_every_handler_is_a_step() -> None:
    assert set(flow.HANDLERS) == set(Step)
    assert all(type(kind) is Step for kind in flow.HANDLERS)


def test_a_new_game_queues_steps_that_read_as_their_words() -> None:
    state = rules("sodalis").new_game(2).state
    assert state.tasks == [(Step.SELECTION,)] and type(state.tasks[0][0]) is Step
    assert state.tasks[0][0] == "selection"
