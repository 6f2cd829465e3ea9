"""Malformed answers (docs/rules/sovereign.md §1.15 "Typed errors"): whatever garbage a peer
puts into any field of any Sovereign answer class, ``check`` and ``apply`` raise only typed
:class:`~engine.errors.EngineError` subclasses and a refused answer leaves the digest as it
was; an accepted one leaves a state that still digests (no float, no stray type)."""

from __future__ import annotations

import functools
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairtable.engine.errors import IllegalMove, MalformedAnswer
from fairtable.engine.requests import Decision
from fairtable.engine.sovereign import SovereignGame
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign.answers import ACCEPTS, ANSWER_KINDS
from tests.engine.malformed import refused_cleanly_or_digestible
from tests.engine.sovereign.driver import Table
from tests.engine.sovereign.helpers import pos, rejects, until

FACTIONS = (
    ("neogenesis", "windwalker"),
    ("machina", "undercity"),
    ("utopian", "myrmidon"),
    ("windwalker", "neogenesis"),
)


@functools.cache
def snapshots() -> tuple[SovereignGame, ...]:
    """Copies of games waiting for a decision, a few of each kind met in random play."""
    out: list[SovereignGame] = []
    count: dict[str, int] = {}
    for seed, factions in enumerate(FACTIONS):
        table = Table(2, seed, round_limit=8, factions=factions)
        for _ in range(6000):
            if table.truth.over:
                break
            request = table.truth.pending()[0]
            if isinstance(request, Decision) and count.get(request.kind, 0) < 4:
                count[request.kind] = count.get(request.kind, 0) + 1
                out.append(table.truth.copy())
            table.step()
    return tuple(out)


def _words(game: SovereignGame) -> list[str]:
    s = game.state
    refs = sorted(s.units) + sorted(s.facilities)
    handles = [h for b in s.boards for h in b.hand] + [x.handle for b in s.boards for x in b.forge]
    return (
        refs
        + [f"{r}>{w}" for r in refs[:3] for w in ("up", "down", "other", "x")]
        + [f"slot:{h}" for h in handles[:4]]
        + [f"host:{r}" for r in refs[:2]]
        + [
            "leader",
            "lane:0",
            "lane:1",
            "loose",
            "",
            "hand",
            "forge",
            "talent",
            "drone",
            "keep",
            "free",
            "shown",
            "seat:0",
            "seat:1",
            "seat:9",
            "seat:-1",
            "slot:²",
            "seat:²",
            "lane:2",
            "0:",
            ":",
            "x",
        ]
    )


def garbage(words: list[str], handles: list[int]) -> tuple[Any, Any]:
    """(near-valid atoms: refs, handles, small numbers, bools, floats; anything at all)."""
    atoms = st.one_of(
        st.integers(-2, 12),
        st.sampled_from(handles or [1]),
        st.booleans(),
        st.none(),
        st.sampled_from(words),
        st.text(max_size=4),
        st.sampled_from([0.0, 1.0, 2.5, float("nan")]),
    )
    anything = st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(inner),
            st.tuples(inner, inner),
            st.tuples(inner, inner, inner),
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(words), inner, max_size=2),
        ),
        max_leaves=7,
    )
    return atoms, anything


def shaped(field: Any, atoms: Any) -> Any:
    """A value of the field's shape (tuples of pairs/triples, a tuple, an atom) whose
    atoms are of any type -- the malformed answers a careless or hostile peer sends."""
    text = str(field.type)
    if text.startswith("tuple[tuple["):
        arity = text[len("tuple[tuple[") :].split("]")[0].count(",") + 1
        return st.lists(st.tuples(*[atoms] * arity), max_size=3).map(tuple)
    if text.startswith(("tuple[", "Targets")):
        return st.lists(atoms, max_size=3).map(tuple)
    return atoms


@st.composite
def cases(draw: Any) -> tuple[SovereignGame, Any]:
    games = snapshots()
    game = games[draw(st.integers(0, len(games) - 1))]
    d = next(r for r in game.pending() if isinstance(r, Decision))
    classes = list(ACCEPTS[d.kind]) if draw(st.integers(0, 4)) else list(ANSWER_KINDS.values())
    cls = draw(st.sampled_from(classes))
    s = game.state
    handles = [h for b in s.boards for h in b.hand] + [x.handle for b in s.boards for x in b.forge]
    atoms, anything = garbage(_words(game), handles)
    fields = {}
    for f in attrs.fields(cls):
        if f.name == "seat":
            fields["seat"] = d.seat if draw(st.integers(0, 5)) else draw(anything)
        else:
            fields[f.name] = draw(shaped(f, atoms) if draw(st.integers(0, 4)) else anything)
    return game, cls(**fields)


@settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=cases())
def test_malformed_answers_raise_only_engine_errors_and_change_nothing(case: Any) -> None:
    original, answer = case
    refused_cleanly_or_digestible(original, answer)


def test_malformed_answers_mixed_refs_in_finish_forge_and_losses():
    """Mixed int/str refs once made ``sorted`` raise a plain TypeError."""
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=forge citadel=1.3,0.0 "
        "forge0=ww-gale-riders:4@1"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    game.apply(A.ForgeCard(0, s.boards[0].forge[0].handle, "lane:0"))
    d = until(game, ref, "finish_forge", seat=0)
    assert d.info.new_units == ("0:ww-gale-riders",)
    for bad in (
        [(1, 0, 1), ("0:ww-gale-riders", 0, 1)],
        [(("x",), 0, 1)],
        [("0:ww-gale-riders",)],
        "health",
    ):
        rejects(game, A.FinishForge(0, tuple(bad)), MalformedAnswer)
    rejects(
        game, A.FinishForge(0, (("0:ww-gale-riders", 0, 1),), ((0, 1), ("a", 0))), MalformedAnswer
    )
    rejects(
        game,
        A.FinishForge(0, (("0:ww-gale-riders", 0, 1),), (("0:ww-gale-riders", True),)),
        MalformedAnswer,
    )
    rejects(game, A.FinishForge(0, (("0:ww-gale-riders", 0, 9),)), IllegalMove)
    game.apply(A.FinishForge(0, (("0:ww-gale-riders", 0, 2),)))
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=battle "
        "lanes0=ww-sentinels lanes1=md-centurion-guard"
    )
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 1, 1, 0))
    d = until(game, ref, "losses", seat=1)
    ((unit, n),) = d.info.units
    for bad in (((unit, 0), (3, 1)), ((unit, 0.0),), ((unit, True),), ((unit,),), ([unit, 0],)):
        rejects(game, A.Losses(1, bad), MalformedAnswer)
