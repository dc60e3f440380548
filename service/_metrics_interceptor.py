"""Interceptor: go-grpc-prometheus metrics for every RPC (started, handled by code, latency, messages)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from grpc import aio

from orrery.service._handlers import (
    behavior_of,
    rpc_type,
    split_method,
    status_of,
    with_behavior,
    writes_responses,
)
from orrery.service._metrics import GO_CODE_NAMES, ServiceMetrics


class MetricsInterceptor(aio.ServerInterceptor):
    def __init__(self, metrics: ServiceMetrics) -> None:
        self._m = metrics

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        service, method = split_method(handler_call_details.method)
        labels = (rpc_type(handler), service, method)
        _, inner = behavior_of(handler)
        if handler.response_streaming and writes_responses(inner):
            return with_behavior(handler, self._writing(inner, labels, handler.request_streaming))
        if handler.response_streaming:
            return with_behavior(handler, self._streaming(inner, labels, handler.request_streaming))
        return with_behavior(handler, self._unary(inner, labels, handler.request_streaming))

    def _count_requests(self, requests: AsyncIterator[Any], labels: tuple[str, ...]) -> AsyncIterator[Any]:
        async def counted() -> AsyncIterator[Any]:
            async for request in requests:
                self._m.msg_received.labels(*labels).inc()
                yield request

        return counted()

    def _finish(self, labels: tuple[str, ...], exc: BaseException | None, context: Any, t0: float) -> None:
        code = GO_CODE_NAMES.get(status_of(exc, context), "Unknown")
        self._m.handled.labels(*labels, code).inc()
        self._m.handling_seconds.labels(*labels).observe(time.perf_counter() - t0)

    def _unary(
        self,
        inner: Callable[..., Any],
        labels: tuple[str, ...],
        request_streaming: bool,
        *,
        counts_response: bool = True,
    ) -> Any:
        async def behavior(request: Any, context: Any) -> Any:
            self._m.started.labels(*labels).inc()
            if request_streaming:
                request = self._count_requests(request, labels)
            else:
                self._m.msg_received.labels(*labels).inc()
            t0 = time.perf_counter()
            error: BaseException | None = None
            try:
                response = await inner(request, context)
                if counts_response:
                    self._m.msg_sent.labels(*labels).inc()
                return response
            except BaseException as exc:
                error = exc
                raise
            finally:
                self._finish(labels, error, context, t0)

        return behavior

    def _writing(self, inner: Callable[..., Any], labels: tuple[str, ...], request_streaming: bool) -> Any:
        """A streaming handler that sends with context.write (grpc-health's Watch): count its writes."""
        unary = self._unary(inner, labels, request_streaming, counts_response=False)
        sent = self._m.msg_sent.labels(*labels)

        async def behavior(request: Any, context: Any) -> Any:
            return await unary(request, _CountingContext(context, sent))

        return behavior

    def _streaming(self, inner: Callable[..., Any], labels: tuple[str, ...], request_streaming: bool) -> Any:
        async def behavior(request: Any, context: Any) -> AsyncIterator[Any]:
            self._m.started.labels(*labels).inc()
            if request_streaming:
                request = self._count_requests(request, labels)
            else:
                self._m.msg_received.labels(*labels).inc()
            t0 = time.perf_counter()
            error: BaseException | None = None
            try:
                async for response in inner(request, context):
                    self._m.msg_sent.labels(*labels).inc()
                    yield response
            except BaseException as exc:
                error = exc
                raise
            finally:
                self._finish(labels, error, context, t0)

        return behavior


class _CountingContext:
    """A servicer context whose write() also counts the message sent."""

    def __init__(self, context: Any, counter: Any) -> None:
        self._context = context
        self._counter = counter

    async def write(self, message: Any) -> None:
        await self._context.write(message)
        self._counter.inc()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)
