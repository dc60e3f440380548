"""Issue 26 for Tiny Epic Galaxies: the loader recomputes or compares what the rules derive, and checks
the precondition of every pending decision (docs/rules/tiny_epic_galaxies.md, section 10).

Each test plays seeded random moves until the situation arises in a real game, dumps the state, corrupts
one value and expects StateFormatError naming the field."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from orrery.core_ext import StateFormatError, load_game

CATALOGUE = json.load(open("core_ext/tiny_epic_galaxies/catalogue.json"))  # noqa: SIM115
PLANETS = {p["name"]: p for p in CATALOGUE["planets"] + CATALOGUE["beyond_the_black"]["planets"]}
DANGER = [c["name"] for c in CATALOGUE["beyond_the_black"]["exploration_cards"] if c["kind"] == "danger"]


def _find(
    want: Callable[[dict[str, Any]], bool], *, players: int = 2, variant: str = "base", seeds: int = 40
) -> tuple[Any, dict[str, Any]]:
    """The first state of a seeded random game (full state, as to_dict) where want(state payload) holds."""
    game = load_game("tiny_epic_galaxies", players=players, variant=variant)
    for seed in range(seeds):
        rng = random.Random(seed)
        st = game.new_initial_state(seed=seed)
        while not st.is_terminal():
            d = st.to_dict()
            if want(d["state"]):
                return game, d
            st.apply(rng.choice(st.legal_actions()))
    raise AssertionError("the situation never arose")


def _refused(game: Any, doc: dict[str, Any], field: str) -> None:
    game.state_from_json(json.dumps(_original[id(doc)]))  # the uncorrupted state loads
    with pytest.raises(StateFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        game.state_from_json(json.dumps(doc))


_original: dict[int, dict[str, Any]] = {}


def _corruptible(d: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(d)
    _original[id(bad)] = d
    return bad


def _in_turn(s: dict[str, Any]) -> bool:
    return s["round"] >= 1 and s["active"] != "rogue" and bool(s["pending"])


def _deck(s: dict[str, Any]) -> list[str]:
    used = set(s["row"]) | set(s["discarded"]) | {p for g in s["galaxies"] for p in g["colonies"]}
    return [p for p in PLANETS if p not in used and PLANETS[p]["id"] < 40]


# ---------------------------------------------------------------- derived values


def test_once_used_before_round_one_is_refused():
    game, d = _find(lambda s: s["round"] == 0)
    bad = _corruptible(d)
    bad["state"]["galaxies"][0]["once_used"] = ["Nagato"]
    _refused(game, bad, "state.galaxies[0].once_used")


def test_once_used_on_a_planet_still_in_the_deck_is_refused():
    game, d = _find(_in_turn)
    bad = _corruptible(d)
    planet = next(p for p in _deck(d["state"]) if PLANETS[p]["once_per_turn"])
    bad["state"]["galaxies"][1]["once_used"] = [planet]
    _refused(game, bad, "state.galaxies[1].once_used")


def test_more_dice_than_the_empire_rolls_is_refused():
    game, d = _find(lambda s: _in_turn(s) and s["galaxies"][s["active"]]["empire"] == 1)
    bad = _corruptible(d)
    bad["state"]["dice"]["inactive"] = {"move": 5}
    bad["state"]["dice"]["activated"] = {}
    _refused(game, bad, "state.dice")


def test_dice_outside_a_turn_are_refused():
    game, d = _find(lambda s: s["active"] == "rogue", players=1)
    bad = _corruptible(d)
    bad["state"]["dice"]["inactive"] = {"move": 1}
    _refused(game, bad, "state.dice")


def test_follow_bonus_without_its_planet_is_refused():
    game, d = _find(lambda s: _in_turn(s) and not s["follow_bonus"])
    bad = _corruptible(d)
    bad["state"]["follow_bonus"] = ["culture"]
    _refused(game, bad, "state.follow_bonus")


def test_follow_bonus_left_out_after_its_planet_is_refused():
    game, d = _find(lambda s: bool(s["follow_bonus"]), players=3, seeds=200)
    bad = _corruptible(d)
    bad["state"]["follow_bonus"] = []
    _refused(game, bad, "state.follow_bonus")


def test_follow_cost_two_without_nibiru_is_refused():
    game, d = _find(lambda s: _in_turn(s) and "Nibiru" in _deck(s))
    bad = _corruptible(d)
    bad["state"]["follow_cost"] = 2
    _refused(game, bad, "state.follow_cost")


# ---------------------------------------------------------------- pending decisions


def test_landing_without_a_ship_on_the_surface_is_refused():
    game, d = _find(lambda s: any(t["decision"] == "landed" for t in s["pending"]))
    bad = _corruptible(d)
    s = bad["state"]
    i, task = next((i, t) for i, t in enumerate(s["pending"]) if t["decision"] == "landed")
    ships = s["galaxies"][task["galaxy"]]["ships"]
    landed = {x["planet"] for x in ships if isinstance(x, dict) and x.get("surface")}
    task["planet"] = next(p for p in s["row"] if p is not None and p not in landed)
    _refused(game, bad, f"state.pending[{i}].planet")


def test_once_per_turn_action_not_marked_used_is_refused():
    def once(t: dict[str, Any]) -> bool:
        return t["decision"] == "planet_action" and PLANETS[t["planet"]]["once_per_turn"]

    game, d = _find(lambda s: any(once(t) for t in s["pending"]), players=3, seeds=200)
    bad = _corruptible(d)
    s = bad["state"]
    i, task = next((i, t) for i, t in enumerate(s["pending"]) if once(t))
    s["galaxies"][task["galaxy"]]["once_used"].remove(task["planet"])
    if PLANETS[task["planet"]]["action"] == "follow_bonus":
        s["follow_bonus"] = []
    _refused(game, bad, f"state.pending[{i}].planet")


def test_danger_card_in_the_face_up_row_is_refused():
    game, d = _find(
        lambda s: _in_turn(s) and len(s["beyond_the_black"]["exploration_row"]) < 3,
        variant="beyond_the_black",
    )
    bad = _corruptible(d)
    s = bad["state"]
    held = {c for g in s["galaxies"] for c in g["exploration_cards"]}
    s["beyond_the_black"]["exploration_row"].append(next(c for c in DANGER if c not in held))
    n = len(s["beyond_the_black"]["exploration_row"]) - 1
    _refused(game, bad, f"state.beyond_the_black.exploration_row[{n}]")


def test_follow_costing_more_than_this_turn_asks_is_refused():
    def follow(s: dict[str, Any]) -> bool:
        return s["follow_cost"] == 1 and any(t["decision"] == "follow" for t in s["pending"])

    game, d = _find(follow)
    bad = _corruptible(d)
    i = next(i for i, t in enumerate(bad["state"]["pending"]) if t["decision"] == "follow")
    bad["state"]["pending"][i]["cost"] = 2
    _refused(game, bad, f"state.pending[{i}].cost")


def test_zalax_reroll_without_zalax_in_play_is_refused():
    def want(s: dict[str, Any]) -> bool:
        return "Zalax" in _deck(s) and any(t["decision"] == "reroll" for t in s["pending"])

    game, d = _find(want)
    bad = _corruptible(d)
    i = next(i for i, t in enumerate(bad["state"]["pending"]) if t["decision"] == "reroll")
    bad["state"]["pending"][i]["zalax"] = True
    _refused(game, bad, f"state.pending[{i}].zalax")


def test_gyore_die_without_gyore_in_play_is_refused():
    def want(s: dict[str, Any]) -> bool:
        return "Gyore" in _deck(s) and any(
            t["decision"] == "convert" and t["stage"] >= 2 for t in s["pending"]
        )

    game, d = _find(want)
    bad = _corruptible(d)
    i = next(i for i, t in enumerate(bad["state"]["pending"]) if t["decision"] == "convert")
    bad["state"]["pending"][i].update(gyore=True, spent=[])
    _refused(game, bad, f"state.pending[{i}].gyore")


def test_rogue_dice_beyond_its_empire_level_are_refused():
    def want(s: dict[str, Any]) -> bool:
        return (
            bool(s["pending"])
            and s["pending"][0]["decision"] == "rogue_turn"
            and s["galaxies"][1]["empire"] < 4
        )

    game, d = _find(want, players=1)
    bad = _corruptible(d)
    bad["state"]["pending"][0]["dice_left"] = 7
    _refused(game, bad, "state.pending[0].dice_left")


# ---------------------------------------------------------------- the end's trigger


def _points(galaxy: dict[str, Any]) -> int:
    from orrery.render.tiny_epic_galaxies import points

    return points(galaxy)


def test_trigger_on_a_galaxy_short_of_21_points_is_refused():
    def want(s: dict[str, Any]) -> bool:
        return isinstance(s["trigger"], int) and any(_points(g) < 21 for g in s["galaxies"])

    game, d = _find(want)
    bad = _corruptible(d)
    bad["state"]["trigger"] = next(i for i, g in enumerate(d["state"]["galaxies"]) if _points(g) < 21)
    _refused(game, bad, "state.trigger")


def test_the_rogue_as_trigger_below_level_6_and_21_points_is_refused():
    def want(s: dict[str, Any]) -> bool:
        rogue = s["galaxies"][1]
        return s["round"] >= 1 and s["trigger"] is None and rogue["empire"] < 6 and _points(rogue) < 21

    game, d = _find(want, players=1)
    bad = _corruptible(d)
    bad["state"]["trigger"] = "rogue"
    _refused(game, bad, "state.trigger")


def test_which_of_two_galaxies_past_21_triggered_stays_trusted():
    """Both may have triggered (the order is history the board does not keep): either loads."""
    game = load_game("tiny_epic_galaxies", players=5)
    for seed in range(60):
        rng = random.Random(seed)
        st = game.new_initial_state(seed=seed)
        while not st.is_terminal():
            st.apply(rng.choice(st.legal_actions()))
        d = st.to_dict()
        past = [i for i, g in enumerate(d["state"]["galaxies"]) if _points(g) >= 21]
        if len(past) >= 2:
            break
    else:
        raise AssertionError("no game ended with two galaxies past 21")
    for trigger in past:
        d["state"]["trigger"] = trigger
        assert game.state_from_json(json.dumps(d)).to_dict()["state"]["trigger"] == trigger


def test_a_planet_used_while_following_the_rogue_loads_and_the_rogues_own_is_refused():
    """Following the Rogue's die, the player may use a once-per-turn planet in the Rogue's turn (a state
    an earlier loader refused); the Rogue itself never uses planet actions."""
    game, d = _find(
        lambda s: s["active"] == "rogue" and bool(s["galaxies"][0]["once_used"]), players=1, seeds=200
    )
    assert game.state_from_json(json.dumps(d)).to_dict() == d
    bad = _corruptible(d)
    bad["state"]["galaxies"][1]["once_used"] = list(d["state"]["galaxies"][0]["once_used"])
    _refused(game, bad, "state.galaxies[1].once_used")


def test_converter_used_with_every_die_left_is_refused():
    def want(s: dict[str, Any]) -> bool:
        dice = s["dice"]
        rolled = sum(dice["inactive"].values()) + sum(dice["activated"].values())
        return (
            _in_turn(s)
            and not dice["converter_used"]
            and rolled >= 2
            and s["galaxies"][s["active"]]["empire"] == 1
        )

    game, d = _find(want)
    bad = _corruptible(d)
    bad["state"]["dice"]["converter_used"] = True
    _refused(game, bad, "state.dice.converter_used")
