"""The standard services through a real server process: health Check, Watch (grpc's own health stub
and the client-side health-checking channel option) and List; reflection v1 and v1alpha."""

from __future__ import annotations

import json

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from orrery.service._spawn import start_server
from orrery.service._standard import reflection_v1_classes
from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc

pytestmark = pytest.mark.slow

SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("standard")
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast"]
    spawned = start_server([*args, "--db", str(folder / "m.sqlite3")], cwd=str(folder), same_imports=True)
    yield spawned
    spawned.terminate()


def test_health_check_watch_and_list(server):
    with grpc.insecure_channel(server.target) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest(service="orrery.v1.Orrery")
        assert stub.Check(request, timeout=5).status == SERVING
        watch = stub.Watch(request, timeout=10)
        assert next(watch).status == SERVING
        watch.cancel()
        unknown = next(stub.Watch(health_pb2.HealthCheckRequest(service="nope"), timeout=10))
        assert unknown.status == health_pb2.HealthCheckResponse.SERVICE_UNKNOWN
        listed = stub.List(health_pb2.HealthListRequest(), timeout=5)
        assert {name: s.status for name, s in listed.statuses.items()} == {
            "": SERVING,
            "orrery.v1.Orrery": SERVING,
        }


def test_client_side_health_checking_channel(server):
    config = {
        "loadBalancingConfig": [{"round_robin": {}}],
        "healthCheckConfig": {"serviceName": "orrery.v1.Orrery"},
    }
    options = [("grpc.service_config", json.dumps(config))]
    with grpc.insecure_channel(server.target, options=options) as channel:
        games = pb_grpc.OrreryStub(channel).ListGames(pb.ListGamesRequest(), timeout=10, wait_for_ready=True)
        assert "kuhn" in [g.name for g in games.games]


def _services_v1alpha(channel: grpc.Channel) -> set[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    answer = next(stub.ServerReflectionInfo(iter([request]), timeout=10))
    return {s.name for s in answer.list_services_response.service}


def test_reflection_v1alpha_and_v1(server):
    expected = {
        "orrery.v1.Orrery",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    request_v1, response_v1 = reflection_v1_classes()
    with grpc.insecure_channel(server.target) as channel:
        assert _services_v1alpha(channel) == expected
        call = channel.stream_stream(
            "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
            request_serializer=request_v1.SerializeToString,
            response_deserializer=response_v1.FromString,
        )
        requests = [
            request_v1(list_services=""),
            request_v1(file_containing_symbol="orrery.v1.Orrery"),
            request_v1(file_containing_symbol="grpc.reflection.v1.ServerReflection"),
        ]
        listed, orrery_file, reflection_file = list(call(iter(requests), timeout=10))
        assert {s.name for s in listed.list_services_response.service} == expected
        from google.protobuf import descriptor_pb2

        files = [
            descriptor_pb2.FileDescriptorProto.FromString(b)
            for b in orrery_file.file_descriptor_response.file_descriptor_proto
        ]
        assert "WatchMatch" in [m.name for f in files for s in f.service for m in s.method]
        files = [
            descriptor_pb2.FileDescriptorProto.FromString(b)
            for b in reflection_file.file_descriptor_response.file_descriptor_proto
        ]
        assert [f.package for f in files] == ["grpc.reflection.v1"]


def test_health_watch_streams_not_serving_on_drain(tmp_path):
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast"]
    server = start_server([*args, "--db", str(tmp_path / "m.sqlite3")], cwd=str(tmp_path), same_imports=True)
    try:
        with grpc.insecure_channel(server.target) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            watch = stub.Watch(health_pb2.HealthCheckRequest(service=""), timeout=30)
            assert next(watch).status == SERVING
            server.process.terminate()
            assert next(watch).status == NOT_SERVING
    finally:
        assert server.terminate() == 0


def test_metrics_can_be_turned_off(tmp_path):
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast", "--no-metrics"]
    server = start_server([*args, "--db", str(tmp_path / "m.sqlite3")], cwd=str(tmp_path), same_imports=True)
    try:
        assert server.metrics_port == 0  # the ready line says "metrics off"
        with grpc.insecure_channel(server.target) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            assert stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=5).status == SERVING
    finally:
        assert server.terminate() == 0
