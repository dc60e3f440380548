"""Galaxy of Trian, full, 3 players: level candidates (issue 25, part 2, session 9; docs/strength.md,
"2026-11-28 (session 9): the 3-player medium-to-hard steps"). As the service plays them there (no
LEVEL_SETTINGS entry at 3 players) medium (3,000 iterations a turn, tolerance 0.05) stood +120 [+62, +186]
below hard (30,000, tolerance 0.02) in the 11:10 section's ladder. At 2 players the step came apart with
medium at 1,000 and hard at tolerance 0; these candidates try the same at 3 players, each the service's
LevelBot on the game's default preset with its own budget per whole turn and tolerance.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/trian3plevels-medium1000-vs-easy-hard30k.toml --workers 1 --report
"""

from level_candidates import level_bot

from orrery.core_ext import game_info

PRESET = game_info("trian").default_search


def medium_1000():
    """Medium at 1,000 iterations a turn (as at 2 players) and its tolerance 0.05."""
    return level_bot("medium-1000", PRESET, 1_000, 0.05)


def hard_30k_t0():
    """Hard's own 30,000 iterations a turn at tolerance 0 (its search's most-visited move)."""
    return level_bot("hard-30k-t0", PRESET, 30_000, 0.0)
