"""Prometheus metrics: go-grpc-prometheus names for the RPC layer, plus search and match metrics.

One registry per server (so tests can run several), served over HTTP on its own port.
The grpc_code label uses Go's code names ("OK", "InvalidArgument", ...) exactly as go-grpc-prometheus
writes them, so existing dashboards and alerts work unchanged.
"""

from __future__ import annotations

import contextlib

import grpc
from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    start_http_server,
)

# go-grpc-prometheus's default handling-time buckets (seconds); we extend them past the longest budget.
GO_GRPC_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

GO_CODE_NAMES = {
    grpc.StatusCode.OK: "OK",
    grpc.StatusCode.CANCELLED: "Canceled",
    grpc.StatusCode.UNKNOWN: "Unknown",
    grpc.StatusCode.INVALID_ARGUMENT: "InvalidArgument",
    grpc.StatusCode.DEADLINE_EXCEEDED: "DeadlineExceeded",
    grpc.StatusCode.NOT_FOUND: "NotFound",
    grpc.StatusCode.ALREADY_EXISTS: "AlreadyExists",
    grpc.StatusCode.PERMISSION_DENIED: "PermissionDenied",
    grpc.StatusCode.RESOURCE_EXHAUSTED: "ResourceExhausted",
    grpc.StatusCode.FAILED_PRECONDITION: "FailedPrecondition",
    grpc.StatusCode.ABORTED: "Aborted",
    grpc.StatusCode.OUT_OF_RANGE: "OutOfRange",
    grpc.StatusCode.UNIMPLEMENTED: "Unimplemented",
    grpc.StatusCode.INTERNAL: "Internal",
    grpc.StatusCode.UNAVAILABLE: "Unavailable",
    grpc.StatusCode.DATA_LOSS: "DataLoss",
    grpc.StatusCode.UNAUTHENTICATED: "Unauthenticated",
}


def time_buckets(longest_s: float) -> tuple[float, ...]:
    """go-grpc-prometheus buckets, extended (x2 steps) until they pass twice the longest budget."""
    buckets = list(GO_GRPC_BUCKETS)
    while buckets[-1] < 2.0 * longest_s:
        buckets.append(buckets[-1] * 2.0)
    return tuple(buckets)


class ServiceMetrics:
    def __init__(self, *, max_budget_s: float) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
            with contextlib.suppress(ValueError):  # already present (some platforms alias collectors)
                self.registry.register(collector)
        rpc = ("grpc_type", "grpc_service", "grpc_method")
        r = self.registry
        buckets = time_buckets(max_budget_s)
        self.started = Counter("grpc_server_started_total", "RPCs started on the server.", rpc, registry=r)
        self.handled = Counter(
            "grpc_server_handled_total",
            "RPCs completed on the server, regardless of success or failure.",
            (*rpc, "grpc_code"),
            registry=r,
        )
        self.handling_seconds = Histogram(
            "grpc_server_handling_seconds",
            "Response latency (seconds) of gRPC handled by the server.",
            rpc,
            buckets=buckets,
            registry=r,
        )
        self.msg_received = Counter(
            "grpc_server_msg_received_total", "RPC stream messages received on the server.", rpc, registry=r
        )
        self.msg_sent = Counter(
            "grpc_server_msg_sent_total", "gRPC stream messages sent on the server.", rpc, registry=r
        )
        self.search_iterations = Counter(
            "orrery_search_iterations", "Search iterations run, all searches together.", registry=r
        )
        self.search_iterations_per_second = Histogram(
            "orrery_search_iterations_per_second",
            "Iterations per second of each finished search (all workers).",
            buckets=tuple(10.0**e for e in (1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7)),
            registry=r,
        )
        self.search_seconds = Histogram(
            "orrery_search_seconds", "Wall time of each search (seconds).", buckets=buckets, registry=r
        )
        self.active_searches = Gauge("orrery_active_searches", "Searches running now.", registry=r)
        self.queue_depth = Gauge("orrery_queue_depth", "Searches waiting for a slot.", registry=r)
        self.live_workers = Gauge("orrery_live_workers", "Search workers alive.", registry=r)
        self.worker_losses = Counter(
            "orrery_worker_losses", "Workers lost in the middle of a search.", registry=r
        )
        self.searches_refused = Counter(
            "orrery_searches_refused",
            "Searches refused by admission control, by reason: queue_full, client_queue (the host's share),"
            " displaced (its place went to a host holding less), waited (no slot within its wait), draining.",
            ("reason",),
            registry=r,
        )
        self.open_streams = Gauge(
            "orrery_open_streams", "WatchMatch and Analyze streams open now.", ("grpc_method",), registry=r
        )
        self.streams_refused = Counter(
            "orrery_streams_refused",
            "Streams refused over a cap, by method and limit (connection or host).",
            ("grpc_method", "limit"),
            registry=r,
        )
        self.matches_created = Counter(
            "orrery_matches_created", "Hosted matches created, per game.", ("game",), registry=r
        )
        self.matches_active = Gauge("orrery_matches_active", "Hosted matches not yet over.", registry=r)
        self.ai_searched_decisions = Counter(
            "orrery_ai_searched_decisions",
            "Searched decisions of hosted AI seats, by tree: reused (started from the turn's kept tree,"
            " re-rooted), new (the seat keeps its turn's trees but this decision started anew), off (the"
            " seat keeps none: no per-turn budget, or a config without reuse_tree).",
            ("tree",),
            registry=r,
        )
        self.ai_carried_visits = Counter(
            "orrery_ai_carried_visits",
            "Root visits hosted AI seats' decisions started with from their turn's kept trees (all workers).",
            registry=r,
        )
        self.ai_kept_trees = Gauge(
            "orrery_ai_kept_trees",
            "Hosted AI seats' turns whose search trees the server keeps between decisions now (within"
            " --max-kept-trees; each one tree per worker, in this process or on the Ray workers).",
            registry=r,
        )
        self.ai_kept_tree_nodes = Gauge(
            "orrery_ai_kept_tree_nodes",
            "Nodes of the trees kept between decisions that this process holds (within"
            " --max-kept-tree-nodes; Ray workers' trees have their own bound).",
            registry=r,
        )
        self.ai_kept_tree_evictions = Counter(
            "orrery_ai_kept_tree_evictions",
            "Turns' kept trees freed to stay within the bound (most recently searched first: the queue serves"
            " the least recent next); that seat's"
            " next decision starts a new tree.",
            registry=r,
        )

    def count_ai_decision(self, *, keeps_trees: bool, carried_visits: int | None) -> None:
        """Book a hosted AI seat's searched decision: whether its seat keeps its turn's trees, and the
        visits the decision carried over from them (None: it started new trees)."""
        kind = "off" if not keeps_trees else "new" if carried_visits is None else "reused"
        self.ai_searched_decisions.labels(tree=kind).inc()
        if carried_visits is not None:
            self.ai_carried_visits.inc(carried_visits)

    def serve_http(self, host: str, port: int) -> int:
        """Start the /metrics HTTP endpoint in a daemon thread; returns the port bound."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry)
        return int(server.server_port)
