"""Galaxy of Trian, race XEMH (section VIII; docs/rules/trian.md, section 14.17): Gauss Cannon, Warcry,
Afterburner, Absorbing shield, Long range system."""

from __future__ import annotations

from test_trian import A, B
from test_trian_ships import CORVETTE, ROGUE, minerals, put_ship, ship_at, space_row, targets
from trian_race_setup import (
    ORVIN,
    XEMH,
    attack_along_the_row,
    full,
    give_minerals,
    mineral,
    set_race,
    set_tokens,
    token,
)

AFTERBURNER, SHIELD, LONG_RANGE = 2, 3, 4


def test_the_gauss_cannon_is_the_action_on_the_new_tile_and_never_next_to_a_ship():
    sc = full(["space"] * 5)
    set_race(sc, A, XEMH)
    space_row(sc, 2)  # tiles 0, 1
    put_ship(sc, 1, B, CORVETTE)
    sc.place(2, 0, "space")  # A: (2,0) is next to B's Corvette on (1,0)
    assert not sc.has("gauss_cannon")
    sc.act("pass")
    sc.turn(3, 0, "space", "pass")  # B

    def corvette_home(d: dict) -> None:  # B's Corvette leaves the board
        d["galaxy"][1]["ship"] = None
        d["players"][B]["supply"]["corvettes"] += 1

    sc.edit(corvette_home)
    sc.place(4, 0, "space")  # A: tile 4, nothing near it now
    assert sc.has("gauss_cannon", x=4, y=0)
    sc.act("gauss_cannon")
    assert token(sc, A, 0) == 4
    assert sc.state.current_player == B, "placing the cannon is the phase 3 action"


def cannon_at_0(long_range: bool = False):
    """A (XEMH) has its cannon on (0,0); tiles 0..4 in a row; B's Corvette on (4,0); B to play."""
    sc = full(["space"] * 7)
    set_race(sc, A, XEMH, *([LONG_RANGE] if long_range else []))
    space_row(sc, 5)  # A, B, A, B, A: B to play next
    set_tokens(sc, A, tok_at_0=0)
    put_ship(sc, 4, B, CORVETTE)
    return sc


def test_the_cannon_destroys_an_enemy_ship_that_ends_its_move_in_its_field_and_pays_2_minerals():
    sc = cannon_at_0()
    sc.place(5, 0, "space")  # B
    sc.act("ship_move", **{"from": {"x": 4, "y": 0}, "to": {"x": 1, "y": 0}})
    assert ship_at(sc, 1) == (-1, 0), "(1,0) shares an edge with the cannon's tile"
    assert sc.player(B)["supply"]["corvettes"] == 3
    assert minerals(sc, A) == 2
    assert sc.state.current_player == A


def test_outside_the_basic_field_a_ship_is_safe_but_long_range_reaches_12_tiles_around():
    sc = cannon_at_0()
    sc.place(5, 0, "space")
    sc.act("ship_move", **{"from": {"x": 4, "y": 0}, "to": {"x": 2, "y": 0}})
    assert ship_at(sc, 2) == (B, CORVETTE), "(2,0) only shares a corner with (0,0)"
    sc = cannon_at_0(long_range=True)
    sc.place(5, 0, "space")
    sc.act("ship_move", **{"from": {"x": 4, "y": 0}, "to": {"x": 2, "y": 0}})
    assert ship_at(sc, 2) == (-1, 0) and minerals(sc, A) == 2


def test_the_cannon_never_hits_its_owners_ships():
    sc = cannon_at_0()
    put_ship(sc, 3, A, ROGUE)
    sc.place(5, 0, "space")  # B
    sc.act("pass")
    sc.place(6, 0, "space")  # A
    sc.act("ship_move", **{"from": {"x": 3, "y": 0}, "to": {"x": 1, "y": 0}})
    assert ship_at(sc, 1) == (A, ROGUE)


def test_an_exmitter_next_to_the_cannon_sends_it_back_to_the_supply():
    sc = full(["space", "space", "exmitter"])
    set_race(sc, A, XEMH)
    space_row(sc, 2)
    set_tokens(sc, A, tok_at_0=1)
    sc.place(2, 0, "exmitter")  # A: (1,0) is in its radius
    assert token(sc, A, 0) == 255


def warcry_duel(red: int):
    """A (XEMH) attacks B's Corvette with its Corvette; the dice are 3 and 3."""
    sc = full(["space"] * 5)
    set_race(sc, A, XEMH)
    give_minerals(sc, A, red=red)
    space_row(sc, 4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, CORVETTE)
    attack_along_the_row(sc, [3, 3], declare=False)
    return sc


def test_warcry_spends_1_red_mineral_for_plus_1_once_per_clash():
    sc = warcry_duel(red=2)
    assert sc.state.current_player == A and sc.has("warcry")
    sc.act("warcry")
    assert mineral(sc, A, "red") == 1
    assert not sc.has("warcry"), "only 1 mineral per clash"
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)  # B
    assert ship_at(sc, 2) == (-1, 0) and ship_at(sc, 1) == (A, CORVETTE), "3 + 1 beats 3"
    assert sc.data()["battle"] is None, "the clash is over, and with it the bonus"


def test_warcry_needs_a_red_mineral_and_without_it_3_to_3_is_a_tie():
    sc = warcry_duel(red=0)
    assert not sc.has("warcry")
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (-1, 0)


def test_afterburner_moves_every_ship_one_tile_further():
    sc = full(["space"] * 7)
    set_race(sc, B, XEMH)
    space_row(sc, 5)  # B to play
    put_ship(sc, 0, B, CORVETTE)
    sc.place(5, 0, "space")
    assert (4, 0) not in targets(sc, "ship_move")
    sc.act("pass")
    sc = full(["space"] * 7)
    set_race(sc, B, XEMH, AFTERBURNER)
    space_row(sc, 5)
    put_ship(sc, 0, B, CORVETTE)
    sc.place(5, 0, "space")
    assert (4, 0) in targets(sc, "ship_move") and (5, 0) not in targets(sc, "ship_move")


def test_absorbing_shield_flies_through_gas_clouds_and_ends_in_outer_space():
    faces = ["space", "gas-cap", "gas-cap", "space", "space", "space"]
    for shield in (False, True):
        sc = full(faces)
        set_race(sc, B, XEMH, *([SHIELD] if shield else []))
        sc.turn(0, 0, "space", "pass")  # A: 0
        sc.turn(1, 0, "gas-cap", "pass", left="S", right="G")  # B: 1
        sc.turn(2, 0, "gas-cap", "pass", left="G", right="S")  # A: 2
        sc.turn(3, 0, "space", "pass")  # B: 3
        put_ship(sc, 0, B, ROGUE)
        sc.place(-1, 0, "space")  # A
        sc.act("pass")
        sc.place(4, 0, "space")  # B
        reach = targets(sc, "ship_move")
        if shield:
            assert {(1, 0), (2, 0), (3, 0), (-1, 0)} <= reach, "through the gas border"
        else:
            assert reach == {(1, 0), (-1, 0)}


def test_with_long_range_the_cannon_fires_when_placed():
    sc = full(["space"] * 5)
    set_race(sc, A, XEMH, LONG_RANGE)
    space_row(sc, 2)
    put_ship(sc, 0, B, ROGUE)
    sc.place(2, 0, "space")  # A: (2,0) shares only a corner with (0,0)
    sc.act("gauss_cannon")
    assert ship_at(sc, 0) == (-1, 0) and minerals(sc, A) == 2


def test_the_cannon_destroys_a_ship_sent_by_expedition_into_its_field():
    sc = full(["space"] * 4)
    set_race(sc, A, XEMH, LONG_RANGE)
    space_row(sc, 2)  # A, B; A to play
    set_tokens(sc, A, tok_at_0=0)
    sc.turn(2, 0, "space", "pass")  # A
    sc.place(3, 0, "space")  # B: (3,0) is outside even the wide field of (0,0)
    assert sc.has("ship_expedition", ship="Corvette")
    sc = full(["space"] * 4)
    set_race(sc, A, XEMH, LONG_RANGE)
    space_row(sc, 1)  # A; B to play
    set_tokens(sc, A, tok_at_0=0)
    sc.place(1, 0, "space")  # B: (1,0) shares an edge with the cannon's tile
    sc.act("ship_expedition", ship="Corvette")
    assert ship_at(sc, 1) == (-1, 0) and sc.player(B)["supply"]["corvettes"] == 3
    assert minerals(sc, A) == 2 and sc.state.current_player == A


def test_an_orvin_exmitter_token_removes_the_cannon():
    sc = full(["space"] * 3)
    set_race(sc, A, XEMH, other=ORVIN)
    space_row(sc, 1)  # A; B to play
    set_tokens(sc, A, tok_at_0=0)
    sc.place(1, 0, "space")  # B
    sc.act("exmitter_token", x=1)
    assert token(sc, A, 0) == 255


def test_warcry_also_counts_in_an_emissary_battle():
    sc = full(["planet-end", "planet-link", "planet-end"])
    set_race(sc, A, XEMH, other=ORVIN)
    give_minerals(sc, A, red=1)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    sc.place(2, 0, "planet-end", left="P")  # A closes the system: 1 emissary each
    sc.fix_dice([4, 4])
    sc.act("pass")
    sc.act("warcry")  # A, the attacker, before the dice
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)  # B
    assert sc.emissaries()[:3] == [A, -1, -1], "4 + 1 + 1 beats 4 + 1: B's emissary goes home"
    assert mineral(sc, A, "red") == 0
