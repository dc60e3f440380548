"""Two `orrery serve` replicas on one PostgreSQL (a real server on loopback, tests/postgres_server.py):
hosted matches played through both at once with one replica killed (SIGKILL) mid-play, AI seats played
once between the two, and WatchMatch on one replica streaming moves applied on the other. Kuhn poker,
in-process search with small iteration budgets, so this stays a few seconds."""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
import urllib.request

import grpc
import pytest

from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow

SERVE = [
    "--backend",
    "in-process",
    "--workers",
    "1",
    "--config",
    "test-fast",
    "--max-matches-per-minute",
    "0",
    "--max-budget-ms",  # so an AI turn's claim lapses after 2 x 1 s + 10 s
    "1000",
]


RETRIED = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.DEADLINE_EXCEEDED,
)


def replica(url: str, folder):
    folder.mkdir(exist_ok=True)
    return start_server([*SERVE, "--db", url], cwd=str(folder), same_imports=True)


@contextlib.contextmanager
def replicas_on_a_new_database(postgres_server, folder):
    url = postgres_server.new_database()
    servers = [replica(url, folder / "a"), replica(url, folder / "b")]
    try:
        yield url, servers
    finally:
        for server in servers:
            server.terminate()


@pytest.fixture(scope="module")
def two_replicas(postgres_server, tmp_path_factory):
    """Shared by the tests that leave both running (each counts only its own matches and calls)."""
    with replicas_on_a_new_database(postgres_server, tmp_path_factory.mktemp("replicas")) as pair:
        yield pair


@pytest.fixture
def two_replicas_to_kill(postgres_server, tmp_path):
    with replicas_on_a_new_database(postgres_server, tmp_path) as pair:
        yield pair


def stored_moves(url: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    """(match_id, move_number) -> (seat, action id, by_ai), straight from the database."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT match_id, move_number, seat, action, by_ai FROM moves").fetchall()
    return {(m, n): (seat, action, by_ai) for m, n, seat, action, by_ai in rows}


def ai_claim(url: str, match_id: str) -> tuple[str, int] | None:
    """(owner, move number) of the match's AI claim."""
    import psycopg

    with psycopg.connect(url) as conn:
        found = conn.execute("SELECT owner, move_number FROM ai_claims WHERE match_id = %s", (match_id,))
        row = found.fetchone()
    return None if row is None else (row[0], row[1])


def test_a_kill_9_of_one_replica_mid_play_loses_no_acknowledged_move(two_replicas_to_kill):
    """People play 16 matches through both replicas while replica A also plays a match of AI seats
    (1 s per move); A is SIGKILLed mid-play. Every acknowledged move is stored, and B takes over A's
    AI match once A's claim lapses and plays it to the end."""
    url, (a, b) = two_replicas_to_kill
    with OrreryClient(a.target, timeout=30) as on_a:
        seats = [ai_seat(milliseconds=1000, seed=s) for s in range(3)]
        ai_match = on_a.create_match("kuhn", players=3, seed=9, seats=seats)
    acknowledged: list[tuple[str, int, int, int]] = []  # (match_id, move_number, seat, action)
    record = threading.Lock()
    killed = threading.Event()
    errors: list[BaseException] = []

    def play(player: int) -> None:
        clients = [OrreryClient(s.target, timeout=10) for s in (a, b)]
        rng = random.Random(player)

        def live(i: int) -> OrreryClient:  # replica A until it is killed
            return clients[1] if killed.is_set() else clients[i % 2]

        try:
            for game in range(4):
                match = _retrying(lambda g=game: live(g + player).create_match("kuhn", players=3, seed=g))
                while True:
                    client = live(player + rng.randrange(2))
                    try:
                        move = play_a_move(client, match, rng)
                        if move is None:
                            break
                    except grpc.RpcError as exc:
                        # The replica died under the call (not acknowledged: it may or may not have
                        # committed), or another player's move got in first: look again.
                        if exc.code() not in RETRIED:
                            raise
                        continue
                    with record:
                        acknowledged.append((match.match_id, *move))
        except BaseException as exc:  # noqa: BLE001 - reported by the test thread
            errors.append(exc)
        finally:
            for c in clients:
                c.close()

    players = [threading.Thread(target=play, args=(i,)) for i in range(4)]
    for t in players:
        t.start()
    deadline = time.monotonic() + 60
    while len(acknowledged) < 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    claim_at_kill = ai_claim(url, ai_match.match_id)
    a.process.kill()  # SIGKILL, mid-play: other players' calls to it are in flight
    a.process.wait()
    killed.set()
    ai_moves_at_kill = sum(m == ai_match.match_id for m, _ in stored_moves(url))
    for t in players:
        t.join(120)
    assert not errors, errors
    with OrreryClient(b.target, timeout=30) as on_b:
        events = list(on_b.watch(ai_match, token=ai_match.spectator_token, timeout=90))
    assert events[-1].kind == pb.MATCH_EVENT_END and events[-1].status == pb.MATCH_STATUS_FINISHED
    assert claim_at_kill is not None and ai_moves_at_kill < events[-1].move_number  # it was mid-play
    assert ai_claim(url, ai_match.match_id)[0] != claim_at_kill[0]  # B played the rest
    before_kill = 12
    assert len(acknowledged) > before_kill  # play went on through the other replica
    stored = stored_moves(url)
    for match_id, move_number, seat, action in acknowledged:
        assert stored[(match_id, move_number)][:2] == (seat, action)
    by_match: dict[str, list[int]] = {}
    for match_id, n in stored:
        by_match.setdefault(match_id, []).append(n)
    assert len(by_match) == 17 and all(sorted(ns) == list(range(1, len(ns) + 1)) for ns in by_match.values())


def play_a_move(client: OrreryClient, match, rng: random.Random) -> tuple[int, int, int] | None:
    """A random legal move for the seat to move, sent with expected_move_number: (move number, seat,
    action id) once acknowledged; None if the match is over."""
    view = client.observation(match, 0, token=match.tokens[0])
    if view.game_over:
        return None
    seat = view.current_player
    seen = client.observation(match, seat, token=match.tokens[seat])
    action = rng.choice(seen.legal_actions).id
    token = match.tokens[seat]
    done = client.apply(match, seat, action_id=action, expected_move_number=view.move_number, token=token)
    return done.move_number, seat, action


def _retrying(call):
    for _ in range(50):
        try:
            return call()
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            time.sleep(0.05)
    return call()


def searches_finished(server) -> float:
    text = urllib.request.urlopen(server.metrics_url, timeout=10).read().decode()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("orrery_search_seconds_count")
    )


def test_ai_seats_are_played_once_between_two_replicas(two_replicas):
    url, servers = two_replicas
    before = [searches_finished(s) for s in servers]
    clients = [OrreryClient(s.target, timeout=30) for s in servers]
    try:
        seats = [ai_seat(milliseconds=150, seed=s) for s in range(3)]  # long enough for sweeps to run
        matches = [clients[i % 2].create_match("kuhn", players=3, seed=i, seats=seats) for i in range(8)]
        for i, match in enumerate(matches):  # each watched through the replica that did not create it
            events = list(clients[(i + 1) % 2].watch(match, token=match.spectator_token, timeout=60))
            assert events[-1].kind == pb.MATCH_EVENT_END and events[-1].status == pb.MATCH_STATUS_FINISHED
        time.sleep(0.5)  # the last searches' metrics
        searched = sum(searches_finished(s) for s in servers) - sum(before)
    finally:
        for c in clients:
            c.close()
    ours = {m.match_id for m in matches}
    moves = {key: move for key, move in stored_moves(url).items() if key[0] in ours}
    assert all(by_ai for _, _, by_ai in moves.values())
    assert searched == len(moves)  # one search per AI move, on one replica or the other


def test_watch_on_one_replica_streams_moves_applied_on_the_other(two_replicas):
    _, (a, b) = two_replicas
    with OrreryClient(a.target, timeout=30) as on_a, OrreryClient(b.target, timeout=30) as on_b:
        match = on_b.create_match("kuhn", players=3, seed=4)
        stream = on_a.watch(match, token=match.spectator_token, timeout=60)
        assert next(stream).kind == pb.MATCH_EVENT_SYNC
        rng = random.Random(1)
        played = []
        started = time.monotonic()
        while (move := play_a_move(on_b, match, rng)) is not None:
            played.append(move)
            event = next(stream)  # relayed by replica A from B's NOTIFY
            assert (event.kind, event.move_number, event.seat, event.action.id) == (
                pb.MATCH_EVENT_MOVE,
                *move,
            )
        end = next(stream)
        assert end.kind == pb.MATCH_EVENT_END and end.move_number == played[-1][0]
        assert time.monotonic() - started < 30
        # A resignation on B ends the stream on A too.
        other = on_a.create_match("kuhn", players=2, seed=5)
        watched = on_a.watch(other, 1, token=other.tokens[1], timeout=60)
        assert next(watched).kind == pb.MATCH_EVENT_SYNC
        on_b.resign(other, 0, token=other.tokens[0])
        end = next(watched)
        assert (end.kind, end.status, end.resigned_seat) == (pb.MATCH_EVENT_END, pb.MATCH_STATUS_RESIGNED, 0)


def grpc_calls_started(server, method: str) -> float:
    text = urllib.request.urlopen(server.metrics_url, timeout=10).read().decode()
    mark = f'grpc_method="{method}"'
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("grpc_server_started_total{") and mark in line
    )


def test_envoy_balances_native_grpc_calls_over_both_replicas(two_replicas, tmp_path):
    """The gateway's Envoy config (as compose runs it, with the two addresses compose's DNS would give
    for "orrery" as two endpoints) sends native gRPC calls of one client connection to both replicas,
    and a match made through one is played through the other."""
    import subprocess

    from gateway_helpers import envoy_available, free_port

    from orrery.service._gateway import GatewayConfig, envoy_command, render_config

    reason = envoy_available()
    if reason:
        pytest.skip(reason)
    _, (a, b) = two_replicas
    port = free_port()
    config = render_config(GatewayConfig(port=port, upstream=a.target, web=False))
    endpoints = config["static_resources"]["clusters"][0]["load_assignment"]["endpoints"][0]["lb_endpoints"]
    second = {"endpoint": {"address": {"socket_address": {"address": "127.0.0.1", "port_value": b.port}}}}
    endpoints.append(second)
    path = tmp_path / "envoy.json"
    path.write_text(json.dumps(config))
    envoy = subprocess.Popen(envoy_command(path), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        before = [grpc_calls_started(s, "CreateMatch") for s in (a, b)]
        with OrreryClient(f"127.0.0.1:{port}", timeout=30) as client:
            client.wait_ready(60)
            matches = [_retrying(lambda: client.create_match("kuhn", players=2, seed=1)) for _ in range(10)]
            for match in matches:  # whichever replica made it, any replica plays it
                view = client.observation(match, 0, token=match.tokens[0])
                client.apply(match, 0, action_id=view.legal_actions[0].id, token=match.tokens[0])
        per_replica = [grpc_calls_started(s, "CreateMatch") - n for s, n in zip((a, b), before, strict=True)]
        assert sum(per_replica) == 10 and min(per_replica) >= 3, per_replica  # round robin: 5 and 5
    finally:
        envoy.terminate()
        envoy.wait(20)
