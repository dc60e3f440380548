"""`orrery bench db-restart`: what clients of one `orrery serve` see while its PostgreSQL stops and starts.

It starts a server (in-process search) on --db, creates a kuhn match with two human seats, and keeps a
client calling GetObservation on it every --poll-ms. Then, --restarts times: it runs --stop-command
(for example `pg_ctl -D DATA -m fast -w stop`), notes how long until the server's health for
orrery.v1.Orrery says NOT_SERVING, keeps PostgreSQL down for --down-s, runs --start-command (which
must return once PostgreSQL accepts connections, as `pg_ctl -w start` does), and times from that return
until the first GetObservation that succeeds and until health says SERVING again.

Reported: per restart and as median and maximum, `back_ms` (database accepting -> first successful
call), `serving_ms` (-> health SERVING) and `noticed_ms` (stop -> health NOT_SERVING); the status codes
the calls got while the database was away, and how many answers carried driver text.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import threading
import time
from collections import Counter
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from orrery.service._bench import _load_average
from orrery.service._spawn import start_server
from orrery.service.client import HUMAN, OrreryClient

SERVICE = "orrery.v1.Orrery"
DRIVER_WORDS = ("psycopg", "PoolTimeout", "Unexpected <class", "Traceback", "NUL (0x00)")


class _Caller:
    """GetObservation every `poll_s` from a thread of its own, recording each outcome with its time."""

    def __init__(self, client: OrreryClient, match: Any, poll_s: float) -> None:
        self._client, self._match, self._poll_s = client, match, poll_s
        self.outcomes: list[tuple[float, str, str]] = []  # (monotonic time, code name, details)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._client.observation(self._match, 0, token=self._match.tokens[0])
                code, details = "OK", ""
            except grpc.RpcError as exc:
                code, details = exc.code().name, exc.details() or ""
            self.outcomes.append((time.monotonic(), code, details))
            self._stop.wait(self._poll_s)

    def first_ok_after(self, since: float, timeout: float) -> float | None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = [at for at, code, _ in self.outcomes if at >= since and code == "OK"]
            if found:
                return found[0] - since
            time.sleep(0.005)
        return None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def _health(channel: grpc.Channel) -> int:
    try:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=SERVICE), timeout=2
        )
    except grpc.RpcError:
        return -1
    return int(reply.status)


def _until_health(channel: grpc.Channel, status: int, since: float, timeout: float) -> float | None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _health(channel) == status:
            return time.monotonic() - since
        time.sleep(0.01)
    return None


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000.0, 1)


def _summary(values: list[float | None]) -> dict[str, Any]:
    seen = [v for v in values if v is not None]
    return {
        "median": round(statistics.median(seen), 1) if seen else None,
        "max": round(max(seen), 1) if seen else None,
        "missing": len(values) - len(seen),
    }


def run_db_restart_bench(
    *,
    db: str,
    stop_command: str,
    start_command: str,
    restarts: int,
    down_s: float,
    poll_ms: float,
    server_path: str | None,
    timeout_s: float = 60.0,
) -> dict[str, Any]:
    env = {"PYTHONPATH": server_path} if server_path else None
    args = ["--backend", "in-process", "--workers", "1", "--config", "test-fast", "--db", db]
    server = start_server(args, env=env, same_imports=server_path is None)
    rounds: list[dict[str, Any]] = []
    codes: Counter[str] = Counter()
    leaks = 0
    load_before = _load_average()
    try:
        client = OrreryClient(server.target, timeout=5)
        match = client.create_match("kuhn", players=2, seed=1, seats=[HUMAN, HUMAN])
        caller = _Caller(client, match, poll_ms / 1000.0)
        try:
            for _ in range(restarts):
                time.sleep(0.5)
                stopped = time.monotonic()
                subprocess.run(stop_command, shell=True, check=True, capture_output=True)
                noticed = _until_health(
                    client.channel, health_pb2.HealthCheckResponse.NOT_SERVING, stopped, down_s + 5
                )
                time.sleep(max(0.0, down_s - (time.monotonic() - stopped)))
                subprocess.run(start_command, shell=True, check=True, capture_output=True)
                up = time.monotonic()
                back = caller.first_ok_after(up, timeout_s)
                serving = _until_health(client.channel, health_pb2.HealthCheckResponse.SERVING, up, timeout_s)
                away = [(c, d) for t, c, d in caller.outcomes if stopped <= t < up + (back or 0.0)]
                codes.update(c for c, _ in away)
                leaks += sum(1 for _, d in away if any(w in d for w in DRIVER_WORDS))
                rounds.append({"noticed_ms": _ms(noticed), "back_ms": _ms(back), "serving_ms": _ms(serving)})
        finally:
            caller.close()
            client.close()
    finally:
        server.terminate()
    return {
        "bench": "db-restart",
        "server": server_path or "this checkout",
        "restarts": restarts,
        "down_s": down_s,
        "poll_ms": poll_ms,
        "back_ms": _summary([r["back_ms"] for r in rounds]),
        "serving_ms": _summary([r["serving_ms"] for r in rounds]),
        "noticed_ms": _summary([r["noticed_ms"] for r in rounds]),
        "rounds": rounds,
        "codes_while_away": dict(codes),
        "answers_with_driver_text": leaks,
        "cpus": os.cpu_count(),
        "load_average_1m": [load_before, _load_average()],
    }
