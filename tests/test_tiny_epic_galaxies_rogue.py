"""Tiny Epic Galaxies solo: the Rogue galaxy's behaviours (docs/rules/tiny_epic_galaxies.md section 7)."""

import pytest
from teg_setup import can, decision, do, galaxy, position, st_of

ROW = ["Jakks", "Vici-KS156", "Drewkaiden", "Leandra"]


def orbit(planet, space=0):
    return {"planet": planet, "track": space}


def rogue_die(face, *, me=None, rogue=None, dice_left=0):
    """The Rogue's turn with one die showing `face`; the player can pay for a forced reroll."""
    pending = [
        {"decision": "rogue_turn", "galaxy": "rogue", "dice_left": dice_left, "checked": False},
        {"decision": "rogue_die", "galaxy": "rogue", "face": face, "rerolled": False},
    ]
    return position(
        1,
        row=ROW,
        active="rogue",
        dice={},
        pending=pending,
        gal={0: {"energy": 1, "culture": 1, **(me or {})}, 1: rogue or {}},
    )


def let_stand(st):
    do(st, "done")
    if decision(st) == "follow":
        do(st, "done")


def test_solo_human_starts_and_rounds_alternate():
    from teg_setup import game

    st = game(1).new_initial_state(seed=5)
    do(st, "keep_mission", index=0)
    assert st_of(st)["active"] == 0 and decision(st) == "turn"
    do(st, "end_turn")
    # the Rogue's turn runs by itself until the player has a decision (or the round is over)
    assert st.current_player == 0


def test_rogue_move_goes_to_the_leftmost_planet_without_its_ship():
    st = rogue_die("move", rogue={"ships": [orbit("Jakks"), "home", "home", "home"]})
    let_stand(st)
    assert galaxy(st, 1)["ships"][:2] == [orbit("Jakks"), orbit("Vici-KS156")]


def test_rogue_advance_moves_every_ship_on_that_track_type():
    ships = [orbit("Jakks", 0), orbit("Leandra", 0), orbit("Vici-KS156", 0), "home"]
    st = rogue_die("diplomacy", rogue={"ships": ships})
    let_stand(st)
    assert galaxy(st, 1)["ships"][:3] == [orbit("Jakks", 1), orbit("Leandra", 1), orbit("Vici-KS156", 0)]


def test_rogue_colonizes():
    st = rogue_die("diplomacy", rogue={"ships": [orbit("Jakks", 1), "home", "home", "home"]})
    let_stand(st)
    assert galaxy(st, 1)["colonies"] == ["Jakks"] and galaxy(st, 1)["ships"][0] == "home"


@pytest.mark.parametrize("face", ["energy", "culture"])
def test_rogue_acquire_produces_both(face):
    ships = [orbit("Jakks"), orbit("Vici-KS156"), "home", "home"]
    st = rogue_die(face, rogue={"ships": ships})
    let_stand(st)
    r = galaxy(st, 1)
    assert (r["energy"], r["culture"]) == ((2, 1) if face == "energy" else (1, 2))


@pytest.mark.parametrize(
    "level,me_after,rogue_culture",
    [(1, (0, 1), 0), (2, (1, 0), 0), (3, (1, 0), 1)],
)
def test_rogue_colony_actions_levels_1_to_3(level, me_after, rogue_culture):
    st = rogue_die("colony", rogue={"empire": level}, me={"energy": 2, "culture": 2})
    let_stand(st)
    g = galaxy(st, 0)
    assert (g["energy"], g["culture"]) == (me_after[0] + 1, me_after[1] + 1)
    assert galaxy(st, 1)["culture"] == rogue_culture


def test_rogue_colony_action_level_4_pushes_back_your_most_advanced_ship():
    me = {"ships": [orbit("Jakks", 1), orbit("Drewkaiden", 1), "locked", "locked"]}
    st = rogue_die("colony", rogue={"empire": 4}, me=me)
    let_stand(st)
    assert galaxy(st, 0)["ships"][:2] == [orbit("Jakks", 0), orbit("Drewkaiden", 1)]


def test_rogue_colony_action_level_5_takes_two_of_your_choice():
    st = rogue_die("colony", rogue={"empire": 5, "ships": ["home"] * 4}, me={"energy": 3, "culture": 3})
    do(st, "done")
    assert decision(st) == "rogue_takes" and st.current_player == 0
    do(st, "rogue_takes", resource="energy")
    do(st, "rogue_takes", resource="culture")
    assert (galaxy(st, 0)["energy"], galaxy(st, 0)["culture"]) == (2, 2)
    assert (galaxy(st, 1)["energy"], galaxy(st, 1)["culture"]) == (1, 1)


def test_forced_reroll_costs_energy_and_culture_once_per_die():
    st = rogue_die("colony", me={"energy": 2, "culture": 2})
    do(st, "force_reroll")
    g = galaxy(st, 0)
    assert (g["energy"], g["culture"]) == (1, 1)
    assert not can(st, "force_reroll")


def test_player_may_follow_a_rogue_die():
    st = rogue_die("energy", me={"energy": 1, "culture": 2})
    do(st, "done")
    assert decision(st) == "follow"
    do(st, "follow", cost=1)
    assert galaxy(st, 0)["energy"] == 3 and galaxy(st, 0)["culture"] == 1


def test_rogue_energy_cap_upgrades_and_culture_cap_gives_three_bonus_dice():
    pending = [{"decision": "rogue_turn", "galaxy": "rogue", "dice_left": 0, "checked": False}]
    st = position(
        1,
        row=ROW,
        active="rogue",
        dice={},
        pending=[*pending, {"decision": "rogue_die", "galaxy": "rogue", "face": "move", "rerolled": False}],
        gal={0: {"energy": 1, "culture": 1}, 1: {"energy": 7, "culture": 7, "ships": ["home"] * 4}},
    )
    do(st, "done")
    do(st, "done")  # do not follow the move
    r = galaxy(st, 1)
    assert r["empire"] == 2 and r["energy"] == 0 and r["culture"] == 0
    p = st_of(st)["pending"]
    assert p[0]["decision"] == "rogue_turn" and p[0]["checked"] and p[0]["dice_left"] == 2  # 1 rolled, 2 left


def test_rogue_at_level_6_wins():
    st2 = position(
        1,
        row=ROW,
        over=True,
        pending=[],
        trigger="rogue",
        dice={},
        gal={0: {"colonies": ["Gort", "Aughmoore", "Nibiru"]}, 1: {"empire": 6, "ships": ["home"] * 4}},
    )
    assert st2.returns() == [0.0]


def test_solo_value_is_beating_the_rogue():
    st = position(
        1,
        row=ROW,
        over=True,
        pending=[],
        trigger=0,
        dice={},
        gal={0: {"colonies": ["Gort", "Aughmoore", "Nibiru"]}, 1: {"colonies": ["Gyore"]}},
    )
    assert st.returns() == [1.0]
    st = position(
        1,
        row=ROW,
        over=True,
        pending=[],
        trigger="rogue",
        dice={},
        gal={0: {"colonies": ["Gort"]}, 1: {"colonies": ["Gyore", "Aughmoore", "Nibiru"]}},
    )
    assert st.returns() == [0.0]


def test_rogue_is_not_a_seat():
    from teg_setup import game

    for seed in range(5):
        st = game(1).new_initial_state(seed=seed)
        for _ in range(20000):
            if st.is_terminal():
                break
            assert st.current_player == 0
            st.apply(st.legal_actions()[seed % len(st.legal_actions())])
        assert st.is_terminal()
