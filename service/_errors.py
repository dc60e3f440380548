"""ServiceError: a gRPC status code plus the request field it is about.

Everything below the servicer raises ServiceError (or a core_ext GameInputError, which the servicer
maps to INVALID_ARGUMENT); the servicer turns it into `context.abort(code, "field: message")`, so
every error a client sees names the field that caused it.
"""

from __future__ import annotations

from typing import Any

import grpc

RETRY_PUSHBACK_KEY = "grpc-retry-pushback-ms"  # gRPC's server pushback trailer (gRFC A6): retry after N ms


class ServiceError(Exception):
    def __init__(
        self, code: grpc.StatusCode, field: str, message: str, *, retry_after_ms: int | None = None
    ) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.code = code
        self.field = field
        self.message = message
        self.retry_after_ms = retry_after_ms  # sent as the grpc-retry-pushback-ms trailer when set

    @property
    def trailers(self) -> tuple[tuple[str, str], ...]:
        """Trailing metadata for the status: the retry hint, if any."""
        if self.retry_after_ms is None:
            return ()
        return ((RETRY_PUSHBACK_KEY, str(int(self.retry_after_ms))),)

    @property
    def details(self) -> str:
        return str(self)


def invalid(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, field, message)


def not_found(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, field, message)


def precondition(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.FAILED_PRECONDITION, field, message)


def exhausted(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, "", message)


def unavailable(message: str, *, retry_after_ms: int | None = None) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAVAILABLE, "", message, retry_after_ms=retry_after_ms)


async def abort_with(context: Any, exc: ServiceError) -> None:
    """End the call with the error's status, details and trailers (its retry hint)."""
    if exc.trailers:
        context.set_trailing_metadata(exc.trailers)
    await context.abort(exc.code, exc.details)


def unauthenticated(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, field, message)
