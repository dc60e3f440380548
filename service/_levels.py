"""Budget clamping: what a request may spend. A request's level (orrery.search LEVELS) gives its budget
when the request names none, and the tolerance within which the answer may leave the best move. A level's
budget covers a whole turn; one request (a hint) gets what the turn clock gives a turn's first searched
decision (orrery.search.first_decision_budget)."""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from orrery.search import first_decision_budget, level_in
from orrery.service._errors import invalid

MAX_ITERATIONS = 1_000_000_000  # an iteration budget above this is a mistake, not a request
MAX_MILLISECONDS = 86_400_000  # one day: above this a budget is out of range
# Reply this long before the call's deadline (answer building, serialization, network): a tenth of
# the time the call allows, at least 30 ms and at most 250 ms.
DEADLINE_MARGIN_MIN_S, DEADLINE_MARGIN_MAX_S, DEADLINE_MARGIN_SHARE = 0.03, 0.25, 0.1


# The learned part of the margin (DeadlineMargin): this quantile of the recent answer times (from a
# search's stop to its answer being ready), times a safety factor, plus time to send; at most this share
# of the call's time, so a search with a deadline always gets some of it.
ANSWER_QUANTILE, ANSWER_SAFETY, SEND_S, LEARNED_MARGIN_MAX_SHARE = 0.98, 1.5, 0.005, 0.6
ANSWER_SAMPLES, ANSWER_HORIZON_S = 256, 30.0  # answer times kept: the latest this many, this recent (s)


def _quantile(samples: deque[tuple[float, float]], now: float) -> float:
    """The ANSWER_QUANTILE quantile of the samples of the last ANSWER_HORIZON_S seconds (0: none)."""
    recent = sorted(s for t, s in samples if now - t <= ANSWER_HORIZON_S)
    if not recent:
        return 0.0
    return recent[max(0, min(len(recent) - 1, math.ceil(ANSWER_QUANTILE * len(recent)) - 1))]


def deadline_margin(call_time_remaining: float) -> float:
    return min(DEADLINE_MARGIN_MAX_S, max(DEADLINE_MARGIN_MIN_S, DEADLINE_MARGIN_SHARE * call_time_remaining))


class DeadlineMargin:
    """How long before a call's deadline its search stops, so the answer is sent in time: the fixed
    margin (deadline_margin), or more when answers have lately taken longer than that to build after
    their search stopped (a busy machine). Learned from the last ANSWER_SAMPLES answers of the last
    ANSWER_HORIZON_S seconds: their ANSWER_QUANTILE quantile times ANSWER_SAFETY, plus SEND_S."""

    def __init__(self) -> None:
        self._answers: deque[tuple[float, float]] = deque(maxlen=ANSWER_SAMPLES)  # (when, seconds)
        # The event loop's lateness, probed while no answers come (the first requests on a loaded
        # machine have no answers to learn from): an answer passes the loop twice (the hand-back from
        # its search thread, then the send), so each probe counts twice its lag.
        self._lags: deque[tuple[float, float]] = deque(maxlen=ANSWER_SAMPLES)

    def observe(self, answer_s: float, *, now: float | None = None) -> None:
        """An answer was ready `answer_s` seconds after its search stopped (or was due to stop)."""
        self._answers.append((time.time() if now is None else now, max(0.0, answer_s)))

    def observe_loop_lag(self, lag_s: float, *, now: float | None = None) -> None:
        """The event loop woke `lag_s` seconds later than asked."""
        self._lags.append((time.time() if now is None else now, 2.0 * max(0.0, lag_s)))

    def learned_s(self, *, now: float | None = None) -> float:
        """The answer time to allow for, from the recent answers and loop probes (0 without any)."""
        now = time.time() if now is None else now
        high = max(_quantile(samples, now) for samples in (self._answers, self._lags))
        return high * ANSWER_SAFETY + SEND_S if high > 0 else 0.0

    def for_call(self, call_time_remaining: float, *, now: float | None = None) -> float:
        """The margin (s) for a call with this much time left."""
        fixed = deadline_margin(call_time_remaining)
        learned = min(self.learned_s(now=now), LEARNED_MARGIN_MAX_SHARE * call_time_remaining)
        return max(fixed, learned)


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


def check_budget(iterations: int | None, milliseconds: int | None, path: str) -> None:
    """INVALID_ARGUMENT naming `path`.iterations / `path`.milliseconds for a value out of range."""
    if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
        raise invalid(f"{path}.iterations", f"{iterations} is out of range [1, {MAX_ITERATIONS}]")
    if milliseconds is not None and not 1 <= milliseconds <= MAX_MILLISECONDS:
        raise invalid(f"{path}.milliseconds", f"{milliseconds} is out of range [1, {MAX_MILLISECONDS}]")


def budget_fields(budget: Any, path: str) -> tuple[int | None, int | None]:
    """(iterations, milliseconds) of an optional Budget message (None: not given), range-checked."""
    which = budget.WhichOneof("limit") if budget is not None else None
    iterations = budget.iterations if which == "iterations" else None
    milliseconds = budget.milliseconds if which == "milliseconds" else None
    check_budget(iterations, milliseconds, path)
    return iterations, milliseconds


def grant_budget(
    *,
    iterations: int | None,
    milliseconds: int | None,
    level: str | None,
    max_budget_ms: float,
    default_budget_ms: float,
    arrival: float,
    call_time_remaining: float | None,
    margin_s: float | None = None,
    expected_decisions: float = 1.0,  # searched decisions per turn of the game (orrery.search)
    game: str | None = None,  # the game's name, for a level's iteration scale (orrery.search LEVELS)
    variant: str | None = None,  # and the game setting, for a level's LEVEL_SETTINGS entry (level_in)
    players: int | None = None,
) -> Grant:
    """Validate a requested budget and clamp it by the server's maximum and the call's deadline (less
    margin_s before it; default: the fixed deadline_margin)."""
    check_budget(iterations, milliseconds, "params.budget")
    tolerance = 0.0
    if level is not None:
        lv = level_in(level, game, variant, players)
        tolerance = lv.tolerance
        if iterations is None and milliseconds is None:
            first = first_decision_budget(lv.turn_budget_for(game), expected=expected_decisions)
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
        margin = deadline_margin(call_time_remaining) if margin_s is None else margin_s
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
