"""The task queue every game's flow runs on.

A game's progress between answers is a queue of small tasks on its state (``state.tasks``:
tuples whose first item names a handler, the rest its arguments, all plain data so the
queue is part of the digest and of one-line positions).  :func:`run_tasks` runs them until
the game needs an answer (``state.pending``) or is over; handlers may push follow-up
tasks to the front with :func:`push_front`.  A state counts its decision points in
``state.serial``: it moves on each time the queue stops at a new request.  A handler
that sets the next request itself, inside an answer (Sovereign's breach ``Peek`` after its
``Chance``), asks it at the same step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

__all__ = ["Task", "TaskQueue", "push_front", "run_tasks"]

Task = tuple[Any, ...]


class TaskQueue(Protocol):
    """What the queue needs of a state (every game's state, through
    :class:`~engine.common_state.CommonState`)."""

    tasks: list[Task]
    pending: list[Any]
    serial: int

    @property
    def over(self) -> Any: ...


def run_tasks(state: TaskQueue, handlers: Mapping[str, Callable[..., None]]) -> None:
    """Run ``state``'s tasks with ``handlers`` until it asks something or is over."""
    was_waiting = bool(state.pending)
    while not state.pending and state.tasks and not state.over:
        task = state.tasks.pop(0)
        handlers[task[0]](state, *task[1:])
    if state.pending and not was_waiting:
        state.serial += 1


def push_front(state: TaskQueue, *tasks: Task) -> None:
    """Run these tasks next, in this order."""
    state.tasks[0:0] = tasks
