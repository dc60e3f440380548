"""The root-parallel driver shared by both backends.

Each worker holds one persistent search tree per request and spends its share of the budget in
slices: one slice for the whole budget, or one per progress interval when the caller wants partial
results. Slicing never changes what a worker computes (its tree and RNG persist between slices), so
an iteration budget is reproducible with or without progress reports.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from orrery.search._cancel import CancelToken
from orrery.search._config import Budget, SearchConfig
from orrery.search._kernel import Searcher
from orrery.search._result import SearchResult, WorkerReport, merge_reports, split_iterations

log = logging.getLogger("orrery.search")

# submit(worker index, max more iterations or -1, slice end time or 0, deadline or 0) -> future report
SubmitSlice = Callable[[int, int, float, float], cf.Future]


class WorkerSearch:
    """One worker's side of one search: the compiled Searcher plus slice bookkeeping."""

    def __init__(self, observation, config: SearchConfig, seed: int) -> None:
        self.searcher = Searcher(observation, seed=seed, **config.kernel_options())

    def run_slice(self, max_iterations: int, until: float, deadline: float, cancel=None) -> WorkerReport:
        reason = self.searcher.run(max_iterations, until, deadline, cancel)
        return self.report(reason)

    def report(self, reason: str = "budget") -> WorkerReport:
        s = self.searcher
        return WorkerReport(
            root=tuple(s.root_stats()),
            iterations=s.iterations,
            tree_size=s.tree_size,
            max_depth=s.max_depth,
            stop_reason=reason,
            carried_visits=s.carried_visits,
        )


@dataclass
class _Worker:
    quota: int  # iterations for the whole search, -1 for none
    report: WorkerReport | None = None
    active: bool = True
    lost: bool = False


def check_search_args(observation, config: SearchConfig, budget: Budget, seed: int) -> None:
    if not isinstance(config, SearchConfig):
        raise TypeError(f"config must be a SearchConfig, got {type(config).__name__}")
    if not isinstance(budget, Budget):
        raise TypeError(f"budget must be a Budget, got {type(budget).__name__}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed!r}")
    if observation.is_terminal():
        raise ValueError("the game is over: there is nothing to search")
    if observation.current_player != observation.player:
        raise ValueError(
            f"it is seat {observation.current_player}'s turn, not the observer's (seat {observation.player})"
        )


def drive(
    observation,
    budget: Budget,
    *,
    seed: int,
    workers: int,
    submit: SubmitSlice,
    cancel: CancelToken | None,
    progress: Callable[[SearchResult], None] | None,
    progress_interval_s: float,
    started: float,
    on_lost: Callable[[int], None] | None = None,
    slice_grace_s: float | None = None,
) -> SearchResult:
    """Run every worker's slices until each has spent its budget (or stopped), then merge.

    A slice that raises means its worker is lost; so does one still running `slice_grace_s` after
    the slice's end time (a hung or unreachable worker). on_lost(i) is told about each loss."""
    if progress is not None and progress_interval_s <= 0:
        raise ValueError("progress_interval_s must be > 0")
    state = [_Worker(quota) for quota in split_iterations(budget.iterations, workers)]
    time_end = started + budget.milliseconds / 1000.0 if budget.milliseconds is not None else 0.0
    deadline = float(budget.deadline or 0.0)
    cancelled = False

    def result(final: bool) -> SearchResult:
        reports = [w.report for w in state if w.report is not None and not w.lost]
        stopped_early = cancelled or any(
            w.report is not None and w.report.stop_reason == "deadline" for w in state if not w.lost
        )
        own_budget = budget.iterations is not None or budget.milliseconds is not None
        return merge_reports(
            observation,
            reports,
            seed=seed,
            elapsed_s=time.time() - started,
            workers=workers,
            workers_lost=sum(w.lost for w in state),
            cut_short=bool(stopped_early and own_budget) or cancelled,
        )

    while any(w.active for w in state):
        if cancel is not None and cancel.cancelled:
            cancelled = True
            break
        until = time_end
        if progress is not None:
            slice_end = time.time() + progress_interval_s
            until = slice_end if until == 0.0 else min(until, slice_end)
        futures = {}
        for i, w in enumerate(state):
            if w.active:
                done = w.report.iterations if w.report is not None else 0
                more = w.quota - done if w.quota >= 0 else -1
                futures[submit(i, more, until, deadline)] = i
        timeout = None
        bound = min((t for t in (until, deadline) if t > 0.0), default=0.0)
        if slice_grace_s is not None and bound > 0.0:
            timeout = max(0.0, bound - time.time()) + slice_grace_s
        cf.wait(futures, timeout=timeout)
        now = time.time()
        for future, i in futures.items():
            w = state[i]
            try:
                if not future.done():
                    raise TimeoutError(f"no answer {slice_grace_s} s after the slice's end")
                w.report = future.result()
            except Exception as exc:  # a dead worker must not fail the search
                log.warning("search worker %d lost mid-search: %s", i, exc)
                w.lost, w.active = True, False
                if on_lost is not None:
                    on_lost(i)
                continue
            reason = w.report.stop_reason
            if reason == "cancel":
                cancelled = True
            finished = (
                reason != "budget"
                or (w.quota >= 0 and w.report.iterations >= w.quota)
                or (time_end > 0.0 and now >= time_end)
            )
            if finished:
                w.active = False
        if all(w.lost for w in state):
            raise RuntimeError(f"all {workers} search workers were lost")
        if progress is not None and any(w.active for w in state):
            try:
                progress(result(final=False))
            except Exception:  # a broken callback must not cost the caller its final answer
                log.exception("search progress callback failed; the search goes on")
    return result(final=True)
