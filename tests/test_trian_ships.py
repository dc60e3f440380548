"""Galaxy of Trian, variant "ships": sections V, VI.2.A, VII and XII, rulings of docs/rules/trian.md."""

from __future__ import annotations

import json

from test_trian import (
    TELEPORT_INTO_EMPTY_SYSTEM,
    A,
    B,
    Scenario,
    empty_system_then_teleport,
    set_minerals,
    set_tokens,
)

from orrery.core_ext import load_game

CORVETTE, ROGUE = 1, 2


def ships(faces: list[str], **kw) -> Scenario:
    return Scenario(faces, variant="ships", **kw)


def space_row(sc: Scenario, count: int) -> None:
    """`count` turns placing plain outer space at (0, 0), (1, 0), ... (players alternate, no actions)."""
    for x in range(count):
        sc.turn(x, 0, "space", "pass")


SHIP_KINDS = {"corvette": CORVETTE, "rogue": ROGUE, "supreme_priestess": 3}


def put_ship(sc: Scenario, tile: int, owner: int, kind: int) -> None:
    """Stand a ship from `owner`'s supply on the galaxy's tile number `tile` (through the loader)."""

    def change(d: dict) -> None:
        name = "corvette" if kind == CORVETTE else "rogue"
        d["galaxy"][tile]["ship"] = {
            "seat": owner,
            "kind": name,
            "arrived_this_turn": False,
            "mined_this_turn": False,
        }
        d["players"][owner]["supply"][name + "s"] -= 1

    sc.edit(change)


def ship_of(tile: dict) -> tuple[int, int]:
    """(owner, kind) of the ship on a payload's galaxy tile, (-1, 0) for none."""
    ship = tile["ship"]
    return (ship["seat"], SHIP_KINDS[ship["kind"]]) if ship else (-1, 0)


def ship_at(sc: Scenario, tile: int) -> tuple[int, int]:
    return ship_of(sc.data()["galaxy"][tile])


def minerals(sc: Scenario, seat: int) -> int:
    return sum(sc.player(seat)["minerals"].values())


def supply(sc: Scenario, what: str) -> list[int]:
    return [player["supply"][what] for player in sc.data()["players"]]


def targets(sc: Scenario, kind: str) -> set[tuple[int, int]]:
    out = set()
    for a in sc.state.legal_actions():
        d = sc.state.action_to_struct(a)
        if d["kind"] == kind:
            to = d.get("to", d)
            out.add((to["x"], to["y"]))
    return out


def drain_stacks(sc: Scenario) -> None:
    """Set aside every stacked tile but the top of stack 0, so the next turn is the last one."""

    def change(d: dict) -> None:
        first, second = d["stacks"]
        d["set_aside"] += [entry["tile"] for entry in first["tiles"][:-1] + second["tiles"]]
        first["tiles"] = first["tiles"][-1:]
        first["size"] = 1
        d["stacks"][1] = {"size": 0, "top_face": None, "tiles": []}

    sc.edit(change)


# ---------------------------------------------------------------- setup and variants


def test_each_race_has_3_corvettes_and_2_rogues_only_in_the_ships_variant():
    for players in (2, 3, 4):
        d = json.loads(load_game("trian", players=players, variant="ships").new_initial_state(1).to_json())
        assert [p["supply"]["corvettes"] for p in d["state"]["players"]] == [3] * players
        assert [p["supply"]["rogues"] for p in d["state"]["players"]] == [2] * players
        d = json.loads(load_game("trian", players=players).new_initial_state(1).to_json())
        assert [p["supply"]["corvettes"] for p in d["state"]["players"]] == [0] * players
    sc = Scenario(["space"])
    sc.place(0, 0, "space")
    assert not sc.has("ship_expedition"), "no ships in the beginner variant"


# ---------------------------------------------------------------- expedition and movement (V.3.2, V.3.5)


def test_ship_expedition_onto_the_new_tile_never_next_to_another_ship():
    sc = ships(["space", "space", "space", "space", "nebula-core"])
    space_row(sc, 2)
    put_ship(sc, 0, B, ROGUE)
    sc.place(2, 0, "space")  # A: (2,0) is not next to (0,0)
    assert sc.has("ship_expedition", ship="Corvette") and sc.has("ship_expedition", ship="Rogue")
    sc.act("ship_expedition", ship="Corvette")
    assert ship_at(sc, 2) == (A, CORVETTE)
    assert supply(sc, "corvettes")[A] == 2
    sc.place(3, 0, "space")  # B: next to A's Corvette
    assert not sc.has("ship_expedition"), "a ship is never placed next to another ship"
    sc.act("pass")


def test_a_ship_moves_up_to_3_tiles_through_outer_space_passing_but_never_ending_on_ships():
    sc = ships(["space"] * 6)
    space_row(sc, 5)  # tiles 0..4 at x = 0..4; B to play
    put_ship(sc, 0, B, CORVETTE)
    put_ship(sc, 1, B, CORVETTE)
    sc.place(5, 0, "space")
    moves = {
        (d["from"]["x"], d["to"]["x"])
        for d in map(sc.state.action_to_struct, sc.state.legal_actions())
        if d["kind"] == "ship_move"
    }
    # from (0,0): passes its own ship on (1,0), ends on (2,0) or (3,0); never on (0,0), (1,0) or (4,0)
    assert {to for frm, to in moves if frm == 0} == {2, 3}
    assert {to for frm, to in moves if frm == 1} == {2, 3, 4}
    sc.act("ship_move", **{"from": {"x": 0, "y": 0}, "to": {"x": 3, "y": 0}})
    assert ship_at(sc, 3) == (B, CORVETTE) and ship_at(sc, 0) == (-1, 0)
    assert sc.state.current_player == A, "moving a ship is the phase 3 action"


def test_ships_cannot_cross_gas_clouds_nebulas_or_enter_an_exmitter_radius():
    sc = ships(["space", "gas-cap", "gas-cap", "space", "exmitter", "space"])
    sc.turn(0, 0, "space", "pass")  # 0
    sc.turn(1, 0, "gas-cap", "pass", left="S", right="G")  # 1
    sc.turn(2, 0, "gas-cap", "pass", left="G", right="S")  # 2
    sc.turn(-1, 0, "space", "pass")  # 3
    put_ship(sc, 0, B, CORVETTE)
    sc.place(-2, 0, "exmitter")  # 4: (-1,0) is in its radius
    sc.act("pass")
    sc.place(0, 1, "space")  # 5, B
    assert targets(sc, "ship_move") == {(1, 0), (0, 1)}, "not across the gas border, not next to the exmitter"


def test_an_exmitter_sends_ships_in_its_radius_home():
    sc = ships(["space", "space", "exmitter"])
    space_row(sc, 2)
    put_ship(sc, 1, A, ROGUE)
    sc.place(2, 0, "exmitter")
    assert ship_at(sc, 1) == (-1, 0)
    assert supply(sc, "rogues")[A] == 2


# ---------------------------------------------------------------- ship battles (VI.2.A)


def test_a_corvette_beats_a_rogue_without_a_roll_and_gains_2_minerals():
    sc = ships(["space"] * 5)
    space_row(sc, 4)  # A to play
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, ROGUE)
    sc.place(4, 0, "space")
    before = minerals(sc, A)
    sc.act("ship_move", to={"x": 1, "y": 0})
    assert sc.state.current_player == A and sc.has("ship_target", x=2)
    sc.act("ship_target", x=2)
    assert minerals(sc, A) == before + 2
    assert ship_at(sc, 2) == (-1, 0) and ship_at(sc, 1) == (A, CORVETTE)
    assert supply(sc, "rogues")[B] == 2
    assert sc.state.current_player == B, "the battle over, the turn ends"


def test_a_rogue_attacking_a_corvette_loses_at_once():
    sc = ships(["space"] * 5)
    space_row(sc, 4)
    put_ship(sc, 0, A, ROGUE)
    put_ship(sc, 2, B, CORVETTE)
    sc.place(4, 0, "space")
    before = minerals(sc, B)
    sc.act("ship_move", to={"x": 1, "y": 0})
    sc.act("ship_target", x=2)
    assert minerals(sc, B) == before + 2
    assert ship_at(sc, 1) == (-1, 0) and supply(sc, "rogues")[A] == 2


def corvette_duel(rolls: list[int]) -> Scenario:
    sc = ships(["space"] * 5)
    space_row(sc, 4)
    put_ship(sc, 0, A, CORVETTE)
    put_ship(sc, 2, B, CORVETTE)
    sc.place(4, 0, "space")
    sc.act("ship_move", to={"x": 1, "y": 0})
    sc.fix_dice(rolls)  # the attacker rolls first
    sc.act("ship_target", x=2)
    assert sc.state.current_player == A
    sc.act("declare", plus=0, rerolls=0)
    assert sc.state.current_player == B
    sc.act("declare", plus=0, rerolls=0)
    return sc


def test_corvettes_clash_with_dice_5_to_3():
    sc = corvette_duel([5, 3])
    assert ship_at(sc, 2) == (-1, 0) and ship_at(sc, 1) == (A, CORVETTE)
    assert minerals(sc, A) == 2 and minerals(sc, B) == 0
    assert supply(sc, "corvettes") == [2, 3]


def test_a_tie_at_3_removes_both_ships_and_nobody_gains_minerals():
    sc = corvette_duel([3, 3])
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (-1, 0)
    assert minerals(sc, A) == 0 and minerals(sc, B) == 0
    assert supply(sc, "corvettes") == [3, 3]


def test_combat_tokens_declared_face_down_count_in_a_ship_clash():
    sc = ships(["space"] * 5)
    space_row(sc, 4)
    put_ship(sc, 0, A, ROGUE)
    put_ship(sc, 2, B, ROGUE)
    sc.edit(lambda d: set_tokens(d, {A: (1, 1), B: (1, 0)}))
    sc.place(4, 0, "space")
    sc.act("ship_move", to={"x": 1, "y": 0})
    sc.fix_dice([2, 2])
    sc.act("ship_target", x=2)
    sc.act("declare", plus=1, rerolls=0)  # A: 2 + 1
    seen_by_b = json.loads(sc.state.observation(B).to_json())["state"]
    assert seen_by_b["players"][A]["declared_tokens"] == {"count": 1, "plus": None}, "face down"
    sc.act("declare", plus=0, rerolls=0)  # B: 2
    assert ship_at(sc, 2) == (-1, 0) and ship_at(sc, 1) == (A, ROGUE)
    assert sc.tokens(A) == 0, "declared tokens go back to the bag"


def test_the_attacker_chooses_the_order_rogue_first_then_the_corvette_wins_3_to_2():
    # rulebook figure: red's Corvette beats yellow's Rogue, then loses the Corvette clash 2 to 3
    sc = ships(["space"] * 6)
    space_row(sc, 5)  # B to play; tiles 0..4
    put_ship(sc, 0, A, ROGUE)
    put_ship(sc, 2, A, CORVETTE)
    put_ship(sc, 4, B, CORVETTE)
    sc.place(5, 0, "space")
    sc.act("ship_move", **{"from": {"x": 4, "y": 0}, "to": {"x": 1, "y": 0}})  # passes (2,0)
    assert {sc.state.action_to_struct(a)["x"] for a in sc.state.legal_actions()} == {0, 2}
    sc.act("ship_target", x=0)  # the Rogue first: no roll
    assert minerals(sc, B) == 2
    sc.fix_dice([2, 3])
    sc.act("ship_target", x=2)
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert minerals(sc, A) == 2 and ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (A, CORVETTE)
    assert sc.state.current_player == A


def test_teleporting_a_ship_from_the_radius_and_later_from_a_teleport_it_moved_onto():
    sc = ships(["space", "space", "teleport", "space", "space", "space"])
    space_row(sc, 2)  # A, B
    put_ship(sc, 1, A, ROGUE)
    sc.place(2, 0, "teleport")  # A: (1,0) is in its radius
    assert (5, 0) not in targets(sc, "ship_teleport")
    assert (0, 0) in targets(sc, "ship_teleport")
    sc.act("ship_teleport", to={"x": 2, "y": 0})  # onto the teleport itself
    sc.turn(3, 0, "space", "pass")  # B
    sc.place(4, 0, "space")  # A: its Rogue stands on a teleport since an earlier turn
    assert (0, 0) in targets(sc, "ship_teleport")
    sc.act("ship_teleport", to={"x": 4, "y": 0})
    assert ship_at(sc, 4) == (A, ROGUE)


# ---------------------------------------------------------------- blocking and protection (XI, XII)


def test_a_blocked_emissary_and_planet_do_not_count_when_the_system_closes():
    sc = ships(["planet-end", "starlight-path", "planet-end"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A: emissary on (0,0)
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    put_ship(sc, 0, B, CORVETTE)  # B's Corvette blocks A's emissary and its planet
    before = sc.credits(A)
    sc.place(2, 0, "planet-end", left="P")  # A closes: nobody counts, the closer is paid
    sc.act("pass")
    assert sc.credits(A) == before + 2 * 2  # 2 tiles (the blocked planet is not counted), no emissary
    assert sc.emissaries()[0] == A, "a blocked emissary stays"
    assert sc.state.current_player == B, "no take-back: A has no unblocked emissary there"


def test_unblocking_starts_a_battle_and_blocked_emissaries_go_home_when_the_controller_builds():
    sc = ships(["planet-end", "planet-link", "planet-end", "space", "space", "space"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    put_ship(sc, 0, B, CORVETTE)
    before = sc.credits(B)
    sc.place(2, 0, "planet-end", left="P")  # A closes; B alone counts (its Corvette's planet counts)
    sc.act("pass")
    assert sc.credits(B) == before + (3 + 1) * 2
    # B moves the Corvette away: A's emissary is unblocked, a battle for control starts
    sc.place(0, 1, "space")
    sc.act("ship_move", to={"x": 0, "y": 1})
    sc.fix_dice([6, 1])
    credits = sc.credits(B)
    assert sc.state.current_player == B  # B, the turn player, attacks
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.emissaries()[:3] == [-1, B, -1] and sc.credits(B) == credits, "control only, no credits"


def test_blocked_emissaries_go_home_when_the_controller_builds():
    sc = ships(["planet-end", "planet-link", "planet-end", "space", "space"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    put_ship(sc, 0, B, CORVETTE)
    sc.place(2, 0, "planet-end", left="P")
    sc.act("pass")  # B controls the system
    sc.place(0, 1, "space")
    sc.act("construct", x=1, y=0)
    assert sc.emissaries()[0] == -1 and sc.player(A)["supply"]["emissaries"] == 9


def test_protection_an_own_corvette_stops_others_from_teleporting_the_emissary():
    sc = ships(["nebula-cap", "planet-end", "teleport", "planet-end", "space"])
    sc.turn(0, 0, "nebula-cap", "expedition", vert="N")  # A: emissary next to the future teleport
    sc.turn(-1, 0, "planet-end", "pass", right="S")  # B
    put_ship(sc, 0, A, CORVETTE)
    sc.place(1, 0, "teleport")  # A could teleport its own emissary
    assert sc.has("teleport")
    sc2 = ships(["nebula-cap", "planet-end", "teleport"])
    sc2.turn(0, 0, "nebula-cap", "expedition", vert="N")
    sc2.turn(-1, 0, "planet-end", "pass", right="S")
    put_ship(sc2, 0, A, CORVETTE)
    sc2.edit(lambda d: d.update(turn_player=B))
    sc2.place(1, 0, "teleport")  # B adds the teleport: A's emissary is protected
    assert not sc2.has("teleport")


# ---------------------------------------------------------------- Rogue mining (V.1.2.B)


def test_a_rogue_mines_one_mineral_per_turn_from_the_closed_nebula_it_stands_on():
    sc = ships(["nebula-cap", "nebula-bend", "nebula-cap", "space", "space"])
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    sc.turn(2, 0, "nebula-cap", "pass", left="N")  # A closes a 3-tile nebula (3 minerals)
    put_ship(sc, 0, B, ROGUE)
    assert sc.has("rogue_mine", x=0)
    sc.act("rogue_mine", x=0)
    assert minerals(sc, B) == 1 and sc.nebula_minerals() == 2
    assert not sc.has("rogue_mine"), "1 mineral per Rogue per turn"


# ---------------------------------------------------------------- plundering (VII, X, XII)


def plunder(levels: int, corvettes: tuple[int, ...] = (1, 2)) -> Scenario:
    """A's 3-tile system (tiles 0-2, A's emissary on tile 0) with `levels` stations, B's Corvettes on
    the tiles `corvettes`."""
    sc = ships(["planet-end", "starlight-path", "planet-end"] + ["space"] * 5)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    sc.place(2, 0, "planet-end", left="P")  # A closes alone
    sc.act("pass")
    sc.act("take_back_done")
    sc.turn(-1, 0, "space", "pass")  # B
    sc.place(0, 1, "space")  # A
    if levels:
        sc.act("construct", x=0, y=0)
    else:
        sc.act("pass")
    if levels == 2:
        sc.turn(3, 0, "space", "pass")  # B
        sc.place(2, 1, "space")  # A
        sc.act("construct", x=0, y=0)
    for tile in corvettes:
        put_ship(sc, tile, B, CORVETTE)
    return sc


def test_plundering_a_3_tile_system_with_2_corvettes_pays_6_with_a_research_station():
    sc = plunder(1)
    drain_stacks(sc)
    a, b = sc.credits(A), sc.credits(B)
    sc.turn(-2, 0, "space", "pass")  # B's last turn ends the game
    assert sc.state.is_terminal()
    assert sc.credits(B) - b == 6 and a - sc.credits(A) == 6


def test_plundering_with_a_space_station_pays_12_and_stops_when_the_victim_is_broke():
    sc = plunder(2)
    drain_stacks(sc)
    a, b = sc.credits(A), sc.credits(B)
    sc.turn(-2, 0, "space", "pass")
    assert sc.credits(B) - b == 12 and a - sc.credits(A) == 12
    sc = plunder(2)
    drain_stacks(sc)
    sc.set_credits(5)
    b = sc.credits(B)
    sc.turn(-2, 0, "space", "pass")
    assert sc.credits(A) == 0 and sc.credits(B) - b == 5


def test_a_corvette_on_a_tile_with_two_system_parts_plunders_both_systems():
    # docs/rules/trian.md section 1 (revision 2): a tile counts in each system one of its parts belongs
    # to, so a Corvette on it is in both. A's systems (0,0)+(1,0) and (1,0)+(2,0), each with A's
    # research station; B's Corvette on the face with two system parts at (1,0) plunders 2 from each.
    faces = ["planet-end", "space", "space", "space", "planet-end", "planet-end-and-path-end"]
    sc = ships(faces + ["space"] * 5)
    sc.turn(0, 0, "planet-end", "expedition", right="P", vert="S")  # A
    sc.turn(0, 1, "space", "pass")  # B
    sc.turn(1, 1, "space", "pass")  # A
    sc.turn(2, 1, "space", "pass")  # B
    sc.turn(2, 0, "planet-end", "expedition", left="P", vert="S")  # A
    sc.place(1, 0, "planet-end-and-path-end", left="P", right="P", vert="S")  # B closes both for A
    sc.act("pass")
    sc.place(-1, 0, "space")  # A
    sc.act("construct", x=0, y=0)
    sc.turn(3, 0, "space", "pass")  # B
    sc.place(1, -1, "space")  # A
    sc.act("construct", x=2, y=0)
    put_ship(sc, 5, B, CORVETTE)
    drain_stacks(sc)
    a, b = sc.credits(A), sc.credits(B)
    sc.turn(-2, 0, "space", "pass")  # B's last turn ends the game
    assert sc.state.is_terminal()
    assert sc.credits(B) - b == 2 + 2 and a - sc.credits(A) == 2 + 2


def test_a_blocked_emissary_cannot_be_teleported_even_by_its_owner():
    sc = ships(["planet-end", "space", "teleport"])
    sc.turn(0, 0, "planet-end", "expedition", left="S", right="S")  # A
    sc.turn(-1, 0, "space", "pass")  # B
    put_ship(sc, 0, B, CORVETTE)
    sc.place(1, 0, "teleport")  # A: its emissary on (0,0) is in the radius but blocked
    assert not sc.has("teleport")
    assert (0, 0) not in targets(sc, "ship_teleport"), "B's Corvette may be teleported, but not onto itself"
    sc.act("ship_teleport", **{"from": {"x": 0, "y": 0}, "to": {"x": -1, "y": 0}})
    assert ship_at(sc, 1) == (B, CORVETTE) and ship_at(sc, 0) == (-1, 0)


def test_an_emissary_teleported_onto_an_enemy_corvette_takes_no_control():
    # Section XI: a blocked emissary "is not taken into account during battles and taking control of
    # areas"; VI.3: taking control by teleporting draws a combat token. Arriving blocked draws none.
    sc = ships(TELEPORT_INTO_EMPTY_SYSTEM)
    # A's Corvette on the planet at (0, 0)
    empty_system_then_teleport(sc, before_teleport=lambda: put_ship(sc, 0, A, CORVETTE))
    tokens = sc.tokens(B)
    sc.act("teleport", to={"x": 0, "y": 0})  # onto A's Corvette: B's emissary arrives blocked
    assert sc.emissaries()[0] == B
    assert sc.tokens(B) == tokens, "no control, no combat token"


def test_ships_are_public_in_every_observation_and_survive_determinize():
    sc = ships(["space"] * 3)
    space_row(sc, 2)
    put_ship(sc, 0, B, ROGUE)
    sc.place(2, 0, "space")
    sc.act("ship_expedition", ship="Corvette")
    for seat in (A, B):
        seen = json.loads(sc.state.observation(seat).to_json())["state"]
        assert [ship_of(t) for t in seen["galaxy"]] == [(B, ROGUE), (-1, 0), (A, CORVETTE)]
        again = json.loads(sc.state.observation(seat).determinize(5).to_json())["state"]
        assert [ship_of(t) for t in again["galaxy"]] == [(B, ROGUE), (-1, 0), (A, CORVETTE)]


# ---------------------------------------------------------------- the end: minerals, then plundering (VII)


def test_minerals_are_exchanged_before_plundering_so_a_broke_victim_pays_with_them():
    sc = plunder(1)
    drain_stacks(sc)
    sc.set_credits(0, 0)
    sc.edit(lambda d: set_minerals(d, A, red=2))  # A: no credits, 2 minerals = 6 credits
    sc.turn(-2, 0, "space", "pass")  # B's last turn ends the game
    assert sc.state.is_terminal()
    assert minerals(sc, A) == 0 and minerals(sc, B) == 0, "every mineral was exchanged"
    assert sc.credits(B) == 6 and sc.credits(A) == 0, "3 tiles x 1 x 2 Corvettes taken from the exchange"
    assert sc.state.scores() == [0, 6]


def test_plundering_stops_when_the_victim_runs_out_of_exchanged_credits():
    sc = plunder(2)
    drain_stacks(sc)
    sc.set_credits(1, 0)
    sc.edit(lambda d: set_minerals(d, A, blue=1))  # A: 1 + 3 = 4 credits after the exchange
    sc.turn(-2, 0, "space", "pass")
    assert sc.credits(A) == 0 and sc.credits(B) == 4


def test_the_tie_break_counts_ships_left_on_the_race_board():
    sc = ships(["planet-end"] + ["space"] * 5)
    sc.turn(0, 0, "planet-end", "pass", right="P")  # A
    before = supply(sc, "corvettes")
    put_ship(sc, 0, A, CORVETTE)  # A has one ship fewer on the race board
    assert supply(sc, "corvettes") == [before[0] - 1, before[1]]
    sc.set_credits(30, 30)
    assert sc.state.ranks() == [0, 1]
    sc.set_credits(30, 31)
    assert sc.state.ranks() == [1, 0]


# ---------------------------------------------------------------- a blocked planet is plundered (IX, VII)


def end_game(sc: Scenario) -> tuple[int, int]:
    """Play B's last turn; return (credits A lost, credits B gained)."""
    drain_stacks(sc)
    a, b = sc.credits(A), sc.credits(B)
    sc.turn(-2, 0, "space", "pass")
    assert sc.state.is_terminal()
    return a - sc.credits(A), sc.credits(B) - b


def test_a_blocked_planet_plunders_a_system_held_by_an_emissary_only():
    sc = plunder(0, (1, 2))  # A's emissary alone controls the system; B: starlight path, empty planet
    assert end_game(sc) == (6, 6), "3 tiles x 1 x 2 Corvettes"


def test_a_system_held_by_an_emissary_only_without_a_blocked_planet_is_not_plundered():
    sc = plunder(0, (1,))  # only the starlight path: no planet blocked
    assert end_game(sc) == (0, 0)


def test_a_station_whose_emissary_is_blocked_is_still_plundered_by_the_blocker():
    sc = plunder(1, (0,))  # blocks A's emissary on its research station (and its planet)
    assert end_game(sc) == (3, 3), "3 tiles x 1 x 1 Corvette, A still controls it"
    sc = plunder(1, (0, 2))
    assert end_game(sc) == (6, 6)


# ---------------------------------------------------------------- unblocking fights at once (XI, IX)


def outpost_unblocking(dice: list[int]) -> Scenario:
    """B controls a system where A's emissary is blocked by B's Corvette; B adds a trade outpost, sends an
    emissary there (two extra actions) and moves the Corvette onto it, unblocking A's emissary."""
    sc = ships(["planet-end", "planet-link", "planet-end", "trade-outpost", "space", "space"])
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A
    sc.turn(1, 0, "planet-link", "expedition", left="P", right="P")  # B
    put_ship(sc, 0, B, CORVETTE)
    sc.place(2, 0, "planet-end", left="P")  # A closes; B controls
    sc.act("pass")
    sc.place(0, 1, "trade-outpost")  # B
    sc.act("expedition")  # two extra actions
    sc.act("ship_move", to={"x": 0, "y": 1})
    sc.fix_dice(dice)
    return sc


def test_unblocking_with_a_trade_outposts_actions_left_starts_the_battle_at_once():
    sc = outpost_unblocking([6, 1])
    assert sc.has("declare"), "the battle starts before the outpost's extra actions"
    assert sc.state.current_player == B
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.emissaries()[:3] == [-1, B, -1], "B won: A's emissary went home"
    assert sc.state.current_player == B and sc.has("research"), "then phase 3 goes on"


def test_a_battle_started_by_unblocking_cannot_be_undone_by_moving_the_ship_back():
    sc = outpost_unblocking([1, 6])
    sc.act("declare", plus=0, rerolls=0)
    sc.act("declare", plus=0, rerolls=0)
    assert sc.emissaries()[:3] == [A, -1, -1], "A won: B's emissary went home"
    sc.act("ship_move", to={"x": 0, "y": 0})  # B's Corvette blocks A's emissary again
    assert sc.emissaries()[:3] == [A, -1, -1], "the battle's result stands"
