"""Take The Galaxy standard, 2 players: easy and medium as they would play on ismcts-ttg@3 (issue 25, part
4, session 7; docs/strength.md, "2026-11-27 (session 7): Take The Galaxy with ismcts-ttg@3"). Each is the
service's LevelBot on the named preset with its own budget per whole turn (no game scale) and tolerance,
so that a default of ismcts-ttg@3 can be measured against greedy, random and hard before any level moves.

PYTHONPATH=search/tournament/examples orrery tournament run \\
    search/tournament/examples/ttgdefault-medium-vs-greedy.toml --workers 1 --report
"""

from level_candidates import level_bot

PRESET = "ismcts-ttg@3"


def _level(name: str, iterations: int, tolerance: float):
    """ismcts-ttg@3 with `iterations` per whole turn (shared by the turn clock) and `tolerance`."""
    return level_bot(name, PRESET, iterations, tolerance)


def medium_90k():
    """Medium's budget and tolerance today (3,000 x30 iterations a turn, tolerance 0.05), on @3."""
    return _level("medium3-90k", 90_000, 0.05)


def medium_30k():
    """A third of medium's budget (3,000 x10), tolerance 0.05, on @3: a wider gap below hard."""
    return _level("medium3-30k", 30_000, 0.05)


def easy_3k():
    """Easy's budget and tolerance today (300 x10 iterations a turn, tolerance 0.10), on @3."""
    return _level("easy3-3k", 3_000, 0.10)
