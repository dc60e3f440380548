"""Level candidates for Beyond the Black, 2 players (issue 25, part 2; docs/strength.md, "2026-11-27
(session 6): Beyond the Black's levels"): LevelBots with a given budget per whole turn, tolerance and
preset, for the `factory` tournament kind. Run the configs that name them with this folder on the path:

    PYTHONPATH=search/tournament/examples orrery tournament run \
        search/tournament/examples/teg-btb-levels-hard-candidates.toml --workers 1 --report
"""

from __future__ import annotations

from orrery.search import Level, LevelBot, get_config

HANDWRITTEN = "ismcts-teg@3"  # the game's default, which easy and medium play
LEARNED = "ismcts-teg-learned@1"  # the shipped Beyond the Black model scoring the leaves (session 6)
# @2 plays the same models as @1 (search/_presets.py); since session 10 the Beyond the Black model is the one
# retrained on 12,000 games, and @2 is the label hard and expert play under.
LEARNED2 = "ismcts-teg-learned@2"


def _bot(name: str, iterations: int, tolerance: float, preset: str = HANDWRITTEN) -> LevelBot:
    level = Level(name=name, iterations=iterations, milliseconds=None, tolerance=tolerance)
    return LevelBot(level, get_config(preset))


# Named <e|m|h><iterations a turn>[_<tolerance in hundredths>]; "hl" plays the learned preset.
def e300_15() -> LevelBot:
    return _bot("e300_15", 300, 0.15)


def e300_20() -> LevelBot:
    return _bot("e300_20", 300, 0.20)


def e100_20() -> LevelBot:
    return _bot("e100_20", 100, 0.20)


def e50_20() -> LevelBot:
    return _bot("e50_20", 50, 0.20)


def m300() -> LevelBot:
    return _bot("m300", 300, 0.05)


def m300_10() -> LevelBot:
    return _bot("m300_10", 300, 0.10)


def m1000() -> LevelBot:
    return _bot("m1000", 1000, 0.05)


def m3000() -> LevelBot:
    return _bot("m3000", 3000, 0.05)


def h30k() -> LevelBot:
    return _bot("h30k", 30_000, 0.02)


def h30k_t0() -> LevelBot:
    return _bot("h30k_t0", 30_000, 0.0)


def h100k_t0() -> LevelBot:
    return _bot("h100k_t0", 100_000, 0.0)


def hl30k_t0() -> LevelBot:
    return _bot("hl30k_t0", 30_000, 0.0, LEARNED)


def hl5k_0() -> LevelBot:
    return _bot("hl5k_0", 5_000, 0.0, LEARNED2)


def hl10k_0() -> LevelBot:
    return _bot("hl10k_0", 10_000, 0.0, LEARNED2)


def hl1k_0() -> LevelBot:
    return _bot("hl1k_0", 1_000, 0.0, LEARNED2)


def hl2k_0() -> LevelBot:
    return _bot("hl2k_0", 2_000, 0.0, LEARNED2)


def hl3k_0() -> LevelBot:
    return _bot("hl3k_0", 3_000, 0.0, LEARNED2)
