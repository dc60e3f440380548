"""`orrery bench hosted`: hosted-match throughput, a person against an AI seat, on one or more replicas.

Each client thread plays matches one after another: CreateMatch (seat 0 a person, seat 1 an AI seat
with a small per-move budget), WatchMatch as seat 0, then for every turn of seat 0 an ApplyAction (a
seeded random legal move) and a wait for the AI seat's move on the stream, until the match ends. With
several targets (replicas on one PostgreSQL), client i creates its matches on target i mod N and sends
each move to the next target in turn, so every match is played through all replicas.

Reported per second of wall time: matches created, ApplyAction calls acknowledged, AI moves streamed,
and all three together ("calls_per_s"); ApplyAction latency and the delay from a person's move to the
AI's answer on the stream (p50, p99), measured at the client.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from typing import Any

import grpc

from orrery.service._bench import _load_average, _percentile, run_clients
from orrery.service.client import HUMAN, OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb


def run_hosted_bench(
    targets: list[str],
    *,
    game: str,
    concurrency: int,
    seconds: float,
    seed: int,
    ai_iterations: int,
) -> dict[str, Any]:
    clients = [OrreryClient(t, timeout=60) for t in targets]
    for c in clients:
        c.wait_ready(60)
    counts: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    apply_ms: list[float] = []
    ai_reply_ms: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(concurrency)
    end_at: list[float] = []

    def play(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        turn = index
        start.wait()
        while time.perf_counter() < end_at[0]:
            creator = clients[index % len(clients)]
            seats = [HUMAN, ai_seat(iterations=ai_iterations, seed=rng.getrandbits(31))]
            try:
                match = creator.create_match(game, players=2, seed=rng.getrandbits(63), seats=seats)
                with lock:
                    counts["created"] += 1
                turn = _play_match(match, clients, turn, rng, counts, apply_ms, ai_reply_ms, lock)
            except grpc.RpcError as exc:
                with lock:
                    errors[exc.code().name] += 1

    load_before = _load_average()
    wall = run_clients(play, concurrency=concurrency, seconds=seconds, end_at=end_at)
    for c in clients:
        c.close()
    total = counts["created"] + counts["applied"] + counts["ai_moves"]
    return {
        "bench": "hosted",
        "targets": targets,
        "game": game,
        "concurrency": concurrency,
        "ai_iterations": ai_iterations,
        "seconds": round(wall, 2),
        "matches_created": counts["created"],
        "matches_finished": counts["finished"],
        "apply_actions": counts["applied"],
        "ai_moves": counts["ai_moves"],
        "errors": dict(errors),
        "creates_per_s": round(counts["created"] / wall, 2),
        "apply_per_s": round(counts["applied"] / wall, 2),
        "ai_moves_per_s": round(counts["ai_moves"] / wall, 2),
        "calls_per_s": round(total / wall, 2),
        "apply_p50_ms": round(_percentile(apply_ms, 0.5), 2),
        "apply_p99_ms": round(_percentile(apply_ms, 0.99), 2),
        "ai_reply_p50_ms": round(_percentile(ai_reply_ms, 0.5), 2),
        "ai_reply_p99_ms": round(_percentile(ai_reply_ms, 0.99), 2),
        "cpus": os.cpu_count(),
        "load_average_1m": [load_before, _load_average()],  # before and after: other work on the machine
    }


def _play_match(
    match: Any,
    clients: list[OrreryClient],
    turn: int,
    rng: random.Random,
    counts: Counter[str],
    apply_ms: list[float],
    ai_reply_ms: list[float],
    lock: threading.Lock,
) -> int:
    """Play seat 0 to the end of the match, each move through the next replica. Returns the turn count."""
    watcher = clients[turn % len(clients)]
    stream = watcher.watch(match, 0, token=match.tokens[0], timeout=120)
    try:
        event = next(stream)  # SYNC
        current = event.current_player
        sent = time.perf_counter()
        while True:
            if current == 0:
                client = clients[turn % len(clients)]
                turn += 1
                view = client.observation(match, 0, token=match.tokens[0])
                action = rng.choice(view.legal_actions).id
                t0 = time.perf_counter()
                client.apply(
                    match, 0, action_id=action, expected_move_number=view.move_number, token=match.tokens[0]
                )
                sent = time.perf_counter()
                with lock:
                    counts["applied"] += 1
                    apply_ms.append((sent - t0) * 1000.0)
            event = next(stream)
            if event.kind == pb.MATCH_EVENT_MOVE and event.by_ai:
                with lock:
                    counts["ai_moves"] += 1
                    ai_reply_ms.append((time.perf_counter() - sent) * 1000.0)
            if event.kind == pb.MATCH_EVENT_END:
                with lock:
                    counts["finished"] += 1
                return turn
            current = event.current_player
    finally:
        stream.cancel()
