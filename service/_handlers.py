"""Helpers shared by the interceptors: split a method name, classify a handler, swap its behavior."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import grpc

_BEHAVIORS = {
    (False, False): ("unary", "unary_unary"),
    (False, True): ("server_stream", "unary_stream"),
    (True, False): ("client_stream", "stream_unary"),
    (True, True): ("bidi_stream", "stream_stream"),
}


def split_method(full_method: str) -> tuple[str, str]:
    """'/orrery.v1.Orrery/SuggestMove' -> ('orrery.v1.Orrery', 'SuggestMove')."""
    _, service, method = full_method.split("/", 2) if full_method.count("/") >= 2 else ("", "", full_method)
    return service, method


def rpc_type(handler: grpc.RpcMethodHandler) -> str:
    """go-grpc-prometheus's grpc_type label: unary, server_stream, client_stream or bidi_stream."""
    return _BEHAVIORS[(bool(handler.request_streaming), bool(handler.response_streaming))][0]


def behavior_of(handler: grpc.RpcMethodHandler) -> tuple[str, Callable[..., Any]]:
    attr = _BEHAVIORS[(bool(handler.request_streaming), bool(handler.response_streaming))][1]
    return attr, getattr(handler, attr)


def writes_responses(behavior: Callable[..., Any]) -> bool:
    """A response-streaming behavior that is a coroutine sending with `context.write` (grpc-health's
    Watch) rather than an async generator: a wrapper must then be a coroutine too, awaiting it."""
    return not inspect.isasyncgenfunction(behavior)


def with_behavior(handler: grpc.RpcMethodHandler, behavior: Callable[..., Any], **changes: Any) -> Any:
    """A copy of `handler` whose behavior (and optionally serializers) are replaced."""
    attr, _ = behavior_of(handler)
    return handler._replace(**{attr: behavior}, **changes)  # type: ignore[attr-defined]


def status_of(exc: BaseException | None, context: Any) -> grpc.StatusCode:
    """The status an RPC ended with: the code set on the context, else one implied by the exception."""
    import asyncio

    code = None
    try:
        code = context.code()
    except Exception:  # noqa: BLE001 - older grpc versions lack code() on aio contexts
        code = None
    if isinstance(code, grpc.StatusCode):
        return code
    if isinstance(code, int):
        for candidate in grpc.StatusCode:
            if candidate.value[0] == code:
                return candidate
    if exc is None:
        return grpc.StatusCode.OK
    if isinstance(exc, asyncio.CancelledError):
        return grpc.StatusCode.CANCELLED
    return grpc.StatusCode.UNKNOWN
