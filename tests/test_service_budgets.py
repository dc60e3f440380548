"""Honest budgets and fair admission through real server processes: the budget starts when the search
starts (a queue wait never eats it), a call deadline that cuts a search says so, a client that fills
its share of the queue does not starve another client, and after a burst a lone search gets its
budget. The checks are on what the answers report (cut_short, budget_share), not on timings."""

from __future__ import annotations

import contextlib
import threading
import urllib.request

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.service._spawn import start_server, wait_until
from orrery.service.client import OrreryClient

pytestmark = pytest.mark.slow
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # another peer: channels otherwise share one


def observation_json(seed: int = 3) -> str:
    state = load_game("kuhn", players=2).new_initial_state(seed)
    return state.observation(state.current_player).to_json()


def spawn(folder, *extra: str):
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast", "--max-active", "1"]
    return start_server(
        [*args, "--db", str(folder / "m.sqlite3"), *extra], cwd=str(folder), same_imports=True
    )


def queue_depth(server) -> float:
    text = urllib.request.urlopen(server.metrics_url).read().decode()
    return next(
        float(line.split()[1]) for line in text.splitlines() if line.startswith("orrery_queue_depth ")
    )


def test_queue_wait_never_eats_the_budget_and_a_deadline_cut_says_so(tmp_path):
    server = spawn(tmp_path)
    text = observation_json()
    try:
        with OrreryClient(server.target, timeout=60) as client:
            holder = client.analyze(
                game="kuhn", observation_json=text, milliseconds=1500, progress_interval_ms=50
            )
            next(holder), next(holder)  # it holds the only slot now
            answer = client.suggest(
                game="kuhn", observation_json=text, milliseconds=300
            )  # same client: waits
            s = answer.stats
            assert s.queue_ms > 0 and not s.cut_short and s.budget_share >= 0.9
            assert s.deadline_ms >= s.queue_ms + 0.9 * 300  # due at start + budget, not arrival + budget
            list(holder)

            holder = client.analyze(
                game="kuhn", observation_json=text, milliseconds=3000, progress_interval_ms=50
            )
            next(holder), next(holder)
            cut = client.suggest(game="kuhn", observation_json=text, milliseconds=2000, timeout=1.0).stats
            assert cut.cut_short and cut.budget_share < 0.5  # the deadline came first, and it says so
            client.stop_analysis(next(holder).query_id)
            list(holder)
    finally:
        assert server.terminate() == 0


def test_a_client_filling_its_queue_share_does_not_starve_another(tmp_path):
    # Shares are per client host: the server listens on both stacks, the greedy host is 127.0.0.1 (on
    # two connections) and the other host ::1.
    server = spawn(tmp_path, "--max-queue", "8", "--max-queue-per-peer", "2", "--host", "::")
    text = observation_json()
    try:
        with (
            OrreryClient(server.target, timeout=60) as greedy,
            OrreryClient(server.target, timeout=60, options=OWN_CONNECTION) as greedy_again,
            OrreryClient(f"[::1]:{server.port}", timeout=60) as other,
        ):
            holder = greedy.analyze(
                game="kuhn", observation_json=text, milliseconds=4000, progress_interval_ms=50
            )
            query_id = next(holder).query_id
            next(holder)
            queued = [
                threading.Thread(
                    target=greedy.suggest,
                    kwargs={"game": "kuhn", "observation_json": text, "milliseconds": 50},
                )
                for _ in range(2)
            ]
            for t in queued:
                t.start()
            assert wait_until(lambda: queue_depth(server) == 2, timeout=30)
            for same_host in (greedy, greedy_again):  # another connection is the same client
                call = same_host.stub.SuggestMove.with_call
                with pytest.raises(grpc.RpcError) as info:
                    call(query(text, 50), timeout=30)
                assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                assert "from this client" in info.value.details()
                assert "--max-queue-per-peer" in info.value.details()
                hint = dict(info.value.trailing_metadata())["grpc-retry-pushback-ms"]
                assert int(hint) > 0
            # Another host's search neither fails nor waits behind those: it gets its whole budget.
            answer = other.suggest(game="kuhn", observation_json=text, milliseconds=200, timeout=5).stats
            assert not answer.cut_short and answer.budget_share >= 0.9
            greedy.stop_analysis(query_id)
            list(holder)
            for t in queued:
                t.join()
    finally:
        assert server.terminate() == 0


def query(text: str, milliseconds: int):  # type: ignore[no-untyped-def]
    from orrery.v1 import orrery_pb2 as pb

    return pb.SuggestMoveRequest(
        observation=pb.ObservationInput(game="kuhn", observation_json=text),
        params=pb.SearchParams(budget=pb.Budget(milliseconds=milliseconds)),
    )


def test_after_a_burst_a_lone_search_gets_its_budget(tmp_path):
    server = spawn(tmp_path, "--max-queue", "64", "--max-queue-per-peer", "64")
    text = observation_json()
    try:
        with OrreryClient(server.target, timeout=60) as client:

            def short() -> None:
                client.suggest(game="kuhn", observation_json=text, milliseconds=30, timeout=0.2)

            def burst() -> None:
                with contextlib.suppress(grpc.RpcError):  # some come late or are refused: a burst
                    short()

            threads = [threading.Thread(target=burst) for _ in range(24)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            lone = client.suggest(game="kuhn", observation_json=text, milliseconds=1000, timeout=10).stats
            assert not lone.cut_short and lone.budget_share >= 0.9
    finally:
        assert server.terminate() == 0
