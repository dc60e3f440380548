"""AI seats: the server plays them itself, as soon as it is their turn, through the search scheduler.

One task per match that has an AI seat to move: it searches the seat's observation (never more than
that seat knows) with the seat's level, configuration and per-move budget, applies the move like any
other (one transaction, `expected_move_number` guarding against a change in between, marked as played
by an AI seat), publishes it, and goes on while AI seats are to move, so a match of AI seats only plays
itself to the end. A human move, a restart (matches with AI seats to move are resumed) or a new match
pokes the task. A full queue is waited out (the AI's searches count against the creating peer's share);
a match that ended or moved on meanwhile just stops the task.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import grpc

from orrery.service._errors import ServiceError

log = logging.getLogger("orrery.service")
RETRY_S = (0.05, 0.1, 0.2, 0.5, 1.0)  # waits after a refused search (a full queue), then 1 s each


class AiPlayers:
    def __init__(
        self,
        *,
        turn: Callable[[str], Awaitable[Any]],  # match_id -> AiTurn | None (store, on its thread)
        play: Callable[[Any], Awaitable[bool]],  # AiTurn -> searched and applied (False: stop)
        ended: Callable[[str], None] | None = None,  # match_id: its task ended (no AI seat plays it here)
    ) -> None:
        self._turn = turn
        self._play = play
        self._ended = ended
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self.closed = False

    def poke(self, match_id: str) -> None:
        """Something changed in this match: play its AI seats if one is to move."""
        if self.closed:
            return
        if match_id in self._tasks:
            self._again.add(match_id)  # look again when the running task ends its turn
            return
        task = asyncio.get_running_loop().create_task(self._run(match_id))
        self._tasks[match_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(match_id, None))

    @property
    def running(self) -> int:
        return len(self._tasks)

    async def _run(self, match_id: str) -> None:
        try:
            await self._play_while_ai_to_move(match_id)
        finally:
            if self._ended is not None:
                self._ended(match_id)

    async def _play_while_ai_to_move(self, match_id: str) -> None:
        retries = 0
        while not self.closed:
            self._again.discard(match_id)
            try:
                turn = await self._turn(match_id)
                if turn is None:
                    if match_id in self._again:
                        continue
                    return
                if not await self._play(turn):
                    return
                retries = 0
            except ServiceError as exc:
                if exc.code in (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE):
                    await asyncio.sleep(RETRY_S[min(retries, len(RETRY_S) - 1)])
                    retries += 1
                    continue
                return  # the match ended or moved on (FAILED_PRECONDITION), or is gone (NOT_FOUND)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("AI seat of match %s stopped (a restart resumes it)", match_id)
                return

    async def close(self) -> None:
        """Stop playing (the server is stopping); unfinished matches resume at the next start."""
        self.closed = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
