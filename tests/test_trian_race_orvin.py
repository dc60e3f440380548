"""Galaxy of Trian, race ORVIN (section VIII; docs/rules/trian.md, section 14.15): Exmitter, Manipulation,
An Extra Exmitter, Mental manipulation, Adaptation Abilities."""

from __future__ import annotations

import json

import pytest
from test_trian import A, B
from test_trian_ships import CORVETTE, ROGUE, put_ship, ship_at, space_row, targets
from trian_race_setup import ORVIN, full, give_minerals, kinds, mineral, set_race, set_tokens, token

from orrery.core_ext import StateFormatError

ADAPTATION, EXTRA_EXMITTER, MENTAL = 2, 3, 4


def test_the_exmitter_token_goes_on_the_new_tile_for_free_and_works_as_an_exmitter():
    sc = full(["space"] * 6)
    set_race(sc, A, ORVIN)
    space_row(sc, 2)
    put_ship(sc, 1, B, CORVETTE)
    sc.place(2, 0, "space")  # A
    sc.act("exmitter_token", x=2, y=0)
    assert token(sc, A, 0) == 2
    assert ship_at(sc, 1) == (-1, 0) and sc.player(B)["supply"]["corvettes"] == 3, "its radius is cleared"
    assert sc.state.current_player == A and not sc.has("ship_expedition"), "free, and the tile takes no unit"
    assert not sc.has("exmitter_token"), "one token without An Extra Exmitter"
    sc.act("pass")
    put_ship(sc, 0, B, ROGUE)
    sc.place(3, 0, "space")  # B: (3,0) is in the token's radius
    assert targets(sc, "ship_move") == set(), "(1,0), (2,0) and (3,0) are in the radius"
    assert not sc.has("ship_expedition")


def test_an_extra_exmitter_gives_a_second_token():
    sc = full(["space"] * 5)
    set_race(sc, A, ORVIN, EXTRA_EXMITTER)
    space_row(sc, 4)
    set_tokens(sc, A, tok_at_0=0)
    sc.place(4, 0, "space")
    sc.act("exmitter_token", x=4)
    assert (token(sc, A, 0), token(sc, A, 1)) == (0, 4)


def planets(mental: bool = False):
    """(0,0) planet-end - (1,0) planet-link - (2,0) space - (3,0) nebula-cap, A (ORVIN) to play:
    A's emissary on (0,0), B's on (1,0) and on the nebula (3,0)."""
    sc = full(["planet-end", "planet-link", "space", "nebula-cap", "space"])
    set_race(sc, A, ORVIN, *([MENTAL] if mental else []))
    sc.turn(0, 0, "planet-end", "pass", right="P")
    sc.turn(1, 0, "planet-link", "pass", left="P", right="S")
    sc.turn(2, 0, "space", "pass", left="S", right="S")
    sc.turn(3, 0, "nebula-cap", "pass", left="S")

    def change(d: dict) -> None:
        for tile, seat in ((0, A), (1, B), (3, B)):
            d["galaxy"][tile]["emissary"] = {"seat": seat, "unit": "emissary", "station": None}
            d["players"][seat]["supply"]["emissaries"] -= 1

    sc.edit(change)
    return sc


def swaps(sc, unit: str) -> set[tuple[int, int]]:
    return {
        (d["own"]["x"], d["enemy"]["x"]) for d in kinds(sc) if d["kind"] == "manipulate" and d["unit"] == unit
    }


def test_manipulation_swaps_emissaries_within_one_system_for_green_and_blue_once_per_turn():
    sc = planets()
    sc.place(4, 0, "space")
    assert swaps(sc, "emissary") == set(), "Manipulation costs 1 green and 1 blue"
    give_minerals(sc, A, green=1, blue=2)
    assert swaps(sc, "emissary") == {(0, 1)}, "not with the emissary in the nebula"
    sc.act("manipulate", unit="emissary")
    assert sc.emissaries()[:2] == [B, A]
    assert (mineral(sc, A, "green"), mineral(sc, A, "blue")) == (0, 1)
    assert sc.state.current_player == A, "Manipulation costs no action"
    give_minerals(sc, A, green=1)
    assert swaps(sc, "emissary") == set(), "once per turn"


def test_mental_manipulation_reaches_other_areas_within_3_tiles():
    sc = planets(mental=True)
    give_minerals(sc, A, green=1, blue=1)
    sc.place(4, 0, "space")
    assert swaps(sc, "emissary") == {(0, 1), (0, 3)}


def test_manipulation_swaps_ships_only_within_one_outer_space_area():
    faces = ["space", "gas-cap", "gas-cap", "space", "space", "space"]
    for mental in (False, True):
        sc = full(faces)
        set_race(sc, A, ORVIN, *([MENTAL] if mental else []))
        sc.turn(0, 0, "space", "pass")  # A: 0
        sc.turn(1, 0, "gas-cap", "pass", left="S", right="G")  # B: 1
        sc.turn(2, 0, "gas-cap", "pass", left="G", right="S")  # A: 2
        sc.turn(3, 0, "space", "pass")  # B: 3
        put_ship(sc, 0, A, ROGUE)
        put_ship(sc, 3, B, CORVETTE)
        put_ship(sc, 1, B, ROGUE)
        give_minerals(sc, A, green=1, blue=1)
        sc.place(-1, 0, "space")  # A
        expected = {(0, 1), (0, 3)} if mental else {(0, 1)}
        assert swaps(sc, "ship") == expected, "the gas border splits outer space"
        sc.act("manipulate", unit="ship", enemy={"x": 1, "y": 0})
        assert ship_at(sc, 1) == (A, ROGUE) and ship_at(sc, 0) == (B, ROGUE)
        assert sc.has("ship_target", x=0), "A's swapped ship attacks the enemy ship next to it"


def exmitter_next_to(adaptation: bool):
    """Tiles (0,0), (1,0), (2,0); A (ORVIN) has a Rogue on (0,0); B places an exmitter at (-1,0), whose
    radius holds (0,0)."""
    sc = full(["space"] * 3 + ["exmitter"] + ["space"] * 3)
    set_race(sc, A, ORVIN, *([ADAPTATION] if adaptation else []))
    space_row(sc, 3)  # tiles 0, 1, 2 (A, B, A); B to play
    put_ship(sc, 0, A, ROGUE)
    sc.place(-1, 0, "exmitter")  # B: tile 3; (0,0) is in its radius
    return sc


def test_adaptation_abilities_an_exmitter_does_not_send_the_players_units_home():
    sc = exmitter_next_to(adaptation=False)
    assert ship_at(sc, 0) == (-1, 0)
    sc = exmitter_next_to(adaptation=True)
    assert ship_at(sc, 0) == (A, ROGUE)


def test_adaptation_abilities_a_mineral_per_unit_in_a_radius_at_the_start_of_the_turn_or_it_goes_home():
    sc = exmitter_next_to(adaptation=True)
    give_minerals(sc, A, red=1)
    sc.act("pass")  # B's turn ends; A's starts with the upkeep
    assert sc.state.current_player == A and sc.has("adaptation", pay="red")
    sc.act("adaptation", pay="red")
    assert ship_at(sc, 0) == (A, ROGUE) and mineral(sc, A, "red") == 0
    assert sc.has("end_phase1"), "then phase 1"
    sc.turn(3, 0, "space", "pass")  # A
    sc.turn(4, 0, "space", "pass")  # B
    assert not sc.has("adaptation", pay="red") and sc.has("adaptation", pay=None)
    sc.act("adaptation", pay=None)
    assert ship_at(sc, 0) == (-1, 0) and sc.player(A)["supply"]["rogues"] == 2


def test_adaptation_abilities_units_may_enter_an_exmitters_radius():
    sc = exmitter_next_to(adaptation=True)
    sc.act("pass")
    sc.act("adaptation", pay=None)  # the Rogue goes home; A has a Corvette on (2,0) instead
    put_ship(sc, 2, A, CORVETTE)
    sc.place(3, 0, "space")  # A
    assert (0, 0) in targets(sc, "ship_move"), "(0,0) is in the exmitter's radius"
    sc = exmitter_next_to(adaptation=False)
    sc.act("pass")
    put_ship(sc, 2, A, CORVETTE)
    sc.place(3, 0, "space")
    assert (0, 0) not in targets(sc, "ship_move")


def test_a_ship_battle_beside_a_racial_step_that_is_not_divine_help_is_refused():
    # the loader: a ship battle only goes with ship_target, a clash or AURELI's Divine help steps
    # (a stale one would later be fought as a ship clash by an emissary battle)
    sc = exmitter_next_to(adaptation=True)
    sc.act("pass")  # A's turn starts with the upkeep of its Rogue in the exmitter's radius
    data = json.loads(sc.state.to_json())
    assert data["state"]["racial_step"]["step"] == "adaptation"
    data["state"]["ship_battle"] = {"attacker": {"x": 0, "y": 0}, "defender": {"x": 2, "y": 0}}
    with pytest.raises(StateFormatError, match="a ship battle goes with"):
        sc.game.state_from_json(json.dumps(data))
