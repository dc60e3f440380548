"""Orrery's games inside OpenSpiel, and OpenSpiel's bots inside Orrery tournaments (docs/openspiel.md).

from orrery import openspiel           # needs `pip install orrery[openspiel]`
openspiel.register_games()             # every Orrery game as pyspiel game "orrery_<name>"
game = pyspiel.load_game("orrery_trian", {"players": 2, "variant": "beginner"})
"""

from orrery.openspiel._bridge import (
    GAME_PREFIX,
    HAS_OBSERVATION_TENSOR,
    RANDOM_DEALS,
    OrreryGame,
    OrreryState,
    load,
    openspiel_name,
    register_games,
)

__all__ = [
    "GAME_PREFIX",
    "HAS_OBSERVATION_TENSOR",
    "RANDOM_DEALS",
    "OrreryGame",
    "OrreryState",
    "load",
    "openspiel_name",
    "register_games",
]
