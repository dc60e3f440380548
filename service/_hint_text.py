"""A hint as a player reads it: the final answer of SuggestMove or Analyze (its MoveHint fields, see
docs/api.md "Hints") turned into short lines of text for `orrery play`. The web client says the same
things in service/web/app.js (hintText and its helpers)."""

from __future__ import annotations

from typing import Any

SINGULAR = {"credits": "credit", "points": "point", "chips": "chip"}
SAME = 0.5  # a score gap under this (in the game's units) reads "about as good as the best"
NOISE = 2.0  # ... and so does one within this many standard errors (the rollouts cannot tell them apart)
MAX_TURNS = 4  # turns of a line shown; the rest is "…"
UNKNOWN_SEAT = -1  # a line's steps no sampled position could play (TurnGroup.seat)
NO_CHANGE = 0.05  # a mean tally change under this is left out


def amount(value: float, unit: str) -> str:
    """'3 credits', '1 credit', '2.5 points': whole numbers where the value is close to one."""
    rounded = round(value)
    if abs(value - rounded) < 0.05 or abs(value) >= 10:
        text = f"{rounded:d}"
        return f"{text} {SINGULAR.get(unit, unit) if abs(rounded) == 1 else unit}"
    return f"{value:.1f} {unit}"


def gap_text(score_behind: float, unit: str, error: float = 0.0) -> str:
    """How a candidate compares with the best move, in the game's units; a gap the rollouts cannot
    tell from noise (within NOISE standard errors) reads as no gap."""
    if abs(score_behind) < max(SAME, NOISE * error):
        return "about as good as the best"
    whole = float(max(1, round(abs(score_behind))))  # "about": whole units are precise enough
    if score_behind > 0:
        return f"about {amount(whole, unit)} behind the best"
    return f"about {amount(whole, unit)} ahead of the best in rollouts (the search rates it lower)"


def outcome_text(hint: Any, sides: int, players: int) -> str:
    """'win chance 44%' for two sides (or a solo game with a win), else 'expected place 2.2 of 4'."""
    if sides > 2 and hint.HasField("expected_place"):
        return f"expected place {hint.expected_place:.1f} of {players}"
    if hint.HasField("win_chance"):
        return f"win chance {100 * hint.win_chance:.0f}%"
    return ""


def changes_text(tallies: Any) -> str:
    """'+3 credits, +1 minerals' (zero changes left out), or 'no visible change'."""
    parts = [
        f"{t.change:+.1f}".rstrip("0").rstrip(".") + f" {t.name}"
        for t in tallies
        if abs(t.change) >= NO_CHANGE
    ]
    return ", ".join(parts) if parts else "no visible change"


def turn_text(group: Any) -> str:
    """'you: a, b'; steps no sampled position could play read 'then 3 more steps' (not their ids)."""
    if group.seat == UNKNOWN_SEAT:
        return f"then {len(group.labels)} more step{'s' if len(group.labels) != 1 else ''}"
    return f"{group.seat_name}: {', '.join(group.labels)}"


def turns_text(groups: Any) -> str:
    """'you: a, b | seat 1: c': a line of play, one group per turn, the first MAX_TURNS of them."""
    shown = [turn_text(g) for g in list(groups)[:MAX_TURNS]]
    return " | ".join(shown + (["…"] if len(groups) > MAX_TURNS else []))


def hint_lines(answer: Any, *, limit: int = 3) -> list[str]:
    """The hint of a final SuggestMove/Analyze answer as lines of text: the best move in full (outcome,
    final score, what it changes this move and this turn, the line by turn), then the other candidates
    with their gap to the best. The search's value and visit share stay at the end of each line."""
    summary = answer.hints
    unit = summary.score_unit
    lines = [f"hint ({answer.stats.iterations} iterations, {summary.rollouts_per_move} rollouts a move):"]
    for i, c in enumerate(answer.candidates[:limit]):
        hint = c.hint
        outcome = outcome_text(hint, summary.sides, summary.players)
        score = f"final score about {amount(hint.expected_score, unit)}"
        stats = f"(value {c.value:.3f}, {c.visit_share:.0%} of visits)"
        if i == 0:
            lines.append(f"  best: {c.action.label}")
            lines.append(f"    {outcome}, {score}  {stats}".replace("    , ", "    "))
            lines.append(f"    this move: {changes_text(hint.this_move)}")
            lines.append(f"    by the end of your turn: {changes_text(hint.this_turn)}")
            lines.append(f"    line: {turns_text(hint.turns)}")
        else:
            gap = gap_text(hint.score_behind, unit, hint.score_behind_error)
            direction = "lower" if hint.value_behind >= 0 else "higher"
            value = f"searched value {abs(hint.value_behind):.3f} {direction}"
            lines.append(f"  {c.action.label}: {gap}; {outcome}; {value}  {stats}".replace("; ;", ";"))
    return lines
