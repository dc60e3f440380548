"""Hosted matches on PostgreSQL: the SQLite store's referee logic and SQL, on a connection pool, so
several `orrery serve` replicas can share one database.

The guarantees of the SQLite store hold across replicas:
- one winner per turn: every change locks its match's row (SELECT ... FOR UPDATE) before it reads the
  state, so concurrent ApplyAction calls on any replicas queue on that row; each sees the one before
  it committed (READ COMMITTED re-reads the locked row), so `expected_move_number` and whose turn it
  is are checked against the latest move, and (match_id, move_number) is the moves' primary key too;
- nothing acknowledged is lost: a move is acknowledged only after its transaction commits;
- AI seats are searched and played once: before searching, a replica claims the turn in ai_claims
  (match, move number, owner, lease; an upsert that only takes a free, stale or own claim). A killed
  replica's claims lapse after the lease and the others pick its matches up (AI_SWEEP_S);
- WatchMatch sees moves made on other replicas: every change sends NOTIFY orrery_matches at commit
  and each replica LISTENs on one connection of its own (LISTEN_TIMEOUT_S bounds a reconnection).

Reads run in REPEATABLE READ READ ONLY transactions, so a read's several statements see one snapshot.
Schema changes are versioned (MIGRATIONS, the schema_version table), each applied in one transaction
under an advisory lock, so replicas starting together apply each once and never half.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit, urlunsplit

from orrery.service._matches import INDEXES, MIGRATE_TO_5, MIGRATE_TO_6, AiTurn, Ended, MatchStore

log = logging.getLogger("orrery.service")
NOTIFY_CHANNEL = "orrery_matches"
MIGRATION_LOCK = 0x0_5EED_0A_C1E  # pg_advisory_xact_lock key: one replica migrates at a time
LISTEN_TIMEOUT_S = 1.0  # the listener checks for a stop this often; a lost connection is retried as often
AI_SWEEP_S = 2.0  # how often a replica looks for AI turns nobody holds (a killed replica's lapse)
DEFAULT_POOL_SIZE = 8  # connections, and so store calls that may run at once, per replica
POOL_WAIT_S = 3.0  # a call waits this long for a pooled connection before UNAVAILABLE (psycopg_pool: 30 s)
CONNECT_TIMEOUT_S = 3  # libpq connect_timeout of every connection this store makes (whole seconds)
# psycopg_pool's reconnection backoff (1 s, doubling, to minutes) kept calls failing for up to 12 s after
# PostgreSQL came back; these retry every 0.1 s, growing to at most 0.5 s (figures in docs/performance.md).
RECONNECT_FIRST_S = 0.1
RECONNECT_MAX_S = 0.5
TABLES = ("matches", "seats", "moves", "ai_claims")  # the server reads and changes all of them
PRIVILEGES = ("SELECT", "INSERT", "UPDATE", "DELETE")  # all a serving role needs once the schema is current
SECRET_QUERY_KEYS = ("password", "sslpassword")  # URL query parameters masked in messages
MATCHES_SQL = """
CREATE TABLE matches (
    match_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed TEXT NOT NULL,
    state_json TEXT NOT NULL,
    move_number INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    status INTEGER NOT NULL DEFAULT 1,
    to_move INTEGER,
    has_ai INTEGER NOT NULL DEFAULT 0,
    spectator_sha256 TEXT,
    creator TEXT NOT NULL DEFAULT '',
    resigned_seat INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE seats (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    seat INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL,
    ai_json TEXT,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE moves (
    match_id TEXT NOT NULL REFERENCES matches(match_id),
    move_number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    label TEXT NOT NULL,
    struct_json TEXT NOT NULL,
    by_ai INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, move_number)
);
"""
AI_CLAIMS_SQL = """
CREATE TABLE ai_claims (
    match_id TEXT PRIMARY KEY REFERENCES matches(match_id) ON DELETE CASCADE,
    move_number INTEGER NOT NULL,  -- the turn claimed: a claim for an earlier move is stale
    owner TEXT NOT NULL,           -- the replica that searches it
    until TIMESTAMPTZ NOT NULL     -- its lease (the database's clock, so replicas' clocks do not matter)
);
"""
# (version, what it does, statements): applied in order, each in one transaction with its row in
# schema_version. Never edit a released one; add the next.
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "matches, seats and moves (the SQLite store's schema 3) with their indexes", MATCHES_SQL + INDEXES),
    (2, "ai_claims: which replica plays an AI turn", AI_CLAIMS_SQL),
    (3, "moves.labels_json: each move's label per viewer (the SQLite store's schema 5)", MIGRATE_TO_5[0]),
    (4, "moves.events_json: what each move set off, per viewer (the SQLite store's 6)", MIGRATE_TO_6[0]),
)
SCHEMA_VERSION_SQL = """
CREATE TABLE IF NOT EXISTS schema_version (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


class DatabaseSetupError(RuntimeError):
    """The server cannot use the database as configured (one line, no password): `orrery serve` and
    `orrery db ...` print it and exit 2."""


class DatabaseUnavailableError(DatabaseSetupError):
    """The PostgreSQL server cannot be reached or refuses the connection."""


@contextmanager
def _connected(url: str) -> Iterator[Any]:
    """One autocommit connection; a failure to connect as DatabaseUnavailableError (no password)."""
    import psycopg

    check_url(url)
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        raise DatabaseUnavailableError(f"{redacted(url)}: {scrubbed(exc, url)}") from None
    with conn:
        yield conn


def is_postgres_url(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs: the one in user:password@ and any
    ?password= / ?sslpassword= query parameter. Never raises (a malformed URL is masked all the same)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    userinfo, at, hostport = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.split(':', 1)[0]}:***@{hostport}"
    query = parts.query
    if query:
        pairs = [
            f"{key}=***" if key.lower() in SECRET_QUERY_KEYS else f"{key}={quote(value, safe='')}"
            for key, value in parse_qsl(query, keep_blank_values=True)
        ]
        query = "&".join(pairs)
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def _secrets_in(url: str) -> list[str]:
    parts = urlsplit(url)
    found = []
    userinfo, at, _ = parts.netloc.rpartition("@")
    if at and ":" in userinfo:
        found.append(userinfo.split(":", 1)[1])
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() in SECRET_QUERY_KEYS]
    return [variant for secret in found if secret for variant in {secret, unquote(secret)}]


def scrubbed(exc: BaseException, url: str) -> str:
    """An exception's text on one line, with any password from the URL masked (libpq quotes parts of a
    connection string it cannot parse)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    for secret in sorted(_secrets_in(url), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text


def check_url(url: str) -> None:
    """DatabaseSetupError, in one line naming the problem, for a --db URL libpq cannot use (a port that
    is not a number, an unknown parameter, bad quoting)."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    shown = redacted(url)
    hosts = urlsplit(url).netloc.rpartition("@")[2]
    for host in hosts.split(","):  # libpq takes several hosts: host1:5432,host2:5433
        port = host.rpartition("]")[2].rpartition(":")[2] if ":" in host.rpartition("]")[2] else ""
        if port and not (port.isdigit() and 0 < int(port) < 65536):
            raise DatabaseSetupError(f"--db {shown}: the port {port[:20]!r} is not a number from 1 to 65535")
    try:
        conninfo_to_dict(url)
    except ProgrammingError as exc:
        raise DatabaseSetupError(f"--db {shown}: not a usable PostgreSQL URL: {scrubbed(exc, url)}") from None


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _statements(script: str) -> list[str]:
    without_comments = "\n".join(line.split("--", 1)[0] for line in script.splitlines())
    return [s.strip() for s in without_comments.split(";") if s.strip()]


def upgrade(url: str, migrations: Sequence[tuple[int, str, str]] = MIGRATIONS) -> tuple[int, int]:
    """Apply the migrations the database lacks. Returns (version before, version after)."""
    import psycopg

    with _connected(url) as conn:
        try:
            return migrate(conn, migrations)
        except psycopg.errors.InsufficientPrivilege as exc:
            raise DatabaseSetupError(
                f"{redacted(url)}: role {_role(conn)} may not change the schema ({scrubbed(exc, url)}); "
                "run `orrery db upgrade` as the role that owns the database"
            ) from None
        except psycopg.Error as exc:
            raise DatabaseSetupError(
                f"{redacted(url)}: schema upgrade failed: {scrubbed(exc, url)}"
            ) from None


def prepare(url: str, migrations: Sequence[tuple[int, str, str]] = MIGRATIONS) -> int:
    """At `orrery serve` start: the schema version, migrated first only when it is behind (so a role with
    only SELECT/INSERT/UPDATE/DELETE serves a current schema without running any DDL), then a check that
    the role holds every privilege serving needs. DatabaseSetupError, one line, when it cannot serve."""
    import psycopg

    latest = max(v for v, _, _ in migrations)
    with _connected(url) as conn:
        try:
            version = stored_version(conn)
            if version > latest:
                raise DatabaseSetupError(
                    f"{redacted(url)}: match database schema {version}, this server knows up to {latest}"
                )
            if version < latest:
                try:
                    migrate(conn, migrations)
                except psycopg.errors.InsufficientPrivilege:
                    raise DatabaseSetupError(
                        f"{redacted(url)}: schema {version}, this server needs {latest}, and role "
                        f"{_role(conn)} may not change it: run `orrery db upgrade --db URL` as the role "
                        "that owns the database, then start the server again"
                    ) from None
            missing = missing_privileges(conn)
        except psycopg.Error as exc:
            raise DatabaseSetupError(f"{redacted(url)}: {scrubbed(exc, url)}") from None
        if missing:
            raise DatabaseSetupError(
                f"{redacted(url)}: role {_role(conn)} lacks {', '.join(missing)}; grant it with "
                f"GRANT SELECT, INSERT, UPDATE, DELETE ON {', '.join(TABLES)} TO {_role(conn)}"
            )
        return latest


def stored_version(conn: Any) -> int:
    """The schema version the database is at (0: no schema_version table yet). Reads only."""
    exists = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()[0]
    return _schema_version(conn) if exists else 0


def missing_privileges(conn: Any) -> list[str]:
    """'PRIVILEGE on TABLE' for each privilege serving needs that the connected role lacks."""
    rows = conn.execute(
        "SELECT t, p FROM unnest(%s::text[]) AS t, unnest(%s::text[]) AS p "
        "WHERE NOT has_table_privilege(t, p) ORDER BY t, p",
        (list(TABLES), list(PRIVILEGES)),
    ).fetchall()
    return [f"{p} on {t}" for t, p in rows]


def _role(conn: Any) -> str:
    return str(conn.execute("SELECT current_user").fetchone()[0])


def migrate(conn: Any, migrations: Sequence[tuple[int, str, str]] = MIGRATIONS) -> tuple[int, int]:
    """Each missing migration in one transaction under an advisory lock (replicas starting together
    wait for each other and skip what is done). A failing one leaves the database at the version before.
    """
    latest = max(v for v, _, _ in migrations)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(SCHEMA_VERSION_SQL)
    before = _schema_version(conn)
    if before > latest:
        raise RuntimeError(f"match database schema {before}, this server knows up to {latest}")
    for version, description, script in migrations:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            if _schema_version(conn) >= version:
                continue
            for statement in _statements(script):
                conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_version (version, description) VALUES (%s, %s)", (version, description)
            )
            log.info("match database: applied migration %d (%s)", version, description)
    return before, _schema_version(conn)


def _schema_version(conn: Any) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def _quick_reconnect_pool(url: str, size: int) -> Any:
    """psycopg_pool's ConnectionPool with a reconnection backoff of 0.1 s growing to 0.5 s (its own starts
    at 1 s and doubles, so calls went on failing for up to 12 s after the database was back), calls that
    wait at most POOL_WAIT_S for a connection, and connections that give up connecting after
    CONNECT_TIMEOUT_S. psycopg_pool has no setting for the backoff; _add_connection takes the attempt
    object, so the subclass hands it ours."""
    from psycopg_pool import ConnectionPool
    from psycopg_pool.base import AttemptWithBackoff

    class QuickBackoff(AttemptWithBackoff):
        INITIAL_DELAY = RECONNECT_FIRST_S
        DELAY_BACKOFF = 1.5

        def update_delay(self, now: float) -> None:
            super().update_delay(now)
            self.delay = min(self.delay, RECONNECT_MAX_S)

    class Pool(ConnectionPool):  # type: ignore[type-arg]
        def _add_connection(self, attempt: Any, growing: bool = False) -> None:
            super()._add_connection(attempt or QuickBackoff(timeout=self.reconnect_timeout), growing)

    return Pool(
        url,
        min_size=1,
        max_size=size,
        kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
        open=True,
        name="orrery",
        timeout=POOL_WAIT_S,
        reconnect_timeout=24 * 3600.0,  # keep trying: the store reports itself down meanwhile
    )


class _Connection:
    """A psycopg connection that takes the SQLite store's SQL: `?` placeholders, executemany."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self.conn.cursor() as cursor:
                cursor.executemany(sql.replace("?", "%s"), rows)


class PostgresMatchStore(MatchStore):
    """All hosted matches in one PostgreSQL database, shared by any number of replicas."""

    FOR_UPDATE = " FOR UPDATE"
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    shared = True

    def __init__(self, url: str, *, pool_size: int = DEFAULT_POOL_SIZE, claim_s: float = 60.0) -> None:
        import psycopg

        self.path = redacted(url)
        self._url = url
        self.threads = pool_size
        self.claim_s = claim_s  # an AI turn's lease: renewed while its search waits or runs (seconds)
        self.replica = uuid.uuid4().hex[:12]  # this process, as owner of claims and origin of NOTIFYs
        prepare(url)
        # The pool logs every failed reconnection (twice a second while the database is away); the
        # store's health logs the outage once and its end once (service/_store_health.py).
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
        self._pool = _quick_reconnect_pool(url, pool_size)
        self._probe: Any = None  # the connection ping() uses (its own: a busy pool must not look down)
        self._probe_lock = threading.Lock()
        self._count_lock = threading.Lock()
        try:
            self.active = self._count_active()
        except psycopg.Error as exc:
            self._pool.close()
            raise DatabaseSetupError(f"{self.path}: {scrubbed(exc, url)}") from None
        self._listener: threading.Thread | None = None
        self._closing = threading.Event()
        self._listening = threading.Event()

    def ping(self) -> None:
        """Raise unless PostgreSQL answers a query now, on a connection of its own (made again after a
        failure). After a failure, the pool's idle connections are checked at the next success, so the
        ones broken by a restart are replaced before calls take them."""
        import psycopg

        with self._probe_lock:
            try:
                if self._probe is None or self._probe.closed:
                    self._probe = psycopg.connect(
                        self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
                    )
                    self._pool.check()  # the first success after a failure (or at start): drop dead ones
                self._probe.execute("SELECT 1")
            except Exception:
                if self._probe is not None:
                    with contextlib.suppress(Exception):
                        self._probe.close()
                self._probe = None
                raise

    def close(self) -> None:
        """Stop listening, give up this replica's AI claims (the others take those turns at their next
        look, not after the lease), close the pool."""
        self._closing.set()
        if self._listener is not None:
            self._listener.join(timeout=5 * LISTEN_TIMEOUT_S)
        try:
            with self._transaction() as db:
                db.execute("DELETE FROM ai_claims WHERE owner = ?", (self.replica,))
        except Exception:  # noqa: BLE001 - the database is gone: the claims lapse with their lease
            log.warning("could not release this replica's AI claims; they lapse with their lease")
        self._pool.close()
        with self._probe_lock:
            if self._probe is not None:
                with contextlib.suppress(Exception):
                    self._probe.close()

    def _count_active(self) -> int:
        with self._reading() as db:
            return int(db.execute("SELECT COUNT(*) FROM matches WHERE status = 1").fetchone()[0])

    @contextmanager
    def _reading(self) -> Iterator[Any]:
        # BEGIN with its isolation level in one statement (conn.transaction() would take two round trips).
        with self._pool.connection() as conn:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            try:
                yield _Connection(conn)
            except BaseException:
                with contextlib.suppress(Exception):  # a broken connection: the pool discards it
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self._pool.connection() as conn, conn.transaction():
            yield _Connection(conn)

    def _changed(self, db: Any, match_id: str, move_number: int) -> None:
        db.execute("SELECT pg_notify(?, ?)", (NOTIFY_CHANNEL, f"{match_id} {move_number} {self.replica}"))

    def expire(self, ttl_s: float, now: float | None = None) -> tuple[list[Ended], int]:
        """As on SQLite; then the count of active matches is taken again, since other replicas change it
        too (between sweeps the matches_active gauge counts this replica's changes only)."""
        result = super().expire(ttl_s, now)
        count = self._count_active()
        with self._count_lock:
            self.active = count
        return result

    # ---- AI seats on several replicas ----

    def active_ai_matches(self) -> list[str]:
        """Matches whose AI seat is to move and whose turn nobody holds (never claimed, claimed for an
        earlier move, or its lease lapsed)."""
        with self._reading() as db:
            rows = db.execute(
                "SELECT m.match_id FROM matches m "
                "JOIN seats s ON s.match_id = m.match_id AND s.seat = m.to_move AND s.ai_json IS NOT NULL "
                "LEFT JOIN ai_claims c ON c.match_id = m.match_id "
                "WHERE m.status = 1 AND m.has_ai = 1 "
                "AND (c.match_id IS NULL OR c.move_number < m.move_number OR c.until < now())"
            ).fetchall()
        return [mid for (mid,) in rows]

    def ai_turn(self, match_id: str) -> AiTurn | None:
        """The AI turn, if this replica can claim it; None if it is not an AI's turn or another replica
        holds it."""
        turn = super().ai_turn(match_id)
        if turn is None or not self._claim(match_id, turn.move_number):
            return None
        return turn

    def _claim(self, match_id: str, move_number: int) -> bool:
        with self._transaction() as db:
            won = db.execute(
                "INSERT INTO ai_claims (match_id, move_number, owner, until) "
                "VALUES (?, ?, ?, now() + make_interval(secs => ?)) "
                "ON CONFLICT (match_id) DO UPDATE SET move_number = EXCLUDED.move_number, "
                "owner = EXCLUDED.owner, until = EXCLUDED.until "
                "WHERE ai_claims.move_number < EXCLUDED.move_number OR ai_claims.until < now() "
                "OR (ai_claims.owner = EXCLUDED.owner AND ai_claims.move_number = EXCLUDED.move_number) "
                "RETURNING owner",
                (match_id, move_number, self.replica, float(self.claim_s)),
            ).fetchone()
        return won is not None

    def renew_ai_claim(self, match_id: str, move_number: int) -> bool:
        """Extend this replica's claim on an AI turn by another lease, while its search waits in the queue
        or runs, so no other replica takes the turn over while this one lives. False: the claim is no
        longer this replica's (it lapsed during an outage and another took it)."""
        with self._transaction() as db:
            kept = db.execute(
                "UPDATE ai_claims SET until = now() + make_interval(secs => ?) "
                "WHERE match_id = ? AND owner = ? AND move_number = ? RETURNING owner",
                (float(self.claim_s), match_id, self.replica, move_number),
            ).fetchone()
        return kept is not None

    # ---- changes made by other replicas ----

    def listen(self, on_change: Callable[[str | None, int], None]) -> None:
        """Call on_change(match_id, move_number) from a thread of its own for every change another
        replica commits (move_number -1: the match ended), and on_change(None, 0) after the listening
        connection was lost and made again (changes meanwhile are unknown: look at every watched match).
        """
        self._listener = threading.Thread(
            target=self._listen, args=(on_change,), name="orrery-listen", daemon=True
        )
        self._listener.start()
        if not self._listening.wait(10 * LISTEN_TIMEOUT_S):
            log.warning("match notifications: not listening yet; WatchMatch relays start when it is")

    def _listen(self, on_change: Callable[[str | None, int], None]) -> None:
        import psycopg

        first = True
        failures = 0  # in a row: the first is logged as a warning, the rest (one a second) at debug
        while not self._closing.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._listening.set()
                    if failures:
                        log.info("match notifications: listening again after %d failed tries", failures)
                    failures = 0
                    if not first:
                        on_change(None, 0)
                    first = False
                    while not self._closing.is_set():
                        for notify in conn.notifies(timeout=LISTEN_TIMEOUT_S):
                            match_id, move_number, origin = notify.payload.split(" ")
                            if origin != self.replica:
                                on_change(match_id, int(move_number))
            except psycopg.Error as exc:
                if self._closing.is_set():
                    return
                failures += 1
                report = log.warning if failures == 1 else log.debug
                report("match notifications: %s; listening again in %.0f s", _one_line(exc), LISTEN_TIMEOUT_S)
                time.sleep(LISTEN_TIMEOUT_S)
