"""Build and run the gRPC server: interceptors, health, reflection, metrics, warm-up and drain.

Start-up order: metrics endpoint, match store, gRPC port (health NOT_SERVING), search workers
(start and warm), then health SERVING and the "orrery serving on ..." line. SIGTERM/SIGINT: health
NOT_SERVING, new searches refused, running searches get `drain_seconds` to finish before they are
stopped (each still sends its final answer), then the server stops.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
from grpc import aio
from grpc_health.v1 import health_pb2, health_pb2_grpc

from orrery.service._auth_interceptor import AuthInterceptor
from orrery.service._config_check import check_server_configs
from orrery.service._errors import ServiceError
from orrery.service._kept_trees import (
    DEFAULT_KEPT_TREE_NODES,
    DEFAULT_KEPT_TREES,
    DEFAULT_WORKER_KEPT_TREE_NODES,
    DEFAULT_WORKER_KEPT_TREES,
    TreeBound,
)
from orrery.service._limits_interceptor import LimitsInterceptor
from orrery.service._metrics import ServiceMetrics
from orrery.service._metrics_interceptor import MetricsInterceptor
from orrery.service._search import SearchScheduler, lower_thread_priority
from orrery.service._servicer import SERVICE_NAME, OrreryServicer
from orrery.service._standard import HealthServicer, enable_reflection
from orrery.service._store import open_store
from orrery.service._streams_interceptor import StreamLimitsInterceptor
from orrery.v1 import orrery_pb2, orrery_pb2_grpc

log = logging.getLogger("orrery.service")
BACKENDS = ("ray", "in-process")
DEFAULT_HOST = os.environ.get("ORRERY_HOST") or "127.0.0.1"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
PENDING_CALLS = 20_000  # calls gRPC's core may hold until the server takes them up (its default: 1000)


@dataclass(frozen=True, kw_only=True)
class ServerConfig:
    # Loopback unless told otherwise: the API has unauthenticated calls (CreateMatch, stateless
    # searches) and serves plaintext without --tls-cert, so exposing it is a deliberate choice
    # (--host 0.0.0.0; the container image sets ORRERY_HOST=0.0.0.0, where port publishing decides).
    host: str = DEFAULT_HOST
    port: int = 50051  # 0 = any free port (the bound one is printed)
    metrics_port: int = 9464  # 0 = any free port
    metrics_host: str | None = None  # None: the same as host
    metrics: bool = True  # serve /metrics at all
    ray_dashboard: bool = False  # a local Ray's dashboard (on host); off unless asked for
    backend: str = "ray"  # "ray" or "in-process" (threads in this process: tests, small budgets)
    ray_address: str | None = None  # None: $RAY_ADDRESS, else start a local Ray
    workers: int | None = None  # search workers; None = one per CPU
    db: str = "orrery-matches.sqlite3"
    tls_cert: str | None = None  # PEM files; both or neither
    tls_key: str | None = None
    max_budget_ms: float = 10_000.0  # no search runs longer than this (ms)
    default_budget_ms: float = 1_000.0  # budget when a request names neither budget nor level (ms)
    max_queue: int = 64  # searches that may wait for a slot before RESOURCE_EXHAUSTED
    max_active: int | None = None  # searches that run at once, sharing the workers; None = 1 per worker
    default_config: str = ""  # search configuration when a request names none; "" = the game's own
    drain_seconds: float = 10.0  # on SIGTERM, how long running searches may go on
    local_below_ms: float = 20.0  # a search with less time left than this runs on one local thread
    worker_nice: int = 0  # nice increment for the processes of a local Ray (0: none)
    # Nice increment for the search threads in the server (Linux), so the request path, which answers
    # on time, wins the CPU from searches that only lose a few iterations.
    thread_nice: int = 10
    gil_switch_interval_s: float = 0.001  # sys.setswitchinterval for the server process
    slice_ms: float = 100.0  # searches take turns on the workers in slices this long (ms)
    # Milliseconds budgets up to this run on threads in the server process, not on Ray (ms; 0: never).
    threads_up_to_ms: float = 300.0
    max_request_bytes: int = 1 << 20  # whole request message (bytes)
    max_json_bytes: int = 256 * 1024  # each *_json field (bytes of UTF-8)
    max_name_bytes: int = 256  # every other string field: names, ids, tokens (bytes of UTF-8)
    # Hosted matches: an active match with no move for this long ends as expired, and an ended one is
    # deleted this long after its end (seconds; 0: never).
    match_ttl_s: float = 7 * 24 * 3600.0
    max_matches_per_minute: float = 60.0  # CreateMatch per client host per minute (0: no limit)
    max_queue_per_peer: int | None = None  # queued searches per client host; None: max_queue // 4
    # A client's search waits for a slot at most this long, or its budget if longer, then it is refused
    # with RESOURCE_EXHAUSTED and a retry hint (ms).
    max_queue_wait_ms: float = 2000.0
    max_streams_per_connection: int = 100  # open WatchMatch + Analyze streams per connection (0: no cap)
    max_streams_per_host: int = 500  # ... per client host, across its connections (0: no cap)
    max_token_failures: float = 20.0  # wrong tokens per client host per minute, in bursts (0: no limit)
    # PostgreSQL: an AI turn's claim lasts this long and is renewed every third of it while its search
    # waits or runs; a killed replica's turns pass to another after it (seconds; None: 2 x the longest
    # search + 10 s).
    ai_lease_s: float | None = None
    # The search trees kept between hosted AI seats' decisions (tree reuse), in this process: at most this
    # many seats' turns (0: none kept, every decision starts a new tree) and nodes in all, the most
    # recently searched freed first (service/_kept_trees.py).
    max_kept_trees: int = DEFAULT_KEPT_TREES
    max_kept_tree_nodes: int = DEFAULT_KEPT_TREE_NODES
    # The same for each Ray search actor, which keeps its own worker's trees of those turns (search/_ray.py):
    # at most this many turns' trees and nodes in all per actor, the most recently searched freed first.
    worker_kept_trees: int = DEFAULT_WORKER_KEPT_TREES
    worker_kept_tree_nodes: int = DEFAULT_WORKER_KEPT_TREE_NODES

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {self.backend!r}")
        if (self.tls_cert is None) != (self.tls_key is None):
            raise ValueError("give both --tls-cert and --tls-key, or neither")
        if self.workers is not None and self.workers < 1:
            raise ValueError("workers must be >= 1")
        if self.max_budget_ms <= 0 or self.default_budget_ms <= 0:
            raise ValueError("budgets must be > 0 ms")
        TreeBound(trees=self.max_kept_trees, nodes=self.max_kept_tree_nodes)  # raises if out of range
        TreeBound(trees=self.worker_kept_trees, nodes=self.worker_kept_tree_nodes)  # the same checks


def make_backend(config: ServerConfig) -> Any:
    if config.backend == "in-process":
        from orrery.search import InProcessBackend

        return InProcessBackend(workers=config.workers or os.cpu_count() or 1)
    address = config.ray_address or os.environ.get("RAY_ADDRESS") or None
    if address is None and not ("ray" in sys.modules and sys.modules["ray"].is_initialized()):
        _start_local_ray(config.workers, config.host, dashboard=config.ray_dashboard)
    from orrery.search import RayBackend

    return RayBackend(
        num_workers=config.workers,
        address=address,
        kept_trees=config.worker_kept_trees,
        kept_tree_nodes=config.worker_kept_tree_nodes,
    )


_reaper: Any = None  # the local Ray's reaper (its stdin pipe must live as long as this process)
_head: Any = None  # the local Ray's head process (service/_ray_head.py), while this server owns one
RAY_ATTEMPTS = 3  # tries to start a local Ray before the server gives up
RAY_HEAD_READY_S = 90.0  # how long one try may take to bring the head up


class LocalRayError(RuntimeError):
    """The local Ray did not start, after every attempt (the message is one line)."""


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def start_with_retries(
    start: Callable[[], Any], cleanup: Callable[[], None], *, attempts: int, what: str = "local Ray"
) -> Any:
    """`start()` until it returns, at most `attempts` times, with `cleanup()` after each failure (any
    exception); then LocalRayError naming the attempts and the last error, in one line."""
    for attempt in range(1, attempts + 1):
        try:
            return start()
        except Exception as exc:  # noqa: BLE001 - any start-up failure is worth another try
            log.warning("%s did not start (attempt %d of %d): %s", what, attempt, attempts, _one_line(exc))
            try:
                cleanup()
            except Exception:  # noqa: BLE001 - the next attempt (or the final error) matters more
                log.exception("cleaning up after a failed %s start", what)
            if attempt == attempts:
                raise LocalRayError(
                    f"{what} did not start after {attempts} attempts; last error: {_one_line(exc)}"
                ) from exc
    raise AssertionError("unreachable")


def _start_local_ray(
    workers: int | None, host: str, *, dashboard: bool = False, attempts: int = RAY_ATTEMPTS
) -> None:
    """A local Ray owned by this server (sized to the workers asked for, not the whole machine):
    - its head runs in a clean child process (service/_ray_head.py), started without fork handlers or
      a preexec_fn: Ray forks its GCS, raylet and agents there, not in this process, whose gRPC threads
      made those forks abort or hang; this process then connects with ray.init(address=...);
    - it dies with the server, kill -9 included (service/_reaper.py watches a pipe from this process
      and stops every process of this Ray, found through its own temp dir, when the server is gone;
      the head also stops its Ray when its own stdin pipe from this process closes);
    - on a loopback --host it binds loopback only (Ray otherwise turns 127.0.0.1 into the machine's
      routable address and its agents listen on every interface); on another address Ray uses it as
      the node address;
    - it has no dashboard process unless asked for (then on --host).
    Any start-up failure (the raylet missing Ray's 30 s registration window on a busy machine, a
    process of Ray dying) is retried, after stopping what the failed try left, up to `attempts` times;
    then LocalRayError."""
    global _reaper
    import tempfile
    import time

    loopback = host in LOOPBACK or host.startswith("127.")
    if loopback:
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # read by Ray at import and by its processes
    temp_dir = tempfile.mkdtemp(prefix=f"orrery-ray-{os.getpid()}-")
    from orrery.service._reaper import start_reaper

    if _reaper is None:
        _reaper = start_reaper(temp_dir)
    node_ip = "127.0.0.1" if loopback else (None if host in ("0.0.0.0", "::", "") else host)
    command = [sys.executable, "-m", "orrery.service._ray_head", "--temp-dir", temp_dir]
    if workers is not None:
        command += ["--num-cpus", str(workers)]
    if node_ip is not None:
        command += ["--node-ip", node_ip]
    if dashboard:
        command += ["--dashboard-host", host]
    connect: dict[str, Any] = {} if node_ip is None else {"_node_ip_address": node_ip}

    def start() -> None:
        global _head
        began = time.monotonic()
        _head = _spawn_head(command)
        import ray  # while the head starts (the first time, this import takes a second or two)
        from ray._private import ray_constants

        if loopback:
            ray_constants.ENABLE_RAY_CLUSTER = False  # in case Ray was imported before
        address = _head_address(_head, RAY_HEAD_READY_S)
        up = time.monotonic()
        ray.init(address=address, log_to_driver=False, configure_logging=False, **connect)
        log.info(
            "local Ray up at %s: head %.1f s, connect %.1f s", address, up - began, time.monotonic() - up
        )

    def cleanup() -> None:
        if "ray" in sys.modules:
            sys.modules["ray"].shutdown()
        _stop_head(temp_dir)

    start_with_retries(start, cleanup, attempts=attempts)


def _spawn_head(command: list[str]) -> Any:
    import subprocess

    # No preexec_fn, no fork handlers: CPython execs the child straight away (vfork), so nothing of this
    # process's gRPC state runs in it.
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)


def _head_address(head: Any, timeout: float) -> str:
    """The GCS address the head prints once it is up (RuntimeError if it exits or takes too long)."""
    import select
    import time

    from orrery.service._ray_head import READY

    end = time.monotonic() + timeout
    line = b""
    while not line.endswith(b"\n"):
        left = end - time.monotonic()
        if left <= 0:
            raise RuntimeError(f"the local Ray head did not come up in {timeout:g} s")
        ready, _, _ = select.select([head.stdout], [], [], min(left, 1.0))
        if ready:
            chunk = os.read(head.stdout.fileno(), 4096)
            if not chunk:
                raise RuntimeError(f"the local Ray head exited (code {head.wait()}) before it was up")
            line += chunk
    words = line.decode(errors="replace").split()
    if len(words) != 2 or words[0] != READY:
        raise RuntimeError(f"the local Ray head said {line!r}")
    return words[1]


def _stop_head(temp_dir: str | None = None, timeout: float = 30.0) -> None:
    """Stop the local Ray head (it stops its Ray when its stdin closes), then, given the temp dir, any
    process of that Ray still running (a failed start can leave some)."""
    global _head
    import subprocess

    from orrery.service._reaper import descendants, reap

    head, _head = _head, None
    if head is None:
        return
    family = descendants(head.pid) if os.path.isdir("/proc/self") else set()
    if head.stdin is not None:
        head.stdin.close()
    try:
        head.wait(timeout)
    except subprocess.TimeoutExpired:
        head.kill()
        head.wait()
    if head.stdout is not None:
        head.stdout.close()
    if temp_dir is not None and os.path.isdir("/proc/self"):
        keep = {_reaper.pid} if _reaper is not None else set()
        reap(family, temp_dir, spare=keep)


def _shutdown_ray() -> None:
    """Disconnect from Ray, and stop the local Ray this process started: quick here, slow at exit."""
    import ray

    if ray.is_initialized():
        ray.shutdown()
    _stop_head()


def _freeze_startup_objects() -> None:
    """Collect once, then keep everything alive now (modules, Ray, gRPC) out of later collections.
    Python's full collections scanned all of it while holding the GIL, pausing the server under load
    and making answers late by as much (figures in docs/performance.md)."""
    gc.collect()
    gc.freeze()


class OrreryServer:
    """One running server. `await start()`, then `await wait_for_termination()` or `await stop()`."""

    def __init__(self, config: ServerConfig) -> None:
        # Before anything starts: a server that could not search with its --config refuses to start
        # (SearchConfigError), rather than refusing every query that names no configuration.
        for warning in check_server_configs(config.default_config):
            log.warning("%s", warning)
        self.config = config
        self.metrics = ServiceMetrics(max_budget_s=config.max_budget_ms / 1000.0)
        # An AI turn's claim is renewed while its search waits or runs (OrreryServicer._keep_claim).
        lease_s = config.ai_lease_s or 2 * config.max_budget_ms / 1000.0 + 10.0
        self.store = open_store(config.db, claim_s=lease_s)
        self.metrics.matches_active.set(self.store.active_count())
        self.scheduler = SearchScheduler(
            self.metrics,
            max_active=config.max_active,
            max_queue=config.max_queue,
            local_below_ms=config.local_below_ms,
            thread_nice=config.thread_nice,
            slice_ms=config.slice_ms,
            threads_up_to_ms=config.threads_up_to_ms,
            max_queue_per_peer=config.max_queue_per_peer,
            max_wait_ms=config.max_queue_wait_ms,
        )
        self.servicer = OrreryServicer(
            store=self.store,
            scheduler=self.scheduler,
            metrics=self.metrics,
            max_budget_ms=config.max_budget_ms,
            default_budget_ms=config.default_budget_ms,
            default_config=config.default_config,
            backend_name=config.backend,
            creates_per_minute=config.max_matches_per_minute,
            token_failures_per_minute=config.max_token_failures,
            tree_bound=TreeBound(trees=config.max_kept_trees, nodes=config.max_kept_tree_nodes),
        )
        self.health = HealthServicer()
        self.server = aio.server(
            interceptors=[
                MetricsInterceptor(self.metrics),
                LimitsInterceptor(max_json_bytes=config.max_json_bytes, max_name_bytes=config.max_name_bytes),
                StreamLimitsInterceptor(
                    SERVICE_NAME,
                    self.metrics,
                    per_connection=config.max_streams_per_connection,
                    per_host=config.max_streams_per_host,
                ),
                AuthInterceptor(SERVICE_NAME, self.servicer.check_token, self.servicer.token_failures),
            ],
            options=[
                ("grpc.max_receive_message_length", config.max_request_bytes),
                ("grpc.max_send_message_length", 16 << 20),
                ("grpc.so_reuseport", 0),
                # gRPC's core holds calls the server has not yet taken up; past 1000 of them (a burst of
                # streams opened at once) it cancelled the rest with a bare CANCELLED that no handler,
                # interceptor or metric ever saw. Room for bursts here; the stream caps above refuse,
                # with a message, what is over them.
                ("grpc.server.max_pending_requests", PENDING_CALLS),
                ("grpc.server.max_pending_requests_hard_limit", 2 * PENDING_CALLS),
            ],
        )
        orrery_pb2_grpc.add_OrreryServicer_to_server(self.servicer, self.server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        names = (
            orrery_pb2.DESCRIPTOR.services_by_name["Orrery"].full_name,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
        )
        enable_reflection(names, self.server)
        # The workers are started, warmed and stopped from this one thread, for its whole life: Ray's
        # driver state belongs to the thread that initialised it (the process exits when that thread
        # does), and a raised nice value here is inherited by the Ray processes or search threads it
        # creates, so they yield the CPU to the request path.
        self._backend_thread = cf.ThreadPoolExecutor(
            1,
            thread_name_prefix="orrery-workers",
            initializer=lower_thread_priority,
            initargs=(config.worker_nice,),
        )
        self.port = 0
        self.metrics_port = 0
        self._stopped = asyncio.Event()
        self._expiry: asyncio.Task[None] | None = None
        self._ai_sweep: asyncio.Task[None] | None = None
        self._store_watch: asyncio.Task[None] | None = None
        self._draining = False
        self._lag_probe: asyncio.Task[None] | None = None

    async def _set_health(self, status: int) -> None:
        for name in ("", SERVICE_NAME):
            await self.health.set(name, status)

    async def start(self) -> None:
        """Bind, answer health checks (NOT_SERVING), start and warm the workers, then SERVING."""
        c = self.config
        if c.metrics:
            self.metrics_port = self.metrics.serve_http(c.metrics_host or c.host, c.metrics_port)
        bare_ipv6 = ":" in c.host and not c.host.startswith("[")
        address = f"[{c.host}]:{c.port}" if bare_ipv6 else f"{c.host}:{c.port}"  # --host :: : every address
        if c.tls_cert is not None and c.tls_key is not None:
            with open(c.tls_key, "rb") as key, open(c.tls_cert, "rb") as cert:
                credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
            self.port = self.server.add_secure_port(address, credentials)
        else:
            self.port = self.server.add_insecure_port(address)
        if self.port == 0:
            raise RuntimeError(f"cannot bind {address}")
        await self._set_health(health_pb2.HealthCheckResponse.NOT_SERVING)
        await self.server.start()
        loop = asyncio.get_running_loop()
        backend = await loop.run_in_executor(self._backend_thread, make_backend, c)
        try:
            await loop.run_in_executor(self._backend_thread, backend.warm)
        except BaseException:
            backend.close()
            raise
        self.scheduler.start(backend, self._thread_backend(backend))
        self._lag_probe = loop.create_task(self.scheduler.probe_loop_lag())
        _freeze_startup_objects()
        await self._set_health(health_pb2.HealthCheckResponse.SERVING)
        self._store_watch = loop.create_task(self.servicer.store_health.run(self._store_reachable))
        try:
            self.servicer.resume_ai_matches(await self.servicer.db(self.store.active_ai_matches))
        except ServiceError as exc:  # the database went away since it opened: resumed when it is back
            log.warning("AI seats wait for the match database: %s", exc)
        if self.store.shared:
            self._watch_other_replicas()
        if c.match_ttl_s > 0:
            self._expiry = asyncio.get_running_loop().create_task(self._expire_matches(c.match_ttl_s))

    async def _store_reachable(self, reachable: bool) -> None:
        """The match store stopped or started answering: orrery.v1.Orrery's health follows it (the
        server's own status, "", stays SERVING: the process is alive and a restart would not help); AI
        seats resume when it is back."""
        if self._draining:
            return
        status = (
            health_pb2.HealthCheckResponse.SERVING
            if reachable
            else health_pb2.HealthCheckResponse.NOT_SERVING
        )
        await self.health.set(SERVICE_NAME, status)
        if reachable:
            with contextlib.suppress(Exception):
                self.servicer.resume_ai_matches(await self.servicer.db(self.store.active_ai_matches))

    def _watch_other_replicas(self) -> None:
        """A shared store: relay other replicas' changes to this one's watchers, and take over AI turns
        nobody holds (a killed replica's, once their claims lapse) every AI_SWEEP_S."""
        from orrery.service._postgres import AI_SWEEP_S

        loop = asyncio.get_running_loop()
        relay = self.servicer.relay_change
        self.store.listen(lambda match_id, move: loop.call_soon_threadsafe(relay, match_id, move))  # type: ignore[attr-defined]

        async def sweep() -> None:
            while True:
                await asyncio.sleep(AI_SWEEP_S)
                try:
                    self.servicer.resume_ai_matches(await self.servicer.db(self.store.active_ai_matches))
                except ServiceError as exc:  # the database is away: the store's health says so
                    log.debug("looking for AI turns: %s", exc)
                except Exception:  # noqa: BLE001 - retried at the next sweep
                    log.exception("looking for AI turns failed")

        self._ai_sweep = loop.create_task(sweep())

    async def _expire_matches(self, ttl_s: float) -> None:
        """Sweep for expired matches every tenth of the TTL (at least every minute, at most every second)."""
        every = min(60.0, max(1.0, ttl_s / 10.0))
        while True:
            try:
                await self.servicer.expire_matches(ttl_s)
            except ServiceError as exc:  # the database is away: retried at the next sweep
                log.warning("match expiry: %s", exc)
            except Exception:  # noqa: BLE001 - a failed sweep is retried at the next one
                log.exception("match expiry failed")
            await asyncio.sleep(every)

    def _thread_backend(self, backend: Any) -> Any:
        """Threads in this process for short budgets, beside a Ray backend (one per local CPU)."""
        if self.config.backend != "ray" or self.config.threads_up_to_ms <= 0:
            return None
        from orrery.search import InProcessBackend

        return InProcessBackend(workers=os.cpu_count() or 1)

    async def stop(self) -> None:
        """Drain: NOT_SERVING, refuse new searches, let running ones finish or stop them, then stop."""
        if self._stopped.is_set():
            return
        self._draining = True
        await self._set_health(health_pb2.HealthCheckResponse.NOT_SERVING)
        for task in (self._expiry, self._ai_sweep, self._store_watch, self._lag_probe):
            if task is not None:
                task.cancel()
        await self.servicer.ai.close()
        await self.scheduler.drain(self.config.drain_seconds)
        self.servicer.stop_all()
        await self.server.stop(grace=2.0)
        log.info("gRPC stopped; closing the search workers")
        loop = asyncio.get_running_loop()
        self.scheduler.close_timeshare()
        await loop.run_in_executor(self._backend_thread, self.scheduler.close)
        if self.config.backend == "ray":
            await loop.run_in_executor(self._backend_thread, _shutdown_ray)
        self._backend_thread.shutdown(wait=True)
        self.servicer.close()
        self.store.close()
        log.info("stopped")
        self._stopped.set()

    async def wait_for_termination(self) -> None:
        await self._stopped.wait()


async def serve(config: ServerConfig, *, on_ready: Callable[[OrreryServer], None] | None = None) -> None:
    """Run a server until SIGTERM or SIGINT, then drain and stop."""
    # Threads that parse, merge and build answers hold the GIL in turns; at the default 5 ms switch
    # interval the event loop waited up to 5 ms per hand-over, several times per request, which made
    # even trivial RPCs slow under load (docs/performance.md). 1 ms hands the GIL back to the loop sooner.
    sys.setswitchinterval(config.gil_switch_interval_s)
    server = OrreryServer(config)
    loop = asyncio.get_running_loop()
    stop_requested = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop_requested.set)
    try:
        await server.start()
    except BaseException:
        await server.stop()
        raise
    for sig in (signal.SIGTERM, signal.SIGINT):
        # again: starting Ray installs its own fatal-signal handlers over ours
        loop.add_signal_handler(sig, stop_requested.set)
    if on_ready is not None:
        on_ready(server)
    await stop_requested.wait()
    print("orrery: draining", file=sys.stderr, flush=True)
    await server.stop()
