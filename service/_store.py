"""The match store interface and the choice of implementation by the --db value.

`--db FILE` (the default, orrery-matches.sqlite3): SQLite, one process (orrery.service._matches).
`--db postgresql://user:password@host:port/database`: PostgreSQL, shared by several replicas
(orrery.service._postgres; needs the `orrery[postgresql]` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import grpc

from orrery.service._errors import ServiceError, unavailable
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
    def ping(self) -> None: ...  # raises unless the database answers now
    def renew_ai_claim(self, match_id: str, move_number: int) -> bool: ...  # False: the claim was lost
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


STORE_RETRY_MS = 1000  # the retry hint sent with UNAVAILABLE while the match database is unreachable


def store_unavailable() -> ServiceError:
    """UNAVAILABLE for a call that needs the match database while it does not answer."""
    return unavailable(
        f"the match database is unavailable; retry in {STORE_RETRY_MS} ms",
        retry_after_s=STORE_RETRY_MS / 1000,
    )


def _driver_errors() -> tuple[tuple[type[BaseException], ...], tuple[type[BaseException], ...]]:
    """(every error the drivers raise, those that mean the database cannot be reached)."""
    import sqlite3

    every: tuple[type[BaseException], ...] = (sqlite3.Error,)
    unreachable: tuple[type[BaseException], ...] = (sqlite3.OperationalError,)
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        return every, unreachable
    pool_errors = (psycopg_pool.PoolTimeout, psycopg_pool.PoolClosed)
    every += (psycopg.Error, *pool_errors)
    unreachable += (psycopg.OperationalError, psycopg.InterfaceError, *pool_errors)
    return every, unreachable


def database_error(exc: BaseException) -> ServiceError | None:
    """The status a client gets for an error raised by the database driver (None: not one of those),
    never with the driver's text (that goes to the server's log):
    - a serialization failure or deadlock: ABORTED, retry at once (the change was not made);
    - a value the database cannot take (PostgreSQL's DataError: out of range, bad encoding): INVALID_ARGUMENT;
    - anything else: UNAVAILABLE with a retry hint (the connection was refused or lost, the pool had no
      connection to give, PostgreSQL was shutting down, SQLite's file was locked or unreadable, or the
      role lost a privilege)."""
    every, _ = _driver_errors()
    if not isinstance(exc, every):
        return None
    try:
        import psycopg
    except ImportError:
        return store_unavailable()
    if isinstance(exc, (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected)):
        return ServiceError(
            grpc.StatusCode.ABORTED,
            "",
            "the change collided with a concurrent one and was not made; retry the call",
            retry_after_s=0.0,
        )
    if isinstance(exc, psycopg.DataError):
        return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, "request", "a value the database cannot store")
    return store_unavailable()


def means_unreachable(exc: BaseException) -> bool:
    """Whether a driver error says the database cannot be reached now (the store is then marked down
    until a probe succeeds), rather than that this one statement failed."""
    return isinstance(exc, _driver_errors()[1])


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
    return _sqlite_store(db)


def _sqlite_store(path: str) -> MatchStore:
    """MatchStore(path), with a file SQLite cannot open or write (no such folder, no permission, not a
    database) as one line (exit 2 from the CLI) instead of a traceback."""
    import sqlite3

    from orrery.service._postgres import DatabaseSetupError

    try:
        return MatchStore(path)
    except sqlite3.Error as exc:
        raise DatabaseSetupError(f"--db {path}: SQLite cannot use it: {exc}") from None


def upgrade_store(db: str) -> tuple[int, int]:
    """`orrery db upgrade`: bring the database's schema to this version. (before, after)."""
    from orrery.service._matches import SCHEMA_VERSION
    from orrery.service._postgres import is_postgres_url, upgrade

    if is_postgres_url(db):
        return upgrade(db)
    import sqlite3

    from orrery.service._postgres import DatabaseSetupError

    try:
        conn = sqlite3.connect(db)
        try:
            before = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise DatabaseSetupError(f"--db {db}: SQLite cannot use it: {exc}") from None
    _sqlite_store(db).close()  # opening it migrates (states too, all or nothing)
    return before, SCHEMA_VERSION
