"""ServiceError: a gRPC status code plus the request field it is about.

Everything below the servicer raises ServiceError (or a core_ext GameInputError, which the servicer
maps to INVALID_ARGUMENT); the servicer turns it into `context.abort(code, "field: message")`, so
every error a client sees names the field that caused it.

An error that a client should retry later (an overloaded server, too many wrong tokens) carries
`retry_after_s`: it is sent as the trailing metadata `grpc-retry-pushback-ms` (gRPC's retry design,
gRFC A6: a client with a retry policy waits that long before its next attempt), and the message says
it in words too.
"""

from __future__ import annotations

from typing import Any

import grpc

PUSHBACK_KEY = "grpc-retry-pushback-ms"  # gRFC A6's trailer: how long a client should wait to retry


def pushback_metadata(retry_after_s: float | None) -> tuple[tuple[str, str], ...]:
    """The trailing metadata that tells a client when to retry (none without a hint)."""
    if retry_after_s is None:
        return ()
    return ((PUSHBACK_KEY, str(max(0, round(retry_after_s * 1000.0)))),)


class ServiceError(Exception):
    def __init__(
        self, code: grpc.StatusCode, field: str, message: str, *, retry_after_s: float | None = None
    ) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.code = code
        self.field = field
        self.message = message
        self.retry_after_s = retry_after_s  # when to retry (s), for grpc-retry-pushback-ms; None: no hint

    @property
    def details(self) -> str:
        return str(self)

    @property
    def trailing_metadata(self) -> tuple[tuple[str, str], ...]:
        return pushback_metadata(self.retry_after_s)


def invalid(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, field, message)


def not_found(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, field, message)


def precondition(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, field, message)


def exhausted(message: str, *, retry_after_s: float | None = None) -> ServiceError:
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "", message, retry_after_s=retry_after_s)


def unavailable(message: str, *, retry_after_s: float | None = None) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAVAILABLE, "", message, retry_after_s=retry_after_s)


async def abort_with(context: Any, exc: ServiceError) -> None:
    """End the call with the error's status, details and trailers (its retry hint)."""
    await context.abort(exc.code, exc.details, exc.trailing_metadata)


def unauthenticated(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, field, message)
