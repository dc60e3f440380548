"""Server lifecycle through real server processes: health and reflection, /metrics after known
traffic, a restart that keeps the matches, admission control, and a graceful SIGTERM drain."""

from __future__ import annotations

import shutil
import subprocess
import time
import urllib.request

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from orrery.core_ext import load_game
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow  # every test starts a real `orrery serve` process

IN_PROCESS = ["--backend", "in-process", "--workers", "2", "--config", "test-fast"]


def spawn(tmp_path, *extra: str, db: str = "matches.sqlite3"):
    return start_server(
        [*IN_PROCESS, "--db", str(tmp_path / db), *extra], cwd=str(tmp_path), same_imports=True
    )


def observation_json(seed: int = 3) -> str:
    state = load_game("kuhn", players=2).new_initial_state(seed)
    return state.observation(state.current_player).to_json()


def health_status(channel: grpc.Channel, service: str) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def samples(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = urllib.request.urlopen(url).read().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def rpc(method: str, code: str | None = None, kind: str = "unary") -> tuple[tuple[str, str], ...]:
    labels = {"grpc_method": method, "grpc_service": "orrery.v1.Orrery", "grpc_type": kind}
    if code is not None:
        labels["grpc_code"] = code
    return tuple(sorted(labels.items()))


def test_health_reflection_and_metrics_after_known_traffic(tmp_path):
    server = spawn(tmp_path)
    try:
        with OrreryClient(server.target) as client:
            serving = health_pb2.HealthCheckResponse.SERVING
            assert health_status(client.channel, "") == serving
            assert health_status(client.channel, "orrery.v1.Orrery") == serving
            reflect = reflection_pb2_grpc.ServerReflectionStub(client.channel)
            answer = next(
                reflect.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
            )
            names = {s.name for s in answer.list_services_response.service}
            assert {"orrery.v1.Orrery", "grpc.health.v1.Health"} <= names

            for _ in range(3):
                client.games()
            matches = [client.create_match("kuhn", players=2, seed=s) for s in (1, 2)]
            with pytest.raises(grpc.RpcError):
                client.create_match("chess", players=2)
            with pytest.raises(grpc.RpcError):
                client.observation(matches[0], 0, token="wrong")
            answer = client.suggest(game="kuhn", observation_json=observation_json(), iterations=5000, seed=1)
            updates = list(client.analyze(game="kuhn", observation_json=observation_json(), iterations=4000))
            client.apply(matches[1], 0, action_id=0)
            client.apply(matches[1], 1, action_id=0)  # that match is over now

        m = samples(server.metrics_url)
        assert m[("grpc_server_started_total", rpc("ListGames"))] == 3
        assert m[("grpc_server_handled_total", rpc("ListGames", "OK"))] == 3
        assert m[("grpc_server_handled_total", rpc("CreateMatch", "OK"))] == 2
        assert m[("grpc_server_handled_total", rpc("CreateMatch", "InvalidArgument"))] == 1
        assert m[("grpc_server_handled_total", rpc("GetObservation", "PermissionDenied"))] == 1
        assert m[("grpc_server_handled_total", rpc("SuggestMove", "OK"))] == 1
        assert m[("grpc_server_handled_total", rpc("Analyze", "OK", "server_stream"))] == 1
        assert m[("grpc_server_handling_seconds_count", rpc("CreateMatch"))] == 3
        assert m[("grpc_server_msg_received_total", rpc("Analyze", kind="server_stream"))] == 1
        assert m[("grpc_server_msg_sent_total", rpc("Analyze", kind="server_stream"))] == len(updates)
        buckets = [float(dict(k[1])["le"]) for k in m if k[0] == "grpc_server_handling_seconds_bucket"]
        assert max(b for b in buckets if b != float("inf")) >= 2 * 10.0  # twice the longest budget
        assert m[("orrery_search_iterations_total", ())] == answer.stats.iterations + 4000
        assert m[("orrery_search_seconds_count", ())] == 2
        assert m[("orrery_search_iterations_per_second_count", ())] == 2
        assert m[("orrery_active_searches", ())] == 0 and m[("orrery_queue_depth", ())] == 0
        assert m[("orrery_live_workers", ())] == 2
        assert m[("orrery_worker_losses_total", ())] == 0
        assert m[("orrery_matches_created_total", (("game", "kuhn"),))] == 2
        assert m[("orrery_matches_active", ())] == 1
    finally:
        assert server.terminate() == 0


def test_restart_keeps_matches(tmp_path):
    server = spawn(tmp_path)
    try:
        with OrreryClient(server.target) as client:
            match = client.create_match("kuhn", players=3, seed=8)
            client.apply(match, 0, action_id=1)  # bet
            before = [client.observation(match, seat) for seat in range(3)]
    finally:
        assert server.terminate() == 0
    server = spawn(tmp_path)  # same database file
    try:
        with OrreryClient(server.target) as client:
            for seat in range(3):  # the old tokens still work, and every view is unchanged
                after = client.observation(match.match_id, seat, token=match.tokens[seat])
                assert after == before[seat]
            seat = after.current_player
            while seat >= 0:
                seat = client.apply(
                    match.match_id, seat, action_id=1, token=match.tokens[seat]
                ).current_player
            assert len(client.replay(match.match_id).moves) == 3
    finally:
        assert server.terminate() == 0


def test_admission_control_then_graceful_drain(tmp_path):
    server = spawn(tmp_path, "--max-active", "1", "--max-queue", "0", "--drain-seconds", "1")
    with OrreryClient(server.target) as client:
        text = observation_json()
        stream = client.analyze(
            game="kuhn", observation_json=text, milliseconds=3000, progress_interval_ms=50
        )
        updates = [next(stream), next(stream)]  # the search holds the only slot now
        with pytest.raises(grpc.RpcError) as info:
            client.suggest(game="kuhn", observation_json=text, iterations=10)
        assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED

        server.process.terminate()  # SIGTERM: stop taking searches, drain, then stop
        deadline = time.monotonic() + 5
        while health_status(client.channel, "") != health_pb2.HealthCheckResponse.NOT_SERVING:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        with pytest.raises(grpc.RpcError) as info:
            client.suggest(game="kuhn", observation_json=text, iterations=10)
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE and "shutting down" in info.value.details()
        updates += list(stream)
        final = updates[-1]
        assert final.final and sum(u.final for u in updates) == 1
        assert final.stop_reason == pb.STOP_REASON_SHUTDOWN and final.result.stats.cut_short
        assert final.result.stats.elapsed_ms < 2900  # stopped by the drain, not by its budget
    assert server.process.wait(15) == 0


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    server = spawn(tmp_path, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        target = f"localhost:{server.port}"
        with OrreryClient(target, root_certificates=cert.read_bytes()) as client:
            assert "kuhn" in [g.name for g in client.games()]
        with OrreryClient(target, timeout=3) as plaintext, pytest.raises(grpc.RpcError) as info:
            plaintext.games()
        assert info.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        assert server.terminate() == 0
