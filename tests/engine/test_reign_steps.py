"""Reign's task queue: every task kind is a Step with its handler."""

from __future__ import annotations

from fairtable.engine.games import rules
from fairtable.engine.reign import flow
from fairtable.engine.reign.steps import Step
from fairtable.engine.requests import ChanceAnswer


def test_every_step_has_its_handler_and_every_handler_is_a_step() -> None:
    assert set(flow.HANDLERS) == set(Step)
    assert all(type(kind) is Step for kind in flow.HANDLERS)


def test_the_set_up_queues_steps_that_read_as_their_words() -> None:
    game = rules("reign").new_game(3)
    game.apply(ChanceAnswer((0, 1, 2)))  # the houses in play: the set-up queues its deals
    state = game.state
    assert state.tasks and all(type(task[0]) is Step for task in state.tasks)
    assert [task[0] for task in state.tasks][-1] == "pick_first"
