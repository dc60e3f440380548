"""KORRAX (race 1): Slave-Minion, Hive Defender, Living structures, Regeneration, Slave-Minion
(additional) (section VIII; docs/rules/trian.md, section 14.11)."""

from __future__ import annotations

from test_trian import A, B, Scenario
from test_trian_ships import CORVETTE, ROGUE, minerals, put_ship, ship_at, space_row
from test_trian_skills import full, give, set_race
from trian_race_setup import attack_along_the_row

KORRAX = 1
LIVING, REGENERATION, EXTRA_MINION = 0, 1, 2  # modules


def nebula_mission(*modules: int, yellow: int = 1) -> Scenario:
    """A (KORRAX) closes a 3-tile nebula (0..2, 0) with the last tile and sends an emissary there before
    the events; the Slave-Minion sub-step follows."""
    sc = full(["nebula-cap", "nebula-bend", "nebula-cap", "space", "space", "space"])
    set_race(sc, A, KORRAX, *modules)
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    give(sc, A, yellow=yellow)
    sc.place(2, 0, "nebula-cap", left="N")
    sc.act("expedition")
    return sc


def test_a_slave_minion_goes_with_the_expedition_for_1_yellow_and_counts_as_an_emissary():
    sc = nebula_mission()
    assert sc.has("slave_minion", x=1, y=0) and sc.has("slave_minion", x=0, y=0)
    assert sc.has("slave_minion_none")
    before = sc.credits(A)
    sc.act("slave_minion", x=1, y=0)
    d = sc.data()
    assert d["galaxy"][1]["emissary"] == {"seat": A, "unit": "slave_minion", "station": None}
    assert d["players"][A]["minerals"]["yellow"] == 0
    assert d["players"][A]["supply"]["emissaries"] == 8, "the Slave-minion is not taken from the emissaries"
    assert sc.seat == A and d["phase"] == "take_back", "phase 3 ended: the events (take back) follow"
    sc.act("take_back_done")
    assert sc.credits(A) == before + (3 + 2) * 1, "it counts as an emissary when the nebula closes"


def test_no_slave_minion_without_a_yellow_mineral_or_when_declined():
    sc = nebula_mission(yellow=0)
    assert not sc.has("slave_minion") and not sc.has("slave_minion_none")
    sc = nebula_mission()
    sc.act("slave_minion_none")
    assert sc.player(A)["minerals"]["yellow"] == 1
    assert sc.emissaries()[:3] == [-1, -1, A]


def test_a_returned_slave_minion_goes_back_to_the_race_not_to_the_emissaries():
    sc = nebula_mission()
    sc.act("slave_minion", x=1, y=0)
    sc.act("take_back", x=1, y=0)  # the minion
    sc.act("take_back", x=2, y=0)  # then the emissary: none left, the take-back ends
    assert sc.emissaries()[:3] == [-1, -1, -1]
    assert sc.player(A)["supply"]["emissaries"] == 9


MINION_ON_THE_BOARD = {"seat": A, "unit": "slave_minion", "station": None}


def test_the_additional_slave_minion_gives_a_second_token():
    for modules, offered in (((), False), ((EXTRA_MINION,), True)):
        sc = full(["nebula-cap", "nebula-bend", "nebula-cap", "space"])
        set_race(sc, A, KORRAX, *modules)
        sc.turn(0, 0, "nebula-cap", "pass", right="N")  # tile 0
        sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")  # tile 1
        sc.edit(lambda d: d["galaxy"][0].update(emissary=MINION_ON_THE_BOARD))
        give(sc, A, yellow=1)
        sc.place(2, 0, "nebula-cap", left="N")
        sc.act("expedition")
        assert sc.has("slave_minion", x=1, y=0) == offered


def test_living_structures_builds_a_space_station_at_once_on_a_slave_minion_with_both_bonuses():
    sc = nebula_mission(LIVING)
    sc.act("slave_minion", x=1, y=0)
    sc.act("take_back_done")
    sc.turn(0, 1, "space", "pass")  # B
    sc.place(2, 1, "space")  # A
    before, neb = sc.credits(A), sc.nebula_minerals()
    sc.act("living_structures", x=1, y=0)
    d = sc.data()
    assert d["galaxy"][1]["emissary"]["station"] == "space"
    supply = d["players"][A]["supply"]
    assert (supply["research_stations"], supply["space_stations"]) == (8, 3)
    assert sc.credits(A) == before + 2 * (3 + 2), "the research and the space station bonuses"
    assert sc.nebula_minerals() == neb + 2 + 4
    assert sc.seat == B, "it is the construction action"


def test_hive_defender_lets_a_rogue_roll_against_a_corvette():
    sc = full(["space"] * 5)
    set_race(sc, B, KORRAX)
    space_row(sc, 4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, ROGUE)
    attack_along_the_row(sc, [2, 5])
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (B, ROGUE), "the Rogue won 5 to 2"
    assert minerals(sc, B) == 2


def test_without_hive_defender_the_rogue_loses_at_once():
    sc = full(["space"] * 5)
    set_race(sc, A, KORRAX)  # B, the Rogue's owner, is not KORRAX
    space_row(sc, 4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, ROGUE)
    attack_along_the_row(sc)
    assert ship_at(sc, 2) == (-1, 0), "a Rogue without Hive Defender loses to a Corvette at once"


def test_regeneration_wins_a_tied_ship_clash():
    sc = full(["space"] * 5)
    set_race(sc, B, KORRAX, REGENERATION)
    space_row(sc, 4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, CORVETTE)
    attack_along_the_row(sc, [3, 3])
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (B, CORVETTE)
    assert minerals(sc, B) == 2


def test_regeneration_wins_a_tied_emissary_battle():
    sc = full(["planet-end", "planet-link", "planet-end"])
    set_race(sc, B, KORRAX, REGENERATION)
    sc.turn(0, 0, "planet-end", "expedition", right="P")
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")
    sc.place(2, 0, "planet-end", left="P")
    sc.fix_dice([4, 4])
    before = sc.credits(B)
    sc.act("pass")
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.emissaries()[:3] == [-1, B, -1], "B wins the 5-5 tie; A's emissary goes home"
    assert sc.credits(B) == before + (3 + 2) * 2
