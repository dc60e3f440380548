"""AURELI (race 0): Supreme Priestess, Harness technology, Precious Meditation, Divine help, Power drain
(section VIII; docs/rules/trian.md, section 14.10)."""

from __future__ import annotations

from test_trian import A, B, Scenario
from test_trian_ships import CORVETTE, ROGUE, minerals, put_ship, ship_at, space_row
from test_trian_skills import full, give, set_race

from orrery.core_ext.trian import engine as T

AURELI = 0
MEDITATION, DIVINE_HELP, POWER_DRAIN = 0, 1, 2  # modules
PRIESTESS = 3  # ship kind


def put_priestess(sc: Scenario, tile: int, owner: int = A) -> None:
    ship = {"seat": owner, "kind": "supreme_priestess", "arrived_this_turn": False, "mined_this_turn": False}
    sc.edit(lambda d: d["galaxy"][tile].update(ship=ship))


def set_nebula(sc: Scenario, record: int, amounts: list[int]) -> None:
    def change(d: dict) -> None:
        nebula = d["nebulas"][record]["minerals"]
        for color, amount in zip(T.COLOR_NAMES, amounts, strict=True):
            d["bag"][color] += nebula[color] - amount
            nebula[color] = amount

    sc.edit(change)


def test_the_priestess_is_placed_as_the_action_on_the_new_tile():
    sc = full(["space", "space", "space", "space"])
    set_race(sc, A, AURELI)
    sc.place(0, 0, "space")
    sc.act("priestess_place")
    assert ship_at(sc, 0) == (A, PRIESTESS)
    assert sc.seat == B, "placing it is the phase 3 action"
    sc.turn(1, 0, "space", "pass")  # B
    sc.place(2, 0, "space")  # A: the Priestess is on the board already
    assert not sc.has("priestess_place")


def test_the_priestess_is_never_placed_next_to_a_ship():
    sc = full(["space", "space", "space"])
    set_race(sc, A, AURELI)
    space_row(sc, 2)  # A to play
    put_ship(sc, 1, B, ROGUE)
    sc.place(2, 0, "space")
    assert not sc.has("priestess_place")


def nebula_and_priestess(*modules: int) -> Scenario:
    """A closes a 3-tile nebula (0..2, 0) holding 1 red, 2 blue; B adds space at (3,0), A at (4,0) and
    is in phase 3."""
    sc = full(["nebula-cap", "nebula-bend", "nebula-cap"] + ["space"] * 4)
    set_race(sc, A, AURELI, *modules)
    sc.turn(0, 0, "nebula-cap", "pass", right="N")  # A, tile 0
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")  # B, tile 1
    sc.turn(2, 0, "nebula-cap", "pass", left="N")  # A closes, tile 2
    set_nebula(sc, 0, [1, 2, 0, 0])
    sc.turn(3, 0, "space", "pass", left="S")  # B, tile 3
    sc.place(4, 0, "space")  # A, tile 4
    return sc


def test_moving_the_priestess_gives_2_minerals_from_a_closed_nebula_in_its_radius():
    sc = nebula_and_priestess()
    put_priestess(sc, 4)
    sc.act("ship_move", **{"from": {"x": 4, "y": 0}, "to": {"x": 3, "y": 0}})
    assert sc.has("priestess_gain", color="red") and sc.has("priestess_gain", color="blue")
    sc.act("priestess_gain", color="red")
    assert not sc.has("priestess_gain", color="red"), "the nebula has no red left"
    sc.act("priestess_gain", color="blue")
    assert minerals(sc, A) == 2
    assert sc.data()["nebulas"][0]["minerals"] == {"red": 0, "blue": 1, "green": 0, "yellow": 0}
    assert ship_at(sc, 3) == (A, PRIESTESS)
    assert sc.seat == B, "(3,0) shows no planet or nebula: no fixing, the move is over"


def test_the_priestess_radius_is_the_12_tiles_sharing_an_edge_or_a_corner():
    sc = nebula_and_priestess()
    sc.act("pass")
    sc.turn(5, 0, "space", "pass")  # B, tile 5
    put_priestess(sc, 5)
    sc.place(6, 0, "space")  # A
    sc.act("ship_move", **{"from": {"x": 5, "y": 0}, "to": {"x": 4, "y": 0}})
    # (4,0) is two cells right of (2,0): they share a corner, so the nebula is in the radius
    assert sc.has("priestess_gain")


def system_and_priestess() -> Scenario:
    """A closes an empty 3-tile system (0..2, 0); B adds space at (3,0) where A's Priestess stands; A adds
    space at (4,0) and is in phase 3."""
    sc = full(["planet-end", "starlight-path", "planet-end", "space", "space", "space", "space"])
    set_race(sc, A, AURELI, MEDITATION)
    sc.turn(0, 0, "planet-end", "pass", right="P")
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")
    sc.turn(2, 0, "planet-end", "pass", left="P")
    sc.turn(3, 0, "space", "pass", left="S")  # B
    put_priestess(sc, 3)
    sc.place(4, 0, "space")  # A
    return sc


def test_the_priestess_may_be_fixed_as_an_emissary_on_a_planet_and_takes_control():
    sc = system_and_priestess()
    tokens = sc.tokens(A)
    sc.act("ship_move", **{"from": {"x": 3, "y": 0}, "to": {"x": 2, "y": 0}})
    assert sc.has("priestess_fix") and sc.has("priestess_stay")
    sc.act("priestess_fix")
    d = sc.data()
    assert ship_at(sc, 2) == (-1, 0)
    assert d["galaxy"][2]["emissary"] == {"seat": A, "unit": "supreme_priestess", "station": None}
    assert d["players"][A]["supply"]["emissaries"] == 9, "the Priestess is not one of the emissaries"
    assert sc.tokens(A) == tokens + 1, "it took control of the uncontrolled closed system"


def test_precious_meditation_pays_x6_for_building_on_the_priestess_in_a_system():
    sc = system_and_priestess()
    sc.act("ship_move", **{"from": {"x": 3, "y": 0}, "to": {"x": 2, "y": 0}})
    sc.act("priestess_fix")
    sc.turn(5, 0, "space", "pass")  # B
    sc.place(6, 0, "space")  # A
    before = sc.credits(A)
    sc.act("construct", x=2, y=0)
    assert sc.credits(A) == before + (3 + 1) * 6


def test_without_precious_meditation_the_priestess_builds_at_x4():
    sc = system_and_priestess()
    set_race(sc, A, AURELI)
    sc.act("ship_move", **{"from": {"x": 3, "y": 0}, "to": {"x": 2, "y": 0}})
    sc.act("priestess_fix")
    sc.turn(5, 0, "space", "pass")
    sc.place(6, 0, "space")
    before = sc.credits(A)
    sc.act("construct", x=2, y=0)
    assert sc.credits(A) == before + (3 + 1) * 4


def test_the_priestess_loses_against_any_ship():
    sc = full(["space"] * 5)
    set_race(sc, A, AURELI)
    space_row(sc, 4)
    put_priestess(sc, 0)
    put_ship(sc, 2, B, ROGUE)
    sc.place(4, 0, "space")
    sc.act("ship_move", **{"from": {"x": 0, "y": 0}, "to": {"x": 1, "y": 0}})
    sc.act("ship_target", x=2)
    assert ship_at(sc, 1) == (-1, 0), "the Priestess is removed, even by a Rogue"
    assert minerals(sc, B) == 2


def divine(*modules: int) -> Scenario:
    """A's Priestess on (0,0); B's Corvette moves from (3,0) to (1,0) and attacks it."""
    sc = full(["space"] * 6)
    set_race(sc, A, AURELI, *modules)
    space_row(sc, 5)  # B to play
    put_priestess(sc, 0)
    put_ship(sc, 3, B, CORVETTE)
    give(sc, A, red=3)
    sc.place(5, 0, "space")
    sc.act("ship_move", **{"from": {"x": 3, "y": 0}, "to": {"x": 1, "y": 0}})
    sc.act("ship_target", x=0)
    return sc


def test_divine_help_evades_an_attack_for_3_minerals_to_the_nearest_tile_without_battle():
    sc = divine(DIVINE_HELP)
    assert sc.seat == A and sc.has("divine_help_none")
    sc.act("divine_help", pay={"red": 3})
    targets = [sc.state.action_to_struct(a) for a in sc.state.legal_actions()]
    assert {(d["x"], d["y"]) for d in targets} == {(3, 0)}, "(2,0) is next to the Corvette on (1,0)"
    sc.act("divine_help_to", x=3, y=0)
    assert ship_at(sc, 3) == (A, PRIESTESS) and ship_at(sc, 0) == (-1, 0)
    assert minerals(sc, A) == 0 and minerals(sc, B) == 0, "the minerals went to the bag, B gains none"
    assert sc.seat == A and sc.has("end_phase1"), "the battle and B's turn are over"


def test_divine_help_declined_or_missing_the_priestess_loses():
    for modules, decline in (((DIVINE_HELP,), True), ((), False)):
        sc = divine(*modules)
        if decline:
            sc.act("divine_help_none")
        assert ship_at(sc, 0) == (-1, 0)
        assert minerals(sc, B) == 2


def harness(*modules: int, pay: int = 2) -> Scenario:
    sc = full(["space"] * 6)
    set_race(sc, A, AURELI, *modules)
    space_row(sc, 4)  # A to play
    put_ship(sc, 2, B, CORVETTE)
    sc.place(4, 0, "space")
    sc.act("harness", x=2, y=0)
    assert sc.player(A)["special_tokens"] == [{"slot": 0, "x": 2, "y": 0}]
    assert sc.seat == A, "placing the Harness is not the action"
    sc.act("pass")
    give(sc, B, red=pay)
    sc.place(5, 0, "space")  # B
    return sc


def test_harness_technology_immobilizes_an_enemy_ship_until_its_owner_pays_2_minerals():
    sc = harness()
    assert not sc.has("ship_move"), "the harnessed Corvette cannot move"
    sc.act("harness_release", pay={"red": 2})
    assert minerals(sc, A) == 2 and minerals(sc, B) == 0
    assert sc.player(A)["special_tokens"] == [], "the token goes back to A's supply"
    assert sc.has("ship_move")


def test_power_drain_makes_the_release_cost_3_minerals():
    sc = harness(POWER_DRAIN, pay=2)
    assert not sc.has("harness_release"), "2 minerals are not enough"
    give(sc, B, red=3)
    sc.act("harness_release", pay={"red": 3})
    assert minerals(sc, A) == 3
