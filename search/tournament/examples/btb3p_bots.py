"""Beyond the Black, 3 players: hard candidates (issue 25, part 2, session 9; docs/strength.md, "2026-11-28
(session 9): the 3-player medium-to-hard steps"). Hard as the service plays it there (`ismcts-teg@3`,
30,000 iterations a turn, tolerance 0.02; no learned model at 3 players) stood +105 [+65, +148] above
medium in 32 sets. At Tiny Epic Galaxies base with 3 players, tolerance 0 took the same step from +164 to
+218; these candidates ask whether it does the same here.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/btb3plevels-medium-vs-hard-candidates.toml --workers 1 --report
"""

from level_candidates import level_bot

PRESET = "ismcts-teg@3"


def hard_30k_t0():
    """Hard's own 30,000 iterations a turn at tolerance 0 (its search's most-visited move)."""
    return level_bot("hard-30k-t0", PRESET, 30_000, 0.0)


def hard_60k_t0():
    """Twice hard's budget, tolerance 0."""
    return level_bot("hard-60k-t0", PRESET, 60_000, 0.0)
