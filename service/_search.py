"""Admission control and search execution for SuggestMove and Analyze.

Admission (docs/api.md, "Fair admission"), per client HOST (its address without the port, so every
connection of one machine counts as one client; a hosted match's AI seats count as `ai@HOST`):
- Searches run in two lanes (short milliseconds budgets on threads in the server, the rest on the
  workers), each with its own slots. A host with no search running in a lane may take a slot beyond
  the lane's size (up to twice it), so one host's searches never make another host's first search
  wait; a freed slot goes to the waiting host with the fewest searches running.
- A search that cannot start at once waits in the queue, shared by both lanes: at most `max_queue`
  searches, at most `max_queue_per_peer` of them from one host. When the queue is full, a host holding
  less than its share (`max_queue` / hosts waiting) still gets in: the newest queued search of the host
  holding the most (more than its share) is refused in its place. Everything else beyond the limits
  is refused at once with RESOURCE_EXHAUSTED and a retry hint (grpc-retry-pushback-ms, retry_hint_s):
  when the lane's first running search is due to end, plus the time its queued searches need to take
  their turns.
- A client's search waits for a slot at most `max_wait_s` (--max-queue-wait-ms) or its own budget if
  longer; then it is refused the same way, rather than answered seconds late. With a call deadline it
  stops waiting earlier if the deadline comes first, and is answered from a short late search.
- A draining server starts no new search: queued ones are refused at once (UNAVAILABLE, so a client
  retries on another replica), and a slot that frees during the drain starts nothing.
- A budget counts from the request's arrival, so time spent queued is part of it and an answer is
  never later than its budget (plus the merge and reply), whatever the load.
- Searches run in slices (SLICE_S, --slice-ms): the backend's workers take slices from all active
  searches in turn, so concurrent requests share the workers, and a cancel takes effect within a
  slice. By default at most one search per worker runs at once (max_active = W) and further requests
  queue in the service, where their budget keeps running: more active searches or shorter slices
  answered later under load, because every active search costs the server Python work per slice
  (actor calls, merges) that competes with answering requests.
- Short milliseconds budgets (up to `threads_up_to_ms`, default 300 ms) run on threads in this
  process over the nogil kernel, not on the Ray workers: for them a Ray actor round trip per slice,
  and the merge of remote reports, cost a large share of the budget and made answers late under load
  (later than on threads). Longer
  budgets, and iteration budgets, go to the backend's workers, which may span a cluster.
  Short searches have their own lane of SHORT_PER_CPU searches per CPU at once. Those without
  progress reports (SuggestMove) take turns on one thread per core (search.TimeSharedBackend: 2 ms
  quanta, without the GIL), and each ends at its stop time whether or not its turn came lately; one
  that starts alone runs as one root-parallel part per thread. With one OS thread per search
  instead, a search noticed its stop time only when the OS next ran its thread, which under load
  made answers later than time-sharing does. Short
  searches with progress reports (Analyze) run on a thread of their own, on every thread of the
  thread backend when alone.
- A search that starts with less than `local_below_ms` of its time left (it waited long in the queue,
  or its budget is tiny) runs on one thread in the server instead of on the backend's workers: a
  round trip to busy workers (Ray actor calls, a full thread pool) would cost more than the search,
  and make the answer late.
- A call deadline's margin (the answer is sent before the deadline) is learned: after every answer the
  time from the search's stop to the answer being ready is recorded, and the margin is a high quantile
  of the recent ones (_levels.DeadlineMargin), so under heavy load, when building and sending an answer
  takes longer, searches with a deadline stop that much earlier.
- Answers must be ready by arrival + budget, but merging the workers' results and building the answer
  take time after the search stops, and more under load. The scheduler learns a reserve: millisecond
  searches stop `reserve_s` before the end of their budget, and after each answer the reserve goes up
  a step if the answer was late, down a fiftieth of a step if not, which settles where about 2% of
  answers are late (a stochastic quantile estimate: the reserve tracks the tail, not the mean).
- Every search is stopped through its CancelToken when the client cancels, on StopAnalysis, and when
  the server drains; the result is still produced (best so far) and reported to whoever waits.

The measurements behind these rules are in docs/performance.md ("Service scheduling").
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from orrery.service._errors import ServiceError, exhausted, unavailable
from orrery.service._levels import DeadlineMargin, Grant
from orrery.service._metrics import ServiceMetrics

log = logging.getLogger("orrery.service")

SLICE_S = 0.1  # longest stretch a search holds a worker before others get a turn (s)
MAX_RESERVE_S = 0.05  # the answer reserve never exceeds this (s)
MAX_RESERVE_SHARE = 0.25  # nor this share of its budget (reported: stats.budget_share)
RESERVE_IDLE_S = 0.1  # a pause in a load's answers longer than this decays its reserve ...
RESERVE_HALF_LIFE_S = 0.25  # ... by half every this long (it recovers within a second once load falls)
ON_TIME_SHARE = 0.98  # the reserve aims to have this share of answers ready by their due time
RESERVE_STEP_S = 0.001  # reserve change per answer: up ON_TIME_SHARE steps if late, down the rest if not
SEND_ALLOWANCE_S = 0.003  # an answer should be ready this long before it is due, for the network
LATE_THREADS = 32  # most late searches that run at once (each on one thread, until its deadline)
LATE_ITERATIONS = 32  # a search admitted with no time left still runs this many (for a sound answer)
ACTIVE_PER_WORKER = 1  # default max_active = this many searches per worker
SHORT_PER_CPU = 8  # short searches (on threads in the server) that run at once, per local CPU
MAX_WAIT_S = 2.0  # default --max-queue-wait-ms: a client's search waits for a slot at most this long ...
# ... or its own budget if longer (s)
MIN_RETRY_S = 0.01  # the shortest retry hint (s)
LAG_PROBE_S = 0.1  # the event loop's lateness is probed this often, for the deadline margin (s)
IDLE_RETRY_S = 0.1  # the retry hint when no search of the lane is running (s)
STOP_BUDGET, STOP_DEADLINE, STOP_STOPPED, STOP_SHUTDOWN = "budget", "deadline", "stopped", "shutdown"


@dataclass(eq=False)  # identity semantics: jobs live in a set
class SearchJob:
    """One admitted search: what to search, its grant, and how to stop it.

    The budget counts from the search's start (`started`), not from the request's arrival: time spent
    waiting for a slot never eats into it. The call's deadline (grant.call_stop, a margin before the
    gRPC deadline), when the client set one, bounds queue and search together; a search it stops
    early, or one that never got a slot before it and ran as a late search, is marked cut short."""

    observation: Any
    config: Any  # search.SearchConfig
    grant: Grant
    seed: int
    arrival: float  # time.time() when the request arrived
    call_deadline: float | None  # absolute time.time() of the call's deadline, if any
    cancel: Any  # search.CancelToken
    peer: str = ""  # who asked (admission shares the queue and the slots fairly between peers)
    stop_reason: str | None = None  # why it was stopped early, if it was
    queue_s: float = 0.0
    progress: Callable[[Any], None] | None = None  # called from a search thread
    progress_interval_s: float = 0.5
    started: float | None = None  # time.time() when the search started
    late: bool = False  # it waited until its call deadline left only a short late search
    load: int = 0  # searches running when it started (the answer reserve is learned per load)
    move_number: int | None = None  # a hosted match's move number the position is at
    waits_bounded: bool = False  # a client's: refused once it has waited max_wait_s (or its budget)
    hints: bool = True  # fill the final answer's hints (SearchParams.skip_hints: tools do without)
    short: bool = False  # in the short lane (threads in the server)
    refusal: ServiceError | None = None  # why it was taken out of the queue (a fairer search, a drain)
    stop_target: float | None = None  # time.time() at which the search was told to stop, if by time
    finished: float | None = None  # time.time() at which the search returned its result
    # An AI seat's search.TurnTree (config.reuse_tree): the trees kept from its turn's previous decision,
    # searched on where the backend keeps trees (in-process, Ray, time-shared), else left unused (a new tree)
    tree: Any = None
    tree_taken: bool = False  # the search ran on `tree` (its carried_visits then describe this decision)
    # Called (on the search's thread) as `tree` is handed to a backend: the server's bound on kept trees
    # (service/_kept_trees.py) then leaves it alone until the search ends.
    on_tree_taken: Callable[[], None] | None = None
    _last_progress: float = field(default=0.0)

    @property
    def carried_visits(self) -> int | None:
        """The root visits this search's workers carried over from `tree` (summed over those that re-rooted
        it), None when it searched new trees only (or no tree was handed to its backend)."""
        return self.tree.carried_visits if self.tree is not None and self.tree_taken else None

    def stop(self, reason: str) -> None:
        if self.stop_reason is None:
            self.stop_reason = reason
        self.cancel.cancel()

    def begin(self, now: float, *, late: bool = False) -> None:
        self.started = now
        self.queue_s = now - self.arrival
        self.late = late

    @property
    def call_stop(self) -> float | None:
        return self.grant.call_stop

    @property
    def budget_end(self) -> float:
        """time.time() at which the budget (its wall-time cap, for an iteration budget), counted from
        the search's start, runs out; before the start, as if it started now."""
        origin = self.started if self.started is not None else time.time()
        return origin + self.grant.milliseconds / 1000.0

    def _call_deadline_first(self) -> bool:
        """The call's deadline comes before the end of the budget."""
        return self.call_stop is not None and self.call_stop < self.budget_end

    @property
    def end(self) -> float:
        """When this search must stop: the end of its budget, or the call's deadline if earlier."""
        return self.call_stop if self._call_deadline_first() else self.budget_end  # type: ignore[return-value]

    def time_left_s(self) -> float:
        """Seconds until this search must stop."""
        return self.end - time.time()

    @property
    def answer_due(self) -> float:
        """When the answer should be ready (time.time())."""
        return self.end

    def budget(self, reserve_s: float = 0.0) -> Any:
        """search.Budget for the time left now, stopping reserve_s early so that the answer is built in
        time."""
        from orrery.search import Budget

        now = time.time()
        deadline = self.end - reserve_s
        if self.grant.iterations is not None:
            return Budget(iterations=self.grant.iterations, deadline=max(deadline, now + 1e-3))
        time_left_ms = max((self.budget_end - reserve_s - now) * 1000.0, 1.0)
        if self._call_deadline_first():
            # The call's deadline comes first: stop there, and say the answer was cut short.
            return Budget(milliseconds=time_left_ms, deadline=max(deadline, now + 1e-3))
        return Budget(milliseconds=time_left_ms)

    def stop_at(self, reserve_s: float = 0.0) -> tuple[float, bool]:
        """(wall time at which a milliseconds search stops, whether that is the call's deadline and so
        earlier than the budget), stopping reserve_s early so that the answer is built in time."""
        return self.end - reserve_s, self._call_deadline_first()

    def final_stop_reason(self, result: Any) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        return STOP_DEADLINE if (result.cut_short or self.late) else STOP_BUDGET


class FairSlots:
    """Search slots shared fairly between peers (asyncio; the event loop's thread only).

    `size` slots; a peer that has no search running may also take one of `extra` more, so one peer's
    long searches never make another peer's first search wait. When a slot frees, it goes to the
    waiting peer with the fewest searches running (then the longest waiting), not simply to the
    oldest request: a peer with many queued requests takes turns with the others."""

    def __init__(self, size: int, extra: int = 0) -> None:
        self.size = size
        self.extra = extra
        self.total = 0
        self.running: dict[str, int] = {}
        self._waiters: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        self._seq = 0

    def locked(self) -> bool:
        return self.total >= self.size

    def _can_take(self, peer: str) -> bool:
        if self.total < self.size:
            return True
        return self.running.get(peer, 0) == 0 and self.total < self.size + self.extra

    def _take(self, peer: str) -> None:
        self.total += 1
        self.running[peer] = self.running.get(peer, 0) + 1

    def available(self, peer: str) -> bool:
        """`peer` would get a slot at once (nobody of its own waits before it, and one is free to it)."""
        return not self._waiters.get(peer) and self._can_take(peer)

    def take_now(self, peer: str) -> None:
        """Take a slot that `available(peer)` said is free."""
        self._take(peer)

    async def acquire(self, peer: str, patience_s: float | None) -> None:
        """A slot for `peer`, within patience_s (None: no limit), else asyncio.TimeoutError."""
        if not self._waiters.get(peer) and self._can_take(peer):
            self._take(peer)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._seq += 1
        entry = (self._seq, future)
        self._waiters.setdefault(peer, []).append(entry)
        try:
            if patience_s is None:
                await future
            else:
                await asyncio.wait_for(asyncio.shield(future), timeout=max(0.0, patience_s))
        except BaseException:
            queue = self._waiters.get(peer, [])
            if entry in queue:
                queue.remove(entry)
                if not queue:
                    self._waiters.pop(peer, None)
            elif future.done() and not future.cancelled():
                self.release(peer)  # granted just as the wait ended: hand it on
            raise

    def release(self, peer: str) -> None:
        self.total -= 1
        left = self.running.get(peer, 0) - 1
        if left > 0:
            self.running[peer] = left
        else:
            self.running.pop(peer, None)
        self._hand_on()

    def _hand_on(self) -> None:
        while self._waiters:
            candidates = [p for p in self._waiters if self._can_take(p)]
            if not candidates:
                return
            peer = min(candidates, key=lambda p: (self.running.get(p, 0), self._waiters[p][0][0]))
            queue = self._waiters[peer]
            _, future = queue.pop(0)
            if not queue:
                del self._waiters[peer]
            if future.done():
                continue
            self._take(peer)
            future.set_result(None)


def lower_thread_priority(nice: int) -> None:
    """Raise the calling thread's nice value by `nice` (Linux: nice is per thread, and threads and
    processes started from this thread inherit it). Search work then yields the CPU to the event loop
    that answers requests, so answers are not late because the searches hog the cores."""
    if nice <= 0 or not hasattr(os, "setpriority"):
        return
    tid = threading.get_native_id()
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + nice)


def _kept_tree(job: SearchJob, backend: Any) -> dict[str, Any]:
    """The `tree` argument for `backend`'s search of `job`: its AI seat's kept trees where the backend
    takes them (all the scheduler's do: in-process, Ray and the time-shared pool; a backend without
    keeps_trees gets none and that decision starts a new tree). job.tree_taken records the hand-over."""
    if job.tree is not None and getattr(backend, "keeps_trees", False):
        if job.on_tree_taken is not None:
            job.on_tree_taken()
        job.tree_taken = True
        return {"tree": job.tree}
    return {}


class _CallingThread:
    """Backend-like for SearchScheduler._search: one worker on the request thread itself."""

    keeps_trees = True  # search_observation takes an AI seat's TurnTree

    @staticmethod
    def search(*args: Any, **kwargs: Any) -> Any:
        from orrery.search import search_observation

        return search_observation(*args, **kwargs)


class SearchScheduler:
    def __init__(
        self,
        metrics: ServiceMetrics,
        *,
        max_active: int | None,
        max_queue: int,
        local_below_ms: float = 20.0,
        thread_nice: int = 0,
        slice_ms: float = SLICE_S * 1000.0,
        threads_up_to_ms: float = 0.0,
        max_queue_per_peer: int | None = None,
        max_wait_ms: float = MAX_WAIT_S * 1000.0,
    ) -> None:
        if (max_active is not None and max_active < 1) or max_queue < 0:
            raise ValueError("max_active must be >= 1 and max_queue >= 0")
        self.backend: Any = None
        self.metrics = metrics
        self.max_active = max_active or 1
        self._max_active_setting = max_active
        self.max_queue = max_queue
        # one host may hold at most this many queued searches (default a quarter of the queue)
        self.max_queue_per_peer = max_queue_per_peer or max(1, max_queue // 4)
        self.max_wait_s = max_wait_ms / 1000.0
        self._waiting_by_peer: dict[str, int] = {}
        self._queued: dict[SearchJob, asyncio.Future[None]] = {}  # waiting for a slot: their waits
        self.margin = DeadlineMargin()  # learned margin before a call's deadline
        self.local_below_s = local_below_ms / 1000.0
        self.thread_nice = thread_nice
        self.slice_s = slice_ms / 1000.0
        self.threads_up_to_ms = threads_up_to_ms
        self.thread_backend: Any = None  # in-process threads for short budgets (None: all on backend)
        self.timeshare: Any = None  # search.TimeSharedBackend: the short searches without progress
        # learned per load (searches running at the start, in powers of two): stop a milliseconds
        # search this long before its budget ends, so the answer is ready on time
        self._reserves: dict[int, tuple[float, float]] = {}  # load bucket -> (reserve s, updated at)
        self._slots = FairSlots(self.max_active)
        self._short_slots = FairSlots(1)
        self._short_running = 0
        self._jobs: set[SearchJob] = set()  # running
        self._admitted: set[SearchJob] = set()  # running or waiting for a slot
        self._threads: cf.ThreadPoolExecutor | None = None
        self._short_threads: cf.ThreadPoolExecutor | None = None
        self._late_threads: cf.ThreadPoolExecutor | None = None
        self.ready = False  # set once the workers are warm
        self.draining = False

    def start(self, backend: Any, thread_backend: Any = None) -> None:
        """Use `backend` (warm) from now on, and `thread_backend` (in-process) for short budgets if
        given: size the slots, then accept searches."""
        self.backend = backend
        self.thread_backend = thread_backend
        self.max_active = self._max_active_setting or ACTIVE_PER_WORKER * max(1, self.live_workers())
        self._slots = FairSlots(self.max_active, extra=self.max_active)
        self._threads = cf.ThreadPoolExecutor(
            2 * self.max_active,
            thread_name_prefix="orrery-request",
            initializer=lower_thread_priority,
            initargs=(self.thread_nice,),
        )
        cpus = os.cpu_count() or 1
        short_lanes = SHORT_PER_CPU * cpus
        self._short_slots = FairSlots(short_lanes, extra=short_lanes)
        if thread_backend is not None:
            from orrery.search import TimeSharedBackend

            # room for every short lane, plus the extra parts of a search that starts alone
            self.timeshare = TimeSharedBackend(cpus, 2 * short_lanes + cpus, nice=self.thread_nice)
        self._short_threads = cf.ThreadPoolExecutor(
            2 * short_lanes,
            thread_name_prefix="orrery-short",
            initializer=lower_thread_priority,
            initargs=(self.thread_nice,),
        )
        # Late searches are bound by the clock, not by work: one thread each, so they share the cores
        # and all end at their own deadlines, where a small pool made them queue and miss them.
        self._late_threads = cf.ThreadPoolExecutor(
            max(2, min(self.max_queue, LATE_THREADS)),
            thread_name_prefix="orrery-late",
            initializer=lower_thread_priority,
            initargs=(self.thread_nice,),
        )
        self.ready = True

    @property
    def active(self) -> int:
        return len(self._jobs)

    def live_workers(self) -> int:
        live = int(self.backend.live_workers) if self.backend is not None else 0
        self.metrics.live_workers.set(live)
        return live

    @property
    def _waiting(self) -> int:
        return len(self._queued)

    def admit_check(self, peer: str = "") -> None:
        """Refuse at once what cannot be served now: no workers, draining. (The queue's limits are
        checked per lane in run(), once the budget says which lane a search takes.)"""
        del peer  # kept for callers: the queue checks need the lane, in run()
        if self.draining:
            raise unavailable("the server is shutting down; retry on another replica")
        if not self.ready:
            raise unavailable("search workers are still warming up")
        if self.live_workers() == 0:
            raise unavailable("no search workers are alive")

    async def run(self, job: SearchJob) -> Any:
        """Admit, wait for a slot, search, and return the SearchResult (best so far if stopped)."""
        self.admit_check(job.peer)
        job.short = self._is_short(job)
        self._admitted.add(job)
        try:
            return await self._run_admitted(job)
        finally:
            self._admitted.discard(job)

    def retry_hint_s(self, short: bool, now: float | None = None) -> float:
        """When a refused search of this lane should retry (s): when the lane's first running search is
        due to end, plus the time the searches queued in the lane need to take their turns (queued /
        slots x the mean budget of those running), so that refused clients do not all come back at
        the moment the first slot frees."""
        now = time.time() if now is None else now
        running = [job for job in self._jobs if job.short == short]
        if not running:
            return IDLE_RETRY_S
        first_end = min(job.end for job in running) - now
        queued = sum(job.short == short for job in self._queued)
        size = (self._short_slots if short else self._slots).size
        mean_budget = sum(job.grant.milliseconds for job in running) / len(running) / 1000.0
        return max(MIN_RETRY_S, first_end + queued / size * mean_budget)

    def precheck(self, job: SearchJob) -> None:
        """Raise now what run(job) would raise on arrival (a full queue, the host's limit), changing
        nothing: an Analyze stream is refused before its first message."""
        self.admit_check(job.peer)
        job.short = self._is_short(job)
        if not (self._short_slots if job.short else self._slots).available(job.peer):
            self._make_room(job, evict=False)

    def _make_room(self, job: SearchJob, *, evict: bool = True) -> None:
        """`job` must wait for a slot: check the queue's limits, making room for it by refusing the
        newest queued search of the host holding the most if that host holds more than its share
        (evict=False: only check that room could be made)."""
        peer = job.peer
        mine = self._waiting_by_peer.get(peer, 0)
        if mine >= self.max_queue_per_peer:
            self.metrics.searches_refused.labels("client_queue").inc()
            raise exhausted(
                f"too many searches from this client: {mine} queued (at most {self.max_queue_per_peer} "
                f"per client host, --max-queue-per-peer); retry when one has finished",
                retry_after_s=self.retry_hint_s(job.short),
            )
        if self._waiting < self.max_queue:
            return
        hosts = len(set(self._waiting_by_peer) | {peer})
        share = self.max_queue / hosts
        top = max(self._waiting_by_peer, key=lambda p: (self._waiting_by_peer[p], p), default=None)
        held = self._waiting_by_peer.get(top, 0) if top is not None else 0
        if top is None or top == peer or held <= share or held <= mine + 1:
            self.metrics.searches_refused.labels("queue_full").inc()
            raise exhausted(
                f"too many searches: {self.active} running and {self._waiting} queued "
                f"(max {self.max_queue}, --max-queue)",
                retry_after_s=self.retry_hint_s(job.short),
            )
        if not evict:
            return
        victim = next(j for j in reversed(self._queued) if j.peer == top)
        victim.refusal = exhausted(
            f"too many searches from this client: its newest queued search gave its place to another "
            f"client's (the queue is full, and this client held {held} of {self.max_queue} places, more "
            f"than its share of {share:.0f})",
            retry_after_s=self.retry_hint_s(victim.short),
        )
        self.metrics.searches_refused.labels("displaced").inc()
        self._queued[victim].cancel()
        self._dequeue(victim)

    def _enqueue(self, job: SearchJob, wait: asyncio.Future[None]) -> None:
        self._queued[job] = wait
        self._waiting_by_peer[job.peer] = self._waiting_by_peer.get(job.peer, 0) + 1
        self.metrics.queue_depth.set(self._waiting)

    def _dequeue(self, job: SearchJob) -> None:
        """Out of the queue (idempotent: a refused search leaves it before its wait ends)."""
        if self._queued.pop(job, None) is None:
            return
        left = self._waiting_by_peer.get(job.peer, 1) - 1
        if left > 0:
            self._waiting_by_peer[job.peer] = left
        else:
            self._waiting_by_peer.pop(job.peer, None)
        self.metrics.queue_depth.set(self._waiting)

    def _patience(self, job: SearchJob) -> tuple[float | None, bool]:
        """(How long `job` may wait for a slot (None: until it gets one), whether it then runs as a late
        search (its call deadline came first) rather than being refused)."""
        patience, late = None, False
        if job.call_stop is not None:
            # With a call deadline, wait only while the wait leaves time for a search; after that,
            # answer from a short local search outside the slots (cut short): late answers then do not
            # queue behind each other.
            patience = job.call_stop - time.time() - self.local_below_s - self.reserve_for(job)
            late = True
        if job.waits_bounded:
            cap = max(self.max_wait_s, job.grant.milliseconds / 1000.0)
            if patience is None or cap < patience:
                patience, late = cap, False
        return patience, late

    async def _wait_for_slot(self, job: SearchJob, slots: FairSlots) -> bool:
        """Take a slot of `slots` for `job`: True once it has one, False if it must run as a late search
        (its call deadline came first). Raises ServiceError if it is refused meanwhile."""
        peer = job.peer
        if slots.available(peer):
            slots.take_now(peer)
            return True
        self._make_room(job)
        patience, late = self._patience(job)
        wait = asyncio.ensure_future(slots.acquire(peer, patience))
        self._enqueue(job, wait)
        try:
            await wait
        except asyncio.TimeoutError:
            if late:
                return False
            waited = time.time() - job.arrival
            self.metrics.searches_refused.labels("waited").inc()
            raise exhausted(
                f"no search slot came free in {waited * 1000.0:.0f} ms (a search waits at most "
                f"--max-queue-wait-ms or its budget if longer): the server is overloaded",
                retry_after_s=self.retry_hint_s(job.short),
            ) from None
        except asyncio.CancelledError:
            if wait.done() and not wait.cancelled():
                slots.release(peer)  # it got the slot just as the caller went away: hand it on
            if job.refusal is not None:
                raise job.refusal from None
            raise
        finally:
            self._dequeue(job)
        return True

    def _refuse_in_drain(self, job: SearchJob) -> ServiceError:
        self.metrics.searches_refused.labels("draining").inc()
        job.stop(STOP_SHUTDOWN)
        return unavailable("the server is shutting down; retry on another replica")

    async def _run_admitted(self, job: SearchJob) -> Any:
        short = job.short
        slots = self._short_slots if short else self._slots
        peer = job.peer
        loop = asyncio.get_running_loop()
        if not await self._wait_for_slot(job, slots):
            if self.draining:
                raise self._refuse_in_drain(job)
            job.late = True  # it begins on its thread
            return await loop.run_in_executor(self._late_threads, self._late_search, job)
        if self.draining:  # a slot freed during a drain: start nothing new
            slots.release(peer)
            raise self._refuse_in_drain(job)
        job.load = len(self._jobs)
        job.queue_s = time.time() - job.arrival  # until the search begins on its thread (job.begin)
        self._jobs.add(job)
        self.metrics.active_searches.set(len(self._jobs))
        alone = self._short_running == 0
        self._short_running += short

        def release(_future: Any) -> None:
            self._short_running -= short
            self._jobs.discard(job)
            self.metrics.active_searches.set(len(self._jobs))
            slots.release(peer)

        future: asyncio.Future[Any]
        try:
            if short and self.timeshare is not None and job.progress is None:
                future = loop.create_task(self._timeshared_search(job))
            elif short:
                future = loop.run_in_executor(self._short_threads, self._short_search, job, alone)
            else:
                future = loop.run_in_executor(self._threads, self._search, job)
        except BaseException:
            release(None)
            raise
        future.add_done_callback(release)
        try:
            # shield: a cancelled caller stops the search, but the slot is freed only once it has ended.
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            job.stop(STOP_STOPPED)
            raise

    def _is_short(self, job: SearchJob) -> bool:
        grant = job.grant
        return (
            self.thread_backend is not None
            and grant.iterations is None
            and grant.milliseconds <= self.threads_up_to_ms
        )

    def _short_search(self, job: SearchJob, alone: bool) -> Any:
        """A short search: on every thread of the thread backend when it is the only one, else on
        this thread alone."""
        return self._search(job, self.thread_backend if alone else _CallingThread)

    async def _timeshared_search(self, job: SearchJob) -> Any:
        """A short search without progress reports, in turns with the others on one thread per core
        (every thread when it is the only one)."""
        job.begin(time.time())
        stop_at, cut_short = job.stop_at(self.reserve_for(job))
        job.stop_target = stop_at
        shared = self.timeshare
        result = await shared.search(
            job.observation,
            job.config,
            stop_at=stop_at,
            seed=job.seed,
            cancel=job.cancel,
            parts=shared.threads if shared.idle else 1,
            min_iterations=LATE_ITERATIONS,
            cut_short=cut_short,
            **_kept_tree(job, shared),
        )
        return self._finish(job, result)

    @staticmethod
    def _load_bucket(load: int) -> int:
        return min(load, 64).bit_length()  # 0, 1, 2-3, 4-7, ...

    def _reserve_now(self, bucket: int, now: float) -> float:
        """The learned reserve of a load bucket, decayed over any pause in its answers."""
        reserve, updated = self._reserves.get(bucket, (0.0, now))
        idle = now - updated - RESERVE_IDLE_S
        return reserve * 0.5 ** (idle / RESERVE_HALF_LIFE_S) if idle > 0 else reserve

    def reserve_for(self, job: SearchJob, now: float | None = None) -> float:
        """How long before the end of its budget a milliseconds search stops so that its answer is
        built in time: learned per load, at most MAX_RESERVE_SHARE of the budget."""
        if job.grant.iterations is not None:
            return 0.0
        now = time.time() if now is None else now
        reserve = self._reserve_now(self._load_bucket(job.load), now)
        return min(reserve, MAX_RESERVE_SHARE * job.grant.milliseconds / 1000.0)

    @property
    def reserve_s(self) -> float:
        """The reserve of a search that starts alone now (for tests and logs)."""
        return self._reserve_now(0, time.time())

    def note_answer(self, job: SearchJob, ready: float) -> None:
        """An answer for `job` was ready at `ready` (time.time()): learn how long answers take after
        their search stops (the call deadline's margin), and adjust the reserve of its load."""
        if job.finished is not None:
            # From the stop to the answer being ready, plus the hand-back from the search thread to the
            # event loop once more: sending the answer goes through the loop again, unmeasured here.
            stopped = job.finished if job.stop_target is None else min(job.stop_target, job.finished)
            self.margin.observe((ready - stopped) + (ready - job.finished), now=ready)
        if job.grant.iterations is not None or job.stop_reason is not None or job.late:
            return
        bucket = self._load_bucket(job.load)
        late = ready > job.answer_due - SEND_ALLOWANCE_S
        step = RESERVE_STEP_S * (ON_TIME_SHARE if late else -(1.0 - ON_TIME_SHARE))
        reserve = min(MAX_RESERVE_S, max(0.0, self._reserve_now(bucket, ready) + step))
        self._reserves[bucket] = (reserve, ready)

    def _progress_callback(self, job: SearchJob) -> Callable[[Any], None]:
        """Progress for the job's caller, at most once per its interval (slices may be shorter)."""

        def on_slice(partial: Any) -> None:
            now = time.time()
            if job.progress is not None and now - job._last_progress >= job.progress_interval_s:
                job._last_progress = now
                job.progress(partial)

        job._last_progress = time.time()
        return on_slice

    def _search(self, job: SearchJob, backend: Any = None) -> Any:
        """In a request thread: the search on `backend` (default: the workers), sliced for fairness,
        with metrics. Its budget starts now."""
        job.begin(time.time())
        interval = min(job.progress_interval_s, self.slice_s)
        on_slice = self._progress_callback(job)
        reserve = self.reserve_for(job)
        if job.cancel.cancelled or job.time_left_s() - reserve < self.local_below_s:
            return self._finish(job, self._local_search(job))
        if job.grant.iterations is None or job._call_deadline_first():
            job.stop_target = job.end - reserve
        chosen = backend or self.backend
        try:
            result = chosen.search(
                job.observation,
                job.config,
                job.budget(reserve),
                seed=job.seed,
                cancel=job.cancel,
                progress=on_slice,
                progress_interval_s=interval,
                **_kept_tree(job, chosen),
            )
        except RuntimeError as exc:
            if self.live_workers() == 0 or "lost" in str(exc):
                raise unavailable(f"search workers failed: {exc}") from None
            raise
        return self._finish(job, result)

    async def probe_loop_lag(self, every_s: float = LAG_PROBE_S) -> None:
        """Forever (a task on the server's loop): measure how late the event loop wakes, for the
        deadline margin (DeadlineMargin.observe_loop_lag)."""
        while True:
            asked = time.time() + every_s
            await asyncio.sleep(every_s)
            now = time.time()
            self.margin.observe_loop_lag(now - asked, now=now)

    def note_missed(self, job: SearchJob, now: float) -> None:
        """The call ended (cancelled) before its answer was ready: if that was its deadline, the answer
        took at least until now after its stop, which the margin must learn (no answer teaches it)."""
        if job.call_deadline is None or now < job.call_deadline - SEND_ALLOWANCE_S:
            return  # the client went away; not a deadline
        stop = job.stop_target if job.stop_target is not None else job.call_stop
        if stop is not None:
            self.margin.observe(now - stop, now=now)

    def _late_search(self, job: SearchJob) -> Any:
        job.begin(time.time(), late=True)
        job.stop_target = job.end - self.reserve_for(job)  # it should have ended by then: lateness counts
        return self._finish(job, self._local_search(job))

    def _finish(self, job: SearchJob, result: Any) -> Any:
        """Every search's result passes here: counted in the metrics, after topping up one whose time
        ran out before its first iteration (a busy CPU) with LATE_ITERATIONS, since an answer from no
        search at all would be an arbitrary move."""
        if result.iterations == 0:
            result = self._top_up(job, result)
        job.finished = time.time()
        self._count(result)
        return result

    def _top_up(self, job: SearchJob, result: Any) -> Any:
        from orrery.search import Budget, search_observation

        more = search_observation(
            job.observation, job.config, Budget(iterations=LATE_ITERATIONS), seed=job.seed
        )
        return dataclasses.replace(more, cut_short=True, elapsed_s=result.elapsed_s + more.elapsed_s)

    def _local_search(self, job: SearchJob) -> Any:
        """On this thread, for what is left of the time (or a few iterations if nothing)."""
        from orrery.search import Budget, search_observation

        left_ms = (job.time_left_s() - self.reserve_for(job)) * 1000.0
        if left_ms >= 1.0 and not job.cancel.cancelled:
            budget = Budget(milliseconds=left_ms)
            if job.stop_target is None:
                job.stop_target = time.time() + left_ms / 1000.0
        else:
            # No deadline: an answer from zero iterations would be an arbitrary move.
            budget = Budget(iterations=LATE_ITERATIONS)
        return search_observation(
            job.observation,
            job.config,
            budget,
            seed=job.seed,
            cancel=job.cancel,
            **_kept_tree(job, _CallingThread),
        )

    def _count(self, result: Any) -> None:
        m = self.metrics
        m.search_iterations.inc(result.iterations)
        m.search_seconds.observe(result.elapsed_s)
        if result.elapsed_s > 0:
            m.search_iterations_per_second.observe(result.iterations / result.elapsed_s)
        if result.workers_lost:
            m.worker_losses.inc(result.workers_lost)
        self.live_workers()

    async def drain(self, grace_s: float) -> None:
        """Refuse new searches; let running ones finish for up to grace_s, then stop them (best so far)."""
        self.draining = True
        for job, wait in list(self._queued.items()):  # queued: refused at once, never started
            job.refusal = self._refuse_in_drain(job)
            wait.cancel()
            self._dequeue(job)
        end = time.monotonic() + grace_s
        while self._jobs and time.monotonic() < end:
            await asyncio.sleep(0.05)
        for job in list(self._admitted):  # still running: answer at once with what they have
            job.stop(STOP_SHUTDOWN)
        while self._jobs and time.monotonic() < end + 5.0:
            await asyncio.sleep(0.02)

    def close_timeshare(self) -> None:
        """On the event loop (it watches the pool): stop the time-shared threads."""
        if self.timeshare is not None:
            self.timeshare.close()

    def close(self) -> None:
        self.close_timeshare()  # a no-op after the server's call on the loop
        for threads in (self._threads, self._short_threads, self._late_threads):
            if threads is not None:
                threads.shutdown(wait=False, cancel_futures=True)
        for backend in (self.thread_backend, self.backend):
            if backend is not None:
                with contextlib.suppress(Exception):
                    backend.close()
