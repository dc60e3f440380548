"""Unit tests of the service's pure parts: budgets, levels and their move choice, size limits, tokens."""

from __future__ import annotations

from collections import Counter
from random import Random

import grpc
import pytest

from orrery.search import LEVELS, choose_within_tolerance
from orrery.search._levels import min_trusted_visits, trusted_moves
from orrery.service._auth_interceptor import token_from_metadata, tokens_from_metadata
from orrery.service._errors import ServiceError
from orrery.service._levels import grant_budget
from orrery.service._limits_interceptor import oversized_field
from orrery.service._metrics import time_buckets
from orrery.v1 import orrery_pb2 as pb


def grant(**kwargs):
    settings = dict(
        iterations=None,
        milliseconds=None,
        level=None,
        max_budget_ms=1000.0,
        default_budget_ms=200.0,
        arrival=100.0,
        call_time_remaining=None,
    )
    return grant_budget(**{**settings, **kwargs})


def test_budgets_are_clamped_by_the_server_cap_and_the_call_deadline():
    g = grant(milliseconds=5000)
    assert g.clamped and g.milliseconds == 1000.0 and g.deadline == pytest.approx(101.0)
    g = grant(milliseconds=500, call_time_remaining=0.2)
    assert not g.clamped and g.deadline == pytest.approx(100.2 - 0.03)  # margin: at least 30 ms
    assert grant(milliseconds=900, call_time_remaining=0.6).deadline == pytest.approx(100.6 - 0.06)
    assert grant(milliseconds=900, call_time_remaining=5.0).deadline == pytest.approx(100.9)
    assert grant(milliseconds=5000, call_time_remaining=0.9).deadline == pytest.approx(100.9 - 0.09)
    g = grant(iterations=10**6)
    assert g.iterations == 10**6 and g.deadline == pytest.approx(101.0)  # iterations stop at the cap too
    g = grant()
    assert g.milliseconds == 200.0 and g.tolerance == 0.0


def test_levels_give_budget_and_tolerance_unless_the_request_sets_a_budget():
    g = grant(level="easy")
    assert g.iterations == LEVELS["easy"].iterations and g.tolerance == LEVELS["easy"].tolerance > 0
    g = grant(level="easy", milliseconds=300)
    assert g.iterations is None and g.milliseconds == 300 and g.tolerance == LEVELS["easy"].tolerance
    assert grant(level="expert").milliseconds == 1000.0  # 2000 ms, clamped by the server cap
    tolerances = [LEVELS[n].tolerance for n in ("easy", "medium", "hard", "expert")]
    assert tolerances == sorted(tolerances, reverse=True) and tolerances[-1] == 0.0


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"iterations": 0}, "params.budget.iterations"),
        ({"iterations": 10**10}, "params.budget.iterations"),
        ({"milliseconds": 0}, "params.budget.milliseconds"),
        ({"milliseconds": 10**9}, "params.budget.milliseconds"),
    ],
)
def test_out_of_range_budgets(kwargs, field):
    with pytest.raises(ServiceError) as info:
        grant(**kwargs)
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT and info.value.details.startswith(field)


def test_a_level_chooses_only_among_trusted_moves_within_its_tolerance():
    actions, values, visits = [4, 7, 9, 11, 13], [0.50, 0.60, 0.56, 0.90, 0.40], [100, 600, 300, 5, 200]
    # tolerance 0: the most visited, whatever the values
    assert {choose_within_tolerance(actions, values, visits, 0.0, seed) for seed in range(50)} == {7}
    drawn = Counter(choose_within_tolerance(actions, values, visits, 0.1, seed) for seed in range(3000))
    # 11's 0.90 rests on 5 visits (< a tenth of 600): not trusted; 4 and 13 lie 0.10 or more below 0.60
    assert set(drawn) == {7, 9}
    assert drawn[7] > drawn[9] > 0  # the better move is the likelier choice
    assert choose_within_tolerance([3, 5], [0.0, 0.0], [0, 0], 0.1, 1) == 3  # nothing searched: the first


def test_a_level_never_plays_a_move_rated_below_the_best_by_more_than_its_tolerance():
    rng = Random(5)
    for _ in range(500):
        n = rng.randint(1, 8)
        actions = rng.sample(range(100), n)
        visits = [rng.randint(0, 400) for _ in range(n)]
        values = [rng.random() for _ in range(n)]
        tolerance = rng.choice([0.02, 0.05, 0.1, 0.3])
        chosen = actions.index(choose_within_tolerance(actions, values, visits, tolerance, rng.randrange(99)))
        trusted = trusted_moves(visits, tolerance)
        assert all(visits[i] >= 0.1 * max(visits) and visits[i] >= (0.5 / tolerance) ** 2 for i in trusted)
        if trusted:
            assert chosen in trusted and values[chosen] > max(values[i] for i in trusted) - tolerance
        else:  # no value is precise enough to compare within the tolerance: the search's own choice
            assert visits[chosen] == max(visits)


def test_a_level_plays_the_most_visited_move_when_values_are_noisier_than_its_tolerance():
    # Trian medium: about 20 visits on each of 15 moves. A mean of 20 returns in [0, 1] may be off by
    # 0.5 / sqrt(20) = 0.11, more than medium's 0.05, so no value is trusted: the most-visited is played.
    actions = list(range(15))
    visits = [20] * 15
    visits[6] = 24
    values = [0.80 + 0.003 * i for i in range(15)]  # 14 looks best, by less than the noise
    assert min_trusted_visits(0.05) == pytest.approx(100.0)
    assert trusted_moves(visits, 0.05) == []
    assert {choose_within_tolerance(actions, values, visits, 0.05, seed) for seed in range(200)} == {6}
    # With enough visits the same values are compared within the tolerance again.
    many = [v * 10 for v in visits]
    assert trusted_moves(many, 0.05) == actions
    assert len({choose_within_tolerance(actions, values, many, 0.05, seed) for seed in range(200)}) > 1


def test_oversized_fields_are_named_by_path():
    request = pb.SuggestMoveRequest(observation=pb.ObservationInput(game="kuhn", observation_json="x" * 50))
    assert oversized_field(request, max_json_bytes=100, max_name_bytes=10) is None
    assert oversized_field(request, max_json_bytes=20, max_name_bytes=10).startswith(
        "observation.observation_json: 50 bytes"
    )
    request.params.config = "c" * 11
    assert oversized_field(request, max_json_bytes=100, max_name_bytes=10).startswith("params.config")
    request.params.config = "é" * 6  # 6 characters, 12 bytes: limits are in bytes
    assert oversized_field(request, max_json_bytes=100, max_name_bytes=10) == (
        "params.config: 12 bytes, at most 10 allowed"
    )


def test_tokens_from_metadata():
    assert token_from_metadata([("x-orrery-seat-token", "abc")]) == "abc"
    assert token_from_metadata([("authorization", "Bearer abc")]) == "abc"
    assert token_from_metadata([("authorization", "Basic abc")]) is None
    assert token_from_metadata([]) is None and token_from_metadata(None) is None
    # ListMatches: one entry per token, or several in one (a browser's fetch joins repeated headers)
    assert tokens_from_metadata([("x-orrery-seat-token", "a"), ("x-orrery-seat-token", "b, c,")]) == [
        "a",
        "b",
        "c",
    ]


def test_histogram_buckets_reach_past_the_longest_budget():
    buckets = time_buckets(60.0)
    assert buckets[:11] == (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
    assert buckets[-1] >= 120.0


def _job(milliseconds: float, load: int, started: float):
    from orrery.service._search import SearchJob

    g = grant(milliseconds=int(milliseconds), arrival=started)
    job = SearchJob(
        observation=None, config=None, grant=g, seed=0, arrival=started, call_deadline=None, cancel=None
    )
    job.started, job.load = started, load
    return job


def test_the_answer_reserve_is_learned_per_load_capped_and_recovers_after_a_pause():
    from orrery.service._metrics import ServiceMetrics
    from orrery.service._search import SearchScheduler

    sched = SearchScheduler(ServiceMetrics(max_budget_s=1.0), max_active=1, max_queue=4)
    t = 1000.0
    for _ in range(60):  # a burst: 16 searches at once, every answer late
        busy = _job(100, load=16, started=t)
        sched.note_answer(busy, ready=t + 0.2)
    assert sched.reserve_for(_job(1000, load=16, started=t), now=t) == pytest.approx(0.05)  # at most 50 ms
    assert sched.reserve_for(_job(100, load=16, started=t), now=t) == pytest.approx(0.025)  # at most 25 %
    assert sched.reserve_for(_job(1000, load=0, started=t), now=t) == 0.0  # a lone search: its own load
    for _ in range(30):  # even lone answers that came late ...
        sched.note_answer(_job(100, load=0, started=t), ready=t + 0.2)
    assert sched.reserve_for(_job(1000, load=0, started=t), now=t) == pytest.approx(0.0294)
    # ... stop costing lone searches within a second of quiet, and the busy load's reserve decays too.
    assert sched.reserve_for(_job(1000, load=0, started=t), now=t + 1.2) < 0.003
    assert sched.reserve_for(_job(1000, load=16, started=t), now=t + 2.0) < 0.001


def test_fair_slots_hand_a_freed_slot_to_the_peer_with_fewest_running():
    import asyncio

    from orrery.service._search import FairSlots

    async def scenario() -> list[str]:
        slots = FairSlots(1, extra=1)
        await slots.acquire("a", None)  # a runs
        await slots.acquire("b", None)  # b's first search takes the extra slot at once
        order: list[str] = []

        async def wait(peer: str) -> None:
            await slots.acquire(peer, None)
            order.append(peer)

        tasks = [asyncio.ensure_future(wait(p)) for p in ("a", "a", "b")]
        await asyncio.sleep(0)
        slots.release("a")  # a: 0 running, b: 1 -> a's next
        await asyncio.sleep(0)
        slots.release("b")  # a: 1, b: 0 -> b's
        await asyncio.sleep(0)
        slots.release("a")
        await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        with pytest.raises(asyncio.TimeoutError):
            await slots.acquire("a", 0.01)  # all taken: a times out, and leaves no waiter behind
        assert not slots._waiters
        return order

    assert asyncio.run(scenario()) == ["a", "b", "a"]


@pytest.mark.parametrize("game", ["kuhn", "trian"])
def test_unknown_top_level_observation_keys_are_refused_like_unknown_state_keys(game):
    import json

    from orrery.core_ext import load_game
    from orrery.service._positions import observation_from_input

    state = load_game(game, players=2).new_initial_state(3)
    data = json.loads(state.observation(state.current_player).to_json())
    observation_from_input(game, json.dumps(data))  # the game's own JSON passes
    data["bogus"] = 1
    with pytest.raises(ServiceError) as info:
        observation_from_input(game, json.dumps(data))
    assert info.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert info.value.details == "observation.observation_json: unknown keys ['bogus']"
