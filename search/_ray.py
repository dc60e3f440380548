"""RayBackend: root-parallel search on long-lived Ray actors, one per CPU.

Every actor holds the compiled kernel and searches the same observation with its own seed; the
driver merges the actors' root statistics (search/_driver.py). Actors are threaded (four threads) so
that a cancel can reach a running search: ray.cancel cannot interrupt an actor call, so the cancel
sets the kernel's flag, which the loop polls every iteration. A dead actor's slice raises in the
driver, which merges the survivors, logs the loss and starts a replacement; searches use the
replacement only once it is warm.

Actors also keep each seat's trees between its decisions (tree reuse, search/_reuse.py), under the key its
TurnTree gives, within a bound (KEPT_TREES, KEPT_TREE_NODES); a replacement actor keeps none.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from orrery.search._cancel import CancelToken
from orrery.search._config import Budget, SearchConfig
from orrery.search._driver import check_search_args, drive
from orrery.search._result import SearchResult, worker_seed
from orrery.search._reuse import TurnTree

log = logging.getLogger("orrery.search")


# What each actor keeps of the seats' turns (tree reuse, search/_reuse.py): at most KEPT_TREES trees and
# KEPT_TREE_NODES nodes in all, the most recently used freed first: the server serves waiting turns in
# order, so the turn searched last waits longest for its next decision, and freeing the least recent would
# free each tree just before its reuse (service/_kept_trees.py). A Take The Galaxy tree costs about
# 200 to 280 bytes a node in resident memory (arena slack included; measured 2026-11-27: 30,000 nodes
# 5.7 MB, 150,000 nodes 32 MB, 300,000 nodes 83 MB). Level hard searches 300,000 iterations a turn there,
# shared by the workers, so a worker's tree of a hard turn has at most 300,000 nodes (one per iteration),
# 150,000 on two workers; expert's 2 s a turn grow about 200,000 to 400,000 nodes a worker. So the bound
# of 1,000,000 nodes, about 250 MB an actor at most, keeps a few hard or expert turns' trees, and a server
# with many matches keeps the trees of the turns it searched first and no more, until those turns end.
KEPT_TREES = 8
KEPT_TREE_NODES = 1_000_000


class SearchActor:
    """The actor body (wrapped with ray.remote at run time, so importing search needs no Ray)."""

    def __init__(self, kept_trees: int = KEPT_TREES, kept_tree_nodes: int = KEPT_TREE_NODES) -> None:
        from collections import OrderedDict

        from orrery.search._kernel import CancelFlag  # noqa: F401  (load the compiled kernel now)

        self._searches: dict = {}
        self._flags: dict = {}
        # a TurnTree's key -> this worker's tree of that seat's turn, least recently used first
        self._kept: OrderedDict = OrderedDict()
        self._max_kept, self._max_kept_nodes = kept_trees, kept_tree_nodes
        self._lock = threading.Lock()

    def pid(self) -> int:
        return os.getpid()

    def warm(self) -> int:
        """A tiny search, so the first real request pays no import or first-call cost."""
        from orrery.core_ext import load_game
        from orrery.search._config import get_config
        from orrery.search._driver import WorkerSearch

        state = load_game("kuhn", players=2).new_initial_state(seed=0)
        WorkerSearch(state.observation(state.current_player), get_config("test-fast"), 0).run_slice(64, 0, 0)
        return os.getpid()

    def run_slice(
        self,
        search_id,
        observation,
        config,
        seed,
        max_iterations,
        until,
        deadline,
        tree_key=None,
        reroot=None,
    ):
        """observation, config and seed come with a search's first slice only (else None). So do tree_key
        (a TurnTree's key: keep this worker's tree under it for the seat's next decision) and reroot (the
        moves the seat played since the tree kept under tree_key was searched; none: a new tree)."""
        if observation is not None:
            self._start(search_id, observation, config, seed, tree_key, reroot)
        with self._lock:
            search = self._searches[search_id]
            flag = self._flags[search_id]
        return search.run_slice(max_iterations, until, deadline, flag)

    def _start(self, search_id, observation, config, seed, tree_key, reroot) -> None:
        """The worker's search: the tree kept under tree_key re-rooted at `reroot` where its check passes
        (Searcher.reroot; this worker decides alone), else a new one (the old one freed first)."""
        from orrery.search._driver import WorkerSearch
        from orrery.search._kernel import CancelFlag

        with self._lock:
            self._flags.setdefault(search_id, CancelFlag())
            kept = self._kept.pop(tree_key, None) if tree_key is not None else None
        if kept is not None and (not reroot or kept.searcher.reroot(reroot, observation, seed=seed) < 0):
            kept = None
        search = kept if kept is not None else WorkerSearch(observation, config, seed)
        with self._lock:
            self._searches[search_id] = search
            if tree_key is not None:
                self._kept[tree_key] = search  # the most recently used
                self._trim()

    def _trim(self) -> None:
        """Free the most recently used kept trees beyond the bounds (under the lock; KEPT_TREES says why).
        A tree a running search still uses lives until that search ends, and is not kept after."""
        nodes = sum(search.searcher.tree_size for search in self._kept.values())
        while self._kept and (len(self._kept) > self._max_kept or nodes > self._max_kept_nodes):
            _key, newest = self._kept.popitem(last=True)
            nodes -= newest.searcher.tree_size

    def cancel(self, search_id) -> None:
        with self._lock:
            self._flags.setdefault(search_id, _new_flag()).set()

    def finish(self, search_id) -> None:
        with self._lock:
            self._searches.pop(search_id, None)
            self._flags.pop(search_id, None)
            self._trim()  # the kept trees have grown by this search

    def drop(self, tree_key) -> None:
        """Free the tree kept under tree_key (its turn ended)."""
        with self._lock:
            self._kept.pop(tree_key, None)

    def kept_trees(self) -> dict:
        """Key -> nodes of each kept tree (for tests and debugging)."""
        with self._lock:
            return {key: search.searcher.tree_size for key, search in self._kept.items()}


def _noting_carried(future: cf.Future, carried: list[int], i: int) -> cf.Future:
    """`future` (a worker's first report), also noting in carried[i] what its kept tree carried over; the
    note is made before the returned future is done, so the driver never reads it too early."""
    noted: cf.Future = cf.Future()

    def done(f: cf.Future) -> None:
        try:
            report = f.result()
        except BaseException as exc:  # a lost worker, as the driver sees it
            noted.set_exception(exc)
            return
        carried[i] = report.carried_visits
        noted.set_result(report)

    future.add_done_callback(done)
    return noted


def _new_flag():
    from orrery.search._kernel import CancelFlag

    return CancelFlag()


class RayBackend:
    """Search on Ray actors: $RAY_ADDRESS (or `address`) when set, else a local Ray started here.

    It can search on trees kept from a seat's previous decision (search/_reuse.py's TurnTree): the actors
    keep them between calls, each at most `kept_trees` trees and `kept_tree_nodes` nodes in all."""

    keeps_trees = True  # search() takes `tree`

    def __init__(
        self,
        num_workers: int | None = None,
        address: str | None = None,
        *,
        kept_trees: int = KEPT_TREES,
        kept_tree_nodes: int = KEPT_TREE_NODES,
    ) -> None:
        import ray

        for name, value in (("kept_trees", kept_trees), ("kept_tree_nodes", kept_tree_nodes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        self._kept_bounds = (kept_trees, kept_tree_nodes)

        self._ray = ray
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS") or None
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        if num_workers is None:
            num_workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        if isinstance(num_workers, bool) or not isinstance(num_workers, int) or num_workers < 1:
            raise ValueError(f"num_workers must be an int >= 1, got {num_workers!r}")
        cpus = ray.cluster_resources().get("CPU", 0)
        if num_workers > cpus:
            log.warning("%d search workers asked for, but the cluster has %g CPUs", num_workers, cpus)
        self.workers = num_workers
        # four threads: a cancel finds a free one even while a few searches share the actor
        # (ray's type stubs lack max_concurrency, hence the dict)
        actor_options: dict[str, Any] = {"num_cpus": 1, "max_concurrency": 4, "max_restarts": 0}
        self._actor_class: Any = ray.remote(**actor_options)(SearchActor)
        self._actors: list = [self._actor_class.remote(*self._kept_bounds) for _ in range(num_workers)]
        self._dead: set[int] = set()
        # replacements still starting (index -> their warm() ref): searches skip them until warm, so
        # a replacement that waits for a free CPU never costs a search its grace period
        self._warming: dict[int, Any] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self.workers_lost_total = 0
        # a slice still running this long after its end time means a hung or unreachable worker
        self.slice_grace_s = 30.0
        self._closed = False

    # ---- workers ----
    def _replace_dead(self) -> None:
        for i in sorted(self._dead):
            log.info("replacing lost search worker %d", i)
            self._actors[i] = self._actor_class.remote(*self._kept_bounds)  # it keeps no tree yet
            self._warming[i] = self._actors[i].warm.remote()
        self._dead.clear()

    def _admit_warm_replacements(self) -> None:
        """Move replacements whose warm-up finished into service (never blocks)."""
        if not self._warming:
            return
        refs = list(self._warming.values())
        ready, _ = self._ray.wait(refs, num_returns=len(refs), timeout=0)
        for i, ref in list(self._warming.items()):
            if ref not in ready:
                continue
            del self._warming[i]
            try:
                self._ray.get(ref)
            except Exception:  # it died while starting: replace it again next time
                log.warning("replacement search worker %d failed to start", i)
                self._dead.add(i)

    def _active_actors(self) -> list:
        self._admit_warm_replacements()
        self._replace_dead()
        return [a for i, a in enumerate(self._actors) if i not in self._warming]

    def warm(self, timeout_s: float | None = 300.0) -> None:
        """Block until every actor is up and has run a tiny search. An actor that cannot start
        within timeout_s (e.g. the cluster has fewer free CPUs than workers) raises RuntimeError."""
        with self._lock:
            self._replace_dead()
            actors = list(self._actors)
            self._warming.clear()  # warmed below, with every other actor
        refs = [a.warm.remote() for a in actors]
        ready, pending = self._ray.wait(refs, num_returns=len(refs), timeout=timeout_s)
        if pending:
            raise RuntimeError(
                f"only {len(ready)} of {len(refs)} search workers started within {timeout_s} s; "
                f"the cluster has {self._ray.cluster_resources().get('CPU', 0):g} CPUs"
            )
        self._ray.get(ready)  # raises if an actor failed to start

    @property
    def live_workers(self) -> int:
        if self._closed:
            return 0
        with self._lock:
            self._admit_warm_replacements()
            self._replace_dead()
            return self.workers - len(self._dead) - len(self._warming)

    def actor(self, i: int):
        """The i-th actor handle (tests kill one to check that a search survives it)."""
        return self._actors[i]

    # ---- search ----
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
        """Search `observation`; with `tree`, on the trees the actors keep for the seat's turn (each
        re-rooted at the moves played since where its check passes, else new), kept again afterwards."""
        if self._closed:
            raise RuntimeError("this backend is closed")
        started = time.time()
        check_search_args(observation, config, budget, seed)
        with self._lock:
            actors = self._active_actors()
        if not actors:
            raise RuntimeError("no search worker is ready (replacements are still starting)")
        search_id = f"{os.getpid()}-{id(self)}-{next(self._ids)}"
        first = [True] * len(actors)
        obs_ref = self._ray.put(observation)
        kept: tuple = () if tree is None else tree.on_workers(self, config, self._drop_trees)
        carried = [0] * len(actors)  # per worker: the visits its kept tree carried over (0: a new tree)

        def submit(i: int, more: int, until: float, deadline: float) -> cf.Future:
            if first[i]:
                first[i] = False
                ref = actors[i].run_slice.remote(
                    search_id, obs_ref, config, worker_seed(seed, i), more, until, deadline, *kept
                )
                return _noting_carried(ref.future(), carried, i) if kept else ref.future()
            ref = actors[i].run_slice.remote(search_id, None, None, None, more, until, deadline)
            return ref.future()

        def forward_cancel() -> None:
            for a in actors:
                a.cancel.remote(search_id)

        def lost(i: int) -> None:
            # Dead, or alive but not answering: either way it gets no more work; kill it so a hung
            # actor frees its CPU, and replace it before the next search.
            with contextlib.suppress(Exception):
                self._ray.kill(actors[i])
            with self._lock:
                slot = next((k for k, a in enumerate(self._actors) if a is actors[i]), None)
                if slot is not None and slot not in self._dead:
                    self._dead.add(slot)
                    self.workers_lost_total += 1
            log.warning("search worker %d lost (%d lost so far)", i, self.workers_lost_total)

        remove = cancel.add_callback(forward_cancel) if cancel is not None else None
        try:
            result = drive(
                observation,
                budget,
                seed=seed,
                workers=len(actors),
                submit=submit,
                cancel=cancel,
                progress=progress,
                progress_interval_s=progress_interval_s,
                started=started,
                on_lost=lost,
                slice_grace_s=self.slice_grace_s,
            )
            if tree is not None:
                tree.record_carried(carried)
            return result
        finally:
            if remove is not None:
                remove()
            for a in actors:
                if all(a is not self._actors[k] for k in self._dead):
                    a.finish.remote(search_id)

    def _drop_trees(self, tree_key: str) -> None:
        """Free the trees the actors keep under tree_key (a TurnTree's clear(), or its collection)."""
        if self._closed:
            return
        for a in list(self._actors):
            with contextlib.suppress(Exception):  # a dead actor keeps nothing
                a.drop.remote(tree_key)

    def kept_trees(self) -> list[dict[str, int]]:
        """Per actor: key -> nodes of each tree it keeps (for tests and debugging)."""
        return self._ray.get([a.kept_trees.remote() for a in list(self._actors)])

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for a in self._actors:
            with contextlib.suppress(Exception):  # already gone
                self._ray.kill(a)
        self._actors = []

    def __enter__(self) -> RayBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
