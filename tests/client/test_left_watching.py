"""The one who leaves a table that plays on (issue 31, the new-user run's N4): the screen says
when in the game's own words ("in round 2", never an internal step count), that it follows
the rest as a spectator's does (the public view only, to the game's end), and how others
watch it -- the ``fairtable watch`` line whole on a row of its own: through the host we
joined, the relay, or the host that left (it serves spectators on); none at a table of our
own bots."""

from __future__ import annotations

from fairtable.client.lifecycle import departed_line
from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client.screen import render
from tests.engine.driver import Table

INVITE = "fairtable1-abcdef0123456789"


def _seated(model: ClientModel) -> ClientModel:
    table = Table(3, seed=3, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model.apply_event(ev.Seated(seat=d.seat, players=3, names=("Ann", "Bob", "Cyra")))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    return model


def _rows(model: ClientModel) -> list[str]:
    rows = render(model, 80, 24)
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    return rows


def test_a_joiner_who_leaves_is_told_the_round_and_the_watch_line() -> None:
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Joining(INVITE))
    _seated(model)
    seat, round_ = model.seat, model.view.table.round
    assert seat is not None and round_ >= 1
    model.apply_event(ev.Departed(seat=seat, step=12, you=True))
    said = "\n".join(model.log)
    assert f"you left the table in round {round_}; the others play on" in said
    assert "step" not in said
    assert f"fairtable watch '{INVITE}'" in model.log  # a row of its own: a mouse copies it
    assert any("follows the rest as a spectator" in row for row in _rows(model))
    assert any("Others can watch it too" in row for row in _rows(model))
    assert model.invite_command("i")  # 'i' shows the line unwrapped and copies the invite
    assert "fairtable watch 'INVITE'" in model.info and INVITE in model.info.splitlines()


def test_a_relay_table_is_watched_through_the_relay() -> None:
    model = ClientModel(lambda answer: None)
    model.via = "relay.example:4000"
    model.apply_event(ev.TableOpen(INVITE))
    _seated(model)
    assert model.seat is not None
    model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
    assert f"fairtable watch '{INVITE}' --via relay.example:4000" in model.log


def test_a_host_without_a_relay_follows_the_rest_and_others_watch_through_it() -> None:
    """The host that left serves spectators on at its address (netplay/node/_follow.py): its
    invite still lets others watch, and its own screen follows the rest."""
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.TableOpen(INVITE))
    _seated(model)
    assert model.seat is not None
    model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
    said = "\n".join(model.log)
    assert f"fairtable watch '{INVITE}'" in model.log and "step" not in said
    assert "follows the rest as a spectator: the public view only" in said
    assert "following the rest as a spectator" in model.status


def test_a_host_of_its_own_bots_follows_the_rest_and_others_may_watch_it() -> None:
    """A table of our own bots that lets spectators in (the default): leaving, the host
    follows the rest, and the watch command is there for others (as at any table)."""
    model = ClientModel(lambda answer: None)
    model.all_bots = True
    model.apply_event(ev.TableOpen(INVITE))
    _seated(model)
    assert model.seat is not None
    model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
    assert f"fairtable watch '{INVITE}'" in model.log
    assert model.invite_command("i") and model.info.endswith(INVITE)


def test_a_host_of_its_own_bots_follows_the_rest_with_nobody_to_invite() -> None:
    """``host --bots N --no-spectators``: the host is the only person there; leaving does
    not blind it."""
    model = ClientModel(lambda answer: None)
    model.all_bots, model.spectators = True, False
    model.apply_event(ev.TableOpen(INVITE))
    _seated(model)
    assert model.seat is not None
    model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
    said = "\n".join(model.log)
    assert "follows the rest as a spectator" in said and "fairtable watch" not in said
    rows = _rows(model)
    assert any("You left: following the public view" in row for row in rows)
    assert not any("i invite" in row for row in rows)
    assert model.invite_command("i") and "every other seat is a bot here" in model.message
    assert "lets no spectators in" in model.message


def test_after_leaving_the_screen_shows_the_public_view_to_the_end() -> None:
    """What the network side tells after the leave is a spectator's (``view(None)``): the
    screen takes it as one -- no seat, no hand, no decision -- and says the end."""
    table = Table(3, seed=3, bots=["random"] * 3)
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Joining(INVITE))
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model.apply_event(ev.Seated(seat=d.seat, players=3, names=("Ann", "Bob", "Cyra")))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    model.apply_event(ev.Departed(seat=d.seat, step=12, you=True))
    assert model.seat is None and model.decision is None and model.following
    for _ in range(30):
        table.step()
        model.apply_event(ev.ViewChanged(table.truth.view(None), ()))
        assert model.view.seat is None and model.view.hand == ()
        assert "following the rest" in model.status
        rows = _rows(model)
        assert not any("your move" in row.lower() for row in rows)
    model.apply_event(ev.Resigned(seat=(d.seat + 1) % 3, step=40, you=False))
    assert not model.following and model.invite_block() == ""  # over: the table takes nobody
    assert "resigned" in model.over


def test_the_words_without_a_round_drop_the_step_too() -> None:
    assert departed_line(ev.Departed(1, 40, True)) == "you left the table; the others play on"
    assert departed_line(ev.Departed(2, 40, False)) == (
        "seat 2 left the table; the game goes on without it"
    )
    view = _seated(ClientModel(lambda answer: None)).view
    assert departed_line(ev.Departed(2, 40, False), view=view) == (
        f"seat 2 left the table in round {view.table.round}; the game goes on without it"
    )


def test_a_table_left_that_plays_on_keeps_i_for_its_watch_line() -> None:
    """Issue 31 (N12): game over drops the invite (the table is closed), but a seat that
    left a table the others play on still has 'i' for the watch line, and the hints say so --
    a host without a relay too, which serves spectators on."""
    for opened in (ev.Joining(INVITE), ev.TableOpen(INVITE)):
        model = ClientModel(lambda answer: None)
        model.apply_event(opened)
        _seated(model)
        assert model.seat is not None
        model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
        assert any("i invite" in row for row in _rows(model))
        assert INVITE in model.invite_block()


def test_whether_the_table_plays_on_for_us_is_worked_out_from_who_left() -> None:
    """Issue 30: 'the table plays on without me, and can be watched' is derived from the seats
    that left (the node's departures, another's as well as ours) and who serves spectators
    (client.lifecycle.watchable), not a flag one event sets: another seat leaving is not
    ours, and a joiner that leaves has the watch line's 'i' whether or not a relay is used."""
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.Joining(INVITE))
    _seated(model)
    assert model.seat is not None
    other = (model.seat + 1) % 3
    model.apply_event(ev.Departed(seat=other, step=10, you=False))
    assert model.departed == [other] and not model.plays_on and not model.over
    assert model.invite_block().startswith("To watch:")  # the game goes on: still ours to show
    seat = model.seat
    model.apply_event(ev.Departed(seat=seat, step=12, you=True))
    assert model.departed == [other, seat] and model.plays_on and model.over
    assert model.invite_command("i") and INVITE in model.info.splitlines()


def test_a_seat_the_others_agreed_had_vanished_keeps_i_for_its_watch_line() -> None:
    """Issue 31: a seat that comes back after the others agreed it had vanished is told so by
    a ``resigned`` event (its session ends there, docs/protocol.md §11.11) while the table
    plays on: like a seat that left, it gets the watch line and keeps 'i' for it at game over
    (nobody serves spectators once a host without a relay is gone: no 'i' then).  A seat
    that resigned ends the game for everyone: no 'i'."""
    joiner = ClientModel(lambda answer: None)
    joiner.apply_event(ev.Joining(INVITE))
    _seated(joiner)
    assert joiner.seat is not None
    joiner.apply_event(ev.Resigned(seat=joiner.seat, step=12, you=True, vanished=True))
    assert joiner.over.startswith("the others agreed that you had vanished")
    assert f"fairtable watch '{INVITE}'" in joiner.log
    assert any("i invite" in row for row in _rows(joiner))
    assert joiner.invite_command("i") and INVITE in joiner.info.splitlines()
    host = ClientModel(lambda answer: None)
    host.apply_event(ev.TableOpen(INVITE))
    _seated(host)
    assert host.seat is not None
    host.apply_event(ev.Resigned(seat=host.seat, step=12, you=True, vanished=True))
    assert "cannot be watched" in "\n".join(host.log) and "fairtable watch" not in host.over
    assert host.invite_block() == "" and not any("i invite" in row for row in _rows(host))
    quitter = ClientModel(lambda answer: None)
    quitter.apply_event(ev.Joining(INVITE))
    _seated(quitter)
    assert quitter.seat is not None
    quitter.apply_event(ev.Resigned(seat=quitter.seat, step=12, you=True))
    assert quitter.invite_block() == "" and not any("i invite" in row for row in _rows(quitter))


def test_when_the_rest_cannot_be_followed_the_screen_says_why() -> None:
    """The network side gives up following (netplay's patience: no seat answers any more)
    and says why: the screen ends with it, and offers no invite for a table that is gone."""
    model = ClientModel(lambda answer: None)
    model.apply_event(ev.TableOpen(INVITE))
    _seated(model)
    assert model.seat is not None
    model.apply_event(ev.Departed(seat=model.seat, step=12, you=True))
    model.apply_event(ev.Refused("no place at the table has answered for 60 s"))
    assert model.over == "Cannot follow the rest: no place at the table has answered for 60 s"
    assert not model.following and model.invite_block() == ""


def test_the_saved_copy_is_named_once_when_we_leave_and_follow_to_the_end() -> None:
    """The third new-user run: the departed player's log named the saved game twice, at the
    leave and again at the end it followed; once, at the leave, is enough."""
    model = _seated(ClientModel(lambda answer: None))
    model.apply_event(ev.FolderKnown("/tmp/x/tables/ab12"))
    seat = model.seat
    assert seat is not None
    model.apply_event(ev.Departed(seat=seat, step=12, you=True))
    model.apply_event(ev.Resigned(seat=(seat + 1) % 3, step=40, you=False))
    said = [line for line in model.log if "The game is saved" in line]
    assert len(said) == 1, list(model.log)
