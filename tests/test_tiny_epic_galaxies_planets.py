"""Tiny Epic Galaxies: one scenario per planet action (docs/rules/tiny_epic_galaxies.md section 6).

Each test gives seat 0 the planet as a colony and a Utilize a Colony die, uses the colony and checks
the effect. Seat 1 has no culture unless following is under test, so nobody is asked to follow.
"""

from pathlib import Path

import pytest
from teg_setup import can, decision, do, galaxy, position, st_of

from orrery.core_ext.tiny_epic_galaxies import engine as teg

HOME2 = ["home", "home", "locked", "locked"]


def orbit(planet, space=0):
    return {"planet": planet, "track": space}


def surface(planet):
    return {"planet": planet, "surface": True}


def ships(*where):
    return list(where) + ["home"] * (2 - len(where)) + ["locked"] * (2 if len(where) <= 2 else 4 - len(where))


def use(planet, dice=None, players=2, gal0=None, gal1=None, row=None, gal=None):
    """Seat 0 activates its colony die and picks `planet`."""
    g0 = {"colonies": [planet], **(gal0 or {})}
    g1 = {"culture": 0, **(gal1 or {})}
    all_gal = {0: g0, 1: g1, **(gal or {})}
    st = position(players, row=row, dice=dice or {"colony": 1}, gal=all_gal)
    do(st, "activate", face="colony")
    do(st, "colony", planet=planet)
    return st


def test_jakks_gains_culture():
    assert galaxy(use("Jakks"), 0)["culture"] == 2


def test_vici_gains_energy():
    assert galaxy(use("Vici-KS156"), 0)["energy"] == 3


def test_mj_gains_two_energy():
    assert galaxy(use("MJ-120210"), 0)["energy"] == 4


@pytest.mark.parametrize(
    "planet,track_planet,other", [("Drewkaiden", "Jakks", "Vici-KS156"), ("Leandra", "Vici-KS156", "Jakks")]
)
def test_advance_one_ship_on_a_track_type(planet, track_planet, other):
    st = use(
        planet,
        gal0={"ships": [orbit(track_planet), orbit(other), "locked", "locked"]},
        row=["Jakks", "Vici-KS156", "Helios", "Mared"],
    )
    assert not can(st, "ship", ship=1)
    do(st, "ship", ship=0)
    assert galaxy(st, 0)["ships"][0] == orbit(track_planet, 1)


@pytest.mark.parametrize("planet,res", [("Birkomius", "culture"), ("Bisschop", "energy")])
def test_follow_bonus(planet, res):
    st = use(
        planet,
        dice={"colony": 1, "energy": 1},
        gal0={"energy": 0, "culture": 0},
        gal1={"culture": 2, "energy": 0},
    )
    # seat 1 may follow the colony die (it can upgrade: 0 energy, 2 culture): decline it
    if decision(st) == "follow":
        do(st, "done")
    before = galaxy(st, 0)[res]
    do(st, "activate", face="energy")
    do(st, "follow")
    assert galaxy(st, 0)[res] == before + 1 + (2 if res == "energy" else 0)
    assert not can(st, "activate", face="colony")


@pytest.mark.parametrize(
    "planet,good,bad", [("Tifnod", "Jakks", "Vici-KS156"), ("Vizcarra", "Vici-KS156", "Jakks")]
)
def test_push_back_one_enemy_ship_on_a_track_type(planet, good, bad):
    st = use(
        planet,
        gal1={"ships": [orbit(good, 1), orbit(bad, 1), "locked", "locked"]},
        row=["Jakks", "Vici-KS156", "Helios", "Mared"],
    )
    assert can(st, "enemy_ship", galaxy=1, ship=0) and not can(st, "enemy_ship", galaxy=1, ship=1)
    do(st, "enemy_ship", galaxy=1, ship=0)
    assert galaxy(st, 1)["ships"][0] == orbit(good, 0)


def test_push_back_never_leaves_the_track():
    st = position(
        dice={"colony": 1},
        gal={
            0: {"colonies": ["K-Widow"]},
            1: {"culture": 0, "ships": [orbit("Jakks", 0), "home", "locked", "locked"]},
        },
    )
    do(st, "activate", face="colony")
    assert not can(st, "colony", planet="K-Widow")  # no enemy ship on space 1 or further


def test_helios_discards_an_unoccupied_planet():
    st = use("Helios", gal1={"ships": [orbit("Jakks"), "home", "locked", "locked"]})
    assert not can(st, "row", planet="Jakks")
    do(st, "row", planet="Vici-KS156")
    s = st_of(st)
    assert s["discarded"] == ["Vici-KS156"] and "Vici-KS156" not in s["row"] and None not in s["row"]


def test_mared_discount_when_strictly_lowest():
    st = use("Mared", gal0={"energy": 1, "culture": 0}, gal1={"empire": 2})
    do(st, "upgrade", resource="energy")
    assert (galaxy(st, 0)["empire"], galaxy(st, 0)["energy"]) == (2, 0)
    st = position(dice={"colony": 1}, gal={0: {"colonies": ["Mared"], "energy": 1}, 1: {"culture": 0}})
    assert not can(st, "activate", face="colony")  # tied for lowest: no discount, cannot pay 2


def test_lureena_pays_a_mix():
    st = use("Lureena", gal0={"energy": 1, "culture": 1})
    assert [st.action_to_struct(a)["amount"] for a in st.legal_actions()] == [1]
    do(st, "amount", amount=1)
    g = galaxy(st, 0)
    assert (g["empire"], g["energy"], g["culture"]) == (2, 0, 0)


def test_zalax_free_reroll():
    st = use("Zalax", dice={"colony": 1, "move": 2})
    assert decision(st) == "reroll"
    do(st, "face", face="move")
    do(st, "done")
    s = st_of(st)
    assert (
        s["dice"]["rerolls"] == 0
        and sum(s["dice"]["inactive"].values()) == 2
        and galaxy(st, 0)["energy"] == 2
    )


def test_zalax_is_your_turn_only():
    st = position(
        dice={"colony": 1}, gal={0: {"culture": 0}, 1: {"colonies": ["Zalax"], "culture": 1, "energy": 0}}
    )
    do(st, "activate", face="colony") if can(st, "activate", face="colony") else None
    assert decision(st) != "follow"  # following with only Zalax usable is not offered


def test_hoefker_trades_energy_for_culture():
    g = galaxy(use("Hoefker"), 0)
    assert (g["energy"], g["culture"]) == (1, 3)


@pytest.mark.parametrize("planet,res", [("CLJ-0517", "culture"), ("La-Torres", "energy")])
def test_steal(planet, res):
    st = use(planet, gal1={"culture": 2, "energy": 2})
    if decision(st) == "follow":
        do(st, "done")
    else:
        do(st, "player", galaxy=1)
    st = use(planet, gal1={"culture": 0, "energy": 2} if res == "energy" else {"culture": 2, "energy": 0})
    if decision(st) == "planet_action":
        do(st, "player", galaxy=1)
    g0, g1 = galaxy(st, 0), galaxy(st, 1)
    assert g0[res] == (3 if res == "energy" else 2) and g1[res] == 1


@pytest.mark.parametrize(
    "planet,src,dst", [("Pembertonia-Major", "culture", "energy"), ("Omicron Fenzi", "energy", "culture")]
)
def test_convert_resources(planet, src, dst):
    st = use(planet, gal0={"energy": 3, "culture": 3})
    assert [st.action_to_struct(a)["amount"] for a in st.legal_actions()] == [1, 2, 3]
    do(st, "amount", amount=2)
    assert (galaxy(st, 0)[src], galaxy(st, 0)[dst]) == (1, 5)


def test_nagato_two_moves_with_two_ships():
    st = use("Nagato", gal0={"culture": 1}, row=["Helios", "Mared", "Jakks", "Vici-KS156"])
    assert galaxy(st, 0)["culture"] == 0
    do(st, "move", ship=0, to="Helios orbit")
    assert not can(st, "move", ship=0)
    do(st, "move", ship=1, to="Mared orbit")
    assert galaxy(st, 0)["ships"][:2] == [orbit("Helios"), orbit("Mared")]


@pytest.mark.parametrize(
    "planet,target,pay",
    [("Padraigin-3110", "Helios", ("culture", 2)), ("Nakagawakozi", "Mared", ("energy", 2))],
)
def test_pay_to_advance_two(planet, target, pay):
    st = use(
        planet,
        gal0={"culture": 3, "energy": 3, "ships": [orbit(target), "home", "locked", "locked"]},
        row=["Helios", "Mared", "Jakks", "Vici-KS156"],
    )
    do(st, "ship", ship=0)
    assert galaxy(st, 0)["ships"][0] == orbit(target, 2) and galaxy(st, 0)[pay[0]] == 3 - pay[1]


def test_jorg_pushes_back_two():
    st = use(
        "Jorg",
        gal0={"culture": 2},
        gal1={"ships": [orbit("Gort", 3), "home", "locked", "locked"]},
        row=["Gort", "Helios", "Mared", "Jakks"],
    )
    do(st, "enemy_ship", galaxy=1, ship=0)
    assert galaxy(st, 1)["ships"][0] == orbit("Gort", 1) and galaxy(st, 0)["culture"] == 0


def test_brumbaugh_pushes_back_two_ships():
    st = use(
        "Brumbaugh",
        gal0={"energy": 2},
        gal1={"ships": [orbit("Gort", 3), orbit("Helios", 1), "locked", "locked"]},
        row=["Gort", "Helios", "Mared", "Jakks"],
    )
    do(st, "enemy_ship", galaxy=1, ship=0)
    do(st, "enemy_ship", galaxy=1, ship=1)
    assert galaxy(st, 1)["ships"][:2] == [orbit("Gort", 2), orbit("Helios", 0)]


def test_umbra_forum_copies_a_row_planet():
    st = use("Umbra-Forum", row=["MJ-120210", "Helios", "Mared", "Jakks"], gal0={"culture": 7})
    assert not can(st, "row", planet="Jakks")  # Jakks: culture already at the cap
    do(st, "row", planet="MJ-120210")
    assert galaxy(st, 0)["energy"] == 4


@pytest.mark.parametrize("planet,res", [("JAC-110912", "culture"), ("Gleam-Zanier", "energy")])
def test_gain_and_others_gain_one(planet, res):
    st = use(planet, gal0={"energy": 0, "culture": 0}, gal1={"energy": 0})
    assert galaxy(st, 0)[res] == 2 and galaxy(st, 1)[res] == 1


def test_maia_discards_two_dice():
    st = use("Maia", dice={"colony": 1, "move": 1, "energy": 1}, gal0={"energy": 0, "culture": 0})
    do(st, "face", face="move")
    do(st, "face", face="energy")
    s = st_of(st)
    assert s["dice"]["inactive"] == {} and (galaxy(st, 0)["energy"], galaxy(st, 0)["culture"]) == (2, 2)


def test_maia_discards_the_first_picked_die_when_it_is_not_a_move():
    # The first pick was read after its task was popped (zeroed), so Move was discarded instead and,
    # with no Move die, its count wrapped to 255 dice (found in a 200 ms tournament game won in round 1).
    st = use("Maia", dice={"colony": 1, "energy": 1, "economy": 1}, gal0={"energy": 0, "culture": 0})
    do(st, "face", face="energy")
    do(st, "face", face="economy")
    assert st_of(st)["dice"]["inactive"] == {}
    assert (galaxy(st, 0)["energy"], galaxy(st, 0)["culture"]) == (2, 2)


def test_andellouxian_recalls_a_ship_for_resources():
    st = use(
        "Andellouxian-6",
        gal0={"energy": 0, "culture": 0, "ships": [orbit("Gort", 3), "home", "locked", "locked"]},
        row=["Gort", "Helios", "Mared", "Jakks"],
    )
    do(st, "ship", ship=0)
    do(st, "amount", amount=1)
    g = galaxy(st, 0)
    assert g["ships"][0] == "home" and (g["energy"], g["culture"]) == (1, 2)


@pytest.mark.parametrize("planet,res", [("Walsfeo", "culture"), ("Sargus-36", "energy")])
def test_use_another_players_colony(planet, res):
    st = use(planet, gal0={"energy": 2, "culture": 2}, gal1={"colonies": ["MJ-120210"], "energy": 0})
    do(st, "colony", planet="MJ-120210")
    g0, g1 = galaxy(st, 0), galaxy(st, 1)
    assert g0["energy"] == (3 if res == "energy" else 4) and g1[res] == 1


def test_zavodnick_any_face_followed_for_free():
    st = use("Zavodnick", gal0={"energy": 0}, gal1={"culture": 0, "energy": 0})
    do(st, "face", face="energy")
    assert galaxy(st, 0)["energy"] == 2
    assert decision(st) == "follow" and st.current_player == 1
    do(st, "follow", cost=0)
    assert galaxy(st, 1)["energy"] == 2 and galaxy(st, 1)["culture"] == 0


def test_bsw_back_one_then_advance_another():
    st = use(
        "BSW-10-1",
        gal0={"ships": [orbit("Gort", 2), orbit("Helios", 0), "locked", "locked"]},
        row=["Gort", "Helios", "Mared", "Jakks"],
    )
    assert not can(st, "ship", ship=1)
    do(st, "ship", ship=0)
    assert not can(st, "ship", ship=0)
    do(st, "ship", ship=1)
    assert galaxy(st, 0)["ships"][:2] == [orbit("Gort", 1), orbit("Helios", 1)]


def test_aughmoore_culture_per_home_ship():
    assert galaxy(use("Aughmoore", gal0={"culture": 0}), 0)["culture"] == 2


def test_shouhua_advances_any_track():
    st = use(
        "Shouhua",
        gal0={"ships": [orbit("Mared", 1), "home", "locked", "locked"]},
        row=["Mared", "Helios", "Jakks", "Zalax"],
    )
    do(st, "ship", ship=0)
    assert galaxy(st, 0)["ships"][0] == orbit("Mared", 2)


def test_nibiru_following_costs_two():
    st = use("Nibiru", dice={"colony": 1, "energy": 1}, gal1={"culture": 2, "energy": 0})
    if decision(st) == "follow":
        do(st, "done")
    do(st, "activate", face="energy")
    do(st, "follow", cost=2)
    assert galaxy(st, 1)["culture"] == 0


def test_gort_jumps_to_the_same_space_and_may_colonize():
    st = use(
        "Gort",
        gal0={"ships": [orbit("Helios", 2), "home", "locked", "locked"]},
        row=["Helios", "Jakks", "Mared", "Zalax"],
    )
    do(st, "ship", ship=0)
    do(st, "row", planet="Jakks")  # Jakks has 1 numbered space: space 2 is past its final space
    assert "Jakks" in galaxy(st, 0)["colonies"] and galaxy(st, 0)["ships"][0] == "home"


def test_terra_bettia_others_advance_one_then_you_two():
    st = use(
        "Terra-Bettia",
        gal0={"ships": [orbit("Helios", 0), "home", "locked", "locked"]},
        gal1={"ships": [orbit("Mared", 0), "home", "locked", "locked"]},
        row=["Helios", "Mared", "Jakks", "Zalax"],
    )
    assert st.current_player == 1
    do(st, "ship", ship=0)
    assert st.current_player == 0
    do(st, "ship", ship=0)
    assert galaxy(st, 1)["ships"][0] == orbit("Mared", 1) and galaxy(st, 0)["ships"][0] == orbit("Helios", 2)


def test_k_widow_any_track():
    st = use(
        "K-Widow",
        gal1={"ships": [orbit("Mared", 2), "home", "locked", "locked"]},
        row=["Mared", "Helios", "Jakks", "Zalax"],
    )
    do(st, "enemy_ship", galaxy=1, ship=0)
    assert galaxy(st, 1)["ships"][0] == orbit("Mared", 1)


def test_piedes_repeats_an_activated_die():
    st = position(
        dice={"colony": 1, "energy": 1}, gal={0: {"colonies": ["Piedes"], "energy": 0}, 1: {"culture": 0}}
    )
    do(st, "activate", face="energy")
    do(st, "activate", face="colony")
    do(st, "colony", planet="Piedes")
    assert not can(st, "face", face="culture")
    do(st, "face", face="energy")
    assert galaxy(st, 0)["energy"] == 4


def test_gyore_sets_a_die():
    st = use("Gyore", dice={"colony": 1, "move": 1})
    do(st, "face", face="move")
    do(st, "face", face="economy")
    assert st_of(st)["dice"]["inactive"] == {"economy": 1}


def test_every_planet_is_covered():
    source = Path(__file__).read_text()
    # the base game's 40; Beyond the Black's 12 are covered in test_tiny_epic_galaxies_btb_cards.py
    assert all(f'"{name}"' in source for name in teg.PLANET_NAMES[:40])


@pytest.mark.parametrize("planet", ["Walsfeo", "Sargus-36"])
def test_base_game_offers_no_expansion_planet_as_another_players_colony(planet):
    """The expansion's planets sit in the box in a base game (W_BOX), which is not anyone's colony: with no
    other colony on the table, the copy action has nothing to use (it once offered Quill and Ixion)."""
    st = position(2, dice={"colony": 1}, gal={0: {"colonies": [planet], "culture": 2, "energy": 2}, 1: {}})
    do(st, "activate", face="colony")
    assert not can(st, "colony", planet=planet)


@pytest.mark.parametrize("culture,offered", [(2, False), (3, True)])
def test_walsfeo_copies_only_what_is_still_paid_for_after_its_own_payment(culture, offered):
    """Walsfeo's 1 culture goes to the owner first, so Jorg's "pay 2 culture" needs 3 in all: with 2, play
    once reached -1 culture (a state no loader accepts; found by reloading every state of random games)."""
    gal1 = {"colonies": ["Jorg"], "culture": 0, "ships": [orbit("Gort", 1), "home", "locked", "locked"]}
    gal0 = {"colonies": ["Walsfeo"], "culture": culture, "energy": 0}
    st = position(2, row=["Gort", "Helios", "Mared", "Jakks"], dice={"colony": 1}, gal={0: gal0, 1: gal1})
    do(st, "activate", face="colony")
    assert can(st, "colony", planet="Walsfeo") == offered
    if offered:
        do(st, "colony", planet="Walsfeo")
        do(st, "colony", planet="Jorg")
        assert galaxy(st, 0)["culture"] == 0 and galaxy(st, 1)["culture"] == 1
