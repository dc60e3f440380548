"""Interceptor: request-size limits and malformed-message handling.

- A request whose bytes are not a valid message of the method's type (random bytes, invalid UTF-8 in a
  string field) gets INVALID_ARGUMENT "request: ..." instead of grpc's generic INTERNAL.
- Every string field is capped, in bytes of UTF-8: JSON fields (`*_json`) at `max_json_bytes`, every
  other string (names, ids, tokens) at `max_name_bytes`; an oversized field gets INVALID_ARGUMENT
  naming it.
- No string field may hold a NUL byte (PostgreSQL's text refuses it and SQLite would store it): the
  field is named in INVALID_ARGUMENT, before any store or driver sees it, for every method, streams
  included (protobuf already refuses invalid UTF-8 at parse time).
- Whole messages above the server's max_receive_message_length are refused by gRPC itself
  (RESOURCE_EXHAUSTED) before they reach us.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc import aio

from orrery.service._handlers import behavior_of, with_behavior, writes_responses


class _Malformed:
    """What the wrapped deserializer returns for bytes that do not parse."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _repeated(field: Any) -> bool:
    # protobuf >= 5 has is_repeated; older versions only the label
    if hasattr(field, "is_repeated"):
        return bool(field.is_repeated)
    return bool(field.label == field.LABEL_REPEATED)


def oversized_field(
    message: Message, *, max_json_bytes: int, max_name_bytes: int, prefix: str = ""
) -> str | None:
    """The path of the first string field over its limit (bytes of UTF-8), with its size, or holding a
    NUL byte; None when every field is fine."""
    for field, value in message.ListFields():
        path = f"{prefix}{field.name}"
        if field.type == field.TYPE_MESSAGE:
            children = value if _repeated(field) else [value]
            for child in children:
                found = oversized_field(
                    child, max_json_bytes=max_json_bytes, max_name_bytes=max_name_bytes, prefix=f"{path}."
                )
                if found:
                    return found
        elif field.type in (field.TYPE_STRING, field.TYPE_BYTES):
            limit = max_json_bytes if field.name.endswith("_json") else max_name_bytes
            values = value if _repeated(field) else [value]
            for item in values:
                if field.type == field.TYPE_STRING and "\x00" in item:
                    return f"{path}: contains a NUL byte"
                size = len(item.encode("utf-8", "surrogatepass")) if isinstance(item, str) else len(item)
                if size > limit:
                    return f"{path}: {size} bytes, at most {limit} allowed"
    return None


class LimitsInterceptor(aio.ServerInterceptor):
    def __init__(self, *, max_json_bytes: int, max_name_bytes: int) -> None:
        self._max_json = max_json_bytes
        self._max_name = max_name_bytes

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None or handler.request_streaming or handler.request_deserializer is None:
            return handler  # only unary-request methods are ours; reflection streams are left alone
        parse = handler.request_deserializer

        def tolerant_parse(data: bytes) -> Any:
            try:
                return parse(data)
            except Exception as exc:  # noqa: BLE001 - any parse failure is the client's bad bytes
                return _Malformed(f"not a valid request message ({type(exc).__name__})")

        _, inner = behavior_of(handler)
        check = self._check
        if handler.response_streaming and writes_responses(inner):

            async def writing(request: Any, context: Any) -> Any:
                await check(request, context)
                return await inner(request, context)

            return with_behavior(handler, writing, request_deserializer=tolerant_parse)
        if handler.response_streaming:

            async def streaming(request: Any, context: Any) -> AsyncIterator[Any]:
                await check(request, context)
                async for response in inner(request, context):
                    yield response

            return with_behavior(handler, streaming, request_deserializer=tolerant_parse)

        async def unary(request: Any, context: Any) -> Any:
            await check(request, context)
            return await inner(request, context)

        return with_behavior(handler, unary, request_deserializer=tolerant_parse)

    async def _check(self, request: Any, context: Any) -> None:
        if isinstance(request, _Malformed):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"request: {request.reason}")
        if isinstance(request, Message):
            problem = oversized_field(request, max_json_bytes=self._max_json, max_name_bytes=self._max_name)
            if problem:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
