"""The '?' overlay lists the keys and words of the screen as it is now, and closes again."""

from __future__ import annotations

from fairtable.client.keys import screen_keys
from fairtable.client.sodalis.model import ClientModel as SodalisModel
from fairtable.client.sovereign.model import ClientModel as SovereignModel
from tests.client.screen import render, run_keys
from tests.client.test_screen import decision_model


def _keys(model: object) -> dict[str, str]:
    return dict(screen_keys(model))


def test_keys_of_a_reign_bid_name_the_card_picking_words() -> None:
    model, _, _ = decision_model()
    assert model.decision is not None and model.decision.kind == "bid"
    keys = _keys(model)
    assert {"N", "done", "clear", "pass", "F2", "Up/Down", "resign"} <= set(keys)
    assert "N>S" not in keys  # a bid's cards go nowhere in particular
    assert "Esc" not in keys and "PgDn" not in keys  # nothing to hide, the log is at its end


def test_keys_say_esc_and_pgdn_only_when_they_do_something() -> None:
    model, _, _ = decision_model()
    model.command("info 1")
    model.log_back = 3
    keys = _keys(model)
    assert "Esc" in keys and "PgDn" in keys


def test_keys_say_pgup_and_pgdn_page_the_help_while_it_shows() -> None:
    model, _, _ = decision_model()
    model.log_back = 3
    model.show_help = True
    keys = _keys(model)
    assert keys["PgUp / PgDn"] == "page through the help" and "PgDn" not in keys
    model.show_help = False
    assert _keys(model)["PgUp"] == "scroll the log back" and "PgDn" in _keys(model)


def test_keys_with_nothing_to_decide_list_no_menu_or_game_words() -> None:
    for model in (SodalisModel(), SovereignModel()):
        keys = _keys(model)
        assert "N / #N" not in keys and "words" not in keys and "resign" not in keys
        assert "?" in keys and "Ctrl-Q" in keys  # q alone is a letter of the prompt


def test_question_mark_on_an_empty_prompt_opens_the_overlay_and_closes_it() -> None:
    model, sent, _ = decision_model()
    run_keys(model, "?q\r")
    assert model.show_keys and sent == []
    screen = "\n".join(render(model))
    assert "Keys here (? or Esc closes)" in screen and "send the cards picked" in screen
    run_keys(model, "?q\r")  # '?' again closes it
    assert not model.show_keys
    assert "Keys here" not in "\n".join(render(model))
    model.show_keys = True
    run_keys(model, "\x1bq\r")  # and so does Esc
    assert not model.show_keys


def test_question_mark_in_a_typed_line_is_just_a_character() -> None:
    model, _, _ = decision_model()
    run_keys(model, "x?\x7f\x7f?q\r")  # typed after a character, then on an empty prompt
    assert model.show_keys


def _over() -> object:
    from fairtable.engine.outcome import Outcome
    from fairtable.netplay import events as ev

    model, _, _ = decision_model()
    model.invite = "fairtable://127.0.0.1:4000/reign/3/xyz?key=k&secret=s"
    model.apply_event(ev.GameOver(Outcome.seat(1), digest="ab", end="won"))
    assert model.over and model.decision is None
    return model


def test_at_game_over_q_is_a_single_key_as_the_screen_says() -> None:
    """Issue 31: at game over 'Press q to leave' needed q and Enter; q is a single key there,
    as a spectator's is, and the key hints and '?' list say so."""
    model = _over()
    run_keys(model, "q")  # no Enter: q alone leaves (run_keys ends)
    keys = _keys(model)
    assert "q / Ctrl-Q" in keys
    assert "info N" not in keys and "resign" not in keys
    assert any(row.startswith(" Game over  PgUp/PgDn log  ? keys  q quit") for row in render(model))


def test_a_table_over_offers_no_invite() -> None:
    """Issue 31 (N12): the invite of a table that is over reaches nobody (the host has
    closed it), so game over neither offers 'i' nor shows the invite: i says why instead,
    for a player and a spectator alike."""
    for spectating in (False, True):
        model = _over()
        model.spectating = spectating  # type: ignore[attr-defined]
        run_keys(model, "iq")
        assert "fairtable watch" not in model.info  # type: ignore[attr-defined]
        assert "fairtable watch" not in "\n".join(render(model))
        assert "over" in model.message  # type: ignore[attr-defined]
        assert "i" not in _keys(model)
        assert not any("i invite" in row for row in render(model))


def test_a_bare_number_is_listed_with_the_one_meaning_it_has_here() -> None:
    """Issue 31: the '?' list and F1 named both meanings of a bare number (a menu option, a
    hand card) at once; each names only the one the decision at hand gives it."""
    model, _, table = decision_model()
    assert model.decision is not None and model.decision.kind == "bid"  # cards picked by N
    keys = _keys(model)
    assert keys["#N"].startswith("answer with option N") and "N / #N" not in keys
    assert keys["N"].startswith("pick card N of your hand")
    assert "Type '#N' for menu option N" in model.help_text()
    assert "menu number (N or #N)" not in model.help_text()
    assert "'N>S'" not in model.help_text()  # a bid's cards go to no seat
    sodalis = _sodalis_turn()
    keys = _keys(sodalis)
    assert "N / #N" in keys and "N" not in keys  # a bare number is an option there
    assert "toggle card N" not in sodalis.help_text()


def _sodalis_turn() -> SodalisModel:
    from tests.client import test_sodalis_model as sodalis

    model, _ = sodalis.model_for(*sodalis.first_turn())
    return model


def test_reign_f1_off_a_picking_decision_says_numbers_pick_options() -> None:
    from fairtable.client.reign.model import PICKING, ClientModel
    from fairtable.engine.requests import Decision
    from fairtable.netplay import events as ev
    from tests.engine.driver import Table

    table = Table(3, seed=3, bots=["random"] * 3)
    for _ in range(2000):  # on to a Reign decision not built card by card
        pending = table.truth.pending()[0]
        if isinstance(pending, Decision) and pending.kind not in PICKING:
            break
        table.step()
    d = table.truth.pending()[0]
    assert isinstance(d, Decision) and d.kind not in PICKING
    model = ClientModel()
    model.apply_event(ev.Seated(seat=d.seat, players=3))
    model.apply_event(ev.DecisionAsked(decision=d, view=table.truth.view(d.seat)))
    assert "Type a menu number (N or #N)" in model.help_text()
    assert "toggle card N" not in model.help_text()
    assert "N / #N" in _keys(model) and "N" not in _keys(model)


def test_a_seeded_games_keys_and_help_never_say_it_is_kept() -> None:
    """The third new-user run: `play reign --seed 5`'s '?' said "Ctrl-Q leave (the game is
    kept; ...)" though a seeded game is kept nowhere (its message line says so); so did the
    help and plain mode's 'help'.  They say what is true, during the game and at its end."""
    from fairtable.client.help_parts import in_plain, on_screen
    from fairtable.client.plain import PlainSession
    from fairtable.client.seeded import keep_nothing

    model, _, _ = decision_model()
    keep_nothing(model)
    said: list[str] = []
    PlainSession(model, said.append).line("help")
    during = [
        *(what for _, what in screen_keys(model)),
        on_screen(model.help_parts()),
        in_plain(model.help_parts()),
        *said,
    ]
    assert not [line for line in during if "is kept" in line or "is saved" in line], during
    assert _keys(model)["Ctrl-Q"] == "leave (a seeded game is not kept; or type q and Enter)"
    assert any("quit: leave (a seeded game is not kept" in line for line in said), said
    model.command("resign")
    model.command("yes")
    from fairtable.engine.outcome import Outcome
    from fairtable.netplay import events as ev

    model.apply_event(ev.GameOver(Outcome.seat(1), digest="ab", end="won"))
    assert model.over
    assert _keys(model)["q / Ctrl-Q"] == "leave (a seeded game is not kept)"
    assert "not kept" in on_screen(model.message_parts)
