"""Unit tests of the service's pure parts: budgets and levels, temperature, size limits, tokens."""

from __future__ import annotations

from collections import Counter

import grpc
import pytest
from orrery.service._auth_interceptor import token_from_metadata
from orrery.service._errors import ServiceError
from orrery.service._levels import LEVELS, choose_by_temperature, grant_budget
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
    assert g.milliseconds == 200.0 and g.temperature == 0.0


def test_levels_give_budget_and_temperature_unless_the_request_sets_a_budget():
    g = grant(level="easy")
    assert g.iterations == LEVELS["easy"].iterations and g.temperature == 1.0
    g = grant(level="easy", milliseconds=300)
    assert g.iterations is None and g.milliseconds == 300 and g.temperature == 1.0
    assert grant(level="expert").milliseconds == 1000.0  # 2000 ms, clamped by the server cap
    temperatures = [LEVELS[n].temperature for n in ("easy", "medium", "hard", "expert")]
    assert temperatures == sorted(temperatures, reverse=True)


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


def test_temperature_over_visits():
    actions, visits = [4, 7, 9], [10, 600, 300]
    assert {choose_by_temperature(actions, visits, 0.0, seed) for seed in range(50)} == {7}
    drawn = Counter(choose_by_temperature(actions, visits, 1.0, seed) for seed in range(3000))
    assert drawn[7] > drawn[9] > drawn[4] > 0
    assert 0.6 < drawn[7] / 3000 < 0.72  # proportional to visits at T = 1: 600 / 910 = 0.66
    cold = Counter(choose_by_temperature(actions, visits, 0.15, seed) for seed in range(3000))
    assert cold[7] > 2900
    assert choose_by_temperature([3, 5], [0, 0], 1.0, 1) == 3  # nothing searched: the first


def test_oversized_fields_are_named_by_path():
    request = pb.SuggestMoveRequest(observation=pb.ObservationInput(game="kuhn", observation_json="x" * 50))
    assert oversized_field(request, max_json_chars=100, max_name_chars=10) is None
    assert oversized_field(request, max_json_chars=20, max_name_chars=10).startswith(
        "observation.observation_json: 50 characters"
    )
    request.params.config = "c" * 11
    assert oversized_field(request, max_json_chars=100, max_name_chars=10).startswith("params.config")


def test_tokens_from_metadata():
    assert token_from_metadata([("x-orrery-seat-token", "abc")]) == "abc"
    assert token_from_metadata([("authorization", "Bearer abc")]) == "abc"
    assert token_from_metadata([("authorization", "Basic abc")]) is None
    assert token_from_metadata([]) is None and token_from_metadata(None) is None


def test_histogram_buckets_reach_past_the_longest_budget():
    buckets = time_buckets(60.0)
    assert buckets[:11] == (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
    assert buckets[-1] >= 120.0
