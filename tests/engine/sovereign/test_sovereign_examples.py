"""The rulebook's worked examples replayed as scenarios (docs/rules/sovereign.md §5.1):
forging (l. 99-104), the unit (l. 124), Titan Cannon (l. 142-143), Aegis Shell (l. 150),
attack choices (l. 187-191), combat (l. 211-220) and the move (l. 245)."""

from __future__ import annotations

from fairtable.engine.errors import IllegalMove
from fairtable.engine.sovereign import answers as A
from fairtable.engine.sovereign import effects
from fairtable.engine.sovereign.choices import legal_answers
from tests.engine.sovereign.helpers import play, pos, quiet, rejects, settle, until


# -- Forge Phase > Forging Example (l. 99-104) -------------------------------------------------
def test_forge_example_grav_skimmers_and_the_echo():
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=growth citadel=1.0,0.0 "
        "hand0=ww-grav-skimmers,ww-echo-storm-map"
    )
    s = game.state
    b = s.boards[0]
    until(game, ref, "forge", seat=0)
    assert b.citadel == [3, 0]  # two growth talents and the one left over
    sk = next(h for h in b.hand if s.secrets[0].cards[h] == "ww-grav-skimmers")
    echo = next(h for h in b.hand if s.secrets[0].cards[h] == "ww-echo-storm-map")
    game.apply(A.PlayToForge(0, sk))
    game.apply(A.PlayToForge(0, echo))
    game.apply(A.Accelerate(0, sk, 1))  # she exhausts the extra talent on the Skimmers
    assert (s.slot(0, sk).progress, s.slot(0, echo).progress) == (2, 1)
    assert b.citadel == [0, 1]
    game.apply(A.Pass(0))
    until(game, ref, "forge", seat=0)  # turn 2: the upkeep advanced both
    assert (s.slot(0, sk).progress, s.slot(0, echo).progress) == (3, 2)
    game.apply(A.ForgeCard(0, echo))
    settle(game, ref)
    assert b.scored == ["0:ww-echo-storm-map"] and b.citadel == [3, 1]  # back unflipped
    game.apply(A.Accelerate(0, sk, 2))
    game.apply(A.ForgeCard(0, sk, "lane:0"))
    settle(game, ref)
    assert b.citadel == [1, 4]  # two flipped, the forge talent back as a drone
    game.apply(A.Pass(0))
    settle(game, ref)
    game.apply(A.FinishForge(0, (("0:ww-grav-skimmers", 0, 3),)))  # the drones as health
    assert s.units["0:ww-grav-skimmers"].health == [0, 3]


# -- Card Types > Units: Jon's Telepaths (l. 124) ----------------------------------------------
def test_units_example_telepaths_take_the_three_drones_owned():
    game, ref = pos(
        "factions=windwalker,neogenesis active=1 citadel=0.0,0.3 turn=6 "
        "forge1=ng-chimera-telepaths:5@2"
    )
    until(game, ref, "forge", seat=1)
    s = game.state
    game.apply(A.ForgeCard(1, s.boards[1].forge[0].handle, "lane:0"))
    settle(game, ref)
    assert s.boards[1].citadel == [0, 4]  # the forging talent, back as a drone
    game.apply(A.Pass(1))
    settle(game, ref)
    rejects(game, A.FinishForge(1, (("1:ng-chimera-telepaths", 0, 5),)), IllegalMove)
    game.apply(A.FinishForge(1, (("1:ng-chimera-telepaths", 0, 4),)))
    assert s.boards[1].lanes[0] == ["1:ng-chimera-telepaths"]


# -- Facility Examples: Titan Cannon (l. 142-143) ---------------------------------------------
def test_facilities_example_titan_cannon_three_drones_and_cool_down():
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=battle citadel=0.0,0.3 "
        "lanes0=ww-sentinels,ww-webweave-spies lanes1=/md-hunter-seeker "
        "fac1=md-titan-cannon"
    )
    s = game.state
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 1))
    until(game, ref, "window", seat=1, window="combat")  # after the attack is declared
    game.apply(A.Work(1, "1:md-titan-cannon", 3, ("0:ww-sentinels",)))
    settle(game, ref)
    # 3 damage, one source: the Sentinels' armor 2 leaves 1; the Spies' armor 1 leaves 2
    assert ("damage", "1:md-titan-cannon", "0:ww-sentinels", 3, 1) in s.stored_events()
    assert s.units["0:ww-sentinels"].health == [0, 2]
    assert "0:ww-webweave-spies" not in s.units
    assert s.facilities["1:md-titan-cannon"].workers == [0, 3]
    for _ in range(3):  # one drone back per upkeep: three turns to cool down
        d = until(game, ref, "forge", seat=1)
        s.boards[1].citadel[1] = max(s.boards[1].citadel[1], 1)
        rejects(game, A.Work(1, "1:md-titan-cannon", 1, ("0:ww-sentinels",)), IllegalMove)
        game.apply(A.Pass(1))
        d = until(game, ref, "upkeep_return", seat=1)
        game.apply(A.UpkeepReturn(1, (("1:md-titan-cannon", "drone"),)))
    assert s.facilities["1:md-titan-cannon"].workers == [0, 0]
    until(game, ref, "forge", seat=1)
    game.check(A.Work(1, "1:md-titan-cannon", 1, ("0:ww-sentinels",)))
    assert d.kind == "upkeep_return"


# -- Augments: Aegis Shell (l. 150) -----------------------------------------------------------
def test_augments_example_aegis_shell_forged_the_turn_it_is_played():
    game, ref = pos(
        "factions=myrmidon,neogenesis active=0 citadel=3.0,0.0 "
        "lanes0=md-hunter-seeker hand0=md-aegis-shell"
    )
    until(game, ref, "forge", seat=0)
    s = game.state
    h = s.boards[0].hand[0]
    game.apply(A.PlayToForge(0, h))
    game.apply(A.Accelerate(0, h, 2))  # accelerated twice: cost 3, out at once
    game.apply(A.ForgeCard(0, h, "host:0:md-hunter-seeker"))
    settle(game, ref)
    assert s.units["0:md-hunter-seeker"].augments == ["0:md-aegis-shell"]
    assert effects.stats(s, "0:md-hunter-seeker") == (2, 3)
    assert s.catalog.defs["md-aegis-shell"].cost == 3


# -- Choosing Your Attackers (l. 187-191) -----------------------------------------------------
_LANE = (
    "factions=undercity,windwalker active=0 phase=battle citadel=1.0,1.0 lanes1=ww-sentinels "
    "lanes0=ub-recon-guerillas,ub-undercity-anarchs,ub-rail-sniper"
)


def test_battle_attack_example_guerillas_anarchs_sniper():
    game, ref = pos(_LANE)
    d = until(game, ref, "attack", seat=0)
    groups = {a.count for a in legal_answers(game.view(0), d) if a.lane == 0 and a.target_lane == 0}
    assert groups == {1, 2, 3}  # A, A+B, A+B+C; never A+C or C alone
    game.apply(A.Attack(0, 0, 1, 1, 0))  # A alone: the Anarchs add no text to combat
    s = game.state
    assert s.battle["attackers"] == ["0:ub-recon-guerillas"]
    assert effects.stats(s, "0:ub-recon-guerillas") == (2, 2)
    game, ref = pos(_LANE)
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 3, 1, 0))
    s = game.state
    assert len(s.battle["attackers"]) == 3
    assert effects.stats(s, "0:ub-recon-guerillas") == (3, 2)
    assert effects.stats(s, "0:ub-rail-sniper") == (4, 0)


# -- Combat Example (l. 211-220) ---------------------------------------------------------------
def test_battle_combat_example_sentinels_and_spies_against_hunter_seeker_and_nautilus():
    game, ref = pos(
        "factions=windwalker,myrmidon active=0 phase=battle citadel=1.0,0.0 "
        "lanes0=ww-sentinels,ww-webweave-spies/ww-gale-riders "
        "lanes1=md-hunter-seeker,md-nautilus:0.1 hand0=ww-desperate-sacrifice"
    )
    s = game.state
    hs, naut = "1:md-hunter-seeker", "1:md-nautilus"
    assert effects.stats(s, hs) == (2, 2)  # the Nautilus lends +1 armor
    until(game, ref, "attack", seat=0)
    game.apply(A.Attack(0, 0, 2, 1, 0))  # Ali attacks Jon's hand
    until(game, ref, "window", seat=0, window="combat")
    play(game, ref, 0, "ww-desperate-sacrifice", 1, 0, ("0:ww-gale-riders", naut))
    assert naut not in s.units  # scrapped at once: its ability no longer affects combat
    assert effects.stats(s, hs) == (2, 1)
    for _ in range(40):
        pending = settle(game, ref)
        if s.phase != "battle" or any(e[0] == "breach" for e in s.stored_events()):
            break
        game.apply(quiet(game, pending[0]))
    # round 1: Hunter-Seeker 2 vs armor 2 -> 0; Sentinels 3 vs armor 1 -> 2 tokens
    assert ("combat_damage", hs, "0:ww-sentinels", 2) in s.stored_events()
    assert s.units["0:ww-sentinels"].health == [0, 3]
    # round 2: the Sentinels pass the empty space; the Spies take the last token and lose 1
    assert hs not in s.units
    assert s.units["0:ww-webweave-spies"].health == [1, 0]
    breach = [e for e in s.stored_events() if e[0] == "breach"][-1]
    assert breach[1:4] == (0, 1, "hand")
    assert breach[4] == 3 + 2  # no living defender: the attack values (l. 220, 232)


# -- Move Phase example (l. 245) -----------------------------------------------------------------
def test_move_example_lilin_matron_to_the_citadel_lane():
    game, ref = pos(
        "factions=neogenesis,windwalker active=0 phase=move "
        "lanes0=ng-lilin-matron,ng-splice-hounds/ng-sporemask-poachers"
    )
    until(game, ref, "move", seat=0)
    s = game.state
    assert effects.stats(s, "0:ng-sporemask-poachers") == (3, 1)
    game.apply(A.Move(0, "0:ng-lilin-matron", "other"))
    assert s.boards[0].lanes == [
        ["0:ng-splice-hounds"],
        ["0:ng-sporemask-poachers", "0:ng-lilin-matron"],
    ]
    # the Poachers stay in front (+1 attack there) and the Matron behind lends +1 armor
    assert effects.stats(s, "0:ng-sporemask-poachers") == (3, 2)
