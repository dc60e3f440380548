"""Where the workers run: a thread pool in this process, or Ray actors (search/_ray.py)."""

from __future__ import annotations

import concurrent.futures as cf
import threading
import time
from collections.abc import Callable

from orrery.search._cancel import CancelToken
from orrery.search._config import Budget, SearchConfig, get_config
from orrery.search._driver import WorkerSearch, check_search_args, drive
from orrery.search._result import SearchResult, WorkerReport, worker_seed
from orrery.search._reuse import TurnTree


class InProcessBackend:
    """Root parallelism over threads: the compiled loop releases the GIL, so W threads use W cores.

    Good for small budgets, tests and single machines; the threads live as long as the backend.
    It can search on trees kept from a seat's previous decision (search/_reuse.py's TurnTree)."""

    keeps_trees = True  # search() takes `tree` (so do RayBackend's and TimeSharedBackend's)

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be an int >= 1, got {workers!r}")
        self.workers = workers
        self._pool: cf.ThreadPoolExecutor | None = cf.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="orrery-search"
        )
        self._lock = threading.Lock()

    def search(
        self,
        observation,
        config: SearchConfig,
        budget: Budget,
        *,
        seed: int,
        cancel: CancelToken | None = None,
        progress: Callable[[SearchResult], None] | None = None,
        progress_interval_s: float = 0.5,
        tree: TurnTree | None = None,
    ) -> SearchResult:
        """Search `observation`; with `tree`, on the trees it keeps for the seat's turn (re-rooted at the
        moves played since, where allowed) instead of new ones."""
        pool = self._pool
        if pool is None:
            raise RuntimeError("this backend is closed")
        return _drive_workers(
            observation,
            config,
            budget,
            seed=seed,
            workers=self.workers,
            start_slice=pool.submit,
            cancel=cancel,
            progress=progress,
            progress_interval_s=progress_interval_s,
            tree=tree,
        )

    def warm(self) -> None:
        """Run a tiny search on every thread (threads are ready at once; this checks the kernel)."""
        _warm_search(self)

    @property
    def live_workers(self) -> int:
        return self.workers if self._pool is not None else 0

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def __enter__(self) -> InProcessBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _warm_search(backend) -> None:
    from orrery.core_ext import load_game

    state = load_game("kuhn", players=2).new_initial_state(seed=0)
    observation = state.observation(state.current_player)
    backend.search(
        observation, get_config("test-fast"), Budget(iterations=64 * max(1, backend.workers)), seed=0
    )


def search_observation(
    observation,
    config: SearchConfig,
    budget: Budget,
    *,
    seed: int,
    workers: int = 1,
    cancel: CancelToken | None = None,
    progress: Callable[[SearchResult], None] | None = None,
    progress_interval_s: float = 0.5,
    tree: TurnTree | None = None,
) -> SearchResult:
    """Search once in this process with `workers` threads (one: on the calling thread itself); with
    `tree`, on the trees it keeps for the seat's turn (see InProcessBackend.search)."""
    if workers == 1:
        return search_on_this_thread(
            observation,
            config,
            budget,
            seed=seed,
            cancel=cancel,
            progress=progress,
            progress_interval_s=progress_interval_s,
            tree=tree,
        )
    with InProcessBackend(workers) as backend:
        return backend.search(
            observation,
            config,
            budget,
            seed=seed,
            cancel=cancel,
            progress=progress,
            progress_interval_s=progress_interval_s,
            tree=tree,
        )


def search_on_this_thread(
    observation,
    config: SearchConfig,
    budget: Budget,
    *,
    seed: int,
    cancel: CancelToken | None = None,
    progress: Callable[[SearchResult], None] | None = None,
    progress_interval_s: float = 0.5,
    tree: TurnTree | None = None,
) -> SearchResult:
    """One worker, run by the calling thread: no pool, so no thread start and no hand-over of the
    GIL per slice (the server answers late requests this way, many at once). The same result as
    InProcessBackend(1) for the same seed and budget."""
    return _drive_workers(
        observation,
        config,
        budget,
        seed=seed,
        workers=1,
        start_slice=_run_now,
        cancel=cancel,
        progress=progress,
        progress_interval_s=progress_interval_s,
        tree=tree,
    )


def _run_now(fn: Callable[..., WorkerReport], *args) -> cf.Future:
    """pool.submit's signature, run on the calling thread: the future is done when it returns."""
    future: cf.Future = cf.Future()
    try:
        future.set_result(fn(*args))
    except Exception as exc:  # reported like a lost worker, as a pool would
        future.set_exception(exc)
    return future


def _drive_workers(
    observation,
    config: SearchConfig,
    budget: Budget,
    *,
    seed: int,
    workers: int,
    start_slice: Callable[..., cf.Future],
    cancel: CancelToken | None,
    progress: Callable[[SearchResult], None] | None,
    progress_interval_s: float,
    tree: TurnTree | None = None,
) -> SearchResult:
    """One WorkerSearch per worker in this process (new, or `tree`'s kept ones), their slices started by
    start_slice(fn, *args) (a thread pool's submit, or _run_now), driven and merged by drive()."""
    started = time.time()
    check_search_args(observation, config, budget, seed)
    if tree is not None:
        searches = tree.searches(observation, config, workers, seed)
    else:
        searches = [WorkerSearch(observation, config, worker_seed(seed, i)) for i in range(workers)]
    flag = cancel.flag if cancel is not None else None

    def submit(i: int, more: int, until: float, deadline: float) -> cf.Future:
        return start_slice(searches[i].run_slice, more, until, deadline, flag)

    return drive(
        observation,
        budget,
        seed=seed,
        workers=workers,
        submit=submit,
        cancel=cancel,
        progress=progress,
        progress_interval_s=progress_interval_s,
        started=started,
    )
