"""Whether the match store answers: health NOT_SERVING while it does not, and calls refused at once.

A store call that fails with a database error marks the store down (StoreHealth.failed); so does a probe
that fails. While it is down, calls are refused at once with UNAVAILABLE and a retry hint (instead of each
waiting for a connection), and a probe runs every DOWN_PROBE_S; the first probe that succeeds marks it up
again. While it is up a probe runs every UP_PROBE_S, so an outage with no traffic is seen too. The server
turns the orrery.v1.Orrery health status NOT_SERVING and back on each change (docs/api.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("orrery.service")
UP_PROBE_S = 1.0  # between probes while the store answers (seconds)
DOWN_PROBE_S = 0.1  # between probes while it does not: how soon a return is seen (seconds)
PROBE_TIMEOUT_S = 3.0  # a probe that takes longer counts as failed (a hung connection, seconds)


class StoreHealth:
    def __init__(self, ping: Callable[[], None]) -> None:
        self._ping = ping  # raises unless the database answers now (runs on a thread)
        self.reachable = True
        self._wake: asyncio.Event | None = None

    def failed(self, reason: str) -> None:
        """A store call failed with a database error: down until a probe succeeds."""
        if self.reachable:
            log.warning("match database unreachable (%s); refusing store calls until it answers", reason)
        self.reachable = False
        if self._wake is not None:
            self._wake.set()

    async def run(self, on_change: Callable[[bool], Awaitable[None]]) -> None:
        """Probe for ever, calling on_change(reachable) after every change (cancel to stop)."""
        self._wake = asyncio.Event()
        reported = self.reachable
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), UP_PROBE_S if self.reachable else DOWN_PROBE_S)
            self._wake.clear()
            answered = await self._probe()
            if answered and not self.reachable:
                log.info("match database answers again; serving")
            elif not answered and self.reachable:
                log.warning("match database unreachable (a probe failed); refusing store calls")
            self.reachable = answered
            if answered != reported:
                reported = answered
                await on_change(answered)

    async def _probe(self) -> bool:
        try:
            await asyncio.wait_for(asyncio.to_thread(self._ping), PROBE_TIMEOUT_S)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure to answer is "down"
            log.debug("store probe failed: %s", _one_line(exc))
            return False
        return True


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def describe(exc: Any) -> str:
    """An exception for the log: its type and first line (driver text stays on the server)."""
    return f"{type(exc).__name__}: {_one_line(exc)}"
