"""`orrery bench service`: latency and throughput of SuggestMove under C concurrent clients.

Each client sends stateless SuggestMove requests (positions from seeded random play) with a
milliseconds budget, one after another, for the run's duration. Latency is measured at the client,
from send to answer. p99_over_budget_ms is p99 latency minus the budget.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc

from orrery.core_ext import load_game
from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc


def bench_positions(game_name: str, players: int, count: int, seed: int) -> list[str]:
    """Observation JSON of the seat to move, from `count` seeded random partial games."""
    game = load_game(game_name, players=players)
    rng = random.Random(seed)
    positions: list[str] = []
    while len(positions) < count:
        state = game.new_initial_state(rng.getrandbits(63))
        for _ in range(rng.randrange(0, 12)):
            legal = state.legal_actions()
            if state.is_terminal() or len(legal) == 0:
                break
            candidate = state.clone()
            candidate.apply(rng.choice(legal))
            if candidate.is_terminal():
                break
            state = candidate
        if not state.is_terminal():
            positions.append(state.observation(state.current_player).to_json())
    return positions


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def run_bench(
    target: str,
    *,
    game: str,
    players: int,
    concurrency: int,
    budget_ms: int,
    seconds: float,
    seed: int,
    config: str = "",
    deadline_ms: int | None = None,
) -> dict[str, Any]:
    positions = bench_positions(game, players, 64, seed)
    timeout_s = deadline_ms / 1000.0 if deadline_ms else budget_ms / 1000.0 + 10.0
    channel = grpc.insecure_channel(target)
    grpc.channel_ready_future(channel).result(timeout=60)
    stub = pb_grpc.OrreryStub(channel)
    latencies: list[float] = []
    iterations: list[int] = []
    errors: Counter[str] = Counter()
    cut_short = 0
    lock = threading.Lock()
    start_barrier = threading.Barrier(concurrency)
    end_time: list[float] = []

    def client(index: int) -> None:
        nonlocal cut_short
        rng = random.Random(seed * 1000 + index)
        start_barrier.wait()
        while time.perf_counter() < end_time[0]:
            request = pb.SuggestMoveRequest(
                observation=pb.ObservationInput(game=game, observation_json=rng.choice(positions)),
                params=pb.SearchParams(
                    budget=pb.Budget(milliseconds=budget_ms), seed=rng.getrandbits(63), config=config, top_k=3
                ),
            )
            t0 = time.perf_counter()
            try:
                response = stub.SuggestMove(request, timeout=timeout_s)
            except grpc.RpcError as exc:
                with lock:
                    errors[exc.code().name] += 1
                continue
            elapsed_ms = (time.perf_counter() - t0) * 1000.0
            with lock:
                latencies.append(elapsed_ms)
                iterations.append(response.stats.iterations)
                cut_short += bool(response.stats.cut_short)

    # one warm-up call so connection set-up is not measured
    stub.SuggestMove(
        pb.SuggestMoveRequest(
            observation=pb.ObservationInput(game=game, observation_json=positions[0]),
            params=pb.SearchParams(budget=pb.Budget(milliseconds=min(budget_ms, 50))),
        ),
        timeout=60,
    )
    load_before = _load_average()
    wall = run_clients(client, concurrency=concurrency, seconds=seconds, end_at=end_time)
    channel.close()
    over = [lat - budget_ms for lat in latencies]
    deadline: dict[str, Any] = {}
    if deadline_ms:
        late_answers = sum(lat > deadline_ms for lat in latencies)
        past = late_answers + errors["DEADLINE_EXCEEDED"]
        ended = len(latencies) + sum(errors.values())
        deadline = {
            "deadline_ms": deadline_ms,
            "deadline_exceeded": errors["DEADLINE_EXCEEDED"],
            "answers_after_deadline": late_answers,
            "past_deadline": past,
            "past_deadline_share": round(past / ended, 4) if ended else None,
        }
    return {
        "bench": "service",
        "target": target,
        "game": game,
        "players": players,
        "concurrency": concurrency,
        "budget_ms": budget_ms,
        "seconds": round(wall, 2),
        "answers": len(latencies),
        "errors": sum(errors.values()),
        "errors_by_code": dict(errors),
        "throughput_per_s": round(len(latencies) / wall, 2),
        "p50_ms": round(_percentile(latencies, 0.50), 2),
        "p99_ms": round(_percentile(latencies, 0.99), 2),
        "max_ms": round(max(latencies), 2) if latencies else None,
        "p99_over_budget_ms": round(_percentile(over, 0.99), 2),
        "max_over_budget_ms": round(max(over), 2) if over else None,
        "mean_iterations": round(statistics.fmean(iterations), 1) if iterations else 0,
        "min_iterations": min(iterations) if iterations else 0,
        "cut_short": cut_short,
        **deadline,
        "cpus": os.cpu_count(),
        "load_average_1m": [load_before, _load_average()],  # before and after: other work on the machine
    }


def run_clients(
    client: Callable[[int], None], *, concurrency: int, seconds: float, end_at: list[float]
) -> float:
    """Run client(0 .. concurrency-1) on their own threads; each stops once perf_counter() passes end_at[0],
    which is set to start + seconds as they start. Returns the wall time until the last one ended (s)."""
    threads = [threading.Thread(target=client, args=(i,)) for i in range(concurrency)]
    start = time.perf_counter()
    end_at.append(start + seconds)
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def _load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def fill_match_store(path: str, stored: int, *, game: str = "kuhn", players: int = 2, seed: int = 0) -> None:
    """A match store with `stored` matches (copies of one real match with fresh ids; a tenth finished,
    the rest active), written in bulk."""
    import sqlite3
    import uuid

    from orrery.service._matches import MatchStore

    store = MatchStore(path)
    created = store.create(game, players, None, seed)
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    match = db.execute("SELECT * FROM matches WHERE match_id = ?", (created.match_id,)).fetchone()
    columns = [c[1] for c in db.execute("PRAGMA table_info(matches)")]
    seat_rows = db.execute("SELECT * FROM seats WHERE match_id = ?", (created.match_id,)).fetchall()
    status, finished = columns.index("status"), columns.index("finished")
    db.execute("BEGIN")
    rng = random.Random(seed)
    for i in range(stored - 1):
        mid = uuid.UUID(int=rng.getrandbits(128)).hex
        row = list(match)
        row[0] = mid
        row[status], row[finished] = (2, 1) if i % 10 == 0 else (1, 0)
        db.execute(f"INSERT INTO matches VALUES ({', '.join('?' * len(row))})", row)
        db.executemany(
            f"INSERT INTO seats VALUES ({', '.join('?' * len(seat_rows[0]))})",
            [(mid, *r[1:]) for r in seat_rows],
        )
    db.execute("COMMIT")
    db.close()


PLAYED_GAMES = (("trian", 2), ("take_the_galaxy", 2), ("tiny_epic_galaxies", 3), ("trian", 3), ("kuhn", 3))


def fill_played_matches(path: str, matches: int, *, seed: int = 0, max_moves: int = 300) -> None:
    """A SQLite match store with `matches` matches played through the store's own API (seeded random
    legal moves): the games of PLAYED_GAMES in turn, each up to a random 1..max_moves moves (fewer where
    the game ends first); every seventh one still going is resigned."""
    from orrery.service._matches import MatchStore

    store = MatchStore(path)
    rng = random.Random(seed)
    try:
        for number in range(matches):
            game, players = PLAYED_GAMES[number % len(PLAYED_GAMES)]
            match_id = store.create(game, players, None, rng.getrandbits(63)).match_id
            for _ in range(rng.randint(1, max_moves)):
                seat = store.history(match_id, 1 << 30).current_player
                if seat < 0:
                    break
                legal = list(store.observation(match_id, seat).legal_actions())
                store.apply(match_id, seat, action_id=rng.choice(legal))
            if number % 7 == 0 and store.history(match_id, 1 << 30).current_player >= 0:
                store.resign(match_id, 0)
    finally:
        store.close()


def run_match_bench(target: str, *, calls: int, game: str = "kuhn", players: int = 2) -> dict[str, Any]:
    """CreateMatch latency (sequential calls, at the client)."""
    channel = grpc.insecure_channel(target)
    grpc.channel_ready_future(channel).result(timeout=60)
    stub = pb_grpc.OrreryStub(channel)
    request = pb.CreateMatchRequest(game=game, players=players)
    for _ in range(5):  # warm-up
        stub.CreateMatch(request, timeout=30)
    latencies = []
    for _ in range(calls):
        t0 = time.perf_counter()
        stub.CreateMatch(request, timeout=30)
        latencies.append((time.perf_counter() - t0) * 1000.0)
    channel.close()
    return {
        "calls": calls,
        "p50_ms": round(_percentile(latencies, 0.50), 3),
        "p90_ms": round(_percentile(latencies, 0.90), 3),
        "max_ms": round(max(latencies), 3),
    }


def count_scan_ms(path: str) -> float:
    """What every CreateMatch and game end used to run: a count of unfinished matches over the table."""
    import sqlite3

    db = sqlite3.connect(path)
    t0 = time.perf_counter()
    db.execute("SELECT COUNT(*) FROM matches NOT INDEXED WHERE finished = 0").fetchone()
    elapsed = (time.perf_counter() - t0) * 1000.0
    db.close()
    return round(elapsed, 3)
