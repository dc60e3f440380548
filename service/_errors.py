"""ServiceError: a gRPC status code plus the request field it is about.

Everything below the servicer raises ServiceError (or a core_ext GameInputError, which the servicer
maps to INVALID_ARGUMENT); the servicer turns it into `context.abort(code, "field: message")`, so
every error a client sees names the field that caused it.
"""

from __future__ import annotations

import grpc


class ServiceError(Exception):
    def __init__(self, code: grpc.StatusCode, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.code = code
        self.field = field
        self.message = message

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


def unavailable(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAVAILABLE, "", message)


def unauthenticated(field: str, message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.UNAUTHENTICATED, field, message)
