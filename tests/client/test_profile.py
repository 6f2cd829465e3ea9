"""The name of a player who gives no ``--name`` (client.profile): the login name cleaned to
the name rules, or a name made from the key, remembered in the profile; ``--name`` is
remembered instead once given; a damaged profile is refused with the file's name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairtable.client import profile
from fairtable.client.errors import UsageError
from fairtable.client.seats import identity_at
from fairtable.netplay import name_problem


@pytest.mark.parametrize(
    ("login", "name"),
    [
        ("ada", "ada"),
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("a\x1b[31mb", "a[31mb"),  # no escape reaches another screen
        ("x" * 40, "x" * 24),
        ("seat 2", ""),  # would read as a seat
        ("you", ""),
        ("\x07", ""),
    ],
)
def test_a_login_name_is_cleaned_to_the_name_rules(login: str, name: str) -> None:
    assert profile.login_name(login) == name
    assert not name or name_problem(name) is None


def test_the_login_name_is_the_default_and_is_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profile, "_login", lambda: "ada")
    assert profile.my_name(tmp_path) == "ada"
    monkeypatch.setattr(profile, "_login", lambda: "somebody else")
    assert profile.my_name(tmp_path) == "ada"  # the profile keeps it
    assert json.loads((tmp_path / profile.PROFILE_FILE).read_text()) == {"name": "ada"}


def test_a_given_name_wins_and_is_remembered_from_then_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profile, "_login", lambda: "ada")
    assert profile.my_name(tmp_path) == "ada"
    assert profile.my_name(tmp_path, "Zoë") == "Zoë"
    assert profile.my_name(tmp_path) == "Zoë"


def test_without_a_usable_login_name_the_key_names_the_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profile, "_login", lambda: "seat 1")
    key = identity_at(tmp_path).public.key
    assert profile.my_name(tmp_path) == f"player {key[:2].hex()}" == profile.key_name(key)
    assert name_problem(profile.key_name(key)) is None


@pytest.mark.parametrize("text", ["{not json", '{"name": 3}', '{"name": "seat 2"}', "[]"])
def test_a_damaged_profile_is_refused_with_its_file_and_left_as_it_is(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / profile.PROFILE_FILE
    path.write_text(text)
    with pytest.raises(UsageError, match="profile.json"):
        profile.my_name(tmp_path)
    assert path.read_text() == text
