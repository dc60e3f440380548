"""Take The Galaxy standard, 3 players: candidate medium levels as tournament factory bots (issue 25,
session 6; docs/strength.md, "Take The Galaxy's levels at 3 players"). Each is the service's LevelBot on
the preset the medium level plays there (orrery.search.level_config), with its own budget per whole turn
and tolerance, so that candidates can be measured before one goes into LEVEL_SETTINGS.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/ttg3plevels-medium-vs-greedy-3p.toml --report
"""

from level_candidates import level_bot

from orrery.search import level_config

GAME, VARIANT, PLAYERS = "take_the_galaxy", "standard", 3


def _medium(name: str, iterations: int, tolerance: float):
    """Medium's preset at 3 players with `iterations` per whole turn (no game scale) and `tolerance`."""
    return level_bot(name, level_config("medium", GAME, VARIANT, PLAYERS).label, iterations, tolerance)


def medium_90k_t05():
    """Medium as it played at 3 players before (90,000 = 3,000 x30, tolerance 0.05)."""
    return _medium("m90k-t05", 90_000, 0.05)


def medium_90k_t0():
    """The same budget, playing the most-visited move."""
    return _medium("m90k-t0", 90_000, 0.0)


def medium_150k_t05():
    """More search at the same tolerance."""
    return _medium("m150k-t05", 150_000, 0.05)


def medium_60k_t0():
    """Less search (x20), the most-visited move: does medium keep its lead over greedy?"""
    return _medium("m60k-t0", 60_000, 0.0)


def medium_45k_t0():
    """Less search still (x15), the most-visited move."""
    return _medium("m45k-t0", 45_000, 0.0)


def easy_3000_t15():
    """Easy's own 3,000 iterations a turn (300 x10) at tolerance 0.15 (easy's tolerance in Tiny Epic
    Galaxies at 2 players, where 0.10 had left easy too close to medium). Session 9."""
    return level_bot("easy-3k-t15", level_config("easy", GAME, VARIANT, PLAYERS).label, 3_000, 0.15)


def hard_300k_t0():
    """Hard's own 300,000 iterations a turn (30,000 x10) at tolerance 0 (its search's most-visited move),
    as hard plays at Tiny Epic Galaxies base and Trian full with 3 players since sessions 8 and 9."""
    return level_bot("hard-300k-t0", level_config("hard", GAME, VARIANT, PLAYERS).label, 300_000, 0.0)
