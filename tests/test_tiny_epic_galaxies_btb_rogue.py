"""Tiny Epic Galaxies: Beyond the Black solo, the five harder Rogue galaxies (docs/rules/tiny_epic_galaxies.md
section 13.13): their start, bonus dice and colony action at every empire level."""

import json

import pytest
from teg_btb_setup import orbit, position
from teg_setup import decision, do, galaxy, st_of

from orrery.core_ext import StateFormatError
from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

ROGUES = CATALOGUE["beyond_the_black"]["rogue_galaxies"]
ROW = ["Jakks", "Vici-KS156", "Drewkaiden", "Leandra"]


def variant(level):
    return f"beyond_the_black_rogue_{level}"


def rogue_colony(level, empire, me=None, rogue=None):
    """The harder Rogue's turn with one die showing colony; the player (1 energy, 1 culture) may force."""
    pending = [
        {"decision": "rogue_turn", "galaxy": "rogue", "dice_left": 0, "checked": False},
        {"decision": "rogue_die", "galaxy": "rogue", "face": "colony", "rerolled": False},
    ]
    trigger = "rogue" if empire == 6 else None  # level 6 ends the game at the end of the round
    st = position(
        1,
        variant=variant(level),
        row=ROW,
        active="rogue",
        dice={},
        pending=pending,
        trigger=trigger,
        gal={0: {"energy": 3, "culture": 3, **(me or {})}, 1: {"empire": empire, **(rogue or {})}},
    )
    do(st, "done")
    return st


@pytest.mark.parametrize("level", range(1, 6))
def test_harder_rogue_starts_as_its_mat_says(level):
    r = ROGUES[level - 1]
    st = position(1, variant=variant(level))
    g = galaxy(st, 1)
    assert (g["energy"], g["culture"]) == (r["start"]["energy"], r["start"]["culture"])
    fresh = st_of(__import__("teg_btb_setup").game(1, variant(level)).new_initial_state(seed=4))["galaxies"][
        1
    ]
    assert fresh["empire"] == r["start"]["empire_level"] and fresh["ships"] == ["home"] * 4
    assert f"Rogue galaxy: {r['name']}" in st.render()


CASES = [(level, lv) for level in range(1, 6) for lv in range(1, 7)]


@pytest.mark.parametrize("level,empire", CASES)
def test_harder_rogue_colony_action(level, empire):
    act = ROGUES[level - 1]["colony_actions_by_level"][empire - 1]
    me = {"ships": [orbit("Jakks", 1), "home", "locked", "locked"]}
    rogue = {"ships": [orbit("Vici-KS156", 1), "home", "home", "home"], "energy": 0, "culture": 0}
    st = rogue_colony(level, empire, me=me, rogue=rogue)
    kind = act["action"]
    mine, its = galaxy(st, 0), galaxy(st, 1)
    if kind == "player_loses":
        assert mine[act["resource"]] == 3 - act["amount"]
    elif kind == "player_loses_both":
        assert (mine["energy"], mine["culture"]) == (3 - act["amount"], 3 - act["amount"])
    elif kind == "rogue_takes":
        assert mine[act["resource"]] == 3 - act["amount"] and its[act["resource"]] == act["amount"]
    elif kind == "push_back_player_ship":
        assert mine["ships"][0] == orbit("Jakks", max(0, 1 - act["steps"]))
    elif kind == "rogue_takes_player_choice":
        for _ in range(act["amount"]):
            assert decision(st) == "rogue_takes"
            do(st, "rogue_takes", resource="energy")
        assert galaxy(st, 0)["energy"] == 3 - act["amount"] and galaxy(st, 1)["energy"] == act["amount"]
    elif kind == "rogue_advances":
        space = 1 + act["steps"]
        if space >= 2:  # Vici-KS156's track ends at 1: the Rogue colonizes it
            assert "Vici-KS156" in galaxy(st, 1)["colonies"]
    elif kind == "rogue_explores":
        assert len(its["exploration_cards"]) == 1
        if act.get("steps"):  # "it explores, then its most advanced ship advances 1": Vici-KS156 colonized
            assert "Vici-KS156" in its["colonies"]
        else:
            assert its["ships"][0] == orbit("Vici-KS156", 1)
    else:
        raise AssertionError(kind)


@pytest.mark.parametrize("level", range(1, 6))
def test_harder_rogue_bonus_dice_at_culture_cap(level):
    pending = [
        {"decision": "rogue_turn", "galaxy": "rogue", "dice_left": 0, "checked": False},
        {"decision": "rogue_die", "galaxy": "rogue", "face": "diplomacy", "rerolled": False},
    ]
    st = position(
        1,
        variant=variant(level),
        row=ROW,
        active="rogue",
        dice={},
        pending=pending,
        gal={0: {"energy": 1, "culture": 1}, 1: {"culture": 7, "energy": 0}},
    )
    do(st, "done")  # the die does nothing; the end-of-turn check turns culture 7 into bonus dice
    assert galaxy(st, 1)["culture"] == 0 and decision(st) == "rogue_die"
    assert st_of(st)["pending"][0]["dice_left"] == ROGUES[level - 1]["bonus_dice"] - 1


def test_the_hardest_rogue_plays_to_the_end():
    st = __import__("teg_btb_setup").game(1, variant(5)).new_initial_state(seed=9)
    st.playout(seed=3)
    assert st.is_terminal() and st.returns()[0] in (0.0, 0.5, 1.0)


# ---------------------------------------------------------------- the Rogue and pilots, hiring, exploring
# (section 13.14: the rulebook gives the Rogue no hire and no explore; it never has a hangar)


def rogue_move(level):
    pending = [
        {"decision": "rogue_turn", "galaxy": "rogue", "dice_left": 0, "checked": False},
        {"decision": "rogue_die", "galaxy": "rogue", "face": "move", "rerolled": False},
    ]
    return position(
        1,
        variant=variant(level),
        row=ROW,
        active="rogue",
        dice={},
        pending=pending,
        exploration_row=["Ion Cloud"],
        gal={0: {"energy": 1, "culture": 1}},  # the player may force a reroll: a decision is due
    )


@pytest.mark.parametrize("level", range(1, 6))
def test_rogue_move_goes_to_a_planet_never_into_unexplored_space(level):
    st = rogue_move(level)
    before = st_of(st)["beyond_the_black"]
    do(st, "done")
    ships = galaxy(st, 1)["ships"]
    assert ships[0] == orbit(ROW[0]) and ships[1:] == ["home"] * 3
    assert st_of(st)["beyond_the_black"] == before  # the pilot row and the face-up card are untouched
    assert galaxy(st, 1)["exploration_cards"] == []


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 5])
def test_rogue_never_hires_nor_sends_a_ship_exploring(level):
    g = __import__("teg_btb_setup").game(1, variant(level) if level else "beyond_the_black")
    rogue_cards = 0
    for seed in range(12):
        st = g.new_initial_state(seed=seed)
        while not st.is_terminal():
            rogue = st_of(st)["galaxies"][1]
            assert "hangar" not in rogue and "retired_pilots" not in rogue
            assert all(s in ("home", "locked") or "planet" in s for s in rogue["ships"])
            if st_of(st)["active"] == "rogue":  # the player may follow a Rogue Move and explore, never hire
                assert not any(st.action_to_struct(a)["kind"] == "hire" for a in st.legal_actions())
            st.apply(st.legal_actions()[(seed * 7 + len(rogue["ships"])) % len(st.legal_actions())])
        rogue_cards += len(st_of(st)["galaxies"][1]["exploration_cards"])
    # only the colony action "it explores" (ours, section 13.13) gives it cards: every harder Rogue has it
    # on a level it reaches (Corsair 3, Harbinger and Warden 1, Dominion and Void Emperor 2); the beginner
    # Rogue of the base game never explores
    assert (rogue_cards > 0) == (level > 0)


@pytest.mark.parametrize("level", range(1, 6))
def test_every_harder_rogue_explores_on_a_level_it_reaches(level):
    # the lowest level whose colony action explores is at or above the level the Rogue starts at
    r = ROGUES[level - 1]
    actions = r["colony_actions_by_level"]
    levels = [lv for lv, act in enumerate(actions, 1) if act["action"] == "rogue_explores"]
    assert levels and max(levels) >= r["start"]["empire_level"]
    assert min(lv for lv in levels if lv >= r["start"]["empire_level"]) <= 3


def test_a_rogue_with_a_hangar_is_refused():
    st = rogue_move(5)
    d = st.to_dict()
    d["state"]["galaxies"][1]["hangar"] = {"Aurora": None, "Intrepid": None, "Ambition": None, "Nexus": None}
    with pytest.raises(StateFormatError, match="hangar"):
        __import__("teg_btb_setup").game(1, variant(5)).state_from_json(json.dumps(d))
