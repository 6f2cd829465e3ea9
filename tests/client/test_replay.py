"""``fairtable replay``: the export round trip, open hands after the audit, a tampered log
refused at its step, and a verdict game replayed to its verdict (all three games)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fairtable.client.cli import main
from fairtable.client.replay import load_table, record_for
from fairtable.protocol import EndingKind, ReplayError, read_log, replay_log, write_log
from tests.client.replay_tables import log_file, played, seen_by

GAMES = ("reign", "sovereign", "sodalis")


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("game", GAMES)
def test_export_round_trip_checks_again_with_audit(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, sessions = played(game)
    path = log_file(tmp_path, game)
    assert main(["replay", str(path), "--export", str(tmp_path / "out" / "record.txt")]) == 2
    (tmp_path / "out").mkdir()
    assert main(["replay", str(path), "--export", str(tmp_path / "out" / "record.txt")]) == 0
    capsys.readouterr()
    text = (tmp_path / "out" / "record.txt").read_text().splitlines()
    objects = _jsonl(tmp_path / "out" / "record.jsonl")
    header, steps, ending = objects[0], objects[1:-1], objects[-1]
    assert header["game"] == game and header["log"] == "record.log"
    assert [s["index"] for s in steps] == list(range(len(steps))) and len(steps) > 10
    assert len(text) == len(steps) + 2  # a header, one line per step, the ending
    assert ending["ending"] == "finished"
    assert ending["digest"] == sessions[0].finished.digest == steps[-1]["digest"]
    assert all("hands" not in s for s in steps)  # hidden cards only when asked, once audited
    # the exported log is the game's signed log: audit checks it again, with the same digest
    assert main(["audit", str(tmp_path / "out" / "record.log"), "--json"]) == 0
    audit = json.loads(capsys.readouterr().out)
    assert audit["ok"] and audit["digest"] == ending["digest"]
    # and replaying it again gives the same record (the header names the log's new name)
    assert (
        main(["replay", str(tmp_path / "out" / "record.log"), "--export", str(tmp_path / "again")])
        == 0
    )
    again = _jsonl(tmp_path / "again.jsonl")
    assert again[1:] == objects[1:] and again[0]["log_sha256"] == header["log_sha256"]


@pytest.mark.parametrize("game", ["reign", "sovereign"])
def test_open_hands_show_a_privately_drawn_card_at_its_draw(game: str, tmp_path: Path) -> None:
    spec, sessions = played(game)
    replay = replay_log(*load_table(log_file(tmp_path, game)))
    assert replay.audited
    seen = [seen_by(game, seat) for seat in range(spec.seats)]
    found = 0
    for i, step in enumerate(replay.steps[1:], start=1):
        if (
            step.kind != "deal"
            or len(step.seats) != 1
            or not any(e.KIND == "draw" for e in step.events)
        ):  # a draw (not cards handed over)
            continue
        seat = step.seats[0]
        before, after = replay.open_hands(i - 1)[seat], replay.open_hands(i)[seat]
        drawn = [c for c in after if after.count(c) > before.count(c)]
        assert drawn, f"step {i}: a deal to seat {seat} shows no new card"
        # the card is the one that seat's own peer decrypted for itself when it drew it
        assert set(drawn) <= set(seen[seat])
        assert "?" not in after
        # and no other seat's hand changed at that step
        for other in range(spec.seats):
            if other != seat:
                assert replay.open_hands(i)[other] == replay.open_hands(i - 1)[other]
        found += 1
    assert found >= 3


def test_open_hands_need_the_audit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log cut before the deck keys were opened replays, but shows no hidden card."""
    spec, sessions = played("reign")
    entries = sessions[0].entries()
    # drop every entry that carries an audit opening (each seat's last)
    cut = []
    for seat in range(spec.seats):
        feed = [e for e in entries if json.loads(e)["seat"] == seat]
        cut += feed[:-1]
    replay = replay_log(spec, cut)
    assert not replay.audited and replay.ending.kind is EndingKind.INCOMPLETE
    with pytest.raises(ReplayError, match="need the audit"):
        replay.open_hands(3)
    path = tmp_path / "cut.log"
    path.write_bytes(write_log(spec, cut))
    assert main(["replay", str(path), "--export", str(tmp_path / "x"), "--open-hands"]) == 2
    assert "--open-hands needs an audited game" in capsys.readouterr().err
    assert not list(tmp_path.glob("x*"))
    # the full log, audited, shows them in the export
    full = log_file(tmp_path, "reign")
    assert main(["replay", str(full), "--export", str(tmp_path / "open"), "--open-hands"]) == 0
    steps = _jsonl(tmp_path / "open.jsonl")[1:-1]
    assert any(any(hand for hand in s["hands"].values()) for s in steps)


@pytest.mark.parametrize("game", GAMES)
def test_tampered_log_is_refused_with_its_step(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, sessions = played(game)
    path = log_file(tmp_path, game)
    lines = path.read_bytes().split(b"\n")
    target = len(lines) // 2
    entry = json.loads(lines[target])
    body = bytearray(entry["body"].encode())
    body[40] = ord("A") if body[40] != ord("A") else ord("B")  # one byte of a signed body
    entry["body"] = body.decode()
    lines[target] = json.dumps(entry, separators=(",", ":"), sort_keys=True).encode()
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    assert main(["replay", str(path), "--export", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"line {target + 1}" in err
    step = int(err.rsplit("past step ", 1)[1])
    assert 0 < step < sessions[0].game.state.serial  # the step the game cannot pass
    assert path.read_bytes() == before and not list(tmp_path.glob("out*"))
    with pytest.raises(ReplayError, match=f"past step {step}$"):
        replay_log(*read_log(before))


@pytest.mark.parametrize(
    ("game", "cheat"),
    [("reign", "bad-reveal"), ("sovereign", "bad-reveal"), ("sodalis", "illegal-move")],
)
def test_verdict_game_replays_to_its_verdict(
    game: str, cheat: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec, sessions = played(game, 1, cheat, 1)
    verdict = sessions[0].verdict
    assert verdict is not None and verdict.seat == 1
    record = record_for(*load_table(log_file(tmp_path, game, cheat=cheat, cheater=1)))
    ending = record.ending
    assert ending.kind is EndingKind.VERDICT and ending.seat == 1 and verdict.kind in ending.reason
    assert ending.step == sessions[0].game.state.serial
    assert not record.replay.audited
    assert (
        main(
            [
                "replay",
                str(log_file(tmp_path, game, cheat=cheat, cheater=1)),
                "--export",
                str(tmp_path / "v"),
            ]
        )
        == 0
    )
    last = (tmp_path / "v.txt").read_text().splitlines()[-1]
    assert last.startswith(
        f"stopped by a verdict at step {ending.step}: seat 1 blamed for {verdict.kind}"
    )
    assert _jsonl(tmp_path / "v.jsonl")[-1]["ending"] == "verdict"


def test_screen_cursor_refuses_open_hands_before_the_audit_and_moves_by_round(
    tmp_path: Path,
) -> None:
    from fairtable.client.replay_screen import ReplayCursor

    cheated = record_for(*load_table(log_file(tmp_path, "reign", cheat="bad-reveal", cheater=1)))
    cursor = ReplayCursor(cheated)
    cursor.command("o")
    assert not cursor.open and "open hands need the audit" in cursor.message
    cursor.go(cursor.last)
    assert "stopped by a verdict" in cursor.message  # where and why it ended
    honest = ReplayCursor(record_for(*load_table(log_file(tmp_path, "reign"))))
    honest.command("r 2")
    first = honest.index
    assert honest.record.round_of(first) == 2 and honest.record.round_of(first - 1) == 1
    honest.by_round(False)  # from a round's first step: the previous round's first step
    assert honest.record.round_of(honest.index) == 1
    assert honest.record.round_of(honest.index - 1) != 1
    honest.by_round(True)
    assert honest.index == first
    honest.command("o")
    assert honest.open and "Open hands (verified)" in honest.hands()[0][1]
    shown = "".join(text for _, text in honest.hands())
    assert "[" in shown and not re.search(r"\.\d+\b", shown)  # names, not ids like x.1
    honest.command("g 9999")
    assert honest.index == honest.last
    assert not honest.command("q")


@pytest.mark.parametrize("game", GAMES)
def test_open_hands_export_names_cards_as_the_screen_does(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The export's hands and words use the replay screen's card names and words, never
    internal ids (``rally-the-levies.3``, ``ms-lancer-mech``) nor event kinds
    (``overt_pass``)."""
    from fairtable.client.replay_screen import ReplayCursor

    played(game)
    path = log_file(tmp_path, game)
    assert main(["replay", str(path), "--export", str(tmp_path / "x"), "--open-hands"]) == 0
    capsys.readouterr()
    text = (tmp_path / "x.txt").read_text()
    steps = _jsonl(tmp_path / "x.jsonl")[1:-1]
    record = record_for(*load_table(path))
    cursor = ReplayCursor(record)
    ids = {c for s in steps for hand in s["hand_ids"].values() for c in hand}
    named = {c for s in steps for hand in s["hands"].values() for c in hand}
    assert ids.isdisjoint(named) or game == "sodalis"  # Sodalis hides no hand
    for card in ids:
        assert card not in text and record.card_name(card) in named
    for i in (0, len(steps) // 2, len(steps) - 1):
        cursor.go(i)
        cursor.open = True
        shown = "".join(t for _, t in cursor.hands(width=10_000))
        for seat, hand in steps[i]["hands"].items():
            assert all(card in shown for card in hand)
            assert f"seat {seat}: " + (", ".join(hand) or "-") in text.splitlines()[i + 1]
    # answers and endings in words too: no bare identifier anywhere after the header
    assert not re.findall(r"\b[a-z]+_[a-z_]+\b", "\n".join(text.splitlines()[1:]))


def test_the_replay_log_breaks_long_lines_at_words(tmp_path: Path) -> None:
    """Issue 31: the replay's log cut long lines at the screen's edge; it breaks them at
    spaces to the width, as the game's log does, and keeps the newest line."""
    from fairtable.client.replay_screen import ReplayCursor

    cursor = ReplayCursor(record_for(*load_table(log_file(tmp_path, "reign"))))
    cursor.go(cursor.last)
    text = "".join(part for _, part in cursor.log(10, 40))
    rows = text.rstrip("\n").split("\n")
    assert len(rows) <= 10 and all(len(row) <= 40 for row in rows), rows
    words = [w for line in cursor.record.words[cursor.index] for w in line.split()]
    assert " ".join(words[-3:]) in " ".join(text.split())  # the newest words, whole


def test_the_replay_log_indents_a_wrapped_row_past_the_step_numbers_and_names_the_winner(
    tmp_path: Path,
) -> None:
    """Issue 31, N17: a wrapped log line's next rows start past the step-number column (not
    at column 2, where "1; House Quell bonus" read as step 1), and the end line names the
    winner by the player's name, as the log does, not "winner seat 1"."""
    from fairtable.client.replay_screen import ReplayCursor

    names = tuple(f"Player{seat}" for seat in range(8))
    cursor = ReplayCursor(record_for(*load_table(log_file(tmp_path, "reign")), names))
    cursor.go(cursor.last)
    rows = "".join(part for _, part in cursor.log(200, 40)).rstrip("\n").split("\n")
    assert any(row.startswith("     ") and row.strip() for row in rows[:-1]), rows  # wrapped
    for row in rows:
        assert re.match(r"( {0,3}\d+ | {5})", row), rows
    said = " ".join(" ".join(rows[-3:]).split())
    assert "winner seat" not in said and re.search(r"winner Player\d", said), said
    assert "winner seat" not in cursor.message and "winner Player" in cursor.message
