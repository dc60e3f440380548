"""Tiny Epic Galaxies: Beyond the Black, one scenario per designed card (docs/rules/tiny_epic_galaxies.md
section 13): every pilot, exploration card, new planet and new secret mission."""

from pathlib import Path

import pytest
from teg_btb_setup import danger, finished, orbit, position, surface
from teg_setup import can, decision, do, galaxy, st_of

from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

BTB = CATALOGUE["beyond_the_black"]
PILOTS = {p["name"]: p for p in BTB["pilots"]}
CARDS = {c["name"]: c for c in BTB["exploration_cards"]}
PLANETS = {p["name"]: p for p in BTB["planets"]}


# ---------------------------------------------------------------- pilots


def flown(pilot, ship, **fields):
    """Seat 0 with `pilot` flying its first trained advanced ship as ship 0."""
    kind = PILOTS[pilot]["trained"][0]
    return {
        "hangar": {kind: {"pilot": pilot, "ship": 0}},
        "ships": [ship, "home", "locked", "locked"],
        **fields,
    }


def acquire(pilot, ship, face, **fields):
    st = position(gal={0: flown(pilot, ship, energy=0, culture=0, **fields)}, dice={face: 1})
    do(st, "activate", face=face)
    g = galaxy(st, 0)
    return g["energy"], g["culture"]


def check_acquire_bonus(name, p):
    res = p["params"]["resource"]
    face = res
    # ship 0 orbits Jakks (culture) or Vici-KS156 (energy): 1 + 1 from the pilot; ship 1 at home
    planet = "Vici-KS156" if res == "energy" else "Jakks"
    e, c = acquire(name, orbit(planet), face)
    assert (e if res == "energy" else c) == (3 if res == "energy" else 2)


def check_home_yield(name, p):
    res = p["params"]["resource"]
    e, c = acquire(name, "home", res)
    if res == "culture":
        assert c == 1  # a ship on the mat yields no culture, except this one
    else:
        assert e == 3  # 2 from this ship on the mat, 1 from the normal ship


def check_land_gain(name, p):
    res, n = p["params"]["resource"], p["params"]["amount"]
    st = position(gal={0: flown(name, "home", energy=0, culture=0)}, dice={"move": 1})
    do(st, "activate", face="move")
    do(st, "move", ship=0, to="Leandra surface")
    g = galaxy(st, 0)
    assert (g["energy"], g["culture"]) == ((n, 0) if res == "energy" else (0, n))


def check_orbit_start(name, p):
    st = position(gal={0: flown(name, "home")}, dice={"move": 1})
    do(st, "activate", face="move")
    do(st, "move", ship=0, to="Leandra orbit")
    assert galaxy(st, 0)["ships"][0] == orbit("Leandra", 1)


def check_advance_gain(name, p):
    track, res = p["params"]["track"], p["params"]["resource"]
    planet = "Jakks" if track == "diplomacy" else "Vici-KS156"
    other = "Vici-KS156" if track == "diplomacy" else "Jakks"
    st = position(gal={0: flown(name, orbit(planet), energy=0, culture=0)}, dice={track: 1})
    do(st, "activate", face=track)
    do(st, "ship", ship=0)
    g = galaxy(st, 0)
    assert (g["energy"], g["culture"]) == ((1, 0) if res == "energy" else (0, 1))
    # on the other track type nothing is gained
    other_track = "economy" if track == "diplomacy" else "diplomacy"
    st = position(gal={0: flown(name, orbit(other), energy=0, culture=0)}, dice={other_track: 1})
    do(st, "activate", face=other_track)
    do(st, "ship", ship=0)
    assert (galaxy(st, 0)["energy"], galaxy(st, 0)["culture"]) == (0, 0)


def check_shielded(name, p):
    gal = {0: {"colonies": ["K-Widow"]}, 1: {**flown(name, orbit("Jakks", 1)), "culture": 0}}
    st = position(gal=gal, dice={"colony": 1})
    do(st, "activate", face="colony")
    assert not can(st, "colony", planet="K-Widow")  # the only enemy ship cannot be pushed back


def check_colonize_gain(name, p):
    e, c = p["params"]["energy"], p["params"]["culture"]
    st = position(gal={0: flown(name, orbit("Jakks", 1), energy=0, culture=0)}, dice={"diplomacy": 1})
    do(st, "activate", face="diplomacy")
    do(st, "ship", ship=0)
    g = galaxy(st, 0)
    assert "Jakks" in g["colonies"] and (g["energy"], g["culture"]) == (e, c)


def check_explore_gain(name, p):
    res, n = p["params"]["resource"], p["params"]["amount"]
    st = position(
        gal={0: flown(name, "home", energy=0, culture=0)}, dice={"move": 1}, exploration_row=["Nav Buoy"]
    )
    do(st, "activate", face="move")
    do(st, "explore", ship=0)
    g = galaxy(st, 0)
    assert (g["energy"], g["culture"]) == ((n, 0) if res == "energy" else (0, n))


def check_danger_runner(name, p):
    gal = {0: {**flown(name, danger("Black Hole Rim", 0)), "exploration_cards": ["Black Hole Rim"]}}
    st = position(gal=gal, dice={"move": 1})
    do(st, "activate", face="move")
    do(st, "danger_move", ship=0)  # two spaces at once: the whole 2-space track (a normal ship: space 1)
    assert galaxy(st, 0)["ships"][0] == "unexplored"


CHECKS = {
    "acquire_bonus": check_acquire_bonus,
    "home_yield": check_home_yield,
    "land_gain": check_land_gain,
    "orbit_start": check_orbit_start,
    "advance_gain": check_advance_gain,
    "shielded": check_shielded,
    "colonize_gain": check_colonize_gain,
    "explore_gain": check_explore_gain,
    "danger_runner": check_danger_runner,
}


@pytest.mark.parametrize("name", sorted(PILOTS))
def test_pilot_ability(name):
    CHECKS[PILOTS[name]["ability"]](name, PILOTS[name])


@pytest.mark.parametrize("name", sorted(PILOTS))
def test_pilot_is_worth_one_point_and_its_badges(name):
    kind = PILOTS[name]["trained"][0]
    st = position(gal={0: {"hangar": {kind: {"pilot": name, "ship": 0}}}}, dice={"move": 1})
    assert st.scores()[0] == 1
    for badge in PILOTS[name]["badges"]:
        assert f"{badge} {PILOTS[name]['badges'].count(badge)}" in st.render().split("seat 1")[0]


def test_an_ability_applies_to_its_own_ship_only():
    gal = {0: {"hangar": {"Aurora": {"pilot": "Ace Halloran", "ship": 0}}}}
    st = position(gal=gal, dice={"move": 2})
    do(st, "activate", face="move")
    do(st, "move", ship=1, to="Leandra orbit")  # the normal ship starts on space 0
    assert galaxy(st, 0)["ships"][1] == orbit("Leandra", 0)


def test_every_pilot_is_trained_for_some_ship_and_every_ship_has_two_symbols():
    assert all(p["trained"] for p in PILOTS.values())
    assert all(len(v) == 2 for v in BTB["hangar"].values())


# ---------------------------------------------------------------- exploration cards


def take(card, **fields):
    gal0 = {"energy": 3, "culture": 3, "ships": ["home", orbit("Jakks", 0), "locked", "locked"], **fields}
    if CARDS[card]["kind"] == "danger":
        # a danger is never left face up: reveal it from the deck (the first seed whose draw it is)
        for seed in range(3000):
            st = position(gal={0: gal0}, dice={"move": 1}, seed=seed)
            do(st, "activate", face="move")
            do(st, "explore", ship=0)
            do(st, "reveal")
            if card in galaxy(st, 0)["exploration_cards"]:
                return st
        raise AssertionError(f"no seed reveals {card}")
    st = position(gal={0: gal0}, dice={"move": 1}, exploration_row=[card])
    do(st, "activate", face="move")
    do(st, "explore", ship=0)
    do(st, "take_exploration", card=card)
    return st


@pytest.mark.parametrize("name", sorted(CARDS))
def test_exploration_card(name):
    c = CARDS[name]
    st = take(name)
    if c["advance_ship"]:
        assert decision(st) == "exploration_advance"
        do(st, "ship", ship=1)
        assert galaxy(st, 0)["ships"][1] == orbit("Jakks", 1)
    g = galaxy(st, 0)
    assert name in g["exploration_cards"]
    assert (g["energy"], g["culture"]) == (min(7, max(0, 3 + c["energy"])), min(7, max(0, 3 + c["culture"])))
    if c["track_length"]:
        assert g["ships"][0] == danger(name, 0)
    elif c["ship_home"]:
        assert g["ships"][0] == "home"
    else:
        assert g["ships"][0] == "unexplored"
    assert st.scores()[0] == c["dwarf_planet_vp"]
    assert f"{c['badge']} 1" in st.render().split("seat 1")[0]


def test_card_mix():
    kinds = [c["kind"] for c in CARDS.values()]
    assert kinds.count("discovery") == 18 and kinds.count("danger") == 12
    assert sorted({c["badge"] for c in CARDS.values()}) == sorted(BTB["badges"])


# ---------------------------------------------------------------- new planets


def use(planet, dice=None, gal0=None, gal1=None, row=None):
    g0 = {"colonies": [planet], **(gal0 or {})}
    st = position(gal={0: g0, 1: {"culture": 0, **(gal1 or {})}}, dice=dice or {"colony": 1}, row=row)
    do(st, "activate", face="colony")
    do(st, "colony", planet=planet)
    return st


@pytest.mark.parametrize("planet", ["Ostara", "Tyrell-IX", "Nereid-4", "Halcyon", "Arcturus Prime"])
def test_energy_and_culture_planets_acquire_both(planet):
    for face in ("energy", "culture"):
        st = position(
            gal={0: {"ships": [orbit(planet), "home", "locked", "locked"], "energy": 0, "culture": 0}},
            row=[planet, "Jakks", "Vici-KS156", "Leandra"],
            dice={face: 1},
        )
        do(st, "activate", face=face)
        assert galaxy(st, 0)[face] == (2 if face == "energy" else 1)  # the ship at home yields energy


def test_ostara_gains_energy():
    assert galaxy(use("Ostara"), 0)["energy"] == 3


def test_tyrell_gains_culture():
    assert galaxy(use("Tyrell-IX"), 0)["culture"] == 2


def test_vesper_pushes_back_an_enemy_ship_on_any_track():
    st = use("Vesper", gal1={"ships": [orbit("Vici-KS156", 1), "home", "locked", "locked"]})
    do(st, "enemy_ship", galaxy=1, ship=0)
    assert galaxy(st, 1)["ships"][0] == orbit("Vici-KS156", 0)


def test_calyx_trades_culture_for_energy():
    g = galaxy(use("Calyx"), 0)
    assert (g["energy"], g["culture"]) == (4, 0)


def test_nereid_upgrades_paying_a_mix():
    st = use("Nereid-4", gal0={"energy": 1, "culture": 1})
    do(st, "amount", amount=1)
    assert galaxy(st, 0)["empire"] == 2


def test_morrow_advances_a_ship_on_any_track():
    st = use("Morrow", gal0={"ships": [orbit("Jakks"), orbit("Vici-KS156"), "locked", "locked"]})
    assert can(st, "ship", ship=0) and can(st, "ship", ship=1)
    do(st, "ship", ship=1)
    assert galaxy(st, 0)["ships"][1] == orbit("Vici-KS156", 1)


def test_quill_pays_energy_for_two_moves():
    st = use("Quill")
    assert galaxy(st, 0)["energy"] == 1
    do(st, "move", ship=0, to="Jakks orbit")
    do(st, "move", ship=1, to="Leandra orbit")
    assert galaxy(st, 0)["ships"][:2] == [orbit("Jakks"), orbit("Leandra")]


def test_halcyon_gains_both():
    g = galaxy(use("Halcyon"), 0)
    assert (g["energy"], g["culture"]) == (3, 2)


def test_sable_gains_energy_per_ship_at_home():
    assert galaxy(use("Sable-12"), 0)["energy"] == 4


def test_ixion_takes_energy():
    st = use("Ixion")
    do(st, "player", galaxy=1)
    assert galaxy(st, 0)["energy"] == 3 and galaxy(st, 1)["energy"] == 1


def test_arcturus_advances_a_ship():
    st = use("Arcturus Prime", gal0={"ships": [orbit("Jakks"), "home", "locked", "locked"]})
    do(st, "ship", ship=0)
    assert galaxy(st, 0)["ships"][0] == orbit("Jakks", 1)


def test_zenith_pushes_back_two_enemy_ships():
    ships = [orbit("Jakks", 1), orbit("Vici-KS156", 1), "locked", "locked"]
    st = use("Zenith-Omega", gal1={"ships": ships})
    do(st, "enemy_ship", galaxy=1, ship=0)
    do(st, "enemy_ship", galaxy=1, ship=1)
    assert galaxy(st, 1)["ships"][:2] == [orbit("Jakks", 0), orbit("Vici-KS156", 0)]


def test_every_new_planet_is_covered():
    source = Path(__file__).read_text()
    assert all(f'"{name}"' in source for name in PLANETS)


# ---------------------------------------------------------------- new secret missions

OTHER = ["Orbiter", "Seeker"]


def mission_points(mission, mine, theirs=None):
    gal = {
        0: {"dealt": [mission, "Explorer"], "mission": mission, "energy": 0, "culture": 0, **mine},
        1: {"dealt": OTHER, "mission": "Seeker", "energy": 0, "culture": 0, **(theirs or {})},
    }
    st = finished(2, gal=gal)
    base = finished(
        2, gal={**gal, 0: {**gal[0], "dealt": ["Industrialist", "Explorer"], "mission": "Industrialist"}}
    )
    return st.scores()[0] - base.scores()[0]


def test_commander_most_pilots():
    mine = {"hangar": {"Aurora": {"pilot": "Nyx", "ship": 0}}}
    assert mission_points("Commander", mine) == 3
    theirs = {"hangar": {"Aurora": {"pilot": "Ace Halloran", "ship": 0}}}
    assert mission_points("Commander", mine, theirs) == 2


def test_cartographer_most_exploration_cards():
    assert mission_points("Cartographer", {"exploration_cards": ["Ion Cloud"]}) == 3


def test_astronomer_counts_dwarf_planets_which_are_not_planets():
    assert mission_points("Astronomer", {"exploration_cards": ["Dwarf Planet Makem"]}) == 3
    assert mission_points("Astronomer", {"exploration_cards": ["Ion Cloud"]}) == 2  # tied at 0
    # a dwarf planet is not a colony for Conqueror
    assert mission_points("Conqueror", {"exploration_cards": ["Dwarf Planet Makem"]}) == 2


def test_collector_needs_all_four_badges():
    four = ["Ion Cloud", "Crystal Caves", "Trade Beacon", "Gas Giant Skim"]
    assert mission_points("Collector", {"exploration_cards": four}) == 3
    assert mission_points("Collector", {"exploration_cards": four[:3]}) == 0


def test_fleet_admiral_three_advanced_ships():
    hangar = {
        "Aurora": {"pilot": "Nyx", "ship": 0},
        "Intrepid": {"pilot": "Lightspeeder", "ship": 1},
        "Ambition": {"pilot": "Vola Quen", "ship": 2},
    }
    mine = {"hangar": hangar, "empire": 3, "ships": ["home", "home", "home", "locked"]}
    assert mission_points("Fleet Admiral", mine) == 3
    del hangar["Ambition"]
    assert mission_points("Fleet Admiral", mine) == 0


def test_pathfinder_a_ship_in_unexplored_space():
    assert mission_points("Pathfinder", {"ships": ["unexplored", "home", "locked", "locked"]}) == 2
    assert mission_points("Pathfinder", {"ships": ["home", "home", "locked", "locked"]}) == 0


def test_balancer_energy_and_culture_planets_equal():
    assert mission_points("Balancer", {"colonies": ["Jakks", "Vici-KS156"]}) == 3
    assert mission_points("Balancer", {"colonies": ["Jakks", "Drewkaiden"]}) == 0
    assert mission_points("Balancer", {"colonies": ["Ostara", "Halcyon"]}) == 3  # both count for both


def test_mentor_a_replaced_pilot():
    mine = {"hangar": {"Aurora": {"pilot": "Nyx", "ship": 0}}, "retired_pilots": ["Ace Halloran"]}
    assert mission_points("Mentor", mine) == 2
    assert mission_points("Mentor", {"hangar": {"Aurora": {"pilot": "Nyx", "ship": 0}}}) == 0


def test_new_missions_dealt_from_the_shared_deck():
    names = [m["name"] for m in BTB["missions"]]
    assert len(names) == 8 and len(set(names)) == 8


def test_ship_positions_of_pilot_tests_are_legal():
    # the pilots' scenarios rely on surface landings being offered with a pilot aboard
    st = position(gal={0: flown("Rho Sela", "home")}, dice={"move": 1})
    do(st, "activate", face="move")
    assert can(st, "move", ship=0, to="Leandra surface")
    assert surface("Leandra") == {"planet": "Leandra", "surface": True}
    assert st_of(st)["pending"][-1]["decision"] == "resolve_die"
