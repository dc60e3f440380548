"""The match store interface and the choice of implementation by the --db value.

`--db FILE` (the default, orrery-matches.sqlite3): SQLite, one process (orrery.service._matches).
`--db postgresql://user:password@host:port/database`: PostgreSQL, shared by several replicas
(orrery.service._postgres; needs the `orrery[postgresql]` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from orrery.service._matches import (
    AiSpec,
    AiTurn,
    AppliedAction,
    CreatedMatch,
    Ended,
    History,
    MatchStore,
    Replay,
    SeatView,
    Summary,
)


@runtime_checkable
class MatchStoreBackend(Protocol):
    """What the servicer asks of a match store. Every call may block (the servicer runs it on one of
    `threads` store threads); every change is one transaction, all or nothing."""

    path: str  # where the matches are, for messages (no password)
    shared: bool  # several server processes may use it at once
    threads: int  # store calls that may run at once

    def close(self) -> None: ...
    def active_count(self) -> int: ...
    def check_seat_token(self, match_id: str, seat: int, token: str) -> bool: ...
    def create(
        self,
        game: str,
        players: int,
        variant: str | None,
        seed: int | None,
        ai: Sequence[AiSpec | None] = (),
        creator: str = "",
        spectator_token: str | None = None,
    ) -> CreatedMatch: ...
    def seat_view(self, match_id: str, seat: int) -> SeatView: ...
    def observation(self, match_id: str, seat: int) -> Any: ...
    def observation_at(self, match_id: str, seat: int) -> tuple[Any, int]: ...
    def apply(
        self,
        match_id: str,
        seat: int,
        *,
        action_id: int | None = None,
        action_json: str | None = None,
        expected_move_number: int | None = None,
        by_ai: bool = False,
    ) -> AppliedAction: ...
    def resign(self, match_id: str, seat: int) -> Ended: ...
    def abandon(self, match_id: str, seat: int) -> Ended: ...
    def expire(self, ttl_s: float, now: float | None = None) -> tuple[list[Ended], int]: ...
    def active_ai_matches(self) -> list[str]: ...  # may have an AI seat to move: ai_turn decides
    def ai_turn(self, match_id: str) -> AiTurn | None: ...
    def history(self, match_id: str, after: int) -> History: ...
    def list_by_tokens(self, tokens: Sequence[str]) -> list[Summary]: ...
    def replay(self, match_id: str) -> Replay: ...


def open_store(db: str, *, claim_s: float = 60.0) -> MatchStoreBackend:
    """The store a --db value names: a postgresql:// (or postgres://) URL, else a SQLite file.
    claim_s: PostgreSQL only, how long a replica holds an AI turn it searches (seconds)."""
    from orrery.service._postgres import PostgresMatchStore, is_postgres_url

    if is_postgres_url(db):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise RuntimeError(
                "--db names PostgreSQL, which needs the driver: pip install 'orrery[postgresql]'"
            ) from None
        return PostgresMatchStore(db, claim_s=claim_s)
    return MatchStore(db)


def upgrade_store(db: str) -> tuple[int, int]:
    """`orrery db upgrade`: bring the database's schema to this version. (before, after)."""
    from orrery.service._matches import SCHEMA_VERSION
    from orrery.service._postgres import is_postgres_url, upgrade

    if is_postgres_url(db):
        return upgrade(db)
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        before = int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()
    MatchStore(db).close()  # opening it migrates (states too, all or nothing)
    return before, SCHEMA_VERSION
