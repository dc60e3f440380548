"""Galaxy of Trian, race SYLPHEX (section VIII; docs/rules/trian.md, section 14.16): Decoy, Space modulator
technology, Manoeuvring thrusters, Shockwave, Space Modulator."""

from __future__ import annotations

from test_trian import A, B
from test_trian_ships import CORVETTE, ROGUE, minerals, put_ship, ship_at, space_row
from trian_race_setup import SYLPHEX, full, give_minerals, kinds, mineral, set_race, set_tokens, token

THRUSTERS, SHOCKWAVE, MODULATOR = 2, 3, 4


def put_emissary(payload: dict, tile: int, seat: int) -> None:
    payload["galaxy"][tile]["emissary"] = {"seat": seat, "unit": "emissary", "station": None}
    payload["players"][seat]["supply"]["emissaries"] -= 1


def decoy_moves(sc) -> set[int]:
    return {d["x"] for d in kinds(sc) if d["kind"] == "decoy_move" and not d["detonate"]}


def test_the_decoy_is_the_action_on_the_new_tile_and_moves_1_tile_from_the_next_turn():
    sc = full(["space"] * 6)
    set_race(sc, A, SYLPHEX)
    space_row(sc, 2)
    put_ship(sc, 0, B, CORVETTE)
    sc.place(2, 0, "space")  # A: (2,0) is not next to (0,0)
    sc.act("decoy")
    assert token(sc, A, 0) == 2 and sc.state.current_player == B, "placing it is the action"
    sc.place(3, 0, "space")  # B: next to the Decoy, but placing a tile is no attack
    assert token(sc, A, 0) == 2
    sc.act("pass")
    sc.place(4, 0, "space")  # A
    assert decoy_moves(sc) == {1, 3}, "1 tile through outer space, not onto a ship"
    sc.act("decoy_move", x=3, detonate=False)
    assert token(sc, A, 0) == 3


def test_the_decoy_is_never_placed_next_to_a_ship():
    sc = full(["space"] * 4)
    set_race(sc, A, SYLPHEX)
    space_row(sc, 2)
    put_ship(sc, 1, B, ROGUE)
    sc.place(2, 0, "space")
    assert not sc.has("decoy")


def blast_row(*modules: int):
    """Tiles 0..5 in a row, planet-end first; A (SYLPHEX) has its Decoy on (2,0); A to play."""
    sc = full(["planet-end"] + ["space"] * 7)
    set_race(sc, A, SYLPHEX, *modules)
    sc.turn(0, 0, "planet-end", "pass", right="S")
    for x in range(1, 6):
        sc.turn(x, 0, "space", "pass")
    set_tokens(sc, A, tok_at_0=2)
    return sc


def test_move_and_detonate_destroys_ships_and_emissaries_in_the_field_2_minerals_per_enemy_ship():
    sc = blast_row()
    sc.edit(lambda d: put_emissary(d, 0, B))
    put_ship(sc, 0, B, CORVETTE)
    put_ship(sc, 2, A, ROGUE)
    put_ship(sc, 4, B, ROGUE)
    sc.place(6, 0, "space")  # A
    sc.act("decoy_move", x=1, detonate=True)
    assert ship_at(sc, 0) == (-1, 0) and sc.emissaries()[0] == -1, "(0,0) is in the field of (1,0)"
    assert ship_at(sc, 2) == (-1, 0), "the owner's ships are destroyed too"
    assert ship_at(sc, 4) == (B, ROGUE), "(4,0) is outside the field"
    assert minerals(sc, A) == 2, "2 minerals for the one enemy ship"
    assert token(sc, A, 0) == 255 and sc.player(B)["supply"]["emissaries"] == 9


def test_the_decoy_explodes_when_an_enemy_ship_arrives_next_to_it():
    sc = blast_row()
    put_ship(sc, 5, B, CORVETTE)
    sc.turn(6, 0, "space", "pass")  # A
    sc.place(7, 0, "space")  # B
    sc.act("ship_move", **{"from": {"x": 5, "y": 0}, "to": {"x": 3, "y": 0}})
    assert ship_at(sc, 3) == (-1, 0) and token(sc, A, 0) == 255
    assert minerals(sc, A) == 2
    assert sc.state.current_player == A


def test_manoeuvring_thrusters_move_the_decoy_2_tiles():
    sc = blast_row(THRUSTERS)
    sc.place(6, 0, "space")  # A
    assert decoy_moves(sc) == {0, 1, 3, 4}


def test_shockwave_widens_the_field_to_the_12_tiles_around():
    for shockwave in (False, True):
        sc = blast_row(*([SHOCKWAVE] if shockwave else []))
        put_ship(sc, 5, B, CORVETTE)
        sc.place(6, 0, "space")  # A
        sc.act("decoy_move", x=3, detonate=True)  # (5,0) shares only a corner with (3,0)
        assert ship_at(sc, 5) == ((-1, 0) if shockwave else (B, CORVETTE))


def test_space_modulator_costs_red_or_yellow_and_teleports_from_the_next_turn():
    sc = full(["space"] * 8)
    set_race(sc, A, SYLPHEX)
    give_minerals(sc, A, yellow=1)
    space_row(sc, 4)  # A to play
    put_ship(sc, 1, A, ROGUE)
    sc.place(4, 0, "space")
    assert not sc.has("space_modulator", color="red")
    sc.act("space_modulator", x=0, y=0, color="yellow")
    assert token(sc, A, 1) == 0 and mineral(sc, A, "yellow") == 0
    assert not sc.has("modulator_teleport"), "not on the turn it is placed"
    sc.act("pass")
    sc.turn(5, 0, "space", "pass")  # B
    sc.place(6, 0, "space")  # A
    sc.act("modulator_teleport", unit="ship", to={"x": 6, "y": 0})  # (1,0) shares an edge with (0,0)
    assert ship_at(sc, 6) == (A, ROGUE) and sc.state.current_player == B, "using it is the action"


def test_the_space_modulator_module_gives_a_second_token():
    sc = full(["space"] * 5)
    set_race(sc, A, SYLPHEX, MODULATOR)
    give_minerals(sc, A, red=1)
    space_row(sc, 4)
    set_tokens(sc, A, tok_at_1=0)
    sc.place(4, 0, "space")
    assert not sc.has("space_modulator", x=0)
    sc.act("space_modulator", x=3, color="red")
    assert (token(sc, A, 1), token(sc, A, 2)) == (0, 3)


def test_a_decoy_moved_next_to_an_enemy_ship_explodes():
    sc = blast_row()
    put_ship(sc, 4, B, CORVETTE)
    sc.place(6, 0, "space")  # A
    sc.act("decoy_move", x=3, detonate=False)  # (4,0) shares an edge with (3,0)
    assert token(sc, A, 0) == 255 and ship_at(sc, 4) == (-1, 0) and minerals(sc, A) == 2


def test_the_space_modulator_teleports_an_emissary_by_the_teleport_rules():
    sc = full(["planet-end", "space", "space", "planet-end", "space", "space"])
    set_race(sc, A, SYLPHEX)
    sc.turn(0, 0, "planet-end", "pass", right="S")  # A: 0
    sc.turn(1, 0, "space", "pass")  # B: 1
    sc.turn(2, 0, "space", "pass")  # A: 2
    sc.turn(3, 0, "planet-end", "pass", left="S")  # B: 3
    sc.edit(lambda d: put_emissary(d, 0, B))
    set_tokens(sc, A, tok_at_1=1)
    sc.place(4, 0, "space")  # A
    sc.act("modulator_teleport", unit="emissary", to={"x": 3, "y": 0})  # B's emissary, from (0,0)
    assert sc.emissaries()[0] == -1 and sc.emissaries()[3] == B
    assert sc.state.current_player == B


def test_render_shows_where_the_special_tokens_are():
    sc = blast_row()
    set_tokens(sc, A, tok_at_1=0)
    line = f"seat {A}: special tokens on the board: Decoy at (2, 0), Space Modulator at (0, 0)"
    assert line in sc.state.render()
