"""`orrery bench ai-lease`: searches per AI move with two replicas on one PostgreSQL under a queue.

It starts two `orrery serve` replicas on --db (in-process search, one worker and one search slot each,
and a queue that takes every search, so AI searches wait in it), creates --matches kuhn matches of
three AI seats (--ai-ms per move), alternately on each replica, and waits for all of them to end.
Every search either replica ran is counted from its /metrics (orrery_search_seconds_count), every AI
move from the database (moves.by_ai), so `searches_per_ai_move` above 1 means turns were searched
twice (a queued turn's claim lapsed and the other replica took it over). With --server-path the
replicas run another checkout (a before figure).
"""

from __future__ import annotations

import os
import tempfile
import time
import urllib.request
from typing import Any

from orrery.service._bench import _load_average
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb


def _searches(metrics_url: str) -> float:
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("orrery_search_seconds_count")
    )


def run_lease_bench(
    *, db: str, matches: int, ai_ms: int, max_budget_ms: float, lease_s: float | None, server_path: str | None
) -> dict[str, Any]:
    import psycopg

    args = ["--backend", "in-process", "--workers", "1", "--max-active", "1", "--config", "test-fast"]
    args += ["--max-matches-per-minute", "0", "--max-budget-ms", str(max_budget_ms), "--db", db]
    # Every AI search waits in the queue (none refused and retried): the wait is the queue's length.
    args += ["--max-queue", str(4 * matches), "--max-queue-per-peer", str(4 * matches)]
    if lease_s is not None:
        args += ["--ai-lease-s", str(lease_s)]
    env = {"PYTHONPATH": server_path} if server_path else None
    load_before = _load_average()
    with tempfile.TemporaryDirectory(prefix="orrery-bench-lease-") as folder:
        servers = [
            start_server(args, env=env, cwd=folder, same_imports=server_path is None) for _ in range(2)
        ]
        try:
            clients = [OrreryClient(s.target, timeout=60) for s in servers]
            began = time.perf_counter()
            created = [
                clients[i % 2].create_match(
                    "kuhn",
                    players=3,
                    seed=i,
                    seats=[ai_seat(milliseconds=ai_ms, seed=10 * i + s) for s in range(3)],
                )
                for i in range(matches)
            ]
            for i, match in enumerate(created):
                events = list(clients[i % 2].watch(match, token=match.spectator_token, timeout=3600))
                if events[-1].kind != pb.MATCH_EVENT_END:
                    raise RuntimeError(f"match {match.match_id} did not end")
            wall = time.perf_counter() - began
            searches = sum(_searches(s.metrics_url) for s in servers)
            for client in clients:
                client.close()
        finally:
            for server in servers:
                server.terminate()
    with psycopg.connect(db) as conn:
        ids = [m.match_id for m in created]
        row = conn.execute(
            "SELECT COUNT(*) FROM moves WHERE by_ai = 1 AND match_id = ANY(%s)", (ids,)
        ).fetchone()
    ai_moves = row[0] if row else 0
    lease = lease_s if lease_s is not None else 2 * max_budget_ms / 1000.0 + 10.0
    return {
        "bench": "ai-lease",
        "server": server_path or "this checkout",
        "replicas": 2,
        "matches": matches,
        "ai_ms": ai_ms,
        "lease_s": lease,
        "queue_per_replica_s": round(matches / 2 * ai_ms / 1000.0, 2),  # the first turns alone
        "ai_moves": int(ai_moves),
        "searches": int(searches),
        "searches_per_ai_move": round(searches / ai_moves, 3) if ai_moves else None,
        "seconds": round(wall, 1),
        "cpus": os.cpu_count(),
        "load_average_1m": [load_before, _load_average()],
    }
