"""`orrery db copy`: every hosted match of a SQLite store into an empty PostgreSQL store.

What is copied: the rows of `matches`, `seats` and `moves`, every column as stored (ids, move numbers,
timestamps, states, token and spectator digests, AI seat specifications), so a copied match answers
GetObservation, GetReplay, WatchMatch and ListMatches as before, its seat and spectator tokens still
work, and it goes on being played. Nothing else exists on SQLite; the PostgreSQL-only `ai_claims`
(which replica searches an AI turn, a lease of seconds) starts empty, so any replica takes up the
copied AI turns.
No sequences are involved: match ids are random UUIDs made by the server, the other keys are
(match_id, seat) and (match_id, move_number).

The SQLite file is only read: it is opened read-only (immutable when no -wal file beside it says a
server may still be writing) and snapshot into a temporary file with SQLite's backup API; the snapshot
is brought to the current schema the way the SQLite store opens a database (every stored state upgraded
to its game's current format, or a clear refusal naming the matches). The target is migrated to the
current schema, then everything is written in one PostgreSQL transaction (COPY FROM STDIN with explicit
column lists) that first locks the three tables and checks that no match is there: all or nothing.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from orrery.service._matches import SCHEMA_VERSION, MatchStore, StoredMatchesError
from orrery.service._postgres import _connected, is_postgres_url, migrate, redacted

# (table, every column, the primary key: the order rows are read in). Both stores' schemas must have
# exactly these columns: a column added to either without being added here stops the copy (nothing is
# silently left behind).
COPIED_TABLES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        "matches",
        (
            "match_id",
            "game",
            "variant",
            "players",
            "seed",
            "state_json",
            "move_number",
            "finished",
            "created_at",
            "updated_at",
            "status",
            "to_move",
            "has_ai",
            "spectator_sha256",
            "creator",
            "resigned_seat",
        ),
        "match_id",
    ),
    ("seats", ("match_id", "seat", "token_sha256", "ai_json"), "match_id, seat"),
    (
        "moves",
        (
            "match_id",
            "move_number",
            "seat",
            "action",
            "label",
            "struct_json",
            "by_ai",
            "labels_json",
            "events_json",
        ),
        "match_id, move_number",
    ),
)


class StoreCopyError(RuntimeError):
    """The copy was refused or failed; the target holds no copied row."""


@dataclass(frozen=True)
class CopyResult:
    source: str  # the SQLite file
    target: str  # the PostgreSQL URL without its password
    source_schema: int  # the file's schema version (the copy is of it brought to SCHEMA_VERSION)
    target_schema: tuple[int, int]  # (before, after) the target's migrations
    matches: int
    active: int  # matches still being played
    rows: dict[str, int]  # per table
    seconds: float  # the whole copy, snapshot and upgrade included (wall clock)


def copy_store(source: str, target: str) -> CopyResult:
    """Copy every match of the SQLite file `source` into the empty PostgreSQL database `target`."""
    started = time.perf_counter()
    _check_arguments(source, target)
    with _connected(target) as conn:
        _refuse_if_holding_matches(conn, target)
        with tempfile.TemporaryDirectory(prefix="orrery-db-copy-") as folder:
            snapshot = os.path.join(folder, "snapshot.sqlite3")
            source_schema = _snapshot(source, snapshot)
            _upgrade_snapshot(source, snapshot)  # a source it refuses leaves the target untouched
            target_schema = _migrate(conn, target)
            reader = sqlite3.connect(snapshot)
            try:
                rows, active = _copy_all(reader, conn, target)
            finally:
                reader.close()
    return CopyResult(
        source=source,
        target=redacted(target),
        source_schema=source_schema,
        target_schema=target_schema,
        matches=rows["matches"],
        active=active,
        rows=rows,
        seconds=round(time.perf_counter() - started, 3),
    )


def _check_arguments(source: str, target: str) -> None:
    if not is_postgres_url(target):
        raise StoreCopyError("--to must be a postgresql:// (or postgres://) URL")  # not echoed: a password
    if is_postgres_url(source):
        raise StoreCopyError("--from must be a SQLite file (between PostgreSQL databases use pg_dump)")
    if not os.path.isfile(source):
        raise StoreCopyError(f"--from {source[:200]!r}: no such file")


def _refuse_if_holding_matches(conn: Any, target: str) -> None:
    """Before anything is written (migrations included): a target with matches is refused."""
    (table,) = conn.execute("SELECT to_regclass('matches')").fetchone()
    if table is not None and conn.execute("SELECT EXISTS (SELECT 1 FROM matches)").fetchone()[0]:
        raise StoreCopyError(
            f"{redacted(target)} already holds matches: the copy goes into an empty database only "
            "(nothing was written)"
        )


def _migrate(conn: Any, target: str) -> tuple[int, int]:
    try:
        return migrate(conn)
    except RuntimeError as exc:  # a schema newer than this version knows
        raise StoreCopyError(f"{redacted(target)}: {exc}; nothing was copied") from None


def _snapshot(source: str, snapshot: str) -> int:
    """A consistent copy of the source file, read without writing to it; its schema version."""
    wal_beside = os.path.exists(source + "-wal")  # a server is running or was killed: read through it
    uri = Path(source).absolute().as_uri() + ("?mode=ro" if wal_beside else "?mode=ro&immutable=1")
    try:
        reader = sqlite3.connect(uri, uri=True)
        try:
            version = int(reader.execute("PRAGMA user_version").fetchone()[0])
            writer = sqlite3.connect(snapshot)
            try:
                reader.backup(writer)
            finally:
                writer.close()
        finally:
            reader.close()
    except sqlite3.DatabaseError as exc:
        raise StoreCopyError(f"--from {source}: cannot be read as a SQLite database: {exc}") from None
    return version


def _upgrade_snapshot(source: str, snapshot: str) -> None:
    """The snapshot brought to the current schema exactly as the SQLite store opens a file."""
    try:
        MatchStore(snapshot).close()
    except StoredMatchesError as exc:
        raise StoreCopyError(str(exc).replace(snapshot, source) + " Nothing was copied.") from None
    except (RuntimeError, sqlite3.DatabaseError) as exc:
        raise StoreCopyError(f"--from {source}: {str(exc).replace(snapshot, source)}") from None


def _copy_all(reader: sqlite3.Connection, conn: Any, target: str) -> tuple[dict[str, int], int]:
    """Every table in one transaction; (rows per table, active matches)."""
    rows: dict[str, int] = {}
    with conn.transaction():
        # Writers wait until the copy commits (readers do not); then the emptiness is checked again
        # under the lock, in case a server wrote a match since the first look.
        conn.execute("LOCK TABLE matches, seats, moves IN SHARE ROW EXCLUSIVE MODE")
        _refuse_if_holding_matches(conn, target)
        for table, columns, key in COPIED_TABLES:
            _check_columns(reader, conn, table, columns)
            rows[table] = _copy_table(reader, conn, table, columns, key)
        (active,) = conn.execute("SELECT COUNT(*) FROM matches WHERE status = 1").fetchone()
    return rows, int(active)


def _check_columns(reader: sqlite3.Connection, conn: Any, table: str, columns: tuple[str, ...]) -> None:
    in_source = {row[1] for row in reader.execute("SELECT * FROM pragma_table_info(?)", (table,))}
    in_target = {
        name
        for (name,) in conn.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s",
            (table,),
        )
    }
    for where, found in (("the SQLite file", in_source), ("the PostgreSQL database", in_target)):
        if found != set(columns):
            raise StoreCopyError(
                f"{table} in {where} has columns {sorted(found)}; this copy knows {sorted(columns)} "
                f"(schema {SCHEMA_VERSION}): nothing was copied"
            )


def _copy_table(reader: sqlite3.Connection, conn: Any, table: str, columns: tuple[str, ...], key: str) -> int:
    """The table's rows, in key order, through COPY FROM STDIN (values travel as data, never as SQL)."""
    from psycopg import sql

    names = sql.SQL(", ").join(map(sql.Identifier, columns))
    copy_in = sql.SQL("COPY {} ({}) FROM STDIN").format(sql.Identifier(table), names)
    select = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}"  # constants from COPIED_TABLES
    count = 0
    with conn.cursor() as cursor, cursor.copy(copy_in) as copy:
        for row in reader.execute(select):
            copy.write_row(row)
            count += 1
    return count
