"""Every registered game, in every variant and at every player count, passes the shared conformance checks.

The default variant of each game runs every seed; the other variants run half of them (at least one),
since they share most of their engine with the default and the whole suite must stay fast.
"""

import conformance as cf
import pytest

from orrery.core_ext import load_game, registered_games

SEEDS = range(12)
DEFAULT_VARIANT = {info.name: info.variants[0] for info in registered_games()}


def cases(seeds):
    out = []
    for info in registered_games():
        for variant in info.variants:
            chosen = list(seeds) if variant == info.variants[0] else list(seeds)[: max(1, len(seeds) // 2)]
            for n in info.players_for(variant):
                for seed in chosen:
                    out.append(
                        pytest.param(info.name, variant, n, seed, id=f"{info.name}-{variant}-{n}p-{seed}")
                    )
    return out


def game_of(name, variant, players):
    return load_game(name, players=players, variant=variant)


@pytest.mark.parametrize("name,variant,players,seed", cases([0]))
def test_random_games_end(name, variant, players, seed):
    seeds = range(40) if variant == DEFAULT_VARIANT[name] else range(20)
    cf.check_random_games_end(game_of(name, variant, players), seeds=seeds)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:4]))
def test_every_legal_action_applies(name, variant, players, seed):
    cf.check_legal_actions_apply(game_of(name, variant, players), seed, max_steps=60)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:3]))
def test_clones_are_independent(name, variant, players, seed):
    cf.check_clone_independent(game_of(name, variant, players), seed)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:4]))
def test_json_round_trip(name, variant, players, seed):
    cf.check_json_round_trip(game_of(name, variant, players), seed, max_steps=80)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:4]))
def test_determinize(name, variant, players, seed):
    cf.check_determinize(game_of(name, variant, players), seed, max_steps=40)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_bad_input_is_rejected_and_changes_nothing(name, variant, players, seed):
    cf.check_bad_input(game_of(name, variant, players), seed)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_action_range_and_game_length(name, variant, players, seed):
    cf.check_action_range_and_length(game_of(name, variant, players), seed)


@pytest.mark.parametrize("name,variant,players,seed", cases([0]))
def test_utilities(name, variant, players, seed):
    cf.check_utilities(game_of(name, variant, players), seeds=range(8))


@pytest.mark.parametrize("name,variant,players,seed", cases([0]))
def test_copy_hooks(name, variant, players, seed):
    cf.check_copy_hooks(game_of(name, variant, players), seed, max_steps=15)


@pytest.mark.parametrize("name,variant,players,seed", cases([0]))
def test_describe_action(name, variant, players, seed):
    cf.check_describe_action(game_of(name, variant, players), seed, max_steps=15)


@pytest.mark.parametrize("name,variant,players,seed", cases([0]))
def test_info_key(name, variant, players, seed):
    cf.check_info_key(game_of(name, variant, players), seed, max_steps=15)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_observation_tensor(name, variant, players, seed):
    cf.check_observation_tensor(game_of(name, variant, players), seed, max_steps=40)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_move_labels_follow_the_viewer(name, variant, players, seed):
    cf.check_move_labels_follow_the_viewer(game_of(name, variant, players), seed, max_steps=40)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_move_events_follow_the_viewer(name, variant, players, seed):
    cf.check_move_events_follow_the_viewer(game_of(name, variant, players), seed, max_steps=30)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_an_observation_is_a_view_of_its_seat(name, variant, players, seed):
    cf.check_an_observation_is_a_view_of_its_seat(game_of(name, variant, players), seed, max_steps=30)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_pictures_and_scores_follow_the_viewer(name, variant, players, seed):
    cf.check_pictures_and_scores_follow_the_viewer(game_of(name, variant, players), seed, max_steps=45)


@pytest.mark.parametrize("name,variant,players,seed", cases(SEEDS[:2]))
def test_score_breakdown_adds_up(name, variant, players, seed):
    given = cf.check_score_breakdown_adds_up(game_of(name, variant, players), seed)
    if name in ("take_the_galaxy", "tiny_epic_galaxies", "trian"):
        assert given, "this game shows its players where their points come from"
