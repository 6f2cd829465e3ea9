"""Why a Reign battle came out as it did: under every "Combat:" line the log breaks each army's
total down into its cards, the house bonus and the events, and the parts sum to the total the
engine computed (docs/rules/reign.md, Combat Phase > The Reveal)."""

from __future__ import annotations

import re

import pytest

from fairtable.client.reign.combat import army_parts
from fairtable.client.reign.model import ClientModel
from fairtable.engine.reign import events as E
from fairtable.engine.reign import standard_catalog
from fairtable.engine.reign.combat import resolve, resolved_armies
from fairtable.engine.requests import Decision
from fairtable.netplay import events as ev
from tests.engine.driver import Table

CATALOG = standard_catalog()


def watch(seed: int, players: int) -> tuple[ClientModel, list[list[list[int]]], list[dict]]:
    """A seat-0 model fed every step of a seeded game as a node would; the engine's combat
    totals in order; and the battles as the engine resolved them (armies at the battle, the
    orders the owners gave their armies, the ties settled: keyed as the engine asked them)."""
    table = Table(players, seed=seed, bots=["random"] * players)
    model = ClientModel()
    model.apply_event(ev.Seated(seat=0, players=players))
    totals, battles = [], []
    orders: dict[int, tuple[str, ...]] = {}
    picks: dict[str, str] = {}
    while not table.truth.over:
        before = len(table.truth.state.events)
        s = table.truth.state
        armies = {o: list(s.armies.get(o, [])) for o in s.holders()}
        houses = {o: next(iter(s.support_of(o)), None) for o in s.holders()}
        regent = s.regent
        asked = table.truth.pending()[0]
        table.step()
        new = tuple(table.truth.state.stored_events(before))
        for e in new:
            if e[0] == "army_revealed":  # the face-down cards join their army
                armies[e[1]] = armies.get(e[1], []) + list(e[2])
            if e[0] == "army_ordered":
                orders[e[1]] = tuple(e[2])
            if e[0] == "combat_tie" and isinstance(asked, Decision):
                picks[asked.info.key] = e[4]
            if e[0] == "combat_totals":
                totals.append(e[1])
                spec = [(o, houses[o], armies[o]) for o, _ in e[1]]
                battles.append(
                    {
                        "totals": e[1],
                        "spec": spec,
                        "regent": regent,
                        "orders": dict(orders),
                        "picks": dict(picks),
                    }
                )
                orders, picks = {}, {}
        model.apply_event(
            ev.ViewChanged(view=table.truth.view(0), events=tuple(E.PARSER.parse(e) for e in new))
        )
    return model, totals, battles


def breakdowns(model: ClientModel) -> list[tuple[str, list[str]]]:
    """Each "Combat:" line of the log with the breakdown rows under it."""
    log = list(model.log)
    out = []
    for i, line in enumerate(log):
        if line.startswith("Combat: "):
            rows = []
            for row in log[i + 1 :]:
                if not row.startswith("  "):
                    break
                rows.append(row)
            out.append((line, rows))
    return out


def test_combat_the_reveal_every_army_total_is_broken_down_and_the_parts_sum_to_it() -> None:
    seen = 0
    for seed, players in ((1, 3), (2, 4), (3, 5), (4, 7)):
        model, totals, _ = watch(seed, players)
        log = list(model.log)
        combats = [i for i, line in enumerate(log) if line.startswith("Combat: ")]
        assert len(combats) == len(totals) > 0
        for i, battle in zip(combats, totals, strict=True):
            rows = log[i + 1 : i + 1 + len(battle)]
            for (seat, total), row in zip(battle, rows, strict=True):
                who = "you" if seat == 0 else f"seat {seat}"
                assert row.startswith(f"  {who} {total}"), (row, battle)
                seen += 1
    assert seen > 20


def test_combat_the_reveal_parts_of_an_army_add_up_to_the_engines_total() -> None:
    checked = 0
    for seed in range(6):
        _, _, battles = watch(seed, 4)
        for b in battles:
            built = resolved_armies(CATALOG, b["spec"], b["regent"], b["orders"], b["picks"])
            for (owner, total), army in zip(b["totals"], built, strict=True):
                assert army.owner == owner
                parts = army_parts(army)
                raw = (
                    sum(force for _, _, force in parts["cards"]) + parts["bonus"] + parts["events"]
                )
                assert parts["total"] == total == max(raw, 0)
                checked += 1
    assert checked > 20


def test_combat_the_reveal_a_breakdown_names_cards_forces_and_the_house_bonus() -> None:
    model, totals, _ = watch(2, 4)
    rows = [line for line in model.log if re.match(r"  (you|seat \d) \d+", line)]
    assert rows
    assert any(" bonus +" in row for row in rows)
    assert all(" = " in row for row in rows)


@pytest.mark.parametrize(
    ("seed", "players", "event"),
    [(7, 3, "army_ordered"), (38, 4, "army_ordered"), (25, 4, "combat_tie")],
)
def test_combat_the_reveal_a_breakdown_follows_the_owners_order_and_the_regents_tie_picks(
    seed: int, players: int, event: str
) -> None:
    """Combat Phase > The Reveal (each owner orders its army) and Regent's Special Rules (the
    Regent settles ties): a battle where the choice changed the result is still broken down,
    and each row gives the total the engine announced."""
    model, _, battles = watch(seed, players)
    chosen = [b for b in battles if b["orders"] if event == "army_ordered"] + [
        b for b in battles if b["picks"] if event == "combat_tie"
    ]
    assert chosen
    for b in chosen:  # the choice mattered: the default order and picks give another result
        default = resolve(CATALOG, b["spec"], b["regent"])
        made = resolve(CATALOG, b["spec"], b["regent"], b["orders"], b["picks"])
        assert default.outcome() != made.outcome()
    by_line = dict(breakdowns(model))
    for b in chosen:
        line = "Combat: " + ", ".join(
            f"{'you' if s == 0 else f'seat {s}'} {t}" for s, t in b["totals"]
        )
        rows = by_line[line]
        assert len(rows) == len(b["totals"])
        for (seat, total), row in zip(b["totals"], rows, strict=True):
            assert row.startswith(f"  {'you' if seat == 0 else f'seat {seat}'} {total}")
