"""Take The Galaxy standard, 2 players: medium candidates (issue 25, part 2, session 8; docs/strength.md,
"2026-11-27 (session 8): Take The Galaxy's medium against greedy"). Today's medium (`ismcts-ttg@2`, 90,000
iterations a turn, tolerance 0.05) scored 0.703 against greedy on seed 7402's deals, below the 0.75 target.
Each candidate is the service's LevelBot on the named preset with its own budget per whole turn (no game
scale) and tolerance, so that it can be measured before any level moves.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/ttgmedium-vs-greedy.toml --workers 1 --report
"""

from level_candidates import level_bot as _level


def medium_t0():
    """Today's medium budget on today's preset, at tolerance 0 (as medium plays at 3 players)."""
    return _level("medium2-90k-t0", "ismcts-ttg@2", 90_000, 0.0)


def learned_30k():
    """The learned preset (hard's and expert's) at a third of medium's budget, medium's tolerance."""
    return _level("learned-30k", "ismcts-ttg-learned@1", 30_000, 0.05)


def learned_10k():
    """The learned preset at a ninth of medium's budget, medium's tolerance."""
    return _level("learned-10k", "ismcts-ttg-learned@1", 10_000, 0.05)


def hard_t0():
    """Hard's preset and budget today (ismcts-ttg-learned@1, 30,000 x10 iterations a turn) at tolerance 0,
    not 0.02: its most-visited move, as hard plays in the other games' 2-player settings."""
    return _level("hard-300k-t0", "ismcts-ttg-learned@1", 300_000, 0.0)
