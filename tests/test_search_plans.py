"""Plans: a search biased toward one way of scoring (SearchConfig.plan, docs/search.md "Plans"; Tiny Epic
Galaxies' plans: docs/rules/tiny_epic_galaxies.md section 13.18)."""

import dataclasses

import pytest

from orrery.core_ext import load_game
from orrery.search import get_config
from orrery.search._bots import LevelBot, config_version
from orrery.search._config import check_plan
from orrery.search._kernel import Searcher
from orrery.search._levels import Level
from orrery.search.tournament._config import ConfigError, config_from_dict
from orrery.search.tournament._runner import _check_playable

DEFAULT = get_config("ismcts-teg@2")
DEALS = (0, 1, 2)


def btb():
    return load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black")


def test_tiny_epic_galaxies_names_its_plans_and_the_other_games_have_none():
    assert btb().plans == ("pilots", "explore", "colonies")
    assert load_game("tiny_epic_galaxies", players=2).plans == ("pilots", "explore", "colonies")
    for name, players in (("trian", 2), ("take_the_galaxy", 2), ("kuhn", 2)):
        assert load_game(name, players=players).plans == ()


def test_no_plan_is_the_default_and_reaches_the_kernel():
    assert DEFAULT.plan == "" and DEFAULT.plan_weight == 1.0
    options = dataclasses.replace(DEFAULT, plan="pilots", plan_weight=2.5).kernel_options()
    assert options["plan"] == "pilots" and options["plan_weight"] == 2.5


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"plan": "Pilots"}, "plan must be"),
        ({"plan": "pilots!"}, "plan must be"),
        ({"plan": 3}, "plan must be"),
        ({"plan": "pilots", "plan_weight": 0}, "plan_weight must be"),
        ({"plan": "pilots", "plan_weight": -1.0}, "plan_weight must be"),
        ({"plan": "pilots", "plan_weight": float("nan")}, "plan_weight must be"),
        ({"plan": "pilots", "plan_weight": True}, "plan_weight must be"),
        ({"plan": "pilots", "evaluation": "learned"}, "plan needs evaluation 'handwritten'"),
    ],
)
def test_a_bad_plan_setting_is_refused_naming_the_field(changes, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(DEFAULT, **changes)


def test_a_plan_the_game_lacks_is_refused_by_the_searcher_and_before_play():
    observation = btb().new_initial_state(1).observation(0)
    lacks = r"plan 'pilot' is not a plan of tiny_epic_galaxies \(its plans: pilots, explore, colonies\)"
    with pytest.raises(ValueError, match=lacks):
        Searcher(observation, plan="pilot")
    trian = load_game("trian", players=2).new_initial_state(1)
    with pytest.raises(ValueError, match="is not a plan of trian .it has no plans"):
        Searcher(trian.observation(trian.current_player), plan="pilots")
    with pytest.raises(ValueError, match="is not a plan of trian"):
        check_plan(dataclasses.replace(DEFAULT, plan="colonies"), "trian")
    check_plan(dataclasses.replace(DEFAULT, plan="colonies"), "tiny_epic_galaxies")


def _tournament(overrides: dict, game: str = "tiny_epic_galaxies") -> dict:
    return {
        "game": game,
        "players": 2,
        "format": "gauntlet",
        "baseline": "default",
        "sets": 1,
        "bots": [
            {"name": "default", "kind": "turn", "budget": {"iterations": 50}},
            {"name": "planner", "kind": "turn", "overrides": overrides, "budget": {"iterations": 50}},
        ],
    }


def test_a_tournament_bot_names_its_plan_in_overrides_and_a_wrong_one_fails_before_play():
    _check_playable(config_from_dict(_tournament({"plan": "explore", "plan_weight": 3.0})))
    for overrides, game, message in (
        ({"plan": "exploring"}, "tiny_epic_galaxies", "bot 'planner': plan 'exploring' is not a plan"),
        ({"plan": "explore"}, "trian", "bot 'planner': plan 'explore' is not a plan of trian"),
        ({"plan": "explore", "plan_weight": 0.0}, "tiny_epic_galaxies", "bot 'planner': plan_weight must be"),
    ):
        with pytest.raises(ConfigError, match=message):
            _check_playable(config_from_dict(_tournament(overrides, game)))


def test_a_planning_bot_reports_its_plan_in_its_version():
    config = dataclasses.replace(DEFAULT, plan="colonies", plan_weight=3.0)
    assert config_version(config) == "ismcts-teg@2{plan=colonies,plan_weight=3.0}"
    assert config_version(DEFAULT) == "ismcts-teg@2"


def test_a_plan_search_replays_exactly_and_differs_from_the_unbiased_one():
    state = btb().new_initial_state(7)
    while state.current_player != 0 or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    observation = state.observation(0)

    def stats(**plan):
        searcher = Searcher(observation, seed=11, **{**DEFAULT.kernel_options(), **plan})
        searcher.run(max_iterations=3000)
        return searcher.root_stats()

    assert stats(plan="colonies", plan_weight=3.0) == stats(plan="colonies", plan_weight=3.0)
    assert stats(plan="", plan_weight=1.0) == stats()
    assert stats(plan="colonies", plan_weight=3.0) != stats()


def _holdings(plan: str, weight: float) -> dict[str, int]:
    """What the bot in each seat of DEALS ends the game holding, against the unbiased default preset,
    both at 2,000 iterations per whole turn (the tournaments' "turn" kind)."""
    game = btb()
    level = Level(name="turn", iterations=2000, milliseconds=None, tolerance=0.0)
    config = dataclasses.replace(DEFAULT, plan=plan, plan_weight=weight) if plan else DEFAULT
    held = {"pilots": 0, "explore": 0, "colonies": 0}
    for deal in DEALS:
        for seat in (0, 1):
            bots = [LevelBot(level, DEFAULT), LevelBot(level, DEFAULT)]
            bots[seat] = LevelBot(level, config)
            state, moves = game.new_initial_state(deal), 0
            while not state.is_terminal():
                mover = state.current_player
                state.apply(bots[mover].select_action(state.observation(mover), seed=deal * 100_000 + moves))
                moves += 1
            galaxy = state.to_dict()["state"]["galaxies"][seat]
            held["pilots"] += len([h for h in galaxy["hangar"].values() if h]) + len(galaxy["retired_pilots"])
            held["explore"] += len(galaxy["exploration_cards"])
            held["colonies"] += len(galaxy["colonies"])
    return held


def test_a_planning_bot_pursues_its_plan_more_than_the_unbiased_bot_on_the_same_deals():
    unbiased = _holdings("", 1.0)
    for plan in ("pilots", "explore", "colonies"):
        biased = _holdings(plan, 3.0)
        # six seat-games on fixed deals and seeds: the plan's count clearly above the unbiased bot's
        assert biased[plan] >= unbiased[plan] * 1.15 + 2, (plan, biased, unbiased)
