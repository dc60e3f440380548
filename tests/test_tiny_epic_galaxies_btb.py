"""Tiny Epic Galaxies: Beyond the Black, one scenario per rule (docs/rules/tiny_epic_galaxies.md
section 13)."""

import json

import pytest
from teg_btb_setup import (
    BTB,
    danger,
    finished,
    flying,
    game,
    orbit,
    position,
)
from teg_setup import can, decision, do, galaxy, st_of

from orrery.core_ext import StateFormatError, UnknownGameError, load_game


def btb(st):
    return st_of(st)["beyond_the_black"]


def hire_lightspeeder(st, ship=0, face="diplomacy"):
    """Lightspeeder on the Aurora for two diplomacy dice (or three of `face`), replacing ship `ship`."""
    do(st, "hire", pilot="Lightspeeder")
    do(st, "hangar", ship_kind="Aurora")
    do(st, "face", face=face)
    do(st, "ship", ship=ship)


# ---------------------------------------------------------------- set-up (Game setup)


@pytest.mark.parametrize("players,pilots", [(1, 3), (2, 4), (3, 5), (4, 6), (5, 6)])
def test_setup_pilot_row_is_players_plus_two_six_for_five(players, pilots):
    st = game(players).new_initial_state(seed=3)
    d = st_of(st)
    assert (
        len(d["beyond_the_black"]["pilot_row"]) == pilots and None not in d["beyond_the_black"]["pilot_row"]
    )
    assert d["beyond_the_black"]["exploration_row"] == []
    for g in d["galaxies"][:players]:
        assert g["hangar"] == {"Aurora": None, "Intrepid": None, "Ambition": None, "Nexus": None}
        assert g["exploration_cards"] == [] and g["retired_pilots"] == []


def test_setup_shuffles_the_new_planets_and_missions_in():
    new_planets, new_missions = set(), set()
    for seed in range(40):
        d = st_of(game(4).new_initial_state(seed=seed))
        new_planets |= set(d["row"]) & {"Ostara", "Halcyon", "Arcturus Prime", "Zenith-Omega", "Ixion"}
        new_missions |= {m for g in d["galaxies"] for m in g["dealt"]} & {"Commander", "Collector", "Mentor"}
    assert new_planets and new_missions


def test_base_game_has_none_of_the_expansion():
    d = st_of(load_game("tiny_epic_galaxies", players=2).new_initial_state(seed=3))
    assert "beyond_the_black" not in d and "hangar" not in d["galaxies"][0]


def test_harder_rogue_variants_are_solo_only():
    with pytest.raises(UnknownGameError):
        load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black_rogue_3")


# ---------------------------------------------------------------- hiring (Hiring pilots)


def test_hire_trained_pilot_with_two_dice_of_a_hangar_symbol():
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2, "energy": 1})
    do(st, "hire", pilot="Lightspeeder")
    assert can(st, "hangar", ship_kind="Aurora") and can(st, "hangar", ship_kind="Intrepid")
    assert not can(st, "hangar", ship_kind="Ambition")  # untrained: 3 matching dice needed
    do(st, "hangar", ship_kind="Aurora")
    do(st, "face", face="diplomacy")
    do(st, "ship", ship=0)
    d = st_of(st)
    assert galaxy(st, 0)["hangar"]["Aurora"] == {"pilot": "Lightspeeder", "ship": 0}
    assert d["dice"]["inactive"] == {"energy": 1} and d["dice"]["hiring"] == {"diplomacy": 2}
    assert d["dice"]["activated"] == {}  # hiring dice have no action (section 13.2)
    assert "Lightspeeder" not in btb(st)["pilot_row"] and None not in btb(st)["pilot_row"]


def test_two_dice_must_match_one_symbol_of_the_ship():
    # Aurora takes diplomacy or economy: one diplomacy and one economy do not hire
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"economy": 1, "diplomacy": 1})
    assert not can(st, "hire")


@pytest.mark.parametrize("face", ["move", "energy", "culture", "colony"])
def test_a_pair_of_a_face_no_hangar_spot_shows_does_not_hire(face):
    # issue 28 (section 13.16): every spot shows diplomacy and economy only; a pair of any other face
    # used to hire (each face was on some spot), now only three of a kind do
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={face: 2})
    assert not can(st, "hire")
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={face: 3})
    assert can(st, "hire")


def test_three_matching_dice_hire_any_pilot_for_any_ship():
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"culture": 3})
    do(st, "hire", pilot="Lightspeeder")
    assert can(st, "hangar", ship_kind="Ambition")
    do(st, "hangar", ship_kind="Ambition")
    do(st, "face", face="culture")
    do(st, "ship", ship=0)
    assert st_of(st)["dice"]["hiring"] == {"culture": 3}
    assert galaxy(st, 0)["hangar"]["Ambition"]["pilot"] == "Lightspeeder"


def test_piedes_cannot_repeat_a_hiring_die():
    # Hiring dice "are NOT used for their normal die actions; they are only for hiring pilots" (Additional
    # rules for hiring pilots): Piedes repeats "the action of a die already activated", and a hiring die
    # had none. Section 13.2.
    st = position(
        pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"],
        dice={"diplomacy": 2, "energy": 1, "colony": 1},
        gal={0: {"colonies": ["Piedes"], "energy": 0}},
    )
    hire_lightspeeder(st)
    # the two diplomacy dice in the bay were hiring dice, and Piedes cannot copy itself: nothing to repeat, so
    # the colony die (whose only use here is Piedes) is not even offered (section 2: activation is offered
    # only when the die can do something)
    assert st_of(st)["dice"]["hiring"] == {"diplomacy": 2}
    assert not can(st, "activate", face="colony")


def test_piedes_repeats_an_action_die_after_a_hire():
    st = position(
        pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"],
        dice={"diplomacy": 2, "energy": 1, "colony": 1},
        gal={0: {"colonies": ["Piedes"], "energy": 0}},
    )
    do(st, "activate", face="energy")
    hire_lightspeeder(st)
    do(st, "activate", face="colony")
    do(st, "colony", planet="Piedes")
    assert not can(st, "face", face="diplomacy") and can(st, "face", face="energy")
    energy = galaxy(st, 0)["energy"]
    do(st, "face", face="energy")
    assert galaxy(st, 0)["energy"] > energy


def test_hiring_dice_round_trip_in_json_and_count_toward_seven():
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2, "energy": 1})
    hire_lightspeeder(st)
    text = st.to_json()
    assert game().state_from_json(text).to_json() == text
    d = json.loads(text)
    d["state"]["dice"]["hiring"] = {"move": 7}
    with pytest.raises(StateFormatError, match="more than 7 dice"):
        game().state_from_json(json.dumps(d))
    d = json.loads(load_game("tiny_epic_galaxies", players=2).new_initial_state(seed=1).to_json())
    d["state"]["dice"]["hiring"] = {}
    with pytest.raises(StateFormatError, match="hiring"):
        load_game("tiny_epic_galaxies", players=2).state_from_json(json.dumps(d))


def test_a_hired_pilot_is_worth_one_point():
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2})
    before = st.scores()[0]
    hire_lightspeeder(st)
    assert st.scores()[0] == before + 1


def test_advanced_ship_replaces_a_normal_ship_where_it_stands():
    gal = {0: {"ships": ["home", orbit("Jakks", 1), "locked", "locked"]}}
    st = position(gal=gal, pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2})
    hire_lightspeeder(st, ship=1)
    g = galaxy(st, 0)
    assert g["hangar"]["Aurora"] == {"pilot": "Lightspeeder", "ship": 1}
    assert g["ships"][1] == orbit("Jakks", 1)


def test_hiring_needs_a_normal_ship_to_replace():
    gal = {
        0: {"hangar": {"Aurora": {"pilot": "Ace Halloran", "ship": 0}, "Nexus": {"pilot": "Nyx", "ship": 1}}}
    }
    st = position(gal=gal, pilot_row=["Lightspeeder", "Rook", "Bulwark", "Hesper Vale"], dice={"economy": 2})
    do(st, "hire", pilot="Lightspeeder")
    # no normal ship left: only the Aurora, whose pilot is replaced, can take Lightspeeder
    assert can(st, "hangar", ship_kind="Aurora") and not can(st, "hangar", ship_kind="Intrepid")


def test_replacing_a_pilot_keeps_its_point_and_badges_but_not_its_ability():
    gal = {0: {"hangar": {"Aurora": {"pilot": "Grim Oduya", "ship": 0}}}}
    st = position(gal=gal, pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2})
    points = st.scores()[0]
    do(st, "hire", pilot="Lightspeeder")
    do(st, "hangar", ship_kind="Aurora")
    do(st, "face", face="diplomacy")  # no ship to choose: the Aurora flies already
    g = galaxy(st, 0)
    assert g["hangar"]["Aurora"] == {"pilot": "Lightspeeder", "ship": 0}
    assert g["retired_pilots"] == ["Grim Oduya"]
    assert st.scores()[0] == points + 1
    assert "relic 0 lifeform 1 anomaly 0" in st.render()  # Grim Oduya's badge (lifeform) still counts


def test_others_may_follow_only_the_last_hiring_die():
    gal = {1: {"culture": 2}}
    # three move dice: the any-pilot hire, so the follow is a ship's move
    st = position(gal=gal, pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"move": 3})
    hire_lightspeeder(st, face="move")
    assert decision(st) == "follow" and st.current_player == 1
    assert st.action_to_struct(st.legal_actions()[1])["face"] == "move"
    do(st, "follow")
    assert decision(st) == "resolve_die"  # seat 1 moves a ship
    do(st, "move", ship=0, to="Jakks orbit")
    assert decision(st) == "turn" and st.current_player == 0  # one follow, then seat 0 goes on


def test_hiring_is_on_your_own_turn_only():
    st = position(
        gal={1: {"culture": 2}}, pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"move": 3}
    )
    do(st, "activate", face="move")
    do(st, "move", ship=0, to="Jakks orbit")
    assert st.current_player == 1 and decision(st) == "follow"
    do(st, "follow")
    assert not can(st, "hire")


# ---------------------------------------------------------------- exploring (Exploration)


def move_to_explore(st, ship=0):
    do(st, "activate", face="move")
    do(st, "explore", ship=ship)


def test_move_a_ship_into_unexplored_space_and_reveal():
    st = position(dice={"move": 1})
    move_to_explore(st)
    assert galaxy(st, 0)["ships"][0] == "unexplored"
    assert decision(st) == "explore" and can(st, "reveal") and not can(st, "take_exploration")


def test_take_a_face_up_card_ends_exploration():
    st = position(dice={"move": 1}, exploration_row=["Ion Cloud", "Crystal Caves"])
    move_to_explore(st)
    do(st, "take_exploration", card="Ion Cloud")
    assert galaxy(st, 0)["exploration_cards"] == ["Ion Cloud"] and galaxy(st, 0)["energy"] == 6
    assert btb(st)["exploration_row"] == ["Crystal Caves"]
    assert decision(st) == "turn"


def test_a_revealed_discovery_may_be_left_face_up_and_a_danger_must_be_taken():
    # with an empty row every reveal of a discovery offers take/leave; a danger is taken at once
    seen_leave = seen_danger = False
    for seed in range(30):
        st = position(dice={"move": 1}, seed=seed)
        move_to_explore(st)
        do(st, "reveal")
        if decision(st) == "explore":
            assert can(st, "take_revealed") and can(st, "leave_revealed")
            card = st_of(st)["pending"][-1]["revealed"]
            do(st, "leave_revealed")
            assert btb(st)["exploration_row"][:1] == [card]
            seen_leave = True
        else:
            cards = galaxy(st, 0)["exploration_cards"]
            assert len(cards) == 1
            from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

            kinds = {c["name"]: c["kind"] for c in CATALOGUE["beyond_the_black"]["exploration_cards"]}
            assert kinds[cards[0]] == "danger"
            seen_danger = True
    assert seen_leave and seen_danger


def test_with_three_face_up_cards_a_revealed_card_must_be_taken():
    for seed in range(10):
        st = position(
            dice={"move": 1}, exploration_row=["Ion Cloud", "Crystal Caves", "Trade Beacon"], seed=seed
        )
        move_to_explore(st)
        do(st, "reveal")
        assert len(galaxy(st, 0)["exploration_cards"]) == 1
        assert btb(st)["exploration_row"] == ["Ion Cloud", "Crystal Caves", "Trade Beacon"]


def test_cards_left_face_up_while_exploring_cannot_be_taken_in_that_action():
    st = position(dice={"move": 1}, seed=0)
    move_to_explore(st)
    for _ in range(10):
        do(st, "reveal")
        if decision(st) != "explore":
            break
        if len(btb(st)["exploration_row"]) < 2:
            do(st, "leave_revealed")
            assert not can(st, "take_exploration")  # only reveal is offered after leaving
        else:
            do(st, "take_revealed")
            break
    assert decision(st) == "turn"


def test_a_ship_in_unexplored_space_cannot_explore_again_but_may_leave():
    st = position(dice={"move": 1}, gal={0: {"ships": ["unexplored", "home", "locked", "locked"]}})
    do(st, "activate", face="move")
    assert not can(st, "explore", ship=0) and can(st, "explore", ship=1)
    assert can(st, "move", ship=0, to="galaxy") and can(st, "move", ship=0, to="Jakks orbit")


def test_ships_in_unexplored_space_may_acquire_culture_not_energy():
    gal = {0: {"ships": ["unexplored", "unexplored", "locked", "locked"], "culture": 1, "energy": 2}}
    st = position(dice={"culture": 1, "energy": 1}, gal=gal)
    assert not can(st, "activate", face="energy")
    do(st, "activate", face="culture")
    assert galaxy(st, 0)["culture"] == 3


def test_ships_of_several_players_share_unexplored_space():
    gal = {
        0: {"ships": ["unexplored", "home", "locked", "locked"]},
        1: {"ships": ["unexplored", "home", "locked", "locked"]},
    }
    st = position(dice={"move": 1}, gal=gal)
    do(st, "activate", face="move")
    do(st, "explore", ship=1)
    assert galaxy(st, 0)["ships"][:2] == ["unexplored", "unexplored"]


def test_followers_may_explore():
    st = position(dice={"move": 1}, gal={1: {"culture": 2}})
    do(st, "activate", face="move")
    do(st, "move", ship=0, to="Jakks orbit")
    do(st, "follow")
    do(st, "explore", ship=0)
    assert galaxy(st, 1)["ships"][0] == "unexplored" and decision(st) == "explore"


def test_danger_track_paid_with_its_resource_then_back_to_the_mat():
    gal = {
        0: {
            "ships": [danger("Asteroid Field", 0), "home", "locked", "locked"],
            "exploration_cards": ["Asteroid Field"],
            "energy": 3,
        }
    }
    st = position(dice={"move": 1}, gal=gal)
    do(st, "danger_pay", ship=0)  # a 1-space track paid in energy
    assert galaxy(st, 0)["ships"][0] == "unexplored" and galaxy(st, 0)["energy"] == 2
    assert decision(st) == "turn"  # no new explore


def test_danger_track_that_asks_a_ship_action():
    gal = {
        0: {
            "ships": [danger("Black Hole Rim", 1), "home", "locked", "locked"],
            "exploration_cards": ["Black Hole Rim"],
        }
    }
    st = position(dice={"move": 1}, gal=gal)
    assert not can(st, "danger_pay")
    do(st, "activate", face="move")
    assert not can(st, "move", ship=0, to="galaxy")  # it cannot simply leave the track
    do(st, "danger_move", ship=0)
    assert galaxy(st, 0)["ships"][0] == "unexplored"


def test_a_ship_on_a_danger_track_collects_nothing():
    gal = {
        0: {
            "ships": [danger("Ion Storm", 0), "home", "locked", "locked"],
            "exploration_cards": ["Ion Storm"],
            "energy": 2,
        }
    }
    st = position(dice={"energy": 1}, gal=gal)
    do(st, "activate", face="energy")
    assert galaxy(st, 0)["energy"] == 3  # only the ship at home


def test_exhausting_the_exploration_deck_triggers_the_end():
    cards = [
        c["name"]
        for c in __import__("orrery.core_ext.tiny_epic_galaxies", fromlist=["x"]).CATALOGUE[
            "beyond_the_black"
        ]["exploration_cards"]
    ]
    last = "Frozen Comet"
    rest = [c for c in cards if c != last]
    st = position(
        dice={"move": 1}, gal={0: {"exploration_cards": rest[:15]}, 1: {"exploration_cards": rest[15:]}}
    )
    move_to_explore(st)
    do(st, "reveal")  # the last card: it must be taken, nothing is left to reveal
    assert st_of(st)["trigger"] == 0 and last in galaxy(st, 0)["exploration_cards"]
    assert not st.is_terminal()  # the round is finished first
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    assert st_of(st)["round"] == 1


# ---------------------------------------------------------------- points and the end (End game and scoring)


def test_pilots_and_dwarf_planets_count_toward_twenty_one():
    gal = {
        0: {
            "empire": 6,
            "ships": ["home"] * 4,
            "colonies": ["Aughmoore", "Shouhua"],
            "hangar": {"Aurora": {"pilot": "Nyx", "ship": 0}},
            "exploration_cards": ["Dwarf Planet Orcus-V"],
        }
    }
    st = position(gal=gal, dice={"move": 1}, trigger=0)
    assert st.scores()[0] == 8 + 14 + 1 + 2


def test_loader_refuses_unreported_trigger_from_dwarf_points():
    gal = {
        0: {
            "empire": 6,
            "ships": ["home"] * 4,
            "colonies": ["Aughmoore", "Shouhua"],
            "exploration_cards": ["Dwarf Planet Gonggong"],
        }
    }
    with pytest.raises(StateFormatError):
        position(gal=gal, dice={"move": 1})


MISSIONS = [["Industrialist", "Explorer"], ["Orbiter", "Seeker"], ["Elder", "Trader"], ["Hoarder", "Noble"]]


def scored(players, cards_by_seat):
    """A finished game where each seat holds the given exploration cards (the badge carriers) and a
    mission that scores nothing here except seat 1's Orbiter (2: all its ships are home)."""
    gal = {}
    for g in range(players):
        gal[g] = {
            "exploration_cards": cards_by_seat[g],
            "dealt": MISSIONS[g],
            "mission": MISSIONS[g][0],
            "energy": 0,
            "culture": 0,
            "ships": ["home", "home", "locked", "locked"],
        }
    return finished(players, gal=gal)


RELICS = ["Crystal Caves", "Ancient Library", "Derelict Freighter", "Pirate Ambush"]
CHARTS = ["Trade Beacon", "Frozen Comet", "Nav Buoy"]


def bonus(st, players):
    # points beyond in-game points (empire 1: 0 VP; Orbiter scores 2 for all ships home: seat 1)
    return [st.scores()[g] - (2 if g == 1 else 0) for g in range(players)]


def test_badges_most_two_second_one():
    st = scored(3, [RELICS[:3], RELICS[3:], []])
    assert bonus(st, 3) == [2, 1, 0]


def test_badges_tied_for_most_one_each_and_no_second():
    st = scored(3, [RELICS[:2], RELICS[2:], ["Trade Beacon"]])
    assert bonus(st, 3) == [1, 1, 2]  # relics tied for most: 1 each, no second; the only chart: 2


def test_badges_tied_second_each_earn_one():
    st = scored(4, [RELICS[:2], RELICS[2:3], RELICS[3:], []])
    assert bonus(st, 4) == [2, 1, 1, 0]


def test_badges_two_players_only_the_most_scores():
    st = scored(2, [RELICS[:3], RELICS[3:]])
    assert bonus(st, 2) == [2, 0]
    st = scored(2, [RELICS[:2], RELICS[2:]])
    assert bonus(st, 2) == [1, 1]


# ---------------------------------------------------------------- hidden information


def test_observation_hides_other_seats_face_down_cards_but_not_their_class():
    gal = {0: {"exploration_cards": ["Dwarf Planet Gonggong", "Ion Cloud"]}}
    st = position(gal=gal, dice={"move": 1})
    obs = st.observation(1).to_dict()["state"]
    assert obs["galaxies"][0]["exploration_cards"] == []
    assert sorted(obs["galaxies"][0]["hidden_cards"], key=str) == sorted(
        [{"badge": "relic", "dwarf_planet_vp": 2}, {"badge": "anomaly", "dwarf_planet_vp": 0}], key=str
    )
    mine = st.observation(0).to_dict()["state"]["galaxies"][0]
    assert mine["exploration_cards"] == ["Ion Cloud", "Dwarf Planet Gonggong"] and "hidden_cards" not in mine


def test_determinize_deals_hidden_cards_of_the_same_class():
    from orrery.core_ext.tiny_epic_galaxies import CATALOGUE

    info = {
        c["name"]: (c["badge"], c["dwarf_planet_vp"])
        for c in CATALOGUE["beyond_the_black"]["exploration_cards"]
    }
    gal = {0: {"exploration_cards": ["Ion Cloud", "Dwarf Planet Sedna-C"]}}
    st = position(gal=gal, dice={"move": 1})
    seen = set()
    for seed in range(20):
        world = st.observation(1).determinize(seed)
        cards = galaxy(world, 0)["exploration_cards"]
        assert sorted(info[c] for c in cards) == sorted([("anomaly", 0), ("relic", 2)])
        seen.add(tuple(sorted(cards)))
        assert world.scores() == st.scores()
    assert len(seen) > 1


def test_a_card_with_a_ship_on_its_track_stays_face_up():
    gal = {
        0: {
            "ships": [danger("Black Hole Rim", 1), "home", "locked", "locked"],
            "exploration_cards": ["Black Hole Rim"],
        }
    }
    obs = position(gal=gal, dice={"move": 1}).observation(1).to_dict()["state"]
    assert obs["galaxies"][0]["exploration_cards"] == ["Black Hole Rim"]


def test_hidden_cards_are_refused_in_a_full_state():
    d = position(dice={"move": 1}).to_dict()
    d["state"]["galaxies"][1]["hidden_cards"] = [{"badge": "relic", "dwarf_planet_vp": 0}]
    with pytest.raises(StateFormatError):
        game().state_from_json(json.dumps(d))


@pytest.mark.parametrize(
    "path,value",
    [
        (("beyond_the_black", "pilot_row", 0), "Nobody"),
        (("beyond_the_black", "exploration_row"), ["Ion Cloud", "Ion Cloud"]),
        (("galaxies", 0, "ships", 0), {"danger": "Ion Cloud", "track": 0}),
        (("galaxies", 0, "ships", 2), "unexplored"),
        (("galaxies", 0, "hangar", "Aurora"), {"pilot": "Nyx", "ship": 3}),
        (("galaxies", 0, "retired_pilots"), ["Nyx"]),
        (("galaxies", 1, "exploration_cards"), ["Not a card"]),
    ],
)
def test_loader_refuses_bad_expansion_fields(path, value):
    d = position(dice={"move": 1}).to_dict()
    node = d["state"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(StateFormatError):
        game().state_from_json(json.dumps(d))


def test_base_game_refuses_expansion_planets_and_fields():
    from teg_setup import position as base_position

    with pytest.raises(StateFormatError):
        base_position(2, row=["Ostara", "Jakks", "Leandra", "Tifnod"])
    d = base_position(2).to_dict()
    d["state"]["beyond_the_black"] = {"pilot_row": [], "exploration_row": []}
    with pytest.raises(StateFormatError):
        load_game("tiny_epic_galaxies", players=2).state_from_json(json.dumps(d))


def test_render_shows_pilot_row_hangars_exploration_and_badges():
    gal = {0: {**flying("Aurora", "Nyx"), "exploration_cards": ["Crystal Caves"]}}
    text = position(gal=gal, dice={"move": 1}, exploration_row=["Ion Cloud"]).render()
    assert "pilots for hire:" in text and "Aurora=Nyx (ship 0)" in text
    assert "face up: Ion Cloud [anomaly]" in text and "relic 1" in text


def test_labels_are_readable():
    st = position(pilot_row=["Lightspeeder", "Nyx", "Rook", "Bulwark"], dice={"diplomacy": 2})
    labels = [st.action_label(a) for a in st.legal_actions()]
    assert any(lbl.startswith("hire pilot Lightspeeder") for lbl in labels)


def test_variant_name_is_registered_for_one_to_five_players():
    from orrery.core_ext import registered_games

    info = {i.name: i for i in registered_games()}["tiny_epic_galaxies"]
    assert BTB in info.variants and info.players_for(BTB) == (1, 2, 3, 4, 5)
    assert all(info.players_for(f"beyond_the_black_rogue_{i}") == (1,) for i in range(1, 6))


def test_a_card_whose_advance_is_being_chosen_stays_face_up_in_observations():
    gal = {
        0: {"ships": ["unexplored", orbit("Jakks", 0), "locked", "locked"], "exploration_cards": ["Nav Buoy"]}
    }
    pending = [
        {"decision": "turn", "galaxy": 0},
        {"decision": "exploration_advance", "galaxy": 0, "card": "Nav Buoy"},
    ]
    st = position(gal=gal, dice={}, pending=pending)
    obs = st.observation(1)
    assert obs.to_dict()["state"]["galaxies"][0]["exploration_cards"] == ["Nav Buoy"]
    assert game().observation_from_json(obs.to_json()) == obs
