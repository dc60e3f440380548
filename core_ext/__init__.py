"""Compiled game cores behind one interface.

    game = load_game("trian", players=2)
    state = game.new_initial_state(seed=7)
    obs = state.observation(state.current_player)
    features = observation_tensor(obs)  # float32, observation_tensor_shape("trian", num_players=2)

See core_ext/game.pxd for the C-level contract that search kernels use without the GIL.
"""

from orrery.core_ext._errors import GameInputError, IllegalActionError, StateFormatError, UnknownGameError
from orrery.core_ext._registry import (
    GameInfo,
    game_bounds,
    game_info,
    load_game,
    register,
    registered_games,
)
from orrery.core_ext._tensor import observation_tensor, observation_tensor_shape
from orrery.core_ext.game import Game, Observation, State

__all__ = [
    "Game",
    "GameInfo",
    "GameInputError",
    "IllegalActionError",
    "Observation",
    "State",
    "StateFormatError",
    "UnknownGameError",
    "game_bounds",
    "game_info",
    "load_game",
    "observation_tensor",
    "observation_tensor_shape",
    "register",
    "registered_games",
]
