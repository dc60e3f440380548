"""A level candidate as a tournament factory bot: the service's LevelBot on a named preset with its own
budget per whole turn (shared over the turn's decisions by the turn clock, no game scale) and tolerance,
so that a candidate can be measured before it goes into LEVEL_SETTINGS (ttgmedium_bots.py, teg3p_bots.py).
"""

from orrery.search._bots import LevelBot
from orrery.search._config import get_config
from orrery.search._levels import Level


def level_bot(name: str, preset: str, iterations: int, tolerance: float) -> LevelBot:
    """`preset` with `iterations` per whole turn and `tolerance`, named `name` in the results."""
    level = Level(name=name, iterations=iterations, milliseconds=None, tolerance=tolerance)
    bot = LevelBot(level, get_config(preset))
    bot.name = name
    return bot
