"""Galaxy of Trian's hint hooks (orrery.search._hints): what a seat's score counts and the tallies it
can see of itself. The score is credits with each mineral worth 3 (rulebook section VII.1)."""

from __future__ import annotations

SCORE_UNIT = "credits"
SOLO_WIN = False  # a one-seat game against an opponent (hints report the chance to beat it)
# Pieces are counted from the seat's supply, negated: a piece leaving the supply is one placed.
PLACED = {
    "emissaries": "emissaries placed",
    "research_stations": "research stations placed",
    "space_stations": "space stations placed",
}


def tallies(state: dict, seat: int) -> dict[str, float]:
    """The seat's own credits, minerals, placed pieces and combat tokens, from its observation (its
    score, credits plus 3 a mineral, is the hints' "score" tally)."""
    me = state["players"][seat]
    counts: dict[str, float] = {
        "credits": me["credits"],
        "minerals": sum(me["minerals"].values()),
        "combat tokens": me["combat_tokens"]["count"],
    }
    for key, name in PLACED.items():
        counts[name] = -me["supply"][key]
    return counts
