"""Level candidates for Tiny Epic Galaxies base, 2 players (issue 25, part 2; docs/strength.md, "2026-11-27
(session 7): Tiny Epic Galaxies base, 2 players"): LevelBots with a given budget per whole turn, tolerance
and preset, for the `factory` tournament kind. Run the configs that name them with this folder on the path:

    PYTHONPATH=search/tournament/examples orrery tournament run \
        search/tournament/examples/teglevels-hard-candidates.toml --workers 1 --report
"""

from __future__ import annotations

from teg_btb_level_bots import LEARNED, _bot  # the same preset names and bot builder (this folder)

from orrery.search import LevelBot

# _bot plays the game's default preset (which easy and medium play) unless given LEARNED, which scores leaves
# with the setting's shipped model (here the base 2-player one): hard and expert play it.


# Named <e|hl|xl><iterations a turn>_<tolerance in hundredths>; "hl" and "xl" play the learned preset.
def e300_15() -> LevelBot:
    return _bot("e300_15", 300, 0.15)


def e300_20() -> LevelBot:
    return _bot("e300_20", 300, 0.20)


def hl5k_0() -> LevelBot:
    return _bot("hl5k_0", 5_000, 0.0, LEARNED)


def hl10k_0() -> LevelBot:
    return _bot("hl10k_0", 10_000, 0.0, LEARNED)


def hl10k_2() -> LevelBot:
    return _bot("hl10k_2", 10_000, 0.02, LEARNED)


def hl30k_2() -> LevelBot:
    return _bot("hl30k_2", 30_000, 0.02, LEARNED)


def xl600k_0() -> LevelBot:
    """Expert at a fixed budget: the learned preset, tolerance 0, and the iterations its 2,000 ms a turn buy
    on a quiet core (about 306,000 a CPU second, teg_expert_rate.py; times 2 s, rounded), shared by the turn
    clock as it shares the milliseconds. Unlike the service's expert it replays exactly whatever the load."""
    return _bot("xl600k_0", 600_000, 0.0, LEARNED)


def m1000() -> LevelBot:
    return _bot("m1000", 1000, 0.05)


def hl2k_0() -> LevelBot:
    return _bot("hl2k_0", 2_000, 0.0, LEARNED)


def hl3k_0() -> LevelBot:
    return _bot("hl3k_0", 3_000, 0.0, LEARNED)
