"""Galaxy of Trian, race MAEPHOS (section VIII; docs/rules/trian.md, section 14.14): Harvester, Subspace
tunnel technology, Harvest technology, Harvest module, Subspace tunnel generator."""

from __future__ import annotations

from test_trian import A, B
from test_trian_ships import CORVETTE, ROGUE, minerals, put_ship, ship_at, space_row
from trian_race_setup import (
    MAEPHOS,
    ORVIN,
    XEMH,
    attack_along_the_row,
    full,
    give_minerals,
    kinds,
    mineral,
    set_race,
    set_tokens,
    token,
)

HARVEST_TECH, HARVEST_MODULE, GENERATOR = 2, 3, 4


def test_harvester_rogues_move_one_tile_further_corvettes_do_not():
    sc = full(["space"] * 7)
    set_race(sc, B, MAEPHOS)
    space_row(sc, 5)  # B to play
    put_ship(sc, 0, B, ROGUE)
    put_ship(sc, 1, B, CORVETTE)
    sc.place(5, 0, "space")
    moves = {(d["from"]["x"], d["to"]["x"]) for d in kinds(sc) if d["kind"] == "ship_move"}
    assert (0, 4) in moves, "a Rogue moves 4 tiles"
    assert (1, 5) not in moves and (1, 4) in moves, "a Corvette still moves 3"


def rogue_duel(maephos: bool):
    sc = full(["space"] * 5)
    set_race(sc, A, MAEPHOS if maephos else XEMH, other=ORVIN)
    space_row(sc, 4)
    put_ship(sc, 0, A, ROGUE)
    put_ship(sc, 2, B, ROGUE)
    attack_along_the_row(sc, [3, 3])
    return sc


def test_harvester_adds_1_to_a_rogues_roll():
    sc = rogue_duel(maephos=True)
    assert ship_at(sc, 1) == (A, ROGUE) and ship_at(sc, 2) == (-1, 0), "3 + 1 beats 3"
    assert minerals(sc, A) == 2
    sc = rogue_duel(maephos=False)
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (-1, 0), "without Harvester 3 - 3 is a tie"


def test_subspace_tunnel_a_wormhole_for_a_red_or_blue_mineral_then_ships_travel_to_it():
    sc = full(["space"] * 8)
    set_race(sc, A, MAEPHOS)
    space_row(sc, 6)  # A to play
    put_ship(sc, 0, A, CORVETTE)
    sc.place(6, 0, "space")
    assert not sc.has("wormhole"), "the Wormhole costs a red or blue mineral"
    give_minerals(sc, A, blue=1)
    sc.act("wormhole", x=6, y=0, color="blue")
    assert token(sc, A, 0) == 6 and mineral(sc, A, "blue") == 0
    assert sc.state.current_player == A, "placing the Wormhole costs no action"
    assert not sc.has("wormhole"), "one token only without the generator"
    sc.act("tunnel", **{"from": {"x": 0, "y": 0}})  # the action: from anywhere to the Wormhole
    assert ship_at(sc, 6) == (A, CORVETTE) and ship_at(sc, 0) == (-1, 0)
    assert sc.state.current_player == B
    sc.turn(7, 0, "space", "pass")  # B
    assert token(sc, A, 0) == 6, "the Wormhole stays"


def test_only_the_owner_uses_the_tunnel_and_never_onto_a_ship():
    sc = full(["space"] * 8)
    set_race(sc, A, MAEPHOS)
    space_row(sc, 6)  # A to play
    set_tokens(sc, A, tok_at_0=5)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 5, B, ROGUE)
    sc.place(6, 0, "space")
    assert not sc.has("tunnel"), "a ship stands on the Wormhole"
    sc.act("pass")
    sc.place(7, 0, "space")  # B
    assert not sc.has("tunnel")


def test_the_subspace_tunnel_generator_gives_a_second_wormhole():
    sc = full(["space"] * 7)
    set_race(sc, A, MAEPHOS, GENERATOR)
    space_row(sc, 4)  # A to play
    set_tokens(sc, A, tok_at_0=1)
    give_minerals(sc, A, red=1)
    sc.place(4, 0, "space")
    assert not sc.has("wormhole", x=1, y=0), "not on its other Wormhole"
    sc.act("wormhole", x=3, y=0, color="red")
    assert (token(sc, A, 0), token(sc, A, 1)) == (1, 3)


def nebula_with_rogue(*modules: int):
    """A closes a 3-tile nebula (3 minerals appear); B (MAEPHOS) has a Rogue on it; B in phase 1."""
    sc = full(["nebula-cap", "nebula-bend", "nebula-cap", "space"])
    set_race(sc, B, MAEPHOS, *modules)
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    sc.turn(2, 0, "nebula-cap", "pass", left="N")
    put_ship(sc, 0, B, ROGUE)
    return sc


def test_harvest_technology_a_rogue_mines_2_minerals_of_chosen_colours():
    sc = nebula_with_rogue()
    assert not sc.has("harvest"), "needs Harvest technology"
    sc = nebula_with_rogue(HARVEST_TECH)
    options = [d for d in kinds(sc) if d["kind"] == "harvest"]
    assert options and all(len(d["minerals"]) == 2 for d in options)
    sc.act("harvest", minerals=options[0]["minerals"])
    assert minerals(sc, B) == 2 and sc.nebula_minerals() == 1
    assert not sc.has("harvest") and not sc.has("rogue_mine"), "the Rogue has mined this turn"


def test_harvest_module_a_rogue_mines_3_minerals():
    sc = nebula_with_rogue(HARVEST_TECH, HARVEST_MODULE)
    three = [d for d in kinds(sc) if d["kind"] == "harvest" and len(d["minerals"]) == 3]
    assert three
    sc.act("harvest", minerals=three[0]["minerals"])
    assert minerals(sc, B) == 3 and sc.nebula_minerals() == 0


def test_a_ship_arriving_through_the_tunnel_next_to_an_enemy_ship_attacks_it():
    sc = full(["space"] * 8)
    set_race(sc, A, MAEPHOS)
    space_row(sc, 6)  # A to play
    set_tokens(sc, A, tok_at_0=4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 5, B, ROGUE)
    sc.place(6, 0, "space")
    sc.act("tunnel", **{"from": {"x": 0, "y": 0}})
    assert sc.state.current_player == A and sc.has("ship_target", x=5)
    sc.act("ship_target", x=5)
    assert ship_at(sc, 5) == (-1, 0) and minerals(sc, A) == 2, "a Corvette beats a Rogue"
