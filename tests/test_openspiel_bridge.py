"""orrery.openspiel: every registered game, variant and player count passes pyspiel's random simulation
test through the bridge, and the bridge keeps the contract's meanings (info keys, determinize, clone)."""

from __future__ import annotations

import numpy as np
import pytest

from orrery.core_ext import load_game, registered_games

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is not installed (pip install 'orrery[openspiel]'; wheels need CPython 3.11+)",
)
openspiel = pytest.importorskip("orrery.openspiel")


def _every_game():
    for info in registered_games():
        for variant in info.variants:
            for players in info.players_for(variant):
                yield pytest.param(info.name, variant, players, id=f"{info.name}-{variant}-{players}")


@pytest.mark.parametrize(("name", "variant", "players"), list(_every_game()))
def test_random_sim_test(name, variant, players):
    game = openspiel.load(name, players=players, variant=variant, seed=17)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_every_game_is_registered_under_its_name():
    names = openspiel.register_games()
    assert names == tuple(f"orrery_{info.name}" for info in registered_games())
    registered = {t.short_name for t in pyspiel.registered_games()}
    assert set(names) <= registered


def test_game_type_and_info_follow_the_core():
    game = openspiel.load("trian", players=3, variant="ships")
    core = load_game("trian", players=3, variant="ships")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.num_players(), game.num_distinct_actions(), game.max_game_length()) == (
        3,
        core.num_distinct_actions,
        core.max_game_length,
    )
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    solo = openspiel.load("tiny_epic_galaxies", players=1)
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (solo.min_utility(), solo.max_utility()) == (0.0, 1.0)


def test_parameters_are_checked():
    with pytest.raises(Exception, match="variant"):
        openspiel.load("trian", variant="no-such-variant")
    with pytest.raises(Exception, match="players"):
        openspiel.load("kuhn", players=7)
    for seed in (-5, 2**31, 1.5):
        with pytest.raises(ValueError, match="seed must be -1"):
            openspiel.load("kuhn", seed=seed)
    big = load_game("kuhn", players=2).new_initial_state(2**63 + 5)
    assert openspiel.load("kuhn").state_from_core(big.clone()).core == big


def test_deal_seeds_count_up_or_stay_fixed():
    core = load_game("kuhn", players=2)
    counted = openspiel.load("kuhn", players=2)
    assert [counted.new_initial_state().core for _ in range(3)] == [
        core.new_initial_state(k) for k in range(3)
    ]
    fixed = openspiel.load("kuhn", players=2, seed=9)
    assert fixed.new_initial_state().core == fixed.new_initial_state().core == core.new_initial_state(9)


def _played(game, moves: int):
    state = game.new_initial_state()
    for step in range(moves):
        legal = state.legal_actions()
        state.apply_action(legal[step % len(legal)])
    return state


def test_strings_returns_and_labels_are_the_cores():
    game = openspiel.load("trian", players=2, seed=3)
    state = _played(game, 12)
    seat = state.current_player()
    observation = state.core.observation(seat)
    assert state.information_state_string() == observation.info_key().decode("latin-1")
    assert (
        state.information_state_string(1 - seat).encode("latin-1")
        == state.core.observation(1 - seat).info_key()
    )
    assert state.observation_string(seat) == observation.render()
    assert state.legal_actions() == sorted(state.core.legal_actions())
    for action in (state.legal_actions()[0], game.num_distinct_actions() - 1):
        assert state.action_to_string(seat, action) == state.core.describe_action(action)
    assert state.returns() == [0.0, 0.0]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == state.core.utilities() and sum(state.returns()) == 0.0


def test_clone_is_independent_and_keeps_history():
    state = _played(openspiel.load("take_the_galaxy", players=2), 6)
    copy = state.clone()
    assert copy.history() == state.history() and copy.core == state.core and copy.core is not state.core
    copy.apply_action(copy.legal_actions()[0])
    assert copy.core != state.core and len(copy.history()) == len(state.history()) + 1


def test_resample_from_infostate_is_the_cores_determinize():
    state = _played(openspiel.load("trian", players=2, seed=5), 20)
    seat = state.current_player()
    draws = iter([0.25, 0.25, 0.75])
    first = state.resample_from_infostate(seat, lambda: next(draws))
    again = state.resample_from_infostate(seat, lambda: next(draws))
    other = state.resample_from_infostate(seat, lambda: next(draws))
    assert first.core == again.core == state.core.determinize(seat, int(0.25 * 2**53))
    assert other.core != first.core  # Trian hides the bags: another seed, another world
    for sample in (first, other):
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.history() == state.history()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert (
        state.resample_from_infostate(seat, sampler).information_state_string()
        == state.information_state_string()
    )


def test_openspiel_ismcts_plays_a_game_through_the_bridge():
    from open_spiel.python.algorithms import ismcts, mcts

    game = openspiel.load("kuhn", players=2, seed=4)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(random_state=rng), 2.0, 30, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_observer_tensor_is_core_ext_observation_tensor():
    """The bridge's observation tensor is core_ext.observation_tensor of the seat's observation."""
    from orrery import core_ext

    game = openspiel.load("kuhn", players=2)
    state = game.new_initial_state()
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    shape = core_ext.observation_tensor_shape("kuhn", variant="standard", num_players=2)
    assert observer.tensor.shape == (int(np.prod(shape)),) and observer.dict["observation"].shape == tuple(
        shape
    )
    observer.set_from(state, 1)
    assert np.array_equal(
        observer.dict["observation"], core_ext.observation_tensor(state.core.observation(1))
    )
    info_state = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert info_state.tensor.size == 0
    assert info_state.string_from(state, 0) == state.information_state_string(0)
