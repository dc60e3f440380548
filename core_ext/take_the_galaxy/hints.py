"""Take The Galaxy's hint hooks (orrery.search._hints): the score is renown ("End the game": tokens, the
renown pile, systems under control and every top colony), and the tallies a seat can see of itself."""

from __future__ import annotations

SCORE_UNIT = "renown"
SOLO_WIN = False  # a one-seat game against an opponent (hints report the chance to beat it)


def tallies(state: dict, seat: int) -> dict[str, float]:
    """The seat's renown tokens, systems, colonies, ships and hand size, from its own observation."""
    me = state["players"][seat]
    return {
        "renown tokens": me["renown_tokens"],
        "systems": len(me["systems"]),
        "colonies": sum(len(slot) for system in me["systems"] for slot in system["slots"]),
        "ships": len(me["ships"]),
        "cards in hand": me["hand_size"],
    }
