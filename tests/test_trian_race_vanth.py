"""VANTH (race 2): Risky Business, Minerals gatherer, Ion Drive, Lucky, Connoisseur of minerals
(section VIII; docs/rules/trian.md, section 14.12)."""

from __future__ import annotations

from test_trian import A, B
from test_trian_ships import CORVETTE, ROGUE, put_ship, targets
from test_trian_skills import full, give, set_race

VANTH = 2
ION_DRIVE, LUCKY, CONNOISSEUR = 0, 1, 2  # modules
COLORS = ("red", "blue", "green", "yellow")


def minerals(sc, seat: int) -> list[int]:
    return [sc.player(seat)["minerals"][c] for c in COLORS]


def risky(*modules: int, die: int):
    sc = full(["space", "space"])
    set_race(sc, A, VANTH, *modules)
    give(sc, A, red=3, blue=2)
    sc.place(0, 0, "space")
    sc.fix_dice([die])
    sc.act("risky_business", pay={"red": 3, "blue": 2})
    return sc


def test_risky_business_on_4_to_6_doubles_the_5_minerals_invested():
    sc = risky(die=4)
    assert sum(minerals(sc, A)) == 10, "5 invested, 10 random ones back"
    assert sc.seat == B, "Risky Business is the phase 3 action"


def test_risky_business_on_1_to_3_loses_the_investment():
    sc = risky(die=3)
    assert minerals(sc, A) == [0, 0, 0, 0]
    assert sum(sc.data()["bag"].values()) == 120, "the minerals went back to the bag"


def test_lucky_adds_1_so_a_3_wins():
    sc = risky(LUCKY, die=3)
    assert sum(minerals(sc, A)) == 10


def test_risky_business_needs_5_minerals_and_is_offered_once_per_turn():
    sc = full(["trade-outpost"])
    set_race(sc, A, VANTH)
    give(sc, A, red=4)
    sc.place(0, 0, "trade-outpost")
    assert not sc.has("risky_business")
    give(sc, A, red=10)
    sc.act("expedition")  # the outpost: 2 more actions this phase 3
    sc.fix_dice([1])
    sc.act("risky_business", pay={"red": 5})
    assert not sc.has("risky_business"), "once per turn"
    assert sc.has("research")


def nebula_with_rogue(*modules: int, nebula: list[int]):
    """A closes a 3-tile nebula at (0..2, 0); its minerals are set to `nebula`; B (VANTH) has a Rogue on
    tile 0 and is in phase 1."""
    sc = full(["nebula-cap", "nebula-bend", "nebula-cap"])
    set_race(sc, B, VANTH, *modules)
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    sc.turn(2, 0, "nebula-cap", "pass", left="N")

    def change(d: dict) -> None:
        minerals = d["nebulas"][0]["minerals"]
        for color, amount in zip(COLORS, nebula, strict=True):
            d["bag"][color] += minerals[color] - amount
            minerals[color] = amount

    sc.edit(change)
    put_ship(sc, 0, B, ROGUE)
    return sc


def test_minerals_gatherer_takes_one_more_chosen_mineral_with_a_green_one():
    sc = nebula_with_rogue(nebula=[2, 0, 1, 1])
    sc.act("rogue_mine", x=0, color="green")
    assert sc.has("gather", color="red") and not sc.has("gather", color="blue")
    sc.act("gather", color="red")
    assert minerals(sc, B) == [1, 0, 1, 0]
    assert [sc.data()["nebulas"][0]["minerals"][c] for c in COLORS] == [1, 0, 0, 1]
    assert sc.has("end_phase1"), "back in phase 1"


def test_minerals_gatherer_does_nothing_for_another_colour():
    sc = nebula_with_rogue(nebula=[2, 0, 1, 1])
    sc.act("rogue_mine", x=0, color="red")
    assert minerals(sc, B) == [1, 0, 0, 0]
    assert sc.has("end_phase1") and not sc.has("gather")


def test_connoisseur_of_minerals_takes_a_second_one():
    sc = nebula_with_rogue(CONNOISSEUR, nebula=[2, 0, 1, 1])
    sc.act("rogue_mine", x=0, color="green")
    sc.act("gather", color="red")
    sc.act("gather", color="yellow")
    assert minerals(sc, B) == [1, 0, 1, 1]
    assert sc.has("end_phase1")


def test_ion_drive_lets_ships_cross_gas_clouds():
    for modules, crosses in (((), False), ((ION_DRIVE,), True)):
        sc = full(["space", "gas-cap", "gas-cap", "space"])
        set_race(sc, B, VANTH, *modules)
        sc.turn(0, 0, "space", "pass")  # A, tile 0
        sc.turn(1, 0, "gas-cap", "pass", left="S", right="G")  # B, tile 1
        sc.turn(2, 0, "gas-cap", "pass", left="G", right="S")  # A, tile 2
        put_ship(sc, 0, B, CORVETTE)
        sc.place(-1, 0, "space")  # B, tile 3
        reach = targets(sc, "ship_move")
        assert (1, 0) in reach and (-1, 0) in reach
        assert ((2, 0) in reach) == crosses, "across the gas border between (1,0) and (2,0)"
