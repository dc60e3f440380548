"""Issue 30 through a real server process: the owner token stops an AI-only match, wrong tokens are
throttled per host with a retry hint, and WatchMatch/Analyze streams are capped per connection and per
host, refused with RESOURCE_EXHAUSTED and counted in the metrics. Checks are on codes and counts."""

from __future__ import annotations

import urllib.request

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from orrery.service._auth_interceptor import spectator_token_of
from orrery.service._spawn import start_server, wait_until
from orrery.service.client import OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow  # every test starts a real `orrery serve` process
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]  # a second connection from this host


def spawn(tmp_path, *extra: str):  # type: ignore[no-untyped-def]
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast"]
    return start_server(
        [*args, "--db", str(tmp_path / "m.sqlite3"), *extra], cwd=str(tmp_path), same_imports=True
    )


def metric(server, name: str, **labels: str) -> float:  # type: ignore[no-untyped-def]
    text = urllib.request.urlopen(server.metrics_url).read().decode()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return 0.0


def code_of(call) -> grpc.RpcError:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def test_the_owner_stops_an_ai_only_match_and_token_guesses_are_throttled(tmp_path):
    server = spawn(tmp_path, "--max-token-failures", "3")
    try:
        with OrreryClient(server.target, timeout=30) as client:
            seats = [ai_seat(milliseconds=3000), ai_seat(milliseconds=3000)]  # a slow AI-only match
            match = client.create_match("kuhn", players=2, seed=5, seats=seats)
            assert match.owner_token and match.spectator_token == spectator_token_of(match.owner_token)
            assert client.abandon_as_owner(match).move_number < 3  # stopped while the AIs play
            events = list(client.watch(match, None, token=match.spectator_token, timeout=30))
            assert events[-1].kind == pb.MATCH_EVENT_END and events[-1].status == pb.MATCH_STATUS_ABANDONED
            again = code_of(lambda: client.abandon_as_owner(match))
            assert again.code() == grpc.StatusCode.FAILED_PRECONDITION

            other = client.create_match("kuhn", players=2, seed=6)
            for wrong in ("guess-1", "guess-2", match.owner_token):  # another match's owner token too
                error = code_of(lambda w=wrong: client.abandon_as_owner(other, token=w))
                assert error.code() == grpc.StatusCode.PERMISSION_DENIED
            # three wrong tokens spent: now every token call from this host waits, right ones included
            with OrreryClient(server.target, timeout=30, options=OWN_CONNECTION) as second:
                for call in (
                    lambda: second.observation(
                        other, 0, token=other.tokens[0]
                    ),  # right token, 2nd connection
                    lambda: client.observation(other, 0),  # the right token, first connection
                ):
                    error = code_of(call)
                    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                    assert "--max-token-failures" in error.details()
                    assert int(dict(error.trailing_metadata())["grpc-retry-pushback-ms"]) > 0
            listed = code_of(lambda: client.list_matches([other.tokens[0]]))
            assert listed.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        assert server.terminate() == 0


def test_streams_are_capped_per_connection_and_per_host_and_counted(tmp_path):
    server = spawn(tmp_path, "--max-streams-per-connection", "2", "--max-streams-per-host", "3")
    try:
        with (
            OrreryClient(server.target, timeout=30) as first,
            OrreryClient(server.target, timeout=30, options=OWN_CONNECTION) as second,
        ):
            match = first.create_match("kuhn", players=2, seed=1)
            token = match.spectator_token
            open_streams = [first.watch(match, None, token=token) for _ in range(2)]
            for stream in open_streams:
                assert next(stream).kind == pb.MATCH_EVENT_SYNC  # open and served
            over = code_of(lambda: next(first.watch(match, None, token=token)))
            assert over.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "--max-streams-per-connection" in over.details()
            third = second.watch(match, None, token=token)
            assert next(third).kind == pb.MATCH_EVENT_SYNC  # another connection: its own two
            open_streams.append(third)
            over_host = code_of(lambda: next(second.watch(match, None, token=token)))
            assert over_host.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "--max-streams-per-host" in over_host.details()
            assert metric(server, "orrery_open_streams", grpc_method="WatchMatch") == 3
            refused = {"grpc_method": "WatchMatch", "grpc_code": "ResourceExhausted"}
            assert metric(server, "grpc_server_handled_total", **refused) == 2
            assert metric(server, "orrery_streams_refused_total", grpc_method="WatchMatch", limit="host") == 1
            for stream in open_streams:
                stream.cancel()
            assert wait_until(lambda: metric(server, "orrery_open_streams", grpc_method="WatchMatch") == 0)
            assert next(first.watch(match, None, token=token)).kind == pb.MATCH_EVENT_SYNC  # room again
    finally:
        assert server.terminate() == 0
