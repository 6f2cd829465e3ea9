"""Issue 31, N11: during play the invite is shown by ``i`` and Enter (a bare ``i`` is the
start of typed words such as ``info N``), and the key bar and the ``?`` overlay say so
whenever the table has an invite or a code -- not at game over, when nobody can use it.
While the invite stands in place of a decision's menu, the screen says that Esc returns
to the decision."""

from __future__ import annotations

from fairtable.client.reign.model import ClientModel
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.client.screen import render
from tests.client.test_join_code_screen import INVITE
from tests.engine.driver import Table

I_ENTER = "i Enter: invite"


def at_a_decision(invite: bool) -> ClientModel:
    """A seat at its first decision of a seeded Reign game; hosting with an invite, or a
    table of its own bots (no invite)."""
    table = Table(3, seed=2, bots=["random"] * 3)
    while not isinstance(table.truth.pending()[0], Decision):
        table.step()
    d = table.truth.pending()[0]
    model = ClientModel(lambda answer: None)
    model.copy = lambda text: None  # type: ignore[method-assign]
    if invite:
        model.apply_event(ev.TableOpen(invite=INVITE, code="7-amber-ant-ant-ant"))
    model.apply_event(ev.Seated(seat=d.seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    return model


def hints(screen: list[str]) -> str:
    return screen[-1]


def test_the_key_bar_and_the_keys_overlay_say_i_enter_while_an_invite_exists() -> None:
    model = at_a_decision(invite=True)
    for width in (80, 120):
        bar = hints(render(model, width, 24))
        assert I_ENTER in bar and "Ctrl-Q quit" in bar and "F1 help" in bar, bar
        assert len(bar) <= width
    model.show_keys = True
    overlay = render(model)
    assert any(row.startswith(" i Enter ") and "invite" in row for row in overlay), overlay
    alone = at_a_decision(invite=False)  # every other seat a bot of ours: nobody to invite
    assert I_ENTER not in hints(render(alone))
    alone.show_keys = True
    assert not any(row.startswith(" i Enter ") for row in render(alone))


def test_i_at_a_decision_says_esc_returns_to_it() -> None:
    model = at_a_decision(invite=True)
    menu = model.menu()
    model.command("i")
    assert model.info.endswith(INVITE) and model.decision is not None
    screen = "\n".join(render(model))
    assert "Esc returns to the decision" in screen, screen
    assert "also copied to your clipboard" in model.message
    model.command("")  # any line (or Esc) hides it: the decision's menu is back
    assert model.info == "" and model.menu() == menu


def test_a_decision_that_arrives_under_the_invite_says_esc_brings_it() -> None:
    """The third new-user run: ``i`` Enter while waiting, then our decision arrives: the
    invite stays where the menu goes (a mouse may be copying it), and the message says that
    it is our move and Esc brings the decision; plain mode, which has no Esc, says nothing."""
    from fairtable.client.help_parts import in_plain

    model = at_a_decision(invite=True)
    d, view = model.decision, model.view
    assert d is not None
    model.decision = None  # waiting, the invite asked for
    model.command("i")
    assert model.info.endswith(INVITE) and model.decision is None
    model.apply_event(ev.DecisionAsked(decision=d, view=view))
    screen = "\n".join(render(model))
    assert model.info.endswith(INVITE)
    assert "Your move: Esc returns to the decision" in screen, screen
    assert "Esc" not in in_plain(model.message_parts)


def test_a_host_of_its_own_bots_shows_the_invite_to_watch_where_spectators_may() -> None:
    """The third new-user run: ``host reign --seats 3 --bots 2`` answered ``i`` with "No
    invite to show: every other seat is a bot here", though spectators are let in by
    default and a friend could watch.  ``i`` shows the watch command and copies the invite
    (with the relay where there is one); only a table refusing spectators has none."""
    copied: list[str] = []
    model = at_a_decision(invite=False)
    model.all_bots = True
    model.via = "10.0.0.1:17977"
    model.apply_event(ev.TableOpen(invite=INVITE))
    assert I_ENTER in hints(render(model))
    model.show_keys = True
    overlay = [row for row in render(model) if row.startswith(" i Enter ")]
    assert overlay and "watch" in overlay[0] and "join code" not in overlay[0], overlay
    model.show_keys = False
    model.copy = copied.append  # type: ignore[method-assign]  # (the screen set its own)
    model.command("i")
    assert model.info == (
        f"To watch: fairtable watch 'INVITE' --via 10.0.0.1:17977 with this whole invite:\n{INVITE}"
    )
    assert copied == [INVITE] and "join" not in model.info.replace("fairtable watch", "")
    model.command("")
    refusing = at_a_decision(invite=False)
    refusing.all_bots, refusing.spectators = True, False  # host --no-spectators
    refusing.apply_event(ev.TableOpen(invite=INVITE))
    assert refusing.invite_command("i") and refusing.info == ""
    assert refusing.message == (
        "No invite to show: every other seat is a bot here, and the table lets no spectators in."
    )


def test_an_invite_on_this_machine_only_says_so() -> None:
    """``play``'s table listens on loopback: a spectator on this machine can watch it (the
    invite works there), nobody elsewhere."""
    model = at_a_decision(invite=False)
    model.all_bots = True
    here = INVITE.replace("10.0.0.2", "127.0.0.1")
    model.apply_event(ev.TableOpen(invite=here))
    model.command("i")
    assert model.info == (
        f"To watch on this machine: fairtable watch 'INVITE' with this whole invite:\n{here}"
    )
