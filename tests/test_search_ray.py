"""The Ray backend on a real small local Ray (the session's shared ray_session fixture)."""

import threading
import time

import pytest

from orrery.core_ext import load_game
from orrery.search import Budget, CancelToken, RayBackend, get_config

pytestmark = [pytest.mark.ray, pytest.mark.slow]  # starts Ray: out of the fast lane


@pytest.fixture(scope="module")
def backend(ray_session):
    be = RayBackend(num_workers=2)
    be.warm()
    yield be
    be.close()


def test_ray_search_merges_two_workers(backend):
    obs = load_game("kuhn", players=3).new_initial_state(seed=1).observation(0)
    assert backend.live_workers == 2
    result = backend.search(obs, get_config("ismcts"), Budget(iterations=4001), seed=5)
    assert result.iterations == 4001 and result.workers == 2 and result.workers_lost == 0
    assert sum(a.visits for a in result.actions) == 4001
    # the same seed and budget reproduce across backends: the workers run the same kernel
    from orrery.search import InProcessBackend

    with InProcessBackend(2) as local:
        assert (
            local.search(obs, get_config("ismcts"), Budget(iterations=4001), seed=5).actions == result.actions
        )


def test_ray_progress_and_cancel(backend):
    obs = load_game("kuhn", players=2).new_initial_state(seed=1).observation(0)
    token = CancelToken()
    partial = []
    threading.Timer(0.6, token.cancel).start()
    started = time.time()
    result = backend.search(
        obs,
        get_config("ismcts"),
        Budget(milliseconds=60_000),
        seed=1,
        cancel=token,
        progress=partial.append,
        progress_interval_s=0.2,
    )
    assert time.time() - started < 15
    assert result.cut_short and result.iterations > 0 and partial


def test_a_worker_killed_mid_search_does_not_fail_it(ray_session, backend):
    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    victim = backend.actor(1)
    threading.Timer(0.5, lambda: ray_session.kill(victim)).start()
    result = backend.search(
        obs,
        get_config("ismcts"),
        Budget(milliseconds=2000),
        seed=3,
        progress=lambda r: None,
        progress_interval_s=0.2,
    )
    assert result.workers == 2 and result.workers_lost == 1
    assert result.iterations > 0 and result.best_action in obs.legal_actions()
    assert backend.live_workers == 1 and backend.workers_lost_total == 1
    # a replacement starts at once, and searches use it once it is warm
    deadline = time.monotonic() + 120
    while backend.live_workers < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert backend.live_workers == 2
    again = backend.search(obs, get_config("ismcts"), Budget(iterations=500), seed=3)
    assert again.workers == 2 and again.workers_lost == 0
