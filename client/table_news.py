"""What the network side says about the table, taken into the game-neutral screen model.

:func:`take` owns the words and the model's fields for every node event that is not one
game's: the lobby and its invite or code, seating and names, refusals, waits and clocks,
the game's end by a verdict, a resignation or a departure, and the folder it is kept in.
Each game's model takes its views, decisions and results first and hands the rest here
(through :meth:`client.screen_model.ScreenModel.apply_event`).
"""

from __future__ import annotations

from typing import Any

from fairtable.client import ending
from fairtable.client.clock_words import limits_words
from fairtable.client.errors import reach_line
from fairtable.client.invite_words import COPIED
from fairtable.client.leavers_words import leavers_line
from fairtable.client.lifecycle import (
    FOLLOWING,
    code_news,
    departed_line,
    following_line,
    resigned_line,
    resume_line,
    vanishing_line,
    watch_rest_lines,
)
from fairtable.client.seat_names import SeatNames, at_the_table
from fairtable.netplay import events as ev

__all__ = ["take"]


def take(model: Any, event: ev.NodeEvent) -> None:
    """Take one node event that is not one game's into ``model``, a
    :class:`client.screen_model.ScreenModel` (typed loosely: that module imports this one, and
    the house allows no import circle, not even a type checker's); its status line is made
    anew by the caller afterwards."""
    match event:
        case ev.TableOpen():
            model.invite = event.invite
            model.code = event.code or ""
            model.code_via, model.code_lan = event.code_via or "", event.code_lan is not False
            model.limits = limits_words(event.clock)
            # bots of ours may be seated before the table opens to others (a relay's
            # code comes later): their count stays said
            lobby = model.seats_taken or "Waiting for players to join"
            model.status = lobby + model.limits_shown()
            if not model.all_bots:  # said to the people invited (a game with bots: no one)
                model.log.append(leavers_line(event.leavers))
                model.copy(model.invite)
                model.message = COPIED
        case ev.Joining():
            model.held_invite = event.invite
            if not model.leavers_told:  # plain lines said it before joining: not twice
                model.log.append(leavers_line(event.leavers))
        case (
            ev.NoLanAddress()
            | ev.WrongJoinCode()
            | ev.JoinCodeRetired()
            | ev.JoinCodeUsed()
            | ev.RelayCodeGone()
        ):
            model.log.append(code_news(event))
        case ev.LobbyUpdate():
            model.reached = True
            model.seats_taken = f"{event.seated} of {event.seats} seats taken"
            model.status = model.seats_taken + model.limits_shown()
        case ev.Seated():
            model.reached = True
            model.status = "The game starts: shuffling and dealing..."
            model.seat, model.players = event.seat, event.players
            model.names = SeatNames(event.names, you=event.seat)  # ours reads "you"
            mine = model.names.label(event.seat) if model.names.named(event.seat) else ""
            of = f"seat {model.seat} of {model.players}"
            model.log.append(
                f"The game starts: you are {mine} ({of})"
                if mine
                else f"The game starts: you are {of}"
            )
            if any(n for s, n in enumerate(event.names) if s != event.seat):  # others named
                model.log.append(at_the_table(event.names))
            if limits_words(event.clock):
                model.log.append("Time: " + limits_words(event.clock))
        case ev.PlayerNames():  # a spectator learns them from the table's start
            model.names = SeatNames(event.names)
            if model.names:
                model.log.append(at_the_table(event.names))
        case ev.Unreachable():  # the host (or relay) cannot be reached: said, retried
            model.status = reach_line(event)
        case ev.Refused():
            model.log.append(f"Refused: {event.reason}")
            if model.spectating:
                model.end(f"Cannot watch this table: {event.reason}")
            elif model.following:
                model.end(f"Cannot follow the rest: {event.reason}")
            elif model.seat is None and not model.invite:  # a joiner the table will not seat
                model.end(f"No seat at this table: {event.reason}")
        case ev.AnswerRefused():
            model.message = f"Not allowed: {event.reason}"
            model.sent_for = None  # not taken: the decision is open to another answer
        case ev.SeatWaiting():
            model.waiting[event.seat] = event.seconds
        case ev.ClockReadings():
            model.clock = event.seats
        case ev.SeatOffline() | ev.SeatOnline():
            model.log.append(
                f"Seat {event.seat} is "
                + ("offline" if isinstance(event, ev.SeatOffline) else "back online")
            )
        case ev.TimeClaim():
            model.log.append(f"Seat {event.by} says {event.reason}; our clock disagrees")
        case ev.BotThinking():
            model.thinking[event.seat] = event
        case ev.WaitingFor():
            model.blocking = list(event.seats)
            model.thinking = {s: t for s, t in model.thinking.items() if s in model.blocking}
            model.waiting = {s: t for s, t in model.waiting.items() if s in model.blocking}
            if model.view is None and model.seat is not None and model.blocking:  # setting up
                others = [s for s in model.blocking if s != model.seat]
                model.status = "Setting up the game: waiting for " + (
                    ", ".join(f"seat {s}" for s in others) or "you"
                )
        case ev.FolderKnown():
            model.saved = event.path
            if model.over:  # a restart may replay the end before this arrives
                model.log.append(ending.saved_line(model.saved))
        case ev.Verdict():
            model.end(ending.stopped(event, model.abandoned))
        case ev.Resuming():
            model.message = model.notice = resume_line(event)
            model.log.append(model.message)
        case ev.Departed() if event.you:  # the network side follows the rest from here
            _left_for_good(model, event.seat, departed_line(event, view=model.view), True)
        case ev.Resigned() if event.you and event.vanished:  # the others play on (§11.11)
            _left_for_good(model, event.seat, resigned_line(event))
        case ev.Resigned():
            model.confirming_resign = False
            result = "" if event.vanished else model.resign_result(event.seat)
            model.end(resigned_line(event) + (f"; {result}" if result else ""))
        case ev.Departed():
            model.departed.append(event.seat)
            model.log.append(departed_line(event, model.departed_seat, model.view))
        case ev.Staying():
            model.log.append(ending.staying_line(event.seats, event.seconds, "q"))
        case ev.Abandoned():
            model.abandoned = event.seat
            model.log.append(f"Seat {event.seat} never came back: the game is abandoned")
        case ev.Vanishing():
            model.log.append(vanishing_line(event))


def _left_for_good(model: Any, seat: int, line: str, following: bool = False) -> None:
    """Our seat left a table that plays on -- we left, or we came back after the others had
    agreed that we vanished (docs/protocol.md §11.11): the game is over for us, the watch
    line follows (or that nobody can watch), and 'i' keeps it (``ScreenModel.plays_on``).
    ``following`` (we left): the network side follows the rest as a spectator, so the screen
    says so and takes what follows as a spectator's screen does (no seat: the public view)."""
    model.departed.append(seat)
    model.confirming_resign = False
    model.end(line)
    others = not model.watchers_only() or model.spectators  # someone may watch it
    model.log.extend(
        watch_rest_lines(
            model.invite, model.held_invite, model.via, following=following, others=others
        )
    )
    if following:
        model.over = following_line(model.view)  # the status says it follows
        model.message = FOLLOWING
        model.following = True
        model.seat = None  # from here on, the public view only, as a spectator's
