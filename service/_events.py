"""Match events for WatchMatch: a publish/subscribe hub on the event loop, one queue per watcher.

Every change to a match (a move by a person or an AI seat, a resignation, an abandonment, an expiry)
is published here after it is committed. A watcher subscribes before it reads the stored history, so
nothing falls between the two; it skips what it has already sent by move number.
"""

from __future__ import annotations

import asyncio
from typing import Any

CLOSED = None  # put in a watcher's queue when the server stops


class MatchEvents:
    def __init__(self) -> None:
        self._watchers: dict[str, set[asyncio.Queue[Any]]] = {}

    def watch(self, match_id: str) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue()
        self._watchers.setdefault(match_id, set()).add(queue)
        return queue

    def unwatch(self, match_id: str, queue: asyncio.Queue[Any]) -> None:
        queues = self._watchers.get(match_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self._watchers[match_id]

    def publish(self, match_id: str, *events: Any) -> None:
        for queue in self._watchers.get(match_id, ()):
            for event in events:
                queue.put_nowait(event)

    def is_watched(self, match_id: str) -> bool:
        return match_id in self._watchers

    def watched_matches(self) -> list[str]:
        return list(self._watchers)

    @property
    def watching(self) -> int:
        return sum(len(q) for q in self._watchers.values())

    def close(self) -> None:
        """End every watch (the server is stopping)."""
        for queues in self._watchers.values():
            for queue in queues:
                queue.put_nowait(CLOSED)
