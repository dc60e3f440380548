"""Admission control without timings (issue 30): fair shares per client host, queue limits in every
lane, refusals with retry hints, a drain that starts nothing new, the learned deadline margin, token
guess throttling and stream caps. Searches are held at a gate until the test lets them go, so what is
running and what is queued is known exactly; clocks are passed in where a rule depends on time."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.search import Budget, CancelToken, InProcessBackend, get_config, search_observation
from orrery.service._errors import PUSHBACK_KEY, ServiceError, exhausted
from orrery.service._levels import (
    ANSWER_HORIZON_S,
    ANSWER_SAFETY,
    SEND_S,
    DeadlineMargin,
    deadline_margin,
    grant_budget,
)
from orrery.service._metrics import ServiceMetrics
from orrery.service._quota import FailureLimit, peer_host
from orrery.service._search import FairSlots, SearchJob, SearchScheduler
from orrery.service._streams_interceptor import StreamCounts

A, B, C = "ipv4:10.0.0.1", "ipv4:10.0.0.2", "ipv6:%5B::1%5D"  # three client hosts


def make_job(peer: str, *, milliseconds: float = 100.0) -> SearchJob:
    state = load_game("kuhn", players=2).new_initial_state(seed=3)
    now = time.time()
    grant = grant_budget(
        iterations=None,
        milliseconds=int(milliseconds),
        level=None,
        max_budget_ms=10_000.0,
        default_budget_ms=1000.0,
        arrival=now,
        call_time_remaining=None,
    )
    return SearchJob(
        observation=state.observation(state.current_player),
        config=get_config("test-fast"),
        grant=grant,
        seed=7,
        arrival=now,
        call_deadline=None,
        cancel=CancelToken(),
        peer=peer,
        waits_bounded=True,
    )


class Held:
    """A scheduler whose searches (both lanes) wait at a gate, then run 5 iterations for real."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_wait_ms", 3_600_000.0)  # no wait ends by the clock unless a test says so
        self.metrics = ServiceMetrics(max_budget_s=10.0)
        self.sched = SearchScheduler(self.metrics, max_active=1, **kwargs)
        self.gate = threading.Event()
        self.started: list[str] = []

    def start(self, *, short_lanes: int = 1) -> SearchScheduler:
        sched = self.sched
        sched.start(InProcessBackend(1), InProcessBackend(1) if sched.threads_up_to_ms else None)
        sched._short_slots = FairSlots(short_lanes, extra=short_lanes)
        sched._search = self._held  # type: ignore[method-assign]
        sched._short_search = lambda job, alone: self._held(job)  # type: ignore[method-assign]
        sched._timeshared_search = self._timeshared  # type: ignore[method-assign]
        return sched

    def _held(self, job: SearchJob, backend: Any = None) -> Any:
        self.started.append(job.peer)
        while not self.gate.wait(0.005) and not job.cancel.cancelled:
            pass
        job.begin(time.time())
        result = search_observation(job.observation, job.config, Budget(iterations=5), seed=job.seed)
        return self.sched._finish(job, result)

    async def _timeshared(self, job: SearchJob) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, self._held, job)

    def refused(self, reason: str) -> float:
        return self.metrics.searches_refused.labels(reason)._value.get()


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def outcome(task: asyncio.Task[Any]) -> str:
    if not task.done():
        return "waiting"
    error = task.exception()
    if error is None:
        return "answered"
    assert isinstance(error, ServiceError)
    return error.code.name


def test_a_new_host_gets_in_while_another_holds_more_than_its_share():
    held = Held(max_queue=4, max_queue_per_peer=4)
    sched = held.start()

    async def go() -> None:
        a = [asyncio.ensure_future(sched.run(make_job(A, milliseconds=2000))) for _ in range(6)]
        await settle()
        # A: one running, four queued (the whole queue); its sixth is over its own share
        assert [outcome(t) for t in a] == ["waiting"] * 5 + ["RESOURCE_EXHAUSTED"]
        sixth = a[5].exception()
        assert "--max-queue-per-peer" in sixth.message and sixth.retry_after_s is not None
        assert sched._waiting_by_peer == {A: 4}
        (running,) = sched._jobs
        running.started = 100.0  # due to end at 102.0; four 2 s searches queued for one slot
        assert sched.retry_hint_s(False, now=101.0) == pytest.approx(1.0 + 4 / 1 * 2.0)

        b_first = asyncio.ensure_future(sched.run(make_job(B)))
        await settle()
        assert held.started == [A, B]  # B's first search takes the extra slot at once
        sched.precheck(make_job(B))  # an Analyze's check: room could be made for B, but nothing changes
        assert sched._waiting_by_peer == {A: 4} and all(outcome(t) == "waiting" for t in a[:5])
        b_second = asyncio.ensure_future(sched.run(make_job(B)))
        await settle()
        # the queue was full, but A held 4 of 4 places: A's newest gives way to B's
        assert outcome(a[4]) == "RESOURCE_EXHAUSTED" and outcome(b_second) == "waiting"
        displaced = a[4].exception()
        assert "gave its place" in displaced.message and displaced.retry_after_s > 0
        assert sched._waiting_by_peer == {A: 3, B: 1}

        c_first = asyncio.ensure_future(sched.run(make_job(C)))  # no extra slot left: it must queue
        await settle()
        assert outcome(c_first) == "waiting" and outcome(a[3]) == "RESOURCE_EXHAUSTED"
        assert sched._waiting_by_peer == {A: 2, B: 1, C: 1}

        a_more = asyncio.ensure_future(sched.run(make_job(A)))  # full, and A holds the most: refused
        await settle()
        assert outcome(a_more) == "RESOURCE_EXHAUSTED" and "--max-queue" in a_more.exception().message

        held.gate.set()
        admitted = [*a[:3], b_first, b_second, c_first]
        await asyncio.gather(*admitted)
        assert sorted(held.started) == sorted([A, A, A, B, B, C])  # every admitted search ran, once

    try:
        asyncio.run(go())
    finally:
        sched.close()
    assert (held.refused("client_queue"), held.refused("displaced"), held.refused("queue_full")) == (1, 2, 1)


def test_short_searches_obey_the_queue_limits_too():
    held = Held(max_queue=8, max_queue_per_peer=2, threads_up_to_ms=300.0)
    sched = held.start(short_lanes=1)

    async def go() -> list[str]:
        tasks = [asyncio.ensure_future(sched.run(make_job(A, milliseconds=100))) for _ in range(5)]
        await settle()
        states = [outcome(t) for t in tasks]
        held.gate.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        return states

    try:
        states = asyncio.run(go())
    finally:
        sched.close()
    assert sched._is_short(make_job(A, milliseconds=100))
    # one running in the short lane, two queued (the host's limit), the rest refused at once
    assert states == ["waiting"] * 3 + ["RESOURCE_EXHAUSTED"] * 2


def test_a_search_that_waited_its_longest_is_refused_with_a_retry_hint():
    held = Held(max_queue=8, max_wait_ms=1.0)
    sched = held.start()

    async def go() -> ServiceError:
        running = asyncio.ensure_future(sched.run(make_job(A, milliseconds=2000)))
        await settle()
        with pytest.raises(ServiceError) as refused:
            await sched.run(make_job(A, milliseconds=1))  # waits max(1 ms, its 1 ms budget)
        held.gate.set()
        await running
        return refused.value

    try:
        error = asyncio.run(go())
    finally:
        sched.close()
    assert error.code == grpc.StatusCode.RESOURCE_EXHAUSTED and "no search slot came free" in error.message
    assert error.retry_after_s is not None and error.retry_after_s > 0
    assert held.refused("waited") == 1


def test_a_drain_refuses_queued_searches_at_once_and_starts_nothing_new():
    held = Held(max_queue=8)
    sched = held.start()

    async def go() -> tuple[str, str, list[str]]:
        running = asyncio.ensure_future(sched.run(make_job(A, milliseconds=2000)))
        queued = asyncio.ensure_future(sched.run(make_job(A)))
        await settle()
        drain = asyncio.ensure_future(sched.drain(0.0))
        await settle()
        queued_state = outcome(queued)  # refused while the running search still holds the slot
        await drain
        result = await running  # stopped by the drain, answered with what it has
        assert result.iterations > 0
        with pytest.raises(ServiceError) as late:
            await sched.run(make_job(B))
        return queued_state, late.value.code.name, list(held.started)

    try:
        queued_state, later, started = asyncio.run(go())
    finally:
        sched.close()
    assert queued_state == "UNAVAILABLE" and later == "UNAVAILABLE"
    assert started == [A]  # the queued search never started
    assert held.refused("draining") == 1


def test_retry_hints_travel_as_grpc_retry_pushback_ms():
    assert exhausted("busy", retry_after_s=0.25).trailing_metadata == ((PUSHBACK_KEY, "250"),)
    assert exhausted("busy").trailing_metadata == ()
    assert PUSHBACK_KEY == "grpc-retry-pushback-ms"


def test_the_deadline_margin_follows_the_measured_answer_time():
    margin = DeadlineMargin()
    now = 1000.0
    assert margin.for_call(1.0, now=now) == deadline_margin(1.0)  # nothing measured: the fixed 10 %
    for i in range(100):
        margin.observe(0.002, now=now + i * 0.01)  # a quiet machine: fast answers change nothing
    assert margin.for_call(1.0, now=now + 1) == deadline_margin(1.0)
    for i in range(300):  # a loaded machine: answers take 300 ms after their search stops
        margin.observe(0.3, now=now + 2 + i * 0.01)
    learned = margin.for_call(1.0, now=now + 6)
    assert learned == pytest.approx(0.3 * ANSWER_SAFETY + SEND_S)
    assert margin.for_call(0.5, now=now + 6) == pytest.approx(0.6 * 0.5)  # at most 60 % of the call
    # the grant stops the search that much before the deadline
    grant = grant_budget(
        iterations=None,
        milliseconds=2000,
        level=None,
        max_budget_ms=10_000.0,
        default_budget_ms=1000.0,
        arrival=now,
        call_time_remaining=1.0,
        margin_s=learned,
    )
    assert grant.call_stop == pytest.approx(now + 1.0 - learned)
    # once the load is gone for longer than the horizon, the fixed margin is back
    assert margin.for_call(1.0, now=now + 6 + ANSWER_HORIZON_S + 1) == deadline_margin(1.0)


def test_answers_misses_and_a_late_event_loop_teach_the_scheduler_its_margin():
    sched = SearchScheduler(ServiceMetrics(max_budget_s=10.0), max_active=1, max_queue=4)
    job = make_job(A)
    job.finished, job.stop_target = 50.0, 49.9  # stopped 0.1 s late, answer ready 0.2 s after that
    sched.note_answer(job, ready=50.2)
    # 0.3 s from the stop, plus the 0.2 s hand-back to the loop once more (for the send)
    assert sched.margin.learned_s(now=50.2) == pytest.approx(0.5 * ANSWER_SAFETY + SEND_S)

    sched = SearchScheduler(ServiceMetrics(max_budget_s=10.0), max_active=1, max_queue=4)
    missed = make_job(A)
    missed.call_deadline, missed.stop_target = 60.0, 59.9
    sched.note_missed(missed, now=59.0)  # the client went away before its deadline: nothing learned
    assert sched.margin.learned_s(now=59.0) == 0.0
    sched.note_missed(missed, now=60.05)  # cancelled at its deadline: the answer took > 0.15 s
    assert sched.margin.learned_s(now=60.05) == pytest.approx(0.15 * ANSWER_SAFETY + SEND_S)

    margin = DeadlineMargin()
    margin.observe_loop_lag(0.04, now=1.0)  # a loop 40 ms late: an answer passes it twice
    assert margin.learned_s(now=1.0) == pytest.approx(0.08 * ANSWER_SAFETY + SEND_S)


def test_wrong_tokens_are_throttled_per_host_and_refill():
    limit = FailureLimit(3, "--max-token-failures")
    for _ in range(3):
        limit.check(A, now=0.0)
        limit.failed(A, now=0.0)
    with pytest.raises(ServiceError) as info:
        limit.check(A, now=0.0)
    assert info.value.code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert info.value.retry_after_s == pytest.approx(20.0)  # 3 per minute: one back every 20 s
    limit.check(B, now=0.0)  # another host is not affected
    limit.check(A, now=20.0)  # one failure refilled
    limit.failed(A, count=5, now=20.0)  # spends what there is, never raises
    with pytest.raises(ServiceError):
        limit.check(A, now=20.0)
    FailureLimit(0, "").check(A)  # 0: no limit


def test_stream_caps_per_connection_and_per_host():
    counts = StreamCounts(per_connection=2, per_host=3)
    one, two = "ipv4:10.0.0.1:5000", "ipv4:10.0.0.1:5001"
    assert peer_host(one) == peer_host(two) == A
    for _ in range(2):
        assert counts.over(one) is None
        counts.opened(one)
    assert counts.over(one) == "connection"
    assert counts.over(two) is None
    counts.opened(two)
    assert counts.over(two) == "host"  # 3 open from the host, across its connections
    assert counts.over("ipv4:10.0.0.2:5000") is None
    counts.closed(one)
    assert counts.over(two) is None and counts.over(one) is None
    for connection in (one, two):
        counts.closed(connection)
    assert counts.by_connection == {} and counts.by_host == {}
