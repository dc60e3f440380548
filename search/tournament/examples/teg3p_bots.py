"""Tiny Epic Galaxies base, 3 players: hard candidates (issue 25, part 2, session 8; docs/strength.md,
"2026-11-27 (session 8): Tiny Epic Galaxies base and Beyond the Black, 3 players, head to head"). Hard as
the service plays it there (`ismcts-teg@3`, 30,000 iterations a turn, tolerance 0.02; no learned model at
3 players) stood +164 [+128, +203] above medium in 32 sets. Each candidate is the service's LevelBot on the
game's default preset with its own budget per whole turn and tolerance, measured before any level moves.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/teg3plevels-medium-vs-hard-candidates.toml --workers 1 --report
"""

from level_candidates import level_bot

PRESET = "ismcts-teg@3"


def _level(name: str, iterations: int, tolerance: float):
    """The default preset with `iterations` per whole turn (shared by the turn clock) and `tolerance`."""
    return level_bot(name, PRESET, iterations, tolerance)


def hard_30k_t0():
    """Hard's budget at tolerance 0 (as hard plays at 2 players)."""
    return _level("hard-30k-t0", 30_000, 0.0)


def hard_100k_t0():
    """Hard at 100,000 iterations a turn and tolerance 0 (as at Trian full with 2 players)."""
    return _level("hard-100k-t0", 100_000, 0.0)
