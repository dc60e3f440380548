"""ismcts-teg-explore@1: Tiny Epic Galaxies' default ismcts-teg@3 with Beyond the Black's explore term at
weight 0.5 in every seat's evaluation (SearchConfig.all_seats_plan; docs/rules/tiny_epic_galaxies.md
section 13.19).
The mechanism itself is tested in tests/test_search_all_seats_plan.py; here the preset and its checks."""

import dataclasses

import pytest

from orrery.core_ext import game_info, load_game
from orrery.search import get_config
from orrery.search._bots import config_version
from orrery.search._config import check_plan
from orrery.search._kernel import Searcher

TEG3 = get_config("ismcts-teg@3")
EXPLORE = get_config("ismcts-teg-explore@1")


def test_the_preset_is_the_default_with_the_explore_term_in_all_seats():
    assert EXPLORE.label == "ismcts-teg-explore@1" and config_version(EXPLORE) == "ismcts-teg-explore@1"
    assert EXPLORE.all_seats_plan == "explore" and EXPLORE.all_seats_plan_weight == 0.5
    assert EXPLORE.plan == ""  # not a bias of the searching seat
    assert EXPLORE.kernel_options()["all_seats_plan"] == "explore"
    assert EXPLORE.kernel_options()["all_seats_plan_weight"] == 0.5
    # @3 with the term and nothing else
    assert dataclasses.replace(
        EXPLORE, name="ismcts-teg", version=3, all_seats_plan="", all_seats_plan_weight=1.0, description=""
    ) == dataclasses.replace(TEG3, description="")


def test_version_2_is_version_1_at_a_quarter_point():
    # docs/rules/tiny_epic_galaxies.md 13.20: the weight 13.19 named to try next
    quarter = get_config("ismcts-teg-explore@2")
    assert get_config("ismcts-teg-explore") is quarter and config_version(quarter) == "ismcts-teg-explore@2"
    assert quarter.kernel_options()["all_seats_plan_weight"] == 0.25
    assert dataclasses.replace(
        quarter, version=1, all_seats_plan_weight=0.5, description=""
    ) == dataclasses.replace(EXPLORE, description="")


def test_the_default_and_the_learned_preset_are_unchanged():
    assert game_info("tiny_epic_galaxies").default_search == "ismcts-teg@3"
    assert TEG3.all_seats_plan == "" and get_config("ismcts-teg-learned@1").all_seats_plan == ""


def test_only_a_game_with_the_explore_plan_takes_it():
    check_plan(EXPLORE, "tiny_epic_galaxies")
    with pytest.raises(ValueError, match="all_seats_plan 'explore' is not a plan of take_the_galaxy"):
        check_plan(EXPLORE, "take_the_galaxy")
    with pytest.raises(ValueError, match="all_seats_plan 'explore' is not a plan of trian .it has no plans"):
        check_plan(EXPLORE, "trian")


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"evaluation": "learned"}, "all_seats_plan needs evaluation 'handwritten'"),
        ({"all_seats_plan_weight": 0.0}, "all_seats_plan_weight must be"),
        ({"all_seats_plan": "Explore"}, "all_seats_plan must be"),
    ],
)
def test_a_bad_change_of_it_is_refused_naming_the_field(changes, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(EXPLORE, **changes)


def _stats(config, variant: str) -> list:
    state = load_game("tiny_epic_galaxies", players=2, variant=variant).new_initial_state(2)
    while state.current_player != 0 or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    searcher = Searcher(state.observation(0), seed=5, **config.kernel_options())
    searcher.run(max_iterations=2000)
    return searcher.root_stats()


def test_it_searches_differently_in_beyond_the_black_and_as_the_default_in_the_base_game():
    # Exploration cards exist only in Beyond the Black: the explore term is 0 in the base game.
    assert _stats(EXPLORE, "beyond_the_black") == _stats(EXPLORE, "beyond_the_black")
    assert _stats(EXPLORE, "beyond_the_black") != _stats(TEG3, "beyond_the_black")
    assert _stats(EXPLORE, "base") == _stats(TEG3, "base")


def test_the_unversioned_default_name_still_gives_the_default():
    """A client naming "ismcts-teg" (its latest version) keeps the default, not the unproven candidate."""
    assert get_config("ismcts-teg").version == 3
