"""Short searches that take turns on a few threads, awaited from an asyncio event loop.

A server answering many short searches at once (milliseconds budgets) gives each one a compiled
Searcher in a search._timeshare.TimeSharedPool: one thread per core runs them in quanta without the
GIL and ends each at its stop time, whether or not it had the CPU lately. The loop learns of finished
searches through the pool's pipe (loop.add_reader), so no thread waits on a future and no thread
needs the GIL to report; the merge into a SearchResult runs on the loop.

Given a seat's TurnTree (search/_reuse.py), a search's parts run on the trees it kept from the seat's
previous decision instead of new ones: each part's kept Searcher, re-rooted on the loop where its check
passes (else a new one), goes into the pool like any other, and the TurnTree keeps them afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from orrery.search._cancel import CancelToken
from orrery.search._config import Budget, SearchConfig
from orrery.search._driver import WorkerSearch, check_search_args
from orrery.search._result import SearchResult, merge_reports, worker_seed
from orrery.search._reuse import TurnTree
from orrery.search._timeshare import TimeSharedPool

QUANTUM_MS = 2.0  # a search's turn on a thread (ms): short enough that 8 per core all move often


class TimeSharedBackend:
    keeps_trees = True  # search() takes a seat's TurnTree (as the in-process and Ray backends do)

    def __init__(self, threads: int, capacity: int, *, quantum_ms: float = QUANTUM_MS, nice: int = 0) -> None:
        """`threads` threads (one per core) sharing up to `capacity` searches (parts) at once; the
        threads' nice value is raised by `nice`, so that answering requests wins the CPU."""
        self.pool = TimeSharedPool(threads, capacity, quantum_ms=quantum_ms, nice=nice)
        self.threads = threads
        self.capacity = capacity
        self._loop: asyncio.AbstractEventLoop | None = None
        self._parts: dict[int, asyncio.Future] = {}  # pool task id -> the future its search awaits
        self._closed = False

    @property
    def idle(self) -> bool:
        """No search is running (a new one may use every thread)."""
        return self.pool.idle

    async def search(
        self,
        observation,
        config: SearchConfig,
        *,
        stop_at: float,
        seed: int,
        cancel: CancelToken | None = None,
        parts: int = 1,
        min_iterations: int = 0,
        cut_short: bool = False,
        tree: TurnTree | None = None,
    ) -> SearchResult:
        """Search until the wall time `stop_at` (time.time()) or a cancel, as `parts` root-parallel
        searchers (seeds as for the other backends), at least `min_iterations` in all. cut_short says
        that stop_at is earlier than the caller's own budget (a call deadline). With `tree`, part i
        searches the tree's kept worker i re-rooted at the moves played since, where its own check
        passes, else a new tree (TurnTree.searches: each part decides alone)."""
        check_search_args(observation, config, Budget(deadline=max(stop_at, 1.0)), seed)
        if not 1 <= parts <= self.threads:
            raise ValueError(f"parts must be between 1 and {self.threads}, got {parts}")
        self._attach()
        started = time.time()
        if tree is not None:
            searches = tree.searches(observation, config, parts, seed)
        else:
            searches = [WorkerSearch(observation, config, worker_seed(seed, i)) for i in range(parts)]
        flag = cancel.flag if cancel is not None else None
        quota = -(-min_iterations // parts)
        loop = asyncio.get_running_loop()
        waits = []
        try:
            for part in searches:
                task_id = self.pool.submit(part.searcher, stop_at, flag, quota)
                waits.append(self._parts.setdefault(task_id, loop.create_future()))
            endings = await asyncio.gather(*waits)
        except BaseException:
            # Parts may still be running in the pool (a full pool refused a later one, or this
            # coroutine was cancelled): the tree must not hand them to the next decision.
            if tree is not None:
                tree.clear()
            raise
        stopped = [ending != "time" for ending in endings]  # cancelled, or the pool closed
        reports = [
            part.report("cancel" if cut else "budget") for part, cut in zip(searches, stopped, strict=True)
        ]
        return merge_reports(
            observation,
            reports,
            seed=seed,
            elapsed_s=time.time() - started,
            workers=parts,
            workers_lost=0,
            cut_short=cut_short or any(stopped),
        )

    def _attach(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        if self._loop is not None:
            raise RuntimeError("a TimeSharedBackend serves one event loop")
        loop.add_reader(self.pool.fileno, self._collect)
        self._loop = loop

    def _collect(self) -> None:
        """On the loop, when the pool's pipe is readable: wake the searches that have stopped."""
        for task_id, ending in self.pool.finished():
            future = self._parts.pop(task_id, None)
            if future is not None and not future.done():  # its caller may have gone
                future.set_result(ending)

    def close(self) -> None:
        """Stop the threads; searches still running end at once with what they have. Call it on the
        loop that awaits the searches (it stops watching the pool's pipe). Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._loop is not None and not self._loop.is_closed():
            with contextlib.suppress(Exception):
                self._loop.remove_reader(self.pool.fileno)
        self.pool.close()
        for task_id, ending in self.pool.finished():
            future = self._parts.pop(task_id, None)
            if future is not None and not future.done():
                with contextlib.suppress(RuntimeError):  # a closed loop
                    future.get_loop().call_soon_threadsafe(_resolve, future, ending)

    def __enter__(self) -> TimeSharedBackend:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _resolve(future: asyncio.Future, value: Any) -> None:
    if not future.done():
        future.set_result(value)
