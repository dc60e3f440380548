"""Tiny Epic Galaxies' hint hooks (orrery.search._hints): the score is victory points (points toward 21
during the game; missions and badges are added at the end), and the tallies a seat can see of itself."""

from __future__ import annotations

SCORE_UNIT = "points"
SOLO_WIN = True  # a one-seat game against an opponent (hints report the chance to beat it)


def tallies(state: dict, seat: int) -> dict[str, float]:
    """The seat's energy, culture, empire level, colonies and ships on planets, from its own view."""
    me = state["galaxies"][seat]
    return {
        "energy": me["energy"],
        "culture": me["culture"],
        "empire level": me["empire"],
        "colonies": len(me["colonies"]),
        "ships on planets": sum(1 for ship in me["ships"] if isinstance(ship, dict)),
    }
