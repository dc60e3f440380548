"""Interceptor: per-seat tokens for seat-scoped calls on hosted matches.

A seat-scoped call (GetObservation, ApplyAction, and SuggestMove/Analyze on a hosted match) must carry
that seat's token in its metadata, as "x-orrery-seat-token: TOKEN" or "authorization: Bearer TOKEN".
No token: UNAUTHENTICATED. A token that is not this seat's (another seat's, another match's, made up):
PERMISSION_DENIED. Unknown match: NOT_FOUND; a seat the match does not have: INVALID_ARGUMENT.
Calls that are not seat-scoped pass through untouched.

AbandonMatch also takes the match's owner token (CreateMatchResponse.owner_token, given to whoever
created the match), whatever the seat: so an AI-only match can be stopped. The owner token is random;
the spectator token is derived from it (spectator_token_of), so the store keeps no new secret: an owner
token is checked by deriving its spectator token and checking that. The owner can watch as a spectator;
a spectator cannot work back to the owner token.

Guessing is throttled per client host (FailureLimit): every wrong token (PERMISSION_DENIED) and every
unknown match (NOT_FOUND) spends one of the host's `--max-token-failures` per minute; once they are
spent, every call from that host that needs a token gets RESOURCE_EXHAUSTED with a retry hint
(grpc-retry-pushback-ms) until the bucket refills, right tokens included.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
from grpc import aio

from orrery.service._errors import ServiceError, abort_with
from orrery.service._handlers import behavior_of, split_method, with_behavior, writes_responses
from orrery.service._quota import FailureLimit, peer_host

log = logging.getLogger("orrery.service")
TOKEN_KEY = "x-orrery-seat-token"

# Given a request, the (match_id, seat) it acts for, or None when the call is not seat-scoped.
SeatOf = Callable[[Any], "tuple[str, int] | None"]


def _hosted(position_holder: Any) -> tuple[str, int] | None:
    if position_holder.WhichOneof("position") != "match":
        return None
    return position_holder.match.match_id, position_holder.match.seat


SPECTATOR = -1  # the "seat" of a match's read-only spectator token
OWNER_CAN = frozenset({"AbandonMatch"})  # calls the owner token may make, for any seat
_SPECTATOR_LABEL = b"orrery.v1 spectator token"


def new_owner_token() -> str:
    return secrets.token_urlsafe(24)


def spectator_token_of(owner_token: str) -> str:
    """The spectator token that belongs to an owner token (HMAC-SHA256, 192 bits kept: the same length
    as a random token)."""
    mac = hmac.new(owner_token.encode("utf-8", "surrogatepass"), _SPECTATOR_LABEL, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode("ascii")


def _watcher(request: Any) -> tuple[str, int]:
    return request.match_id, request.seat if request.HasField("seat") else SPECTATOR


SEAT_SCOPED: dict[str, SeatOf] = {
    "GetObservation": lambda r: (r.match_id, r.seat),
    "ApplyAction": lambda r: (r.match_id, r.seat),
    "SuggestMove": _hosted,
    "Analyze": lambda r: _hosted(r.query),
    "WatchMatch": _watcher,
    "ResignMatch": lambda r: (r.match_id, r.seat),
    "AbandonMatch": lambda r: (r.match_id, r.seat),
}

# (match_id, seat, token) -> True if it is that seat's token; raises ServiceError for a bad match/seat.
TokenCheck = Callable[[str, int, str], Awaitable[bool]]


def tokens_from_metadata(metadata: Any) -> list[str]:
    """Every token in the metadata, in order (ListMatches takes many): one entry per token, or several
    in one entry separated by commas (HTTP joins repeated headers so: a browser's fetch sends them so)."""
    found: list[str] = []
    for key, value in metadata or ():
        if key == TOKEN_KEY and value:
            found.extend(part.strip() for part in str(value).split(",") if part.strip())
        elif isinstance(value, str) and key == "authorization" and value.lower().startswith("bearer "):
            found.extend([value[7:].strip()] if value[7:].strip() else [])
    return found


def token_from_metadata(metadata: Any) -> str | None:
    for key, value in metadata or ():
        if key == TOKEN_KEY and value:
            return str(value)
        if key == "authorization" and isinstance(value, str) and value.lower().startswith("bearer "):
            return value[7:].strip() or None
    return None


class AuthInterceptor(aio.ServerInterceptor):
    def __init__(self, service_name: str, check: TokenCheck, failures: FailureLimit | None = None) -> None:
        self._service = service_name
        self._check_token = check
        self._failures = failures or FailureLimit(0, "")

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        service, method = split_method(handler_call_details.method)
        if handler is None or service != self._service or method not in SEAT_SCOPED:
            return handler
        seat_of = SEAT_SCOPED[method]
        _, inner = behavior_of(handler)
        authorize = self._authorizer(method)
        if handler.response_streaming and writes_responses(inner):

            async def writing(request: Any, context: Any) -> Any:
                await authorize(seat_of, request, context)
                return await inner(request, context)

            return with_behavior(handler, writing)
        if handler.response_streaming:

            async def streaming(request: Any, context: Any) -> AsyncIterator[Any]:
                await authorize(seat_of, request, context)
                async for response in inner(request, context):
                    yield response

            return with_behavior(handler, streaming)

        async def unary(request: Any, context: Any) -> Any:
            await authorize(seat_of, request, context)
            return await inner(request, context)

        return with_behavior(handler, unary)

    def _authorizer(self, method: str) -> Callable[[SeatOf, Any, Any], Awaitable[None]]:
        owner_can = method in OWNER_CAN

        async def authorize(seat_of: SeatOf, request: Any, context: Any) -> None:
            await self._authorize(seat_of, request, context, owner_can=owner_can)

        return authorize

    async def _authorize(self, seat_of: SeatOf, request: Any, context: Any, *, owner_can: bool) -> None:
        scope = seat_of(request)
        if scope is None:
            return
        match_id, seat = scope
        token = token_from_metadata(context.invocation_metadata())
        if token is None:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED, f"metadata {TOKEN_KEY}: this call needs the seat's token"
            )
            return
        if not match_id:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "match_id: required")
        host = peer_host(context.peer() or "")
        try:
            self._failures.check(host)
            if owner_can and await self._check_token(match_id, SPECTATOR, spectator_token_of(token)):
                return  # the owner token
            ok = await self._check_token(match_id, seat, token)
        except ServiceError as exc:  # the store's errors too (UNAVAILABLE with its retry hint)
            if exc.code == grpc.StatusCode.NOT_FOUND:
                self._failures.failed(host)  # a guessed match id
            await abort_with(context, exc)
        except Exception:  # a bug: INTERNAL like the servicer's, never grpc's UNKNOWN with its text
            log.exception("internal error checking a token")
            await context.abort(grpc.StatusCode.INTERNAL, "internal error (logged on the server)")
        if not ok:
            self._failures.failed(host)
            whose = "this match's spectator token" if seat == SPECTATOR else f"the token of seat {seat}"
            if owner_can:
                whose += " nor its owner token"
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, f"metadata {TOKEN_KEY}: not {whose}")
