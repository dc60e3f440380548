"""The all-seats plan term (SearchConfig.all_seats_plan, docs/search.md "Plans"): a plan's term added to
every seat's evaluation, not a bias of the searching seat. ismcts-ttg@3 is ismcts-ttg@2 with Take The
Galaxy's relinquish term so valued (docs/rules/take_the_galaxy.md section 13.1)."""

import dataclasses

import pytest

from orrery.core_ext import game_info, load_game
from orrery.search import get_config
from orrery.search._bots import LevelBot, config_version
from orrery.search._config import check_plan, learned_preset
from orrery.search._kernel import Searcher
from orrery.search._levels import Level

TTG2 = get_config("ismcts-ttg@2")
TTG3 = get_config("ismcts-ttg@3")


def _observation(players: int = 2, variant: str = "standard", deal: int = 5):
    state = load_game("take_the_galaxy", players=players, variant=variant).new_initial_state(deal)
    while state.current_player != 0 or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[-1])
    return state.observation(0)


def _stats(observation, **options) -> list:
    searcher = Searcher(observation, seed=11, **{**TTG2.kernel_options(), **options})
    searcher.run(max_iterations=3000)
    return searcher.root_stats()


def test_the_term_is_off_by_default_and_the_default_presets_are_unchanged():
    assert TTG2.all_seats_plan == "" and TTG2.all_seats_plan_weight == 1.0
    assert TTG2.kernel_options()["all_seats_plan"] == ""
    assert game_info("take_the_galaxy").default_search == "ismcts-ttg@2"
    learned = learned_preset("take_the_galaxy")
    assert learned is not None and learned.all_seats_plan == ""
    # the new preset is @2 with the term and nothing else
    assert dataclasses.replace(
        TTG3, version=2, all_seats_plan="", all_seats_plan_weight=1.0, description=""
    ) == (dataclasses.replace(TTG2, description=""))
    assert TTG3.all_seats_plan == "relinquish" and TTG3.plan == ""


def test_no_term_searches_exactly_as_before():
    observation = _observation()
    assert _stats(observation, all_seats_plan="", all_seats_plan_weight=1.0) == _stats(observation)


def test_the_term_changes_the_search_deterministically_and_differs_from_the_seat_only_plan():
    observation = _observation()
    unbiased = _stats(observation)
    valued = _stats(
        observation, all_seats_plan="relinquish", all_seats_plan_weight=TTG3.all_seats_plan_weight
    )
    assert valued == _stats(
        observation, all_seats_plan="relinquish", all_seats_plan_weight=TTG3.all_seats_plan_weight
    )
    assert valued != unbiased
    assert valued != _stats(observation, plan="relinquish", plan_weight=TTG3.all_seats_plan_weight)
    # a plan bot on top of it: both terms, deterministic, different again
    both = {"all_seats_plan": "relinquish", "plan": "relinquish", "plan_weight": 3.0}
    assert _stats(observation, **both) == _stats(observation, **both) != valued


@pytest.mark.parametrize("players, variant", [(1, "standard"), (3, "random"), (4, "team")])
def test_the_term_searches_every_seat_count_and_variant(players, variant):
    observation = _observation(players, variant)
    valued = _stats(observation, all_seats_plan="relinquish", all_seats_plan_weight=4.0)
    assert valued == _stats(observation, all_seats_plan="relinquish", all_seats_plan_weight=4.0)
    assert valued != _stats(observation)


def test_the_new_preset_replays_a_whole_game_exactly_and_plays_differently():
    game = load_game("take_the_galaxy", players=2)
    level = Level(name="turn", iterations=600, milliseconds=None, tolerance=0.0)

    def play(config) -> list[int]:
        bots = [LevelBot(level, config), LevelBot(level, TTG2)]
        state, moves = game.new_initial_state(3), []
        while not state.is_terminal():
            mover = state.current_player
            moves.append(bots[mover].select_action(state.observation(mover), seed=len(moves)))
            state.apply(moves[-1])
        return moves

    assert play(TTG3) == play(TTG3)
    assert play(TTG3) != play(TTG2)


def test_the_version_label_names_an_override():
    config = dataclasses.replace(TTG2, all_seats_plan="relinquish", all_seats_plan_weight=5.0)
    assert config_version(config) == "ismcts-ttg@2{all_seats_plan=relinquish,all_seats_plan_weight=5.0}"
    assert config_version(TTG3) == "ismcts-ttg@3"


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"all_seats_plan": "Relinquish"}, "all_seats_plan must be"),
        ({"all_seats_plan": 4}, "all_seats_plan must be"),
        ({"all_seats_plan": "relinquish", "all_seats_plan_weight": 0}, "all_seats_plan_weight must be"),
        ({"all_seats_plan": "relinquish", "all_seats_plan_weight": -2.0}, "all_seats_plan_weight must be"),
        (
            {"all_seats_plan": "relinquish", "all_seats_plan_weight": float("nan")},
            "all_seats_plan_weight must",
        ),
        ({"all_seats_plan": "relinquish", "all_seats_plan_weight": 1e7}, "all_seats_plan_weight must be"),
        ({"all_seats_plan": "relinquish", "all_seats_plan_weight": True}, "all_seats_plan_weight must be"),
        (
            {"all_seats_plan": "relinquish", "evaluation": "learned"},
            "all_seats_plan needs evaluation 'handwritten'",
        ),
    ],
)
def test_a_bad_setting_is_refused_naming_the_field(changes, message):
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(TTG2, **changes)


def test_a_plan_the_game_lacks_is_refused_before_play_and_by_the_kernel():
    config = dataclasses.replace(TTG2, all_seats_plan="pilots")
    with pytest.raises(ValueError, match="all_seats_plan 'pilots' is not a plan of take_the_galaxy"):
        check_plan(config, "take_the_galaxy")
    with pytest.raises(
        ValueError, match="all_seats_plan 'relinquish' is not a plan of trian .it has no plans"
    ):
        check_plan(TTG3, "trian")
    check_plan(TTG3, "take_the_galaxy")
    with pytest.raises(ValueError, match="all_seats_plan 'pilots' is not a plan of take_the_galaxy"):
        Searcher(_observation(), seed=1, **config.kernel_options())
    with pytest.raises(ValueError, match="all_seats_plan_weight must be"):
        Searcher(_observation(), seed=1, **{**TTG3.kernel_options(), "all_seats_plan_weight": 0.0})


def test_tiny_epic_galaxies_takes_the_setting_too():
    state = load_game("tiny_epic_galaxies", players=2, variant="beyond_the_black").new_initial_state(2)
    while state.current_player != 0 or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    observation, teg = state.observation(0), get_config("ismcts-teg@2")

    def stats(**options) -> list:
        searcher = Searcher(observation, seed=5, **{**teg.kernel_options(), **options})
        searcher.run(max_iterations=2000)
        return searcher.root_stats()

    valued = stats(all_seats_plan="colonies", all_seats_plan_weight=3.0)
    assert valued == stats(all_seats_plan="colonies", all_seats_plan_weight=3.0) != stats()
    assert stats(all_seats_plan="", all_seats_plan_weight=1.0) == stats()
