"""QELLIA (race 3): Crystalline particle transporter, Priceless technology, Ice cell, Quantum harmonic
oscillator, Holographic trick (section VIII; docs/rules/trian.md, section 14.10)."""

from __future__ import annotations

from test_trian import A, B, system_line
from test_trian_ships import CORVETTE, put_ship, ship_at
from test_trian_skills import full, give, set_race

QELLIA = 3
ICE_CELL, OSCILLATOR, HOLOGRAPHIC = 0, 1, 2  # modules


def transport_setup(*modules: int):
    """A's emissary on a planet at (0,0) (tile 0), B's nebula-cap at (1,0) (tile 1), A to play phase 3
    after placing plain space at (-1,0) (tile 2)."""
    sc = full(["planet-end", "nebula-cap", "space", "trade-outpost"])
    set_race(sc, A, QELLIA, *modules)
    sc.turn(0, 0, "planet-end", "expedition", right="S", left="S")
    sc.turn(1, 0, "nebula-cap", "pass", left="S")
    give(sc, A, blue=3)
    sc.place(-1, 0, "space", right="S")
    return sc


def blue(sc, seat: int) -> int:
    return sc.player(seat)["minerals"]["blue"]


def test_transporter_moves_an_own_emissary_to_another_area_for_3_blue_as_the_phase_3_action():
    sc = transport_setup()
    assert sc.has("transport", unit="emissary", to={"x": 1, "y": 0})
    sc.act("transport", unit="emissary", to={"x": 1, "y": 0})
    assert sc.emissaries()[:2] == [-1, A]
    assert blue(sc, A) == 0
    assert sc.seat == B, "the transport is the phase 3 action"


def test_transporter_costs_1_blue_less_with_ice_cell_and_with_the_oscillator():
    for modules, cost in (((ICE_CELL,), 2), ((OSCILLATOR,), 2), ((ICE_CELL, OSCILLATOR), 1)):
        sc = transport_setup(*modules)
        sc.act("transport", unit="emissary", to={"x": 1, "y": 0})
        assert blue(sc, A) == 3 - cost


def test_transporter_needs_the_blue_minerals():
    sc = transport_setup()
    give(sc, A, blue=2)
    assert not sc.has("transport")


def test_transporter_never_sends_an_emissary_to_a_trade_outpost_or_within_its_area():
    sc = full(["planet-end", "starlight-path", "trade-outpost", "space"])
    set_race(sc, A, QELLIA)
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A, tile 0
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B, tile 1 (same system)
    give(sc, A, blue=3)
    sc.place(0, 1, "trade-outpost")  # A, tile 2 below (0,0)
    targets = {
        (d["to"]["x"], d["to"]["y"])
        for d in map(sc.state.action_to_struct, sc.state.legal_actions())
        if d["kind"] == "transport" and d["unit"] == "emissary"
    }
    assert (0, 1) not in targets, "never to a trade outpost"
    assert (1, 0) not in targets, "a different area, not the same planetary system"


def test_transporter_moves_any_ship_to_a_free_outer_space_tile():
    sc = transport_setup()
    put_ship(sc, 1, B, CORVETTE)
    sc.act("transport", unit="ship", **{"from": {"x": 1, "y": 0}, "to": {"x": -1, "y": 0}})
    assert ship_at(sc, 1) == (-1, 0) and ship_at(sc, 2) == (B, CORVETTE)
    assert blue(sc, A) == 0


def test_priceless_technology_sells_combat_tokens_for_2_credits_each():
    sc = full(["space"])
    set_race(sc, A, QELLIA)
    sc.edit(lambda d: d["players"][A].update(combat_tokens={"count": 3, "plus": 1}))
    before = sc.credits(A)
    sc.act("sell_token", token="+1")
    assert not sc.has("sell_token", token="+1")
    sc.act("sell_token", token="reroll")
    assert sc.credits(A) == before + 4
    assert sc.player(A)["combat_tokens"] == {"count": 1, "plus": 0}


def test_holographic_trick_gives_one_more_combat_token_on_taking_control():
    for modules, gained in (((), 1), ((HOLOGRAPHIC,), 2)):
        sc = full(["planet-end", "starlight-path", "planet-end"])
        set_race(sc, A, QELLIA, *modules)
        system_line(sc)
        tokens = sc.tokens(A)
        sc.act("pass")
        sc.act("take_back_done")
        assert sc.tokens(A) == tokens + gained
