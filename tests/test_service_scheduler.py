"""The search scheduler with real in-process backends: where searches run, and refusal without workers."""

from __future__ import annotations

import asyncio
import time

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.search import CancelToken, InProcessBackend, get_config
from orrery.service._errors import ServiceError
from orrery.service._levels import Grant
from orrery.service._metrics import ServiceMetrics
from orrery.service._search import SearchJob, SearchScheduler


class CountingBackend(InProcessBackend):
    """A real in-process backend that counts the searches it ran."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.searches = 0

    def search(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.searches += 1
        return super().search(*args, **kwargs)


def job(*, iterations: int | None = None, milliseconds: float) -> SearchJob:
    state = load_game("kuhn", players=2).new_initial_state(seed=3)
    now = time.time()
    grant = Grant(
        iterations=iterations,
        milliseconds=milliseconds,
        deadline=now + 5.0,
        clamped=False,
        deadline_ms=5000.0,
        tolerance=0.0,
    )
    return SearchJob(
        observation=state.observation(state.current_player),
        config=get_config("test-fast"),
        grant=grant,
        seed=7,
        arrival=now,
        call_deadline=None,
        cancel=CancelToken(),
    )


def scheduler(**kwargs) -> SearchScheduler:  # type: ignore[no-untyped-def]
    return SearchScheduler(ServiceMetrics(max_budget_s=10.0), max_active=None, max_queue=4, **kwargs)


def count_timeshared(sched: SearchScheduler) -> list:
    """Record the `parts` of every search the scheduler sends to its time-shared pool."""
    parts: list = []
    search = sched.timeshare.search

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        parts.append(kwargs["parts"])
        return await search(*args, **kwargs)

    sched.timeshare.search = counted
    return parts


def test_short_millisecond_budgets_take_turns_on_threads_and_the_rest_run_on_the_workers():
    main, threads = CountingBackend(2), CountingBackend(2)
    sched = scheduler(threads_up_to_ms=300.0)

    async def go() -> None:
        sched.start(main, threads)
        shared = count_timeshared(sched)
        await sched.run(job(milliseconds=60.0))  # short: the time-shared threads
        progress = job(milliseconds=60.0)
        progress.progress = lambda partial: None
        await sched.run(progress)  # short with progress reports: a thread of its own
        await sched.run(job(milliseconds=400.0))  # longer than threads_up_to_ms: the workers
        await sched.run(job(iterations=200, milliseconds=1000.0))  # iteration budgets: the workers
        assert len(shared) == 1

    try:
        asyncio.run(go())
    finally:
        sched.close()
    assert (threads.searches, main.searches) == (1, 2)


def test_without_a_thread_backend_everything_runs_on_the_workers():
    main = CountingBackend(1)
    sched = scheduler(threads_up_to_ms=300.0)

    async def go() -> None:
        sched.start(main)
        result = await sched.run(job(milliseconds=60.0))
        assert result.iterations > 0

    try:
        asyncio.run(go())
    finally:
        sched.close()
    assert main.searches == 1


def test_no_live_workers_is_unavailable():
    main = CountingBackend(1)
    sched = scheduler()

    async def go() -> None:
        sched.start(main)
        main.close()  # every worker gone: live_workers == 0
        await sched.run(job(milliseconds=60.0))

    with pytest.raises(ServiceError) as caught:
        asyncio.run(go())
    sched.close()
    assert caught.value.code == grpc.StatusCode.UNAVAILABLE
    assert "no search workers" in caught.value.message
    assert main.searches == 0


def test_a_short_search_alone_uses_every_thread_and_concurrent_ones_one_part_each():
    main, threads = CountingBackend(2), CountingBackend(2)
    sched = scheduler(threads_up_to_ms=300.0)

    async def go() -> tuple:
        sched.start(main, threads)
        shared = count_timeshared(sched)
        results = await asyncio.gather(sched.run(job(milliseconds=150.0)), sched.run(job(milliseconds=150.0)))
        return shared, results

    try:
        shared, (first, second) = asyncio.run(go())
    finally:
        sched.close()
    cpus = sched.timeshare.threads
    assert shared == [cpus, 1]  # the first alone, the second beside it
    assert (first.workers, second.workers) == (cpus, 1)
    assert (threads.searches, main.searches) == (0, 0)
    assert first.iterations > 0 and second.iterations > 0


def test_a_short_ai_search_takes_its_seats_tree_into_the_time_shared_lane():
    # An AI seat's job (job.tree) in the time-shared lane: the pool searches the tree's searchers, which
    # the tree keeps for the seat's next decision (tests/test_timeshare.py checks the re-rooting).
    from orrery.search import TurnTree

    main, threads = CountingBackend(2), CountingBackend(2)
    sched = scheduler(threads_up_to_ms=300.0)
    ai_job = job(milliseconds=60.0)
    ai_job.tree = TurnTree()

    async def go() -> list:
        sched.start(main, threads)
        shared = count_timeshared(sched)
        await sched.run(ai_job)
        return shared

    try:
        shared = asyncio.run(go())
    finally:
        sched.close()
    assert shared == [sched.timeshare.threads]  # the time-shared lane, every thread
    assert ai_job.tree_taken and ai_job.tree.holds_tree
    assert len(ai_job.tree._searches) == sched.timeshare.threads
    assert ai_job.carried_visits is None  # the turn's first decision: new trees
    assert (threads.searches, main.searches) == (0, 0)
