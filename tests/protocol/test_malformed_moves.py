"""A seat that signs a move whose answer fields have the wrong JSON types (a number where a
list of cards is expected, text for a count, lists nested one level too deep, ...) is named
by every honest peer; nothing raises, in play or in the audit of the log (hostile peers,
finding 1).

Every field of every answer class of every registered game is tried with every wrong shape."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

import fairtable.protocol as P
import fairtable.protocol.testing as PT
from fairtable.engine.errors import EngineError
from fairtable.engine.games import game_names, rules
from fairtable.engine.requests import Decision
from fairtable.engine.rng import ChanceStream
from fairtable.protocol.wire import AnswerCodec, Move

WRONG_SHAPES: list[Any] = [
    7,
    -1,
    "7",
    "",
    True,
    None,
    [],
    [7],
    ["x"],
    [["x"]],
    [[["x", 1]]],
    [[1, 2, 3, 4]],
    {"a": 1},
    2**80,
]


def _sample(cls: type, seat: int) -> dict[str, Any]:
    """A well-typed JSON object of answer class ``cls`` (values need not be legal)."""
    values: dict[str, Any] = {}
    for field in attrs.fields(cls):
        text = str(field.type)
        if field.name == "seat":
            values["seat"] = seat
        elif "None" in text:
            values[field.name] = None
        elif text.startswith("tuple") or text in ("Cards", "Targets", "Space"):
            values[field.name] = []
        elif text == "bool":
            values[field.name] = False
        elif text == "str":
            values[field.name] = "x"
        else:
            values[field.name] = 0
    return values


def _malformed(game: str) -> list[tuple[str, bytes]]:
    """(description, canonical bytes) of answers with one field of a wrong shape."""
    from fairtable.engine.canonical import canonical_bytes

    out = []
    for cls in rules(game).answer_kinds:
        base = _sample(cls, 1)
        for name in base:
            if name == "seat":
                continue
            for wrong in WRONG_SHAPES:
                raw = {"type": cls.__name__, **base, name: wrong}
                try:
                    data = canonical_bytes(raw)
                except Exception:  # noqa: BLE001 -- a value the canonical form cannot carry
                    data = json.dumps(raw, sort_keys=True, separators=(",", ":")).encode()
                out.append((f"{cls.__name__}.{name}={wrong!r}", data))
    return out


@pytest.mark.parametrize("game", game_names())
def test_hostile_peers_1_every_wrongly_typed_answer_field_is_a_decode_error_or_refused(
    game: str,
) -> None:
    """Decoding either refuses the answer (DecodeError naming the seat) or yields one whose
    every field has its declared shape, which the engine then checks with typed errors."""
    codec = AnswerCodec(rules(game))
    spec, sessions = PT.make_table(2 if game != "reign" else 3, 5, game=game)
    engine = sessions[1].game
    decoded = 0
    for what, data in _malformed(game):
        try:
            answer = codec.decode(data, 1)
        except P.DecodeError as exc:
            assert exc.seat == 1, what
            continue
        decoded += 1
        game_rules = codec.rules
        for use in (
            game_rules.places_face_down,
            codec.secret_cards,
            codec.shown_cards,
            codec.gifted_cards,
            game_rules.public_part,
            engine.check,
        ):
            try:  # what the session does with a decoded move before and while applying it
                use(answer)
            except EngineError:
                pass
            except Exception as exc:  # noqa: BLE001 -- the point: only typed engine errors
                raise AssertionError(
                    f"{what}: {use.__name__}: {type(exc).__name__}: {exc}"
                ) from None
    assert 0 < decoded < len(_malformed(game))  # well-shaped values pass on to the rules


class _MalformedMover(P.TableSession):
    """Signs, at its first decision that is not simultaneous, a move with a wrongly typed
    answer field: the shape given by the test."""

    shape: tuple[str, Any] = ("", None)
    done = False

    def decide(self, answer: Any) -> None:
        asked = [
            d
            for d in self.game.pending()
            if isinstance(d, Decision) and d.seat == self.seat and not d.simultaneous
        ]
        # the move as it travels (a face-down card left out), with a field that carries a value
        raw = json.loads(self.codec.encode(self.codec.rules.public_part(answer)))
        fields = sorted(k for k in raw if k not in ("seat", "type") and raw[k] is not None)
        if self.done or not asked or not fields:  # an answer with a field to spoil
            super().decide(answer)
            return
        self.done = True
        step = self.game.state.serial
        name, wrong = self.shape
        field = name if name in raw else fields[0]
        raw[field] = wrong
        data = json.dumps(raw, sort_keys=True, separators=(",", ":")).encode()
        self.exchanges.decisions.my_answers[step] = answer
        face_down = self.codec.rules.places_face_down(answer)
        self.publish(Move(step, data, bytes(32) if face_down else b"", ()))
        if face_down:  # it holds no opening for the commitment it faked: it signs the move
            self._flush()  # and goes silent
            self._stop(P.Verdict(self.seat, "malformed", "stopped after its malformed move"))
            return
        self._run()


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("wrong", ["7", [[["x"]]], {"a": 1}, 2**80, True])
def test_hostile_peers_1_a_signed_malformed_move_is_blamed_on_its_signer_in_play_and_audit(
    game: str, wrong: Any
) -> None:
    from fairtable.client.games import bots_for

    players = 3 if game == "reign" else 2
    cls = type("Mover", (_MalformedMover,), {"shape": ("count", wrong)})
    spec, sessions = PT.make_table(players, 11, game=game, session_class=cls, cheaters=[1])
    bots = [bots_for(game)["random"](ChanceStream.from_int(s)) for s in range(players)]
    PT.run_table(sessions, lambda seat, event: bots[seat].decide(event.view, event.decision))
    assert sessions[1].done, "the cheater never got to sign its move"
    for seat, session in enumerate(sessions):
        if seat != 1:
            assert session.verdict is not None and session.verdict.seat == 1, session.verdict
    result = P.audit_log(spec, sessions[0].entries())
    assert not result.ok and result.blamed == 1, result.summary


def test_hostile_peers_1_reign_order_events_travels_whole_and_only_for_its_seat() -> None:
    """Issue 19: the Regent's (or first player's) order of influence events is a public
    decision like any other: it crosses the wire unchanged, and only for its own seat."""
    from fairtable.engine.reign import OrderEvents

    codec = AnswerCodec(rules("reign"))
    answer = OrderEvents(2, ("political-sabotage.1", "bought-herald.1"))
    data = codec.encode(answer)
    assert codec.decode(data, 2) == answer
    assert not codec.secret_cards(answer) and not codec.shown_cards(answer)
    with pytest.raises(P.DecodeError):
        codec.decode(data, 1)


def test_hostile_peers_1_reign_combat_choices_travel_whole_and_only_for_their_seat() -> None:
    """Issue 19: an army's order and a tie inside an effect are public decisions like any
    other: they cross the wire unchanged, and only for their own seat."""
    from fairtable.engine.reign import CombatTie, OrderArmy

    codec = AnswerCodec(rules("reign"))
    for answer in (
        OrderArmy(0, ("poisoned-wine", "broken-oath.1")),
        CombatTie(0, "crimson-ash-spearman.1"),
        CombatTie(0, "2"),
    ):
        data = codec.encode(answer)
        assert codec.decode(data, 0) == answer
        assert not codec.secret_cards(answer) and not codec.shown_cards(answer)
        with pytest.raises(P.DecodeError):
            codec.decode(data, 1)
