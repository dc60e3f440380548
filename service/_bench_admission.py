"""`orrery bench admission`: does a fresh client get its first search while another host floods?

One host (the flood target, e.g. 127.0.0.1) keeps `flood_in_flight` SuggestMoves of `flood_budget_ms`
in flight over `flood_connections` connections; a refused one is sent again after the server's retry
hint (grpc-retry-pushback-ms, at least 10 ms), as a gRPC retry policy would. Meanwhile, from another
host (the fresh target, e.g. [::1] on a server listening on both stacks), `fresh_clients` clients
each open a new connection and send one search, in turn, alternating the budgets in `fresh_budgets_ms`.

Reported: for the fresh clients, how many were admitted (answered at all), answered within their
budget (client latency at most budget + `slack_ms`) and with their whole budget searched (not cut
short, budget_share >= 0.9), and their latency over budget; for the flood, answers and refusals by
code. All latencies are measured at the client.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from typing import Any

import grpc

from orrery.service._bench import _load_average, _percentile, bench_positions
from orrery.service._errors import PUSHBACK_KEY
from orrery.v1 import orrery_pb2 as pb
from orrery.v1 import orrery_pb2_grpc as pb_grpc

MIN_PUSHBACK_S = 0.01


def _request(game: str, observation_json: str, budget_ms: int, seed: int) -> pb.SuggestMoveRequest:
    return pb.SuggestMoveRequest(
        observation=pb.ObservationInput(game=game, observation_json=observation_json),
        params=pb.SearchParams(budget=pb.Budget(milliseconds=budget_ms), seed=seed, top_k=1),
    )


def _pushback_s(error: grpc.RpcError) -> float:
    trailing = dict(error.trailing_metadata() or ())  # type: ignore[attr-defined]
    try:
        return max(MIN_PUSHBACK_S, int(trailing[PUSHBACK_KEY]) / 1000.0)
    except (KeyError, ValueError):
        return MIN_PUSHBACK_S


def run_admission_bench(
    flood_target: str,
    fresh_target: str,
    *,
    game: str,
    players: int,
    flood_connections: int,
    flood_in_flight: int,
    flood_budget_ms: int,
    fresh_clients: int,
    fresh_budgets_ms: tuple[int, ...],
    seed: int,
    slack_ms: float = 100.0,
) -> dict[str, Any]:
    positions = bench_positions(game, players, 16, seed)
    channels = [
        grpc.insecure_channel(flood_target, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(flood_connections)
    ]
    for channel in channels:
        grpc.channel_ready_future(channel).result(timeout=60)
    stubs = [pb_grpc.OrreryStub(c) for c in channels]
    flood: Counter[str] = Counter()
    lock = threading.Lock()
    stop = threading.Event()

    def flooder(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        stub = stubs[index % len(stubs)]
        while not stop.is_set():
            request = _request(game, rng.choice(positions), flood_budget_ms, rng.getrandbits(63))
            try:
                stub.SuggestMove(request, timeout=flood_budget_ms / 1000.0 + 30.0)
                outcome, wait = "OK", 0.0
            except grpc.RpcError as exc:
                outcome, wait = exc.code().name, _pushback_s(exc)
            with lock:
                flood[outcome] += 1
            stop.wait(wait)

    threads = [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(flood_in_flight)]
    load_before = _load_average()
    for t in threads:
        t.start()
    time.sleep(max(1.0, flood_budget_ms / 1000.0))  # the flood fills its share first
    fresh = [
        _fresh_search(fresh_target, game, positions, fresh_budgets_ms, i, seed) for i in range(fresh_clients)
    ]
    stop.set()
    for t in threads:
        t.join(timeout=flood_budget_ms / 1000.0 + 35.0)
    for channel in channels:
        channel.close()
    answered = [f for f in fresh if f["code"] == "OK"]
    over = [f["latency_ms"] - f["budget_ms"] for f in answered]
    return {
        "bench": "admission",
        "flood_target": flood_target,
        "fresh_target": fresh_target,
        "game": game,
        "flood": {
            "connections": flood_connections,
            "in_flight": flood_in_flight,
            "budget_ms": flood_budget_ms,
            "outcomes": dict(flood),
        },
        "fresh_clients": fresh_clients,
        "fresh_budgets_ms": list(fresh_budgets_ms),
        "fresh_admitted": len(answered),
        "fresh_within_budget": sum(o <= slack_ms for o in over),
        "fresh_whole_budget": sum(not f["cut_short"] and f["budget_share"] >= 0.9 for f in answered),
        "fresh_refused": dict(Counter(f["code"] for f in fresh if f["code"] != "OK")),
        "fresh_over_budget_ms_p50": round(_percentile(over, 0.5), 1) if over else None,
        "fresh_over_budget_ms_max": round(max(over), 1) if over else None,
        "fresh_queue_ms_max": round(max(f["queue_ms"] for f in answered), 1) if answered else None,
        "slack_ms": slack_ms,
        "cpus": os.cpu_count(),
        "load_average_1m": [load_before, _load_average()],
    }


def _fresh_search(
    target: str, game: str, positions: list[str], budgets: tuple[int, ...], index: int, seed: int
) -> dict[str, Any]:
    """A new client (its own connection): one search, the first it sends."""
    budget_ms = budgets[index % len(budgets)]
    channel = grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
    try:
        grpc.channel_ready_future(channel).result(timeout=60)
        stub = pb_grpc.OrreryStub(channel)
        request = _request(game, positions[index % len(positions)], budget_ms, seed + index)
        t0 = time.perf_counter()
        try:
            answer = stub.SuggestMove(request, timeout=budget_ms / 1000.0 + 30.0)
        except grpc.RpcError as exc:
            return {"budget_ms": budget_ms, "code": exc.code().name}
        latency_ms = (time.perf_counter() - t0) * 1000.0
        s = answer.stats
        return {
            "budget_ms": budget_ms,
            "code": "OK",
            "latency_ms": latency_ms,
            "queue_ms": s.queue_ms,
            "cut_short": s.cut_short,
            "budget_share": s.budget_share,
        }
    finally:
        channel.close()
