"""Search properties on every registered game (Kuhn now; Trian and the others once they land)."""

import pytest

from orrery.core_ext import load_game, registered_games
from orrery.search import Budget, get_config, make_bot, search_observation
from orrery.search._bench import advance_randomly

GAMES = [info.name for info in registered_games()]
ITERATIONS = {"kuhn": 1500}  # other games: 300 iterations keep each search well under a second


def midgame(name: str, seed: int, moves: int = 12):
    """A position a few random moves into a game, not over, with its seat to move."""
    return advance_randomly(load_game(name, players=2).new_initial_state(seed=seed), seed, moves)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("config_name", ["ismcts", "pimc", "ismcts-truncated"])
def test_search_depends_only_on_the_observation(name, config_name):
    """Two true states that share the searching seat's observation give identical searches."""
    state = midgame(name, seed=3)
    seat = state.current_player
    observation = state.observation(seat)
    other = None
    for seed in range(1, 50):  # another full state the seat cannot tell apart from the true one
        candidate = observation.determinize(seed)
        if candidate != state and candidate.observation(seat) == observation:
            other = candidate
            break
    if other is None:
        pytest.skip("every determinization equals the true state here")
    budget = Budget(iterations=ITERATIONS.get(name, 300))
    a = search_observation(observation, get_config(config_name), budget, seed=11)
    b = search_observation(other.observation(seat), get_config(config_name), budget, seed=11)
    assert a.actions == b.actions
    assert a.principal_variation == b.principal_variation and a.tree_size == b.tree_size


@pytest.mark.parametrize("name", GAMES)
def test_search_is_reproducible_and_legal(name):
    state = midgame(name, seed=5)
    observation = state.observation(state.current_player)
    budget = Budget(iterations=ITERATIONS.get(name, 300))
    a = search_observation(observation, get_config("ismcts"), budget, seed=2, workers=2)
    b = search_observation(observation, get_config("ismcts"), budget, seed=2, workers=2)
    assert a.actions == b.actions
    assert a.best_action in state.legal_actions()
    assert a.iterations == budget.iterations
    assert {s.action for s in a.actions} == set(observation.legal_actions())
    assert all(0.0 <= s.mean_reward <= 1.0 for s in a.actions)


@pytest.mark.parametrize("name", GAMES)
def test_every_bot_plays_a_legal_move(name):
    state = midgame(name, seed=7)
    observation = state.observation(state.current_player)
    for kind in ("random", "greedy", "ismcts", "pimc"):
        bot = make_bot(kind, budget=Budget(iterations=200))
        assert bot.select_action(observation, seed=1) in state.legal_actions()
