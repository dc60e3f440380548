"""The service on its default backend: a real local Ray (2 CPUs, 2 actors) in the server process."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from orrery.core_ext import load_game
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient
from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc

pytestmark = [pytest.mark.ray, pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


WARMING: dict[str, object] = {}  # what the server said while its Ray workers were starting


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ray")
    port = free_port()
    args = ["--backend", "ray", "--workers", "2", "--config", "test-fast", "--db", str(folder / "m.sqlite3")]
    args += ["--port", str(port)]
    started: dict[str, object] = {}

    def start() -> None:
        try:
            env = {"RAY_ADDRESS": ""}
            started["server"] = start_server(args, cwd=str(folder), same_imports=True, env=env)
        except Exception as exc:  # shown by the fixture below
            started["error"] = exc

    starter = threading.Thread(target=start)
    starter.start()
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while starter.is_alive() and "health" not in WARMING:
            try:
                status = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=1).status
            except grpc.RpcError:  # the port is not open yet
                time.sleep(0.05)
                continue
            WARMING["health"] = status
            query = pb.ObservationInput(game="kuhn", observation_json="{}")
            request = pb.SuggestMoveRequest(observation=query)
            try:
                pb_grpc.OrreryStub(channel).SuggestMove(request, timeout=5)
            except grpc.RpcError as exc:
                WARMING["suggest"] = (exc.code(), exc.details())
    starter.join()
    if "error" in started:
        raise started["error"]  # type: ignore[misc]
    spawned = started["server"]
    yield spawned
    assert spawned.terminate(timeout=60) == 0


@pytest.fixture(scope="module")
def client(server):
    with OrreryClient(server.target, timeout=30) as c:
        yield c


def active_searches(server) -> float:
    text = urllib.request.urlopen(server.metrics_url).read().decode()
    return float(next(x for x in text.splitlines() if x.startswith("orrery_active_searches ")).split()[1])


def test_serving_only_with_warm_ray_workers(client):
    assert WARMING["health"] == health_pb2.HealthCheckResponse.NOT_SERVING
    code, details = WARMING["suggest"]
    assert code == grpc.StatusCode.UNAVAILABLE and "warming up" in details
    health = health_pb2_grpc.HealthStub(client.channel)
    answer = health.Check(health_pb2.HealthCheckRequest(service="orrery.v1.Orrery"), timeout=5)
    assert answer.status == health_pb2.HealthCheckResponse.SERVING
    version = client.version()
    assert version.backend == "ray" and version.live_workers == 2


def test_suggest_on_ray_is_reproducible_and_uses_both_workers(client):
    state = load_game("kuhn", players=3).new_initial_state(2)
    text = state.observation(state.current_player).to_json()
    a = client.suggest(game="kuhn", observation_json=text, iterations=4000, seed=5)
    b = client.suggest(game="kuhn", observation_json=text, iterations=4000, seed=5)
    assert a.stats.workers == 2 and a.stats.iterations == 4000 and not a.stats.cut_short
    assert [c.visits for c in a.candidates] == [c.visits for c in b.candidates]


def test_hosted_match_on_ray_to_the_end(client):
    match = client.create_match("kuhn", players=2, seed=4)
    seat = 0
    while seat >= 0:
        hint = client.suggest(match=match, seat=seat, level="medium", seed=seat)
        seat = client.apply(match, seat, action_id=hint.action.id).current_player
    assert client.observation(match, 0).game_over and client.replay(match).moves


def test_analyze_stop_and_cancel_free_the_ray_workers(client, server):
    state = load_game("kuhn", players=2).new_initial_state(3)
    text = state.observation(state.current_player).to_json()
    updates = []
    for update in client.analyze(
        game="kuhn", observation_json=text, milliseconds=5000, progress_interval_ms=100
    ):
        updates.append(update)
        if len(updates) == 3:
            client.stop_analysis(update.query_id)
    assert sum(u.final for u in updates) == 1 and updates[-1].stop_reason == pb.STOP_REASON_STOPPED
    assert updates[-1].result.stats.elapsed_ms < 3000

    stream = client.analyze(game="kuhn", observation_json=text, milliseconds=5000, progress_interval_ms=100)
    next(stream), next(stream)
    stream.cancel()
    t0 = time.monotonic()
    while active_searches(server) > 0 and time.monotonic() - t0 < 3:
        time.sleep(0.02)
    assert active_searches(server) == 0 and time.monotonic() - t0 < 1.5
    with pytest.raises(grpc.RpcError) as info:
        client.suggest(game="kuhn", observation_json=text, iterations=0)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert client.suggest(game="kuhn", observation_json=text, iterations=500).stats.iterations == 500
