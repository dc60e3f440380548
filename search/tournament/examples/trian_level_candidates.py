"""Candidate budgets for Galaxy of Trian's medium and hard levels (full, 2 players; issue 25, part 2),
played as the service plays a level (LevelBot: the budget per whole turn on the turn clock, the game's
default preset, a move within the tolerance), for tournaments' kind "factory" before LEVEL_SETTINGS held
them. The tomls trian-levels-m1000-*.toml use it:

    PYTHONPATH=search/tournament/examples orrery tournament run search/tournament/examples/<toml> --report

The runs and what was kept: docs/strength.md, "2026-11-27 (session 6)".
"""

from __future__ import annotations

from orrery.search import Level, LevelBot, get_config, level_config


def _bot(name: str, iterations: int, tolerance: float) -> LevelBot:
    level = Level(name=name, iterations=iterations, milliseconds=None, tolerance=tolerance)
    return LevelBot(level, level_config(name.split("-")[0], "trian", "full", 2))


def medium_1000() -> LevelBot:
    """Medium at 1,000 iterations a turn (the level's 3,000 / 3) and its tolerance 0.05."""
    return _bot("medium-1000", 1000, 0.05)


def hard_30000_t0() -> LevelBot:
    """Hard at its own 30,000 iterations a turn, tolerance 0 (the level's 0.02)."""
    return _bot("hard-30000-t0", 30000, 0.0)


def hard_100000_t0() -> LevelBot:
    """Hard at 100,000 iterations a turn, tolerance 0."""
    return _bot("hard-100000-t0", 100000, 0.0)


def _learned_bot(name: str, iterations: int, tolerance: float) -> LevelBot:
    level = Level(name=name, iterations=iterations, milliseconds=None, tolerance=tolerance)
    return LevelBot(level, get_config("ismcts-trian-learned@2"))


def hard_learned_3000_t0() -> LevelBot:
    """Hard on the learned preset (Trian full 2-player model) at 3,000 iterations a turn, tolerance 0."""
    return _learned_bot("hard-learned-3000-t0", 3000, 0.0)


def hard_learned_10000_t0() -> LevelBot:
    """Hard on the learned preset at 10,000 iterations a turn, tolerance 0."""
    return _learned_bot("hard-learned-10000-t0", 10000, 0.0)


def easy_100() -> LevelBot:
    """Easy at 100 iterations a turn (the level's 300 / 3) and the level's tolerance 0.10 (session 12)."""
    return _bot("easy-100", 100, 0.10)


def medium_300() -> LevelBot:
    """Medium at 300 iterations a turn and its tolerance 0.05 (session 12: a lower ladder)."""
    return _bot("medium-300", 300, 0.05)


def medium_500() -> LevelBot:
    """Medium at 500 iterations a turn and its tolerance 0.05."""
    return _bot("medium-500", 500, 0.05)


def hard_learned_1000_t0() -> LevelBot:
    """Hard on the learned preset at 1,000 iterations a turn, tolerance 0."""
    return _learned_bot("hard-learned-1000-t0", 1000, 0.0)


def hard_learned_1500_t0() -> LevelBot:
    """Hard on the learned preset at 1,500 iterations a turn, tolerance 0."""
    return _learned_bot("hard-learned-1500-t0", 1500, 0.0)
