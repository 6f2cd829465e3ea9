"""The waiting screen shows the join code beside the invite, and the code's news in the log."""

from __future__ import annotations

from client.reign.model import ClientModel
from client.screen_model import invite_lines
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


def test_a_table_of_our_own_bots_invites_nobody() -> None:
    """'play' (every other seat a bot of ours) shows no invite in its brief lobby."""
    model = ClientModel()
    model.all_bots = True
    model.apply_event(ev.TableOpen(invite=INVITE, code="7-amber-ant-ant-ant"))
    assert text(model) == "" and model.status.startswith("Waiting for players")


def test_play_tells_the_screen_every_other_seat_is_a_bot(monkeypatch, tmp_path) -> None:
    from client import cli, play

    seen: dict[str, object] = {}
    monkeypatch.setattr(play, "_network", lambda data_dir, **kw: seen.update(kw))
    monkeypatch.setattr(play, "_run_screen", lambda model, network: seen.update(model=model))
    monkeypatch.setattr(play, "require_terminal", lambda command, instead: None)
    assert cli.main(["play", "reign", "--bots", "2", "--data-dir", str(tmp_path)]) == 0
    assert seen["model"].all_bots is True  # type: ignore[attr-defined]
