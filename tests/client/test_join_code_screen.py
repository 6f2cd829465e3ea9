"""The waiting screen shows the join code and the whole invite under the log, each on
full-width lines of its own (no pane border inside them, so a mouse copies them whole), puts
the invite on the clipboard (OSC 52), shows both again at any time with ``i``, and puts the
code's news in the log."""

from __future__ import annotations

from fairtable.client.clipboard import osc52
from fairtable.client.invite_words import invite_lines
from fairtable.client.reign.model import ClientModel
from fairtable.netplay import events as ev
from tests.client.screen import render, run_keys

INVITE = (
    "fairtable://10.0.0.2:4711/reign/3/"
    + "T" * 43
    + "?key="
    + "K" * 43
    + "&secret="
    + "S" * 43
    + "&relay="
    + "R" * 43
)  # as long as a relay table's invite


def text(model: ClientModel) -> str:
    return "".join(part for _style, part in invite_lines(model))


def rows_holding(screen: list[str], whole: str) -> list[str]:
    """The consecutive rows of ``screen`` that together spell ``whole`` (from a row that
    starts it), or [] if no rows do."""
    for start, row in enumerate(screen):
        if row and whole.startswith(row):
            joined, end = row, start + 1
            while len(joined) < len(whole) and end < len(screen):
                joined += screen[end]
                end += 1
            if joined == whole:
                return screen[start:end]
    return []


def hosting(code: str | None = "7-amber-ant-ant-ant") -> ClientModel:
    model = ClientModel()
    copied: list[str] = []
    model.apply_event(ev.TableOpen(invite=INVITE, code=code))
    model.copy = copied.append  # type: ignore[method-assign]
    return model


def test_the_lobby_at_80x24_shows_the_code_and_the_whole_invite_on_full_width_lines() -> None:
    screen = render(hosting())
    assert "Friends on this LAN: fairtable join 7-amber-ant-ant-ant" in screen
    rows = rows_holding(screen, INVITE)
    assert len(rows) == 3 and all("|" not in row for row in rows), screen  # no border inside
    assert all(len(row) == 80 for row in rows[:-1])  # the full width of the screen
    assert not any("more (a taller window" in row for row in screen), screen
    assert "'i' and Enter show it again at any time." in text(hosting())


def test_without_a_code_only_the_invite() -> None:
    model = hosting(code=None)
    assert model.code == ""
    assert model.invite_block() == (
        "Anywhere, fairtable join 'INVITE' with this whole invite:\n" + INVITE
    )


def test_the_invite_goes_to_the_clipboard_when_the_table_opens() -> None:
    model = ClientModel()
    copied: list[str] = []
    model.copy = copied.append  # type: ignore[method-assign]
    model.apply_event(ev.TableOpen(invite=INVITE, code="7-amber-ant-ant-ant"))
    assert copied == [INVITE] and "clipboard" in model.message
    assert osc52("ab") == "\x1b]52;c;YWI=\x07"


def test_i_shows_the_invite_again_once_the_game_runs_and_copies_it() -> None:
    model = hosting()
    copied: list[str] = []
    model.copy = copied.append  # type: ignore[method-assign]
    model.apply_event(ev.Seated(seat=0, players=3, resumed=False))
    assert model.lobby_invite() == ""  # the game runs: the pane is the menu's again
    model.command("i")
    assert copied == [INVITE] and model.info.endswith(INVITE)
    assert "7-amber" not in model.info  # the code is retired once the table is full
    assert rows_holding(render(model), INVITE)
    model.command("")  # any other line hides it
    assert model.info == ""


def test_i_on_the_screen_and_in_the_keys_overlay_and_help() -> None:
    model = hosting()
    run_keys(model, "invite\r\x11")  # Ctrl-Q quits
    assert model.info.endswith(INVITE)
    assert "'i' and Enter show the join code and the invite again" in model.help_text()
    model.show_keys = True
    assert any(row.startswith(" i Enter ") for row in render(model))


def test_a_joiner_can_pass_the_invite_on() -> None:
    model = ClientModel()
    model.apply_event(ev.Joining(invite=INVITE))
    model.command("i")
    assert model.info.endswith(INVITE)


def test_a_joiner_may_paste_an_invite_with_its_line_breaks() -> None:
    import trio

    from fairtable.client.seats import invite_from
    from fairtable.netplay import Invite

    invite = Invite("10.0.0.2", 4711, bytes(32), bytes(32), bytes(32), "reign", 3)
    wrapped = "\n".join(invite.text()[i : i + 80] for i in range(0, len(invite.text()), 80))
    assert trio.run(invite_from, "  " + wrapped + "\n") == invite


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
    assert model.lobby_invite() == "" and not any(INVITE[:40] in row for row in render(model))


def test_play_tells_the_screen_every_other_seat_is_a_bot(monkeypatch, tmp_path) -> None:
    from fairtable.client import cli, play

    seen: dict[str, object] = {}
    monkeypatch.setattr(play, "_network", lambda data_dir, **kw: seen.update(kw))
    monkeypatch.setattr(play, "_run_screen", lambda model, network: seen.update(model=model))
    monkeypatch.setattr(play, "require_terminal", lambda command, instead: None)
    assert cli.main(["play", "reign", "--bots", "2", "--data-dir", str(tmp_path)]) == 0
    assert seen["model"].all_bots is True  # type: ignore[attr-defined]


def test_a_relay_code_is_shown_with_its_relay_and_the_lan_line_when_announced() -> None:
    model = ClientModel()
    model.apply_event(
        ev.TableOpen(invite=INVITE, code="7-amber-ant-ant-ant", code_via="relay.example:7777")
    )
    assert model.invite_block().split("\n")[:3] == [
        "Anywhere: fairtable join 7-amber-ant-ant-ant --via relay.example:7777",
        "On this LAN also: fairtable join 7-amber-ant-ant-ant",
        "Anywhere, fairtable join 'INVITE' --via relay.example:7777 with this whole invite:",
    ]
    screen = render(model)
    assert "Anywhere: fairtable join 7-amber-ant-ant-ant --via relay.example:7777" in screen
    model = ClientModel()
    model.apply_event(
        ev.TableOpen(invite=INVITE, code="7-ant-ant-ant-ant", code_via="r:1", code_lan=False)
    )
    assert "On this LAN" not in model.invite_block()


def test_once_the_game_runs_the_invite_is_offered_for_watching() -> None:
    model = hosting()
    model.via = "relay.example:7777"
    model.apply_event(ev.Seated(seat=0, players=3, resumed=False))
    model.command("i")
    assert model.info == (
        "To watch: fairtable watch 'INVITE' --via relay.example:7777 with this whole invite:\n"
        + INVITE
    )


def test_a_spectator_shows_the_invite_it_watches_with_by_pressing_i() -> None:
    from fairtable.client.keys import screen_keys
    from fairtable.client.watch_screen import spectator_model
    from fairtable.netplay import Invite

    invite = Invite("10.0.0.2", 4711, bytes(32), bytes(32), bytes(32), "reign", 3)
    model = spectator_model(invite, ("10.0.0.9", 7777))
    run_keys(model, "iq")  # i, then q leaves
    assert model.info.startswith("To watch: fairtable watch 'INVITE' --via 10.0.0.9:7777")
    assert model.info.endswith(invite.text())
    copied: list[str] = []
    model.copy = copied.append  # type: ignore[method-assign]
    model.invite_command("i")
    assert copied == [invite.text()]  # to the clipboard (OSC 52 on a real screen)
    assert ("i", "show or hide the invite, for others to watch (and copy it)") in screen_keys(model)
