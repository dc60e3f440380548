"""Galaxy of Trian, variant "full": race evolution (sections V.1.3 and VIII), the universal skills and
the rulings of docs/rules/trian.md, section 14. Each race's skills are tested in tests/test_trian_race_*.py.
"""

from __future__ import annotations

import json

from test_trian import A, B, Scenario, set_minerals, set_skills, skill_bits, system_line

from orrery.core_ext import game_info, load_game
from orrery.core_ext.trian import engine as T

U_BIT = 8
NEBULAS, SET, SYSTEMS = 0, 1, 2


def full(faces: list[str], **kw) -> Scenario:
    return Scenario(faces, variant="full", **kw)


def give(
    sc: Scenario, seat: int, *, skills: int | None = None, credits: int | None = None, **minerals: int
) -> None:
    """Set a seat's skill bits, credits and minerals (taken from / returned to the bag) via the loader."""

    def change(d: dict) -> None:
        player = d["players"][seat]
        if skills is not None:
            race = T.RACE_NAMES.index(player["race"]) if player["race"] else None
            set_skills(player, race, skills)
        if credits is not None:
            player["credits"] = credits
        set_minerals(d, seat, **minerals)

    sc.edit(change)


def skills(sc: Scenario, seat: int) -> int:
    return skill_bits(sc.player(seat))


def universal(u: int, base: int = 0) -> int:
    return base | 1 << (U_BIT + u)


# ---------------------------------------------------------------- the variant and the unlock action


def test_full_variant_is_registered_with_ships_and_races_for_every_player_count():
    assert "full" in game_info("trian").variants
    for players in (2, 3, 4):
        state = load_game("trian", players=players, variant="full").new_initial_state(7)
        d = json.loads(state.to_json())["state"]
        assert [p["supply"]["corvettes"] for p in d["players"]] == [3] * players, "full = ships + races"
        dealt = min(players, len(T.DEALT_RACES))
        races = [T.RACE_NAMES.index(p["race"]) for p in d["players"][:dealt]]
        assert len(set(races)) == dealt and set(races) <= set(T.DEALT_RACES)
        assert [p["race"] for p in d["players"][dealt:]] == [None] * (players - dealt), "no race left"
        assert all(skill_bits(p) & 3 == 3 for p in d["players"][:dealt]), "2 starting skills are active"
        again = json.loads(load_game("trian", players=players, variant="full").new_initial_state(7).to_json())
        assert again["state"]["players"] == d["players"], "the race draw is deterministic per seed"


def test_a_universal_skill_costs_5_one_unlock_per_turn_and_a_module_is_never_flipped():
    sc = full(["space", "space", "space"])
    base = skills(sc, A)
    give(sc, A, credits=20)
    assert sc.has("unlock", module=0, side="universal")
    sc.act("unlock", module=0, side="universal")
    assert sc.credits(A) == 15
    assert skills(sc, A) == universal(NEBULAS, base)
    assert not sc.has("unlock"), "only one skill per turn"
    sc.turn(0, 0, "space", "pass")  # A's turn ends
    sc.turn(1, 0, "space", "pass")  # B
    assert sc.seat == A
    kinds = {
        (d["module"], d["side"])
        for d in map(sc.state.action_to_struct, sc.state.legal_actions())
        if d["kind"] == "unlock"
    }
    assert all(m != 0 for m, _ in kinds), "module 0 is placed and can never be flipped"
    assert (1, "universal") in kinds and (2, "universal") in kinds


def test_no_unlock_without_the_credits():
    sc = full(["space"])
    give(sc, A, credits=4)
    assert not sc.has("unlock")


def test_races_and_skills_exist_only_in_the_full_variant():
    sc = Scenario(["space"], variant="ships")
    give(sc, A, credits=50)
    assert not sc.has("unlock")
    d = json.loads(sc.state.to_json())
    set_skills(d["state"]["players"][A], None, universal(SET))
    try:
        sc.game.state_from_json(json.dumps(d))
    except ValueError as err:
        assert "full variant" in str(err)
    else:
        raise AssertionError("skills in the ships variant must be rejected")


# ---------------------------------------------------------------- universal skills (section VIII)


def test_gain_more_from_nebulas_pays_1_more_per_tile_for_an_uncontrolled_nebula():
    sc = full(["nebula-cap", "nebula-bend", "nebula-cap"])
    give(sc, A, skills=universal(NEBULAS, skills(sc, A)))
    sc.turn(0, 0, "nebula-cap", "pass", right="N")
    sc.turn(1, 0, "nebula-bend", "pass", left="N", right="N")
    before = sc.credits(A)
    sc.turn(2, 0, "nebula-cap", "pass", left="N")  # A closes a 3-tile nebula nobody controls
    assert sc.credits(A) == before + 3 + 3


def test_gain_more_from_nebulas_needs_the_skill_and_ignores_systems():
    sc = full(["planet-end", "starlight-path", "planet-end"])
    give(sc, A, skills=universal(NEBULAS, skills(sc, A)))
    sc.turn(0, 0, "planet-end", "pass", right="P")
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")
    before = sc.credits(A)
    sc.turn(2, 0, "planet-end", "pass", left="P")
    assert sc.credits(A) == before + 6, "a system pays no nebula bonus"


def test_gain_more_from_systems_pays_1_more_per_tile_for_a_system_the_closer_controls():
    sc = full(["planet-end", "starlight-path", "planet-end"])
    give(sc, A, skills=universal(SYSTEMS, skills(sc, A)))
    system_line(sc)
    before = sc.credits(A)
    sc.act("pass")
    sc.act("take_back_done")
    assert sc.credits(A) == before + 8 + 3


def test_gain_more_from_systems_pays_nothing_when_another_player_controls_it():
    sc = full(["planet-end", "starlight-path", "space", "planet-end"])
    give(sc, B, skills=universal(SYSTEMS, skills(sc, B)))
    sc.turn(0, 0, "planet-end", "expedition", right="P")  # A's emissary
    sc.turn(1, 0, "starlight-path", "pass", left="P", right="P")  # B
    sc.turn(-1, 0, "space", "pass", right="S")  # A
    before = sc.credits(B)
    sc.turn(2, 0, "planet-end", "pass", left="P")  # B closes A's system
    assert sc.credits(B) == before


def test_a_set_of_minerals_trades_one_of_each_colour_for_16_credits():
    sc = full(["space"])
    give(sc, A, skills=universal(SET, skills(sc, A)), red=2, blue=1, green=1, yellow=1)
    assert sc.has("mineral_set")
    before, bag = sc.credits(A), sum(sc.data()["bag"].values())
    sc.act("mineral_set")
    d = sc.data()
    assert sc.credits(A) == before + 16
    assert d["players"][A]["minerals"] == {"red": 1, "blue": 0, "green": 0, "yellow": 0}
    assert sum(d["bag"].values()) == bag + 4, "the set goes back to the bag"
    assert not sc.has("mineral_set"), "a set needs all four colours"


def test_a_set_of_minerals_needs_the_skill():
    sc = full(["space"])
    give(sc, A, red=1, blue=1, green=1, yellow=1)
    assert not sc.has("mineral_set")


def set_race(sc: Scenario, seat: int, race: int, *modules: int) -> None:
    """Give `seat` the race `race` with its 2 starting skills and the racial sides of `modules` (0..2);
    another seat holding that race is left without one."""

    def change(d: dict) -> None:
        for p, player in enumerate(d["players"]):
            if player["race"] == T.RACE_NAMES[race] and p != seat:
                set_skills(player, None, 0)
        set_skills(d["players"][seat], race, 3 | sum(1 << (2 + m) for m in modules))

    sc.edit(change)


# ---------------------------------------------------------------- observation (issue 3, point 4)


def test_races_skills_and_racial_units_are_public_and_survive_determinize():
    game = load_game("trian", players=3, variant="full")
    state = game.new_initial_state(5)
    rng = __import__("random").Random(5)
    for _ in range(300):
        state.apply(rng.choice(state.legal_actions()))
    truth = json.loads(state.to_json())["state"]

    def public(d: dict) -> list:
        players = [
            {k: p[k] for k in ("race", "racial_skills", "universal_skills", "special_tokens")}
            for p in d["players"]
        ]
        units = [(t["emissary"], t["ship"]) for t in d["galaxy"]]
        return [players, units, d["racial_step"]]

    for seat in range(3):
        obs = json.loads(state.observation(seat).to_json())["state"]
        det = json.loads(state.determinize(seat, 11).to_json())["state"]
        assert public(obs) == public(truth) == public(det)


def test_an_upgrade_whose_base_is_a_module_waits_for_that_module():
    maephos = 4  # Harvest module (module 1) upgrades Harvest technology (module 0)
    sc = full(["space", "space", "space"])
    set_race(sc, A, maephos)
    give(sc, A, credits=40)
    assert not sc.has("unlock", module=1, side="racial"), "Harvest technology is not unlocked yet"
    assert sc.has("unlock", module=1, side="universal")
    sc.act("unlock", module=0, side="racial")
    assert sc.credits(A) == 30, "a racial skill costs 10"
    sc.turn(0, 0, "space", "pass")  # A
    sc.turn(1, 0, "space", "pass")  # B
    assert sc.has("unlock", module=1, side="racial")
