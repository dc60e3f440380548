"""Kuhn poker's hint hooks (orrery.search._hints): the score is net chips; a seat's view holds only
cards and the betting history, so there is no tally beyond the score."""

from __future__ import annotations

SCORE_UNIT = "chips"
SOLO_WIN = False  # a one-seat game against an opponent (hints report the chance to beat it)


def tallies(state: dict, seat: int) -> dict[str, float]:
    return {}
