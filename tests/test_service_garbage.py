"""Garbage in every field: random bytes, huge strings, wrong JSON types. The server answers each with
a client-error status (never INTERNAL/UNKNOWN), keeps serving, and no match changes."""

from __future__ import annotations

import copy
import json
import random

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow  # every test talks to a real `orrery serve` process

SERVER_FAULTS = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DEADLINE_EXCEEDED}
UNARY_METHODS = [
    "ListGames",
    "CreateMatch",
    "GetObservation",
    "ApplyAction",
    "GetReplay",
    "SuggestMove",
    "StopAnalysis",
    "GetVersion",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("garbage")
    args = ["--backend", "in-process", "--workers", "2", "--config", "test-fast"]
    spawned = start_server([*args, "--db", str(folder / "m.sqlite3")], cwd=str(folder), same_imports=True)
    yield spawned
    assert spawned.terminate() == 0


@pytest.fixture(scope="module")
def client(server):
    with OrreryClient(server.target, timeout=20) as c:
        yield c


@pytest.fixture(scope="module")
def match(client):
    """A match one move in, with every seat's view taken before the garbage."""
    m = client.create_match("kuhn", players=3, seed=21)
    client.apply(m, 0, action_id=0)
    return m, [client.observation(m, seat) for seat in range(3)]


def status(call) -> grpc.StatusCode:
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


def raw_unary(client: OrreryClient, method: str):
    return client.channel.unary_unary(f"/orrery.v1.Orrery/{method}")  # bytes in, bytes out


def test_random_bytes_in_every_method(client, match):
    m, _ = match
    rng = random.Random(1)
    token = [("x-orrery-seat-token", m.tokens[1])]
    for method in UNARY_METHODS:
        call = raw_unary(client, method)
        for _ in range(25):
            data = rng.randbytes(rng.randrange(1, 300))
            code = status(lambda call=call, data=data: call(data, metadata=token, timeout=10))
            assert code not in SERVER_FAULTS, (method, data, code)
    analyze = client.channel.unary_stream("/orrery.v1.Orrery/Analyze")
    for _ in range(25):
        data = rng.randbytes(rng.randrange(1, 300))
        code = status(lambda data=data: list(analyze(data, timeout=10)))
        assert code not in SERVER_FAULTS, data


def huge_requests(m, text: str) -> list[tuple[str, object, str]]:
    big_name, big_json = "g" * 300_000, '{"x": "' + "y" * 300_000 + '"}'
    return [
        ("CreateMatch", pb.CreateMatchRequest(game=big_name, players=2), "game"),
        ("CreateMatch", pb.CreateMatchRequest(game="kuhn", players=2, variant=big_name), "variant"),
        ("GetObservation", pb.GetObservationRequest(match_id=big_name), "match_id"),
        (
            "ApplyAction",
            pb.ApplyActionRequest(match_id=m.match_id, seat=1, action_json=big_json),
            "action_json",
        ),
        ("GetReplay", pb.GetReplayRequest(match_id=big_name), "match_id"),
        ("StopAnalysis", pb.StopAnalysisRequest(query_id=big_name), "query_id"),
        (
            "SuggestMove",
            pb.SuggestMoveRequest(observation=pb.ObservationInput(game=big_name, observation_json=text)),
            "observation.game",
        ),
        (
            "SuggestMove",
            pb.SuggestMoveRequest(observation=pb.ObservationInput(game="kuhn", observation_json=big_json)),
            "observation.observation_json",
        ),
        (
            "SuggestMove",
            pb.SuggestMoveRequest(
                observation=pb.ObservationInput(game="kuhn"), params=pb.SearchParams(config=big_name)
            ),
            "params.config",
        ),
    ]


def test_huge_strings_are_refused_naming_the_field(client, match):
    m, _ = match
    text = load_game("kuhn", players=2).new_initial_state(1).observation(0).to_json()
    for method, request, field in huge_requests(m, text):
        with pytest.raises(grpc.RpcError) as info:
            getattr(client.stub, method)(request, metadata=[("x-orrery-seat-token", m.tokens[1])], timeout=10)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, field)
        assert info.value.details().startswith(field), (method, info.value.details()[:80])
    too_big = pb.SuggestMoveRequest(
        observation=pb.ObservationInput(game="kuhn", observation_json="x" * (2 << 20))
    )
    with pytest.raises(grpc.RpcError) as info:
        client.stub.SuggestMove(too_big, timeout=10)
    assert info.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def mutations(value, rng: random.Random):
    """Every JSON path of `value`, each replaced by values of the wrong type (and removed)."""
    wrong = [None, True, -1, 2**70, 1.5, "x", [], {}, [[[[]]]], {"a": 1}, "9" * 400]

    def paths(node, prefix=()):
        yield prefix
        if isinstance(node, dict):
            for k, v in node.items():
                yield from paths(v, (*prefix, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from paths(v, (*prefix, i))

    for path in list(paths(value))[1:]:
        for replacement in [*wrong, "DELETE"]:
            doc = copy.deepcopy(value)
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if replacement == "DELETE":
                del parent[path[-1]]
            else:
                parent[path[-1]] = replacement
            yield doc
    for _ in range(40):  # extra keys and shuffled lists
        doc = copy.deepcopy(value)
        doc[rng.choice(["extra", "state", "observer"])] = rng.choice(wrong)
        yield doc


def test_wrong_json_types_in_the_observation(client):
    state = load_game("kuhn", players=3).new_initial_state(5)
    state.apply(1)
    base = json.loads(state.observation(state.current_player).to_json())
    rng = random.Random(2)
    seen = set()
    for doc in mutations(base, rng):
        text = json.dumps(doc)
        code = status(lambda text=text: client.suggest(game="kuhn", observation_json=text, iterations=20))
        assert code not in SERVER_FAULTS, (text, code)
        seen.add(code)
    assert grpc.StatusCode.INVALID_ARGUMENT in seen
    for text in ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000, "null", "7"]:
        code = status(lambda text=text: client.suggest(game="kuhn", observation_json=text, iterations=20))
        assert code == grpc.StatusCode.INVALID_ARGUMENT


def test_garbage_actions_never_change_a_match(client, match):
    m, before = match
    bad_json = ['{"id": "x"}', '{"kind": 5}', "[]", "null", '{"id": 99}', "{" * 10_000, '{"id": 1.5}', "\x00"]
    for text in bad_json:
        code = status(lambda text=text: client.apply(m, 1, action_json=text))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, text
    for action_id in (2, 255, 2**32 - 1):
        assert status(lambda a=action_id: client.apply(m, 1, action_id=a)) == grpc.StatusCode.INVALID_ARGUMENT
    for seat in (0, 2, 3, 2**32 - 1):  # not their turn, or no such seat
        code = status(lambda s=seat: client.apply(m, s, action_id=0, token=m.tokens[0]))
        assert code in (
            grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.INVALID_ARGUMENT,
            grpc.StatusCode.PERMISSION_DENIED,
        )
    assert [client.observation(m, seat) for seat in range(3)] == before
    client.apply(m, 1, action_id=0)  # the match still plays on
    assert client.observation(m, 2).your_turn
