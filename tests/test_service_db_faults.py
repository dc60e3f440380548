"""The service when its database fails or is misconfigured (issue 30, points 6-9), against a real
PostgreSQL on loopback (tests/postgres_server.py) where it matters:
- database errors reach clients as UNAVAILABLE with a retry hint (grpc-retry-pushback-ms), never the
  driver's text; health follows the database; play resumes once PostgreSQL is back (a stop and restart
  of PostgreSQL in the middle of play);
- text no driver can take (a NUL byte) is refused as INVALID_ARGUMENT naming the field, on both stores,
  for unary calls and streams;
- a role with only SELECT/INSERT/UPDATE/DELETE serves a current schema; a missing privilege or a bad URL
  is one line and exit 2;
- passwords are masked wherever a URL is printed, and `orrery serve` reads ORRERY_DB;
- an AI claim is renewed while its search waits in a queue, so no turn is searched twice.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
import time
import uuid

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from orrery.service._errors import PUSHBACK_KEY
from orrery.service._spawn import start_server
from orrery.service.client import HUMAN, OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb

SERVE = [
    "--backend",
    "in-process",
    "--workers",
    "1",
    "--config",
    "test-fast",
    "--max-matches-per-minute",
    "0",
]
DRIVER_WORDS = ("psycopg", "PoolTimeout", "sqlite", "Traceback", "NUL (0x00)", "OperationalError")


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "orrery.service.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


# ---------------------------------------------------------------- no database needed


def test_passwords_are_masked_in_every_url_shape():
    from orrery.service._postgres import redacted, scrubbed

    assert redacted("postgresql://u:s3cret@db:5432/orrery") == "postgresql://u:***@db:5432/orrery"
    assert redacted("postgresql://u@db/orrery?password=s3cret&sslmode=require") == (
        "postgresql://u@db/orrery?password=***&sslmode=require"
    )
    assert "k3y" not in redacted("postgres://db/x?sslpassword=k3y")
    assert redacted("postgresql://u:s3cret@db:notaport/x") == "postgresql://u:***@db:notaport/x"  # no raise
    assert redacted("postgresql://u@db/x") == "postgresql://u@db/x"
    error = ValueError('invalid URI query parameter: "s%33cret" near password=s3cret')
    assert "s3cret" not in scrubbed(error, "postgresql://u@db/x?password=s%33cret")


def test_a_bad_url_is_one_clear_line_without_its_password():
    pytest.importorskip("psycopg")
    from orrery.service._postgres import DatabaseSetupError, check_url

    with pytest.raises(DatabaseSetupError, match="the port 'abc' is not a number from 1 to 65535") as caught:
        check_url("postgresql://u:s3cret@127.0.0.1:abc/orrery")
    assert "s3cret" not in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(DatabaseSetupError, match="not a usable PostgreSQL URL") as caught:
        check_url("postgresql://u:s3cret@127.0.0.1/orrery?nonsense=1")
    assert "s3cret" not in str(caught.value)
    result = _cli("db", "upgrade", "--db", "postgresql://u:s3cret@127.0.0.1:abc/orrery")
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "s3cret" not in result.stderr + result.stdout
    assert "the port 'abc' is not a number" in result.stderr


def test_database_errors_map_to_unavailable_with_a_retry_hint():
    psycopg = pytest.importorskip("psycopg")
    import psycopg_pool

    from orrery.service._store import database_error

    for raised in (
        psycopg.OperationalError("server closed the connection unexpectedly"),
        psycopg.errors.AdminShutdown("terminating connection due to administrator command"),
        psycopg_pool.PoolTimeout("couldn't get a connection after 30.00 sec"),
        psycopg.errors.InsufficientPrivilege("permission denied for table matches"),
        sqlite3.OperationalError("database is locked"),
    ):
        mapped = database_error(raised)
        assert mapped is not None and mapped.code == grpc.StatusCode.UNAVAILABLE
        assert mapped.trailing_metadata == ((PUSHBACK_KEY, "1000"),)
        assert not any(word in mapped.details for word in DRIVER_WORDS)
    from orrery.service._store import means_unreachable

    assert means_unreachable(psycopg.errors.AdminShutdown("terminating connection"))
    assert means_unreachable(psycopg_pool.PoolTimeout("couldn't get a connection"))
    assert not means_unreachable(psycopg.errors.InsufficientPrivilege("permission denied"))
    too_big = database_error(psycopg.errors.NumericValueOutOfRange("integer out of range"))
    assert too_big is not None and too_big.code == grpc.StatusCode.INVALID_ARGUMENT
    assert too_big.details == "request: a value the database cannot store"
    collided = database_error(psycopg.errors.SerializationFailure("could not serialize access"))
    assert collided is not None and collided.code == grpc.StatusCode.ABORTED
    assert database_error(ValueError("a bug, not the database")) is None


def test_nul_bytes_are_named_by_the_limits_check():
    from orrery.service._limits_interceptor import oversized_field

    request = pb.WatchMatchRequest(match_id="abc\x00def")
    assert oversized_field(request, max_json_bytes=100, max_name_bytes=100) == "match_id: contains a NUL byte"
    nested = pb.SuggestMoveRequest(match=pb.HostedSeat(match_id="x\x00"))
    assert oversized_field(nested, max_json_bytes=100, max_name_bytes=100) == (
        "match.match_id: contains a NUL byte"
    )


# ---------------------------------------------------------------- a real PostgreSQL


def _role(postgres_server, url: str, privileges: str) -> str:
    """A new login role with `privileges` on the store's tables (SELECT on schema_version), and no right
    to create anything (PostgreSQL 15's default; said here for older servers); its URL."""
    name = f"r_{uuid.uuid4().hex[:10]}"
    database = url.rsplit("/", 1)[1]
    postgres_server.psql(f"CREATE ROLE {name} LOGIN")
    postgres_server.psql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", database)
    if privileges:
        postgres_server.psql(
            f"GRANT {privileges} ON matches, seats, moves, ai_claims TO {name}; "
            f"GRANT SELECT ON schema_version TO {name}",
            database,
        )
    return url.replace("postgresql://orrery@", f"postgresql://{name}@")


def test_a_role_with_only_row_privileges_serves_a_current_schema(postgres_server):
    from orrery.service._postgres import MIGRATIONS, DatabaseSetupError, upgrade
    from orrery.service._store import open_store

    url = postgres_server.new_database()
    assert upgrade(url) == (0, len(MIGRATIONS))  # as the owner
    player = _role(postgres_server, url, "SELECT, INSERT, UPDATE, DELETE")
    store = open_store(player)  # no DDL at all: the schema is current
    try:
        created = store.create("kuhn", 2, None, 3)
        store.apply(created.match_id, created.current_player, action_id=0)
        assert store.history(created.match_id, 0).move_number == 1
    finally:
        store.close()
    reader = _role(postgres_server, url, "SELECT")
    with pytest.raises(DatabaseSetupError, match=r"lacks DELETE on ai_claims, INSERT on ai_claims"):
        open_store(reader)
    fresh = postgres_server.new_database()  # a schema behind, and a role that may not migrate it
    behind = _role(postgres_server, fresh, "")
    with pytest.raises(DatabaseSetupError, match=r"run `orrery db upgrade --db URL` as the role that owns"):
        open_store(behind)


def test_the_password_comes_from_pgpassword_or_a_password_file(postgres_server, tmp_path, monkeypatch):
    """A URL without its password works with PGPASSWORD or a password file (PGPASSFILE): libpq reads
    them. A wrong password is one line without the password."""
    from orrery.service._postgres import DatabaseSetupError, upgrade
    from orrery.service._store import open_store

    url = postgres_server.new_database()
    upgrade(url)
    role, password = f"p_{uuid.uuid4().hex[:10]}", uuid.uuid4().hex
    postgres_server.require_password(role, password)
    postgres_server.psql(
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON matches, seats, moves, ai_claims TO {role}; "
        f"GRANT SELECT ON schema_version TO {role}",
        url.rsplit("/", 1)[1],
    )
    bare = url.replace("postgresql://orrery@", f"postgresql://{role}@")
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "none"))
    with pytest.raises(DatabaseSetupError, match="password"):
        open_store(bare)  # no password anywhere: refused by the server
    monkeypatch.setenv("PGPASSWORD", password)
    open_store(bare).close()
    monkeypatch.setenv("PGPASSWORD", "wrong")
    with pytest.raises(DatabaseSetupError, match="password authentication failed") as caught:
        open_store(bare.replace("@", ":wr0ng-s3cret@", 1))
    assert "wr0ng-s3cret" not in str(caught.value) and "***" in str(caught.value)
    monkeypatch.delenv("PGPASSWORD")
    passfile = tmp_path / "pgpass"
    passfile.write_text(f"127.0.0.1:{postgres_server.port}:*:{role}:{password}\n")
    passfile.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(passfile))
    open_store(bare).close()


@pytest.mark.slow
def test_serve_reads_orrery_db_and_stops_with_one_line_on_a_bad_database(postgres_server):
    from orrery.service._postgres import MIGRATIONS, upgrade

    url = postgres_server.new_database()
    upgrade(url)
    reader = _role(postgres_server, url, "SELECT")
    secret_url = reader.replace("@", ":s3cret@", 1) + "?password=s3cret"  # trust auth ignores it
    result = _cli(
        "serve", "--backend", "in-process", "--port", "0", "--no-metrics", env={"ORRERY_DB": secret_url}
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("orrery serve: postgresql://r_") and "lacks DELETE on ai_claims" in lines[-1]
    assert "s3cret" not in result.stderr + result.stdout and "Traceback" not in result.stderr
    for bad in ("postgresql://u:s3cret@127.0.0.1:abc/orrery", "/no/such/folder/matches.sqlite3"):
        refused = _cli("serve", "--backend", "in-process", "--port", "0", "--no-metrics", "--db", bad)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr
        assert refused.stderr.strip().splitlines()[-1].startswith("orrery serve: --db ")
        assert "s3cret" not in refused.stderr
    upgraded = _cli("db", "upgrade", env={"ORRERY_DB": url.replace("@", ":s3cret@", 1) + "?password=s3cret"})
    assert upgraded.returncode == 0 and f"schema {len(MIGRATIONS)}, up to date" in upgraded.stdout
    assert "s3cret" not in upgraded.stdout + upgraded.stderr


@pytest.fixture
def own_postgres():
    """A PostgreSQL of this test's own: it is stopped and started again mid-test."""
    import postgres_server as pg

    reason = pg.why_unavailable()
    if reason:
        pytest.skip(reason)
    with pg.running_postgres() as server:
        yield server


def _health(channel: grpc.Channel, service: str) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=5).status


def _until(condition, seconds: float = 30.0) -> float:
    """Poll until condition() is true; the seconds it took (fails the test past `seconds`)."""
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < seconds, "condition not met in time"
        time.sleep(0.05)
    return time.monotonic() - began


def _status_of(call) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    try:
        call()
    except grpc.RpcError as exc:
        return exc.code(), exc.details() or "", dict(exc.trailing_metadata() or ())
    return grpc.StatusCode.OK, "", {}


@pytest.mark.slow
def test_postgres_stopped_and_restarted_during_play(own_postgres, tmp_path):
    """Two people play kuhn through one replica, and three AI seats another match; PostgreSQL stops
    mid-play. Every call (unary, the token
    check, WatchMatch) gets UNAVAILABLE with a retry hint and no driver text, health of orrery.v1.Orrery
    turns NOT_SERVING (the server's own "" stays SERVING); PostgreSQL starts again: health SERVING, play
    goes on, the AI match plays to its end, every acknowledged move is stored once."""
    url = own_postgres.new_database()
    server = start_server([*SERVE, "--db", url], cwd=str(tmp_path), same_imports=True)
    try:
        with OrreryClient(server.target, timeout=10) as client:
            match = client.create_match("kuhn", players=2, seed=4, seats=[HUMAN, HUMAN])
            seat = match.current_player
            first = client.apply(match, seat, action_id=0, token=match.tokens[seat])
            # Text no driver takes, before any store call: the field is named (a stream too).
            for call, field in (
                (lambda: client.observation("a\x00b", 0, token="t"), "match_id"),
                (lambda: client.replay("a\x00b"), "match_id"),
                (lambda: next(client.watch("a\x00b", 0, token="t", timeout=5)), "match_id"),
            ):
                code, details, _ = _status_of(call)
                assert (code, details) == (grpc.StatusCode.INVALID_ARGUMENT, f"{field}: contains a NUL byte")

            ai_match = client.create_match(  # at least 3 moves of 1 s: in play through the outage
                "kuhn", players=3, seed=6, seats=[ai_seat(milliseconds=1000, seed=s) for s in range(3)]
            )
            own_postgres.stop()
            for call in (
                lambda: client.observation(match, 0, token=match.tokens[0]),  # the token check first
                lambda: client.create_match("kuhn", players=2, seed=5, seats=[HUMAN, HUMAN]),
                lambda: client.replay(match),
                lambda: next(iter(client.watch(match, 0, token=match.tokens[0], timeout=5))),
            ):
                code, details, trailers = _status_of(call)
                assert code == grpc.StatusCode.UNAVAILABLE, (code, details)
                assert trailers.get(PUSHBACK_KEY) == "1000"
                assert not any(word in details for word in DRIVER_WORDS), details
            _until(
                lambda: (
                    _health(client.channel, "orrery.v1.Orrery") == health_pb2.HealthCheckResponse.NOT_SERVING
                )
            )
            assert _health(client.channel, "") == health_pb2.HealthCheckResponse.SERVING

            own_postgres.start()
            _until(
                lambda: _health(client.channel, "orrery.v1.Orrery") == health_pb2.HealthCheckResponse.SERVING
            )
            view = client.observation(match, 0, token=match.tokens[0])
            assert view.move_number == first.move_number == 1
            mover = view.current_player
            second = client.apply(
                match, mover, action_id=0, expected_move_number=1, token=match.tokens[mover]
            )
            assert second.move_number == 2
            ended = list(client.watch(ai_match, token=ai_match.spectator_token, timeout=60))[-1]
            assert ended.kind == pb.MATCH_EVENT_END and ended.status == pb.MATCH_STATUS_FINISHED
    finally:
        server.terminate()
    assert "Traceback" not in "".join(server.log)
    import psycopg

    with psycopg.connect(url) as conn:
        moves = conn.execute(
            "SELECT move_number FROM moves WHERE match_id = %s ORDER BY move_number", (match.match_id,)
        ).fetchall()
    assert [n for (n,) in moves] == [1, 2]


def test_sqlite_refuses_nul_bytes_before_the_store(tmp_path):
    """The same check on the SQLite store, without a server: the servicer's one gate for store calls
    refuses such text for every call, whatever field or metadata it came from."""
    from orrery.service._servicer import _check_store_text

    _check_store_text(("match-1", 0, "token"), {"action_json": "{}"})
    for args, kwargs in ((("a\x00b", 0),), {}), ((["ok", "t\x00"],), {}), ((), {"action_json": "\udc80"}):
        with pytest.raises(Exception, match="request: a text value (contains a NUL byte|is not valid UTF-8)"):
            _check_store_text(args, kwargs)


# ---------------------------------------------------------------- leases


def searches_finished(server) -> float:
    import urllib.request

    text = urllib.request.urlopen(server.metrics_url, timeout=10).read().decode()
    return sum(
        float(line.split()[-1])
        for line in text.splitlines()
        if line.startswith("orrery_search_seconds_count")
    )


@pytest.mark.slow
def test_a_queued_ai_turn_is_searched_once_between_two_replicas(postgres_server, tmp_path):
    """Two replicas with one search slot each and a 2 s AI lease; 24 AI-only matches at 250 ms a move
    keep each replica's queue (12 searches, 3 s) longer than the lease. The claim is renewed while its
    search waits, so the other replica never takes a queued turn: one search per AI move (without the
    renewal: 136 searches for 94 AI moves)."""
    url = postgres_server.new_database()
    args = [*SERVE, "--max-active", "1", "--ai-lease-s", "2", "--db", url]
    servers = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        servers.append(start_server(args, cwd=str(tmp_path / name), same_imports=True))
    try:
        clients = [OrreryClient(s.target, timeout=30) for s in servers]
        matches = [
            clients[i % 2].create_match(
                "kuhn",
                players=3,
                seed=i,
                seats=[ai_seat(milliseconds=300, seed=10 * i + s) for s in range(3)],
            )
            for i in range(24)
        ]
        for i, match in enumerate(matches):
            events = list(clients[i % 2].watch(match, token=match.spectator_token, timeout=180))
            assert events[-1].kind == pb.MATCH_EVENT_END
        import psycopg

        with psycopg.connect(url) as conn:
            ai_moves = conn.execute("SELECT COUNT(*) FROM moves WHERE by_ai = 1").fetchone()[0]
        searches = sum(searches_finished(s) for s in servers)
        assert ai_moves > 24 and searches == ai_moves, (searches, ai_moves)
        for client in clients:
            client.close()
    finally:
        for server in servers:
            with contextlib.suppress(Exception):
                server.terminate()
