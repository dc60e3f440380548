"""Where each seat's points come from (GetObservation.score_breakdown, docs/api.md) as lines of text for
`orrery play`: its `score` command and the end of a match. The web client shows the same parts in
service/web/scores.js."""

from __future__ import annotations

from typing import Any


def seat_name(entry: Any, me: int, ai_seats: list[bool]) -> str:
    """'seat 0 (you)', 'seat 1 (AI)', or the name of a player that is no seat ('the Rogue')."""
    if entry.seat < 0:
        return entry.name
    if entry.seat == me:
        return f"seat {entry.seat} (you)"
    return f"seat {entry.seat} ({'AI' if entry.seat < len(ai_seats) and ai_seats[entry.seat] else 'human'})"


def breakdown_lines(breakdown: Any, me: int, ai_seats: list[bool]) -> list[str]:
    """One line per player with its total, its parts indented under it ('colonies (2): 3 — Vesper 2,
    Vizcarra 1'); [] for a game that gives no breakdown."""
    lines = []
    for entry in breakdown:
        lines.append(f"{seat_name(entry, me, ai_seats)}: {entry.total:g} in all")
        for part in entry.parts:
            detail = f" — {part.detail}" if part.detail else ""
            lines.append(f"    {part.label}: {part.points:g}{detail}")
    return lines
