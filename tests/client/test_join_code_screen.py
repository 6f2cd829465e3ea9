"""The waiting screen shows the join code beside the invite, and the code's news in the log."""

from __future__ import annotations

from client.model import ClientModel, invite_lines
from netplay import events as ev

INVITE = "fairtable://10.0.0.2:4711/reign/3/T?key=K&secret=S"


def text(model: ClientModel) -> str:
    return "".join(part for _style, part in invite_lines(model))


def test_code_shown_on_a_line_of_its_own_before_the_invite() -> None:
    model = ClientModel()
    model.apply_event(ev.TableOpen(invite=INVITE, code="7-amber-ant-ant-ant"))
    shown = text(model)
    assert "\n7-amber-ant-ant-ant\n" in shown and INVITE in shown
    assert shown.index("7-amber") < shown.index(INVITE)


def test_without_a_code_only_the_invite() -> None:
    model = ClientModel()
    model.apply_event(ev.TableOpen(invite=INVITE))
    assert model.code == "" and text(model) == "\nInvite your friends:\n" + INVITE + "\n"


def test_code_news_and_the_missing_lan_address_reach_the_log() -> None:
    model = ClientModel()
    model.apply_event(ev.NoLanAddress(message="no LAN address found: ..."))
    model.apply_event(ev.WrongJoinCode(failures=2, limit=5))
    model.apply_event(ev.JoinCodeRetired(failures=5))
    assert list(model.log) == [
        "no LAN address found: ...",
        "Someone tried a wrong join code (2 of 5)",
        "Too many wrong join codes: the code is retired (the invite still works)",
    ]
