"""Every registered game, in every variant and at every player count, passes the shared conformance checks."""

import conformance as cf
import pytest

from core_ext import load_game, registered_games

CASES = [
    (info.name, variant, n)
    for info in registered_games()
    for variant in info.variants
    for n in info.player_counts
]
IDS = [f"{name}-{variant}-{n}p" for name, variant, n in CASES]
SEEDS = range(12)


@pytest.fixture(params=CASES, ids=IDS)
def game(request):
    name, variant, players = request.param
    return load_game(name, players=players, variant=variant)


def test_random_games_end(game):
    cf.check_random_games_end(game, seeds=range(40))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_every_legal_action_applies(game, seed):
    cf.check_legal_actions_apply(game, seed, max_steps=60)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_clones_are_independent(game, seed):
    cf.check_clone_independent(game, seed)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_json_round_trip(game, seed):
    cf.check_json_round_trip(game, seed, max_steps=80)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_determinize(game, seed):
    cf.check_determinize(game, seed, max_steps=40)


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_bad_input_is_rejected_and_changes_nothing(game, seed):
    cf.check_bad_input(game, seed)
