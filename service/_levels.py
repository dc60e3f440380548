"""Budget clamping: what a request may spend. A request's level (orrery.search LEVELS) gives its budget
when the request names none, and the tolerance within which the answer may leave the best move. A level's
budget covers a whole turn; one request (a hint) gets what the turn clock gives a turn's first searched
decision (orrery.search.first_decision_budget)."""

from __future__ import annotations

from dataclasses import dataclass

from orrery.search import LEVELS, first_decision_budget
from orrery.service._errors import invalid

MAX_ITERATIONS = 1_000_000_000  # an iteration budget above this is a mistake, not a request
MAX_MILLISECONDS = 86_400_000  # one day: above this a budget is out of range
# Reply this long before the call's deadline (answer building, serialization, network): a tenth of
# the time the call allows, at least 30 ms and at most 250 ms.
DEADLINE_MARGIN_MIN_S, DEADLINE_MARGIN_MAX_S, DEADLINE_MARGIN_SHARE = 0.03, 0.25, 0.1


def deadline_margin(call_time_remaining: float) -> float:
    return min(DEADLINE_MARGIN_MAX_S, max(DEADLINE_MARGIN_MIN_S, DEADLINE_MARGIN_SHARE * call_time_remaining))


@dataclass(frozen=True)
class Grant:
    """The search a request is allowed, after clamping."""

    iterations: int | None  # iteration budget, if the request gave one
    milliseconds: float  # wall-time cap (ms), from the request's arrival
    deadline: float  # absolute time.time() at which the search must stop
    clamped: bool  # the request asked for more time than the server allows
    deadline_ms: float  # deadline - arrival, in ms
    tolerance: float  # return units: how far below the best searched value the answer may lie
    # When the search must stop for the call's deadline (a margin before it), or None: no deadline.
    call_stop: float | None = None


def grant_budget(
    *,
    iterations: int | None,
    milliseconds: int | None,
    level: str | None,
    max_budget_ms: float,
    default_budget_ms: float,
    arrival: float,
    call_time_remaining: float | None,
    expected_decisions: float = 1.0,  # searched decisions per turn of the game (orrery.search)
) -> Grant:
    """Validate a requested budget and clamp it by the server's maximum and the call's deadline."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise invalid("params.budget.iterations", f"{iterations} is out of range [1, {MAX_ITERATIONS}]")
    if milliseconds is not None and not 1 <= milliseconds <= MAX_MILLISECONDS:
        raise invalid("params.budget.milliseconds", f"{milliseconds} is out of range [1, {MAX_MILLISECONDS}]")
    tolerance = 0.0
    if level is not None:
        lv = LEVELS[level]
        tolerance = lv.tolerance
        if iterations is None and milliseconds is None:
            first = first_decision_budget(lv.turn_budget, expected=expected_decisions)
            iterations = first.iterations
            milliseconds = None if first.milliseconds is None else max(1, int(first.milliseconds))
    if iterations is None and milliseconds is None:
        milliseconds = int(default_budget_ms)
    wanted_ms = float(milliseconds) if milliseconds is not None else max_budget_ms
    clamped = milliseconds is not None and wanted_ms > max_budget_ms
    allowed_ms = min(wanted_ms, max_budget_ms)
    deadline = arrival + allowed_ms / 1000.0
    call_stop = None
    if call_time_remaining is not None:
        margin = deadline_margin(call_time_remaining)
        call_stop = arrival + max(0.0, call_time_remaining - margin)
        deadline = min(deadline, call_stop)
    return Grant(
        iterations=iterations,
        milliseconds=allowed_ms,
        deadline=deadline,
        clamped=clamped,
        deadline_ms=(deadline - arrival) * 1000.0,
        tolerance=tolerance,
        call_stop=call_stop,
    )
