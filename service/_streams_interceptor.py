"""Interceptor: caps on long-lived streams (WatchMatch and Analyze) per client connection and per host.

A stream holds server memory (a queue, a task) for as long as the client keeps it open, so one client
could hold thousands. Each connection (gRPC's peer address, with its port) may have at most
`per_connection` of these streams open, and each client host (the address without the port, across its
connections) at most `per_host`; a stream over either cap ends at once with RESOURCE_EXHAUSTED naming
the cap and its flag. Open streams are the gauge orrery_open_streams{grpc_method}; refusals are counted
in orrery_streams_refused_total{grpc_method, limit} and, with their code, in
grpc_server_handled_total (the metrics interceptor runs outside this one).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from grpc import aio

from orrery.service._handlers import behavior_of, split_method, with_behavior
from orrery.service._metrics import ServiceMetrics
from orrery.service._quota import peer_host

CAPPED = frozenset({"WatchMatch", "Analyze"})


class StreamCounts:
    """Open capped streams per connection and per host (the event loop's thread only)."""

    def __init__(self, *, per_connection: int, per_host: int) -> None:
        self.per_connection = per_connection  # 0: no cap
        self.per_host = per_host  # 0: no cap
        self.by_connection: dict[str, int] = {}
        self.by_host: dict[str, int] = {}

    def over(self, connection: str) -> str | None:
        """Which cap a new stream on `connection` would pass ("connection" or "host"), or None."""
        if self.per_connection and self.by_connection.get(connection, 0) >= self.per_connection:
            return "connection"
        if self.per_host and self.by_host.get(peer_host(connection), 0) >= self.per_host:
            return "host"
        return None

    def opened(self, connection: str) -> None:
        for counts, key in ((self.by_connection, connection), (self.by_host, peer_host(connection))):
            counts[key] = counts.get(key, 0) + 1

    def closed(self, connection: str) -> None:
        for counts, key in ((self.by_connection, connection), (self.by_host, peer_host(connection))):
            left = counts.get(key, 1) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


class StreamLimitsInterceptor(aio.ServerInterceptor):
    def __init__(
        self, service_name: str, metrics: ServiceMetrics, *, per_connection: int, per_host: int
    ) -> None:
        self._service = service_name
        self._metrics = metrics
        self.counts = StreamCounts(per_connection=per_connection, per_host=per_host)

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        service, method = split_method(handler_call_details.method)
        if handler is None or service != self._service or method not in CAPPED:
            return handler
        _, inner = behavior_of(handler)
        counts, metrics = self.counts, self._metrics
        gauge = metrics.open_streams.labels(method)

        async def capped(request: Any, context: Any) -> AsyncIterator[Any]:
            connection = context.peer() or ""
            limit = counts.over(connection)
            if limit is not None:
                metrics.streams_refused.labels(method, limit).inc()
                cap, flag = (
                    (counts.per_connection, "--max-streams-per-connection")
                    if limit == "connection"
                    else (counts.per_host, "--max-streams-per-host")
                )
                await context.abort(
                    grpc.StatusCode.RESOURCE_EXHAUSTED,
                    f"too many open streams (WatchMatch and Analyze) from this client {limit}: at most "
                    f"{cap} ({flag}); close one first",
                )
            counts.opened(connection)
            gauge.inc()
            try:
                async for response in inner(request, context):
                    yield response
            finally:
                counts.closed(connection)
                gauge.dec()

        return with_behavior(handler, capped)
