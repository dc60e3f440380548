"""`orrery db copy`: hosted matches from a SQLite store into an empty PostgreSQL store (a real server
on loopback, tests/postgres_server.py; those tests are slow and skip with the reason where PostgreSQL is
missing). Matches of every game and status are made through the SQLite store's own API, copied, and
then everything the store shows of each is compared on both; a copied match in progress goes on being
played on PostgreSQL exactly as on SQLite. Refusals and failures leave the target without a match and
the SQLite file untouched."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3

import pytest

from orrery.service._copy import COPIED_TABLES, copy_store
from orrery.service._errors import ServiceError
from orrery.service._matches import (
    ABANDONED,
    ACTIVE,
    EXPIRED,
    FINISHED,
    RESIGNED,
    SCHEMA_VERSION,
    SPECTATOR,
    AiSpec,
    MatchStore,
)
from orrery.service._postgres import MIGRATIONS
from orrery.service._store import open_store
from orrery.service.cli import main

pg = pytest.mark.slow
AI_SEAT = 1  # of the Trian match in progress


def play(store, match_id: str, rng: random.Random, moves: int, *, ai_seats=()) -> None:
    """Up to `moves` random legal moves (fewer if the game ends)."""
    for _ in range(moves):
        seat = store.history(match_id, 1 << 30).current_player
        if seat < 0:
            return
        legal = list(store.observation(match_id, seat).legal_actions())
        store.apply(match_id, seat, action_id=rng.choice(legal), by_ai=seat in ai_seats)


@pytest.fixture
def source(tmp_path):
    """A SQLite store with a match of each game and in each status. (path, {match_id: (seat tokens,
    spectator token)}, the Trian match in progress with an AI seat)."""
    path = str(tmp_path / "matches.sqlite3")
    store = MatchStore(path)
    rng = random.Random(11)
    tokens: dict[str, tuple[tuple[str, ...], str]] = {}

    def new(game: str, players: int, seed: int, **kwargs) -> str:
        created = store.create(game, players, None, seed, **kwargs)
        tokens[created.match_id] = (created.tokens, created.spectator_token)
        return created.match_id

    play(store, new("kuhn", 2, 3), rng, 10)  # to its end
    play(store, new("take_the_galaxy", 2, 4), rng, 40)
    ai = [None, AiSpec(level="easy", seed=2), None]
    trian = new("trian", 3, 5, ai=ai, creator="ipv4:127.0.0.1:5555")
    play(store, trian, rng, 60, ai_seats={AI_SEAT})
    teg = new("tiny_epic_galaxies", 2, 6)
    play(store, teg, rng, 30)
    store.resign(teg, 1)
    kuhn = new("kuhn", 3, 7)
    play(store, kuhn, rng, 1)
    store.abandon(kuhn, 0)
    stale = new("kuhn", 2, 8)
    store.close()
    db = sqlite3.connect(path)  # untouched for two hours: the next sweep expires it
    db.execute("UPDATE matches SET updated_at = updated_at - 7200 WHERE match_id = ?", (stale,))
    db.commit()
    db.close()
    store = MatchStore(path)
    expired, _ = store.expire(3600)
    assert [e.match_id for e in expired] == [stale]
    statuses = {store.history(m, 0).status for m in tokens}
    store.close()
    assert statuses == {ACTIVE, FINISHED, RESIGNED, ABANDONED, EXPIRED}
    return path, tokens, trian


def fingerprint(path: str) -> tuple[str, int, list[str]]:
    """The file's bytes, its mtime and what lies beside it."""
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return digest, os.stat(path).st_mtime_ns, sorted(os.listdir(os.path.dirname(path)))


SELECTS = {table: f"SELECT {', '.join(c)} FROM {table} ORDER BY {key}" for table, c, key in COPIED_TABLES}


def sqlite_rows(path: str) -> dict[str, list[tuple]]:
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(select).fetchall() for table, select in SELECTS.items()}
    finally:
        db.close()


def postgres_rows(url: str) -> dict[str, list[tuple]]:
    import psycopg

    with psycopg.connect(url) as conn:
        if conn.execute("SELECT to_regclass('matches')").fetchone()[0] is None:
            return {table: [] for table in SELECTS}
        return {table: conn.execute(select).fetchall() for table, select in SELECTS.items()}


def outcome(call):
    """What a store call answers, or the refusal it raises (code and message)."""
    try:
        return call()
    except ServiceError as exc:
        return ("refused", exc.code, str(exc))


def exposed(store, match_id: str, seat_tokens: tuple[str, ...], spectator: str) -> dict:
    """Everything the store tells clients about a match."""
    humans = [t for t in seat_tokens if t]
    return {
        "history": store.history(match_id, 0),
        "views": [store.seat_view(match_id, seat) for seat in range(len(seat_tokens))],
        "tokens": [store.check_seat_token(match_id, seat, t) for seat, t in enumerate(seat_tokens)],
        "spectator": store.check_seat_token(match_id, SPECTATOR, spectator),
        "wrong token": store.check_seat_token(match_id, 0, "not a token"),
        # newest first; seats of one match tie on updated_at, and the stores order ties differently
        "summaries": sorted(store.list_by_tokens(humans), key=lambda s: (-s.updated_at, s.seat)),
        "replay": outcome(lambda: store.replay(match_id)),
    }


def copied(source_path: str, url: str, capsys) -> dict:
    assert main(["db", "copy", "--from", source_path, "--to", url, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pg
def test_every_match_is_copied_and_shows_the_same_on_postgresql(source, postgres_server, capsys):
    path, tokens, trian = source
    url = postgres_server.new_database()
    before = fingerprint(path)
    rows = sqlite_rows(path)
    summary = copied(path, url, capsys)
    assert fingerprint(path) == before, "the SQLite file is only read (no -wal or -shm left either)"
    assert summary["matches"] == len(tokens) == 6 and summary["active"] == 2
    assert summary["rows"] == {table: len(found) for table, found in rows.items()}
    assert summary["source_schema"] == SCHEMA_VERSION and summary["target_schema"] == [0, MIGRATIONS[-1][0]]
    assert "password" not in summary["target"] and summary["seconds"] >= 0
    assert postgres_rows(url) == rows  # every column of every row, ids, move numbers and timestamps

    sqlite_store, postgres_store = MatchStore(path), open_store(url)
    try:
        for match_id, (seat_tokens, spectator) in tokens.items():
            on_sqlite = exposed(sqlite_store, match_id, seat_tokens, spectator)
            assert exposed(postgres_store, match_id, seat_tokens, spectator) == on_sqlite, match_id
        assert postgres_store.active_count() == sqlite_store.active_count() == 2
        assert sqlite_store.active_ai_matches() == [trian]  # PostgreSQL: only while its AI seat is to move
        to_move = sqlite_store.history(trian, 1 << 30).current_player
        assert postgres_store.active_ai_matches() == ([trian] if to_move == AI_SEAT else [])
        # the match in progress goes on: the same moves give the same answers on both stores
        rng = random.Random(5)
        ai_moves = 0
        for _ in range(40):
            seat = sqlite_store.history(trian, 1 << 30).current_player
            turn = postgres_store.ai_turn(trian)
            assert (turn is not None) == (seat == AI_SEAT)
            if turn is not None:
                expected = sqlite_store.ai_turn(trian)
                assert (turn.seat, turn.spec, turn.move_number, turn.creator) == (
                    expected.seat,
                    expected.spec,
                    expected.move_number,
                    expected.creator,
                )
                assert turn.observation.to_json() == expected.observation.to_json()
                ai_moves += 1
            action = rng.choice(list(sqlite_store.observation(trian, seat).legal_actions()))
            by_ai = seat == AI_SEAT
            assert postgres_store.apply(trian, seat, action_id=action, by_ai=by_ai) == sqlite_store.apply(
                trian, seat, action_id=action, by_ai=by_ai
            )
        assert ai_moves > 0
        seat_tokens, spectator = tokens[trian]
        on_sqlite = exposed(sqlite_store, trian, seat_tokens, spectator)
        after = exposed(postgres_store, trian, seat_tokens, spectator)
        for summaries in (on_sqlite.pop("summaries"), after.pop("summaries")):  # moved on at other times
            assert [s.move_number for s in summaries] == [summaries[0].move_number] * 2
        assert after == on_sqlite
        # a new match: a fresh id, no collision (there are no sequences to advance)
        created = postgres_store.create("kuhn", 2, None, 1)
        assert created.match_id not in tokens
        assert len(postgres_rows(url)["matches"]) == len(tokens) + 1
    finally:
        sqlite_store.close()
        postgres_store.close()
    import psycopg

    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM information_schema.sequences").fetchone()[0] == 0
        serial = conn.execute(
            "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND (column_default LIKE 'nextval%' OR is_identity = 'YES')"
        ).fetchone()[0]
        assert serial == 0


@pg
def test_a_target_holding_a_match_is_refused_and_left_as_it_was(source, postgres_server, capsys):
    path = source[0]
    url = postgres_server.new_database()
    store = open_store(url)
    store.create("kuhn", 2, None, 1)
    store.close()
    before, source_before = postgres_rows(url), fingerprint(path)
    assert main(["db", "copy", "--from", path, "--to", url]) == 2
    err = capsys.readouterr().err
    assert "already holds matches" in err and "nothing was written" in err
    assert postgres_rows(url) == before and len(before["matches"]) == 1
    assert fingerprint(path) == source_before


@pg
def test_a_target_with_a_newer_schema_is_refused(source, postgres_server, capsys):
    from orrery.service._postgres import MIGRATIONS, upgrade

    url = postgres_server.new_database()
    upgrade(url, (*MIGRATIONS, (99, "from a later server", "CREATE TABLE later (x INTEGER)")))
    assert main(["db", "copy", "--from", source[0], "--to", url]) == 2
    assert "schema 99" in capsys.readouterr().err
    assert postgres_rows(url) == {table: [] for table in SELECTS}


@pg
def test_a_failure_half_way_leaves_the_target_without_a_match(source, postgres_server, monkeypatch, capsys):
    import orrery.service._copy as copy_module

    path = source[0]
    url = postgres_server.new_database()
    real_copy_table = copy_module._copy_table

    def failing_in_moves(reader, conn, table, columns, key):
        if table != "moves":
            return real_copy_table(reader, conn, table, columns, key)

        class HalfWay:  # the source gives five moves, then fails
            @staticmethod
            def execute(select):
                for number, row in enumerate(reader.execute(select)):
                    if number == 5:
                        raise OSError("injected: the disk went away")
                    yield row

        return real_copy_table(HalfWay(), conn, table, columns, key)

    monkeypatch.setattr(copy_module, "_copy_table", failing_in_moves)
    with pytest.raises(OSError, match="injected"):
        copy_store(path, url)
    assert postgres_rows(url) == {table: [] for table, _, _ in COPIED_TABLES}
    monkeypatch.setattr(copy_module, "_copy_table", real_copy_table)
    assert copied(path, url, capsys)["matches"] == 6  # the empty target takes the copy afterwards
    assert postgres_rows(url) == sqlite_rows(path)


@pg
def test_a_source_that_cannot_be_upgraded_is_refused_before_the_target_is_touched(
    tmp_path, postgres_server, capsys
):
    from test_state_format import unreadable_database

    path = tmp_path / "old.sqlite3"
    unreadable_database(path)
    before = fingerprint(str(path))
    url = postgres_server.new_database()
    assert main(["db", "copy", "--from", str(path), "--to", url]) == 2
    err = capsys.readouterr().err
    assert "1 of 2 stored matches cannot be upgraded" in err and "m1: " in err and str(path) in err
    assert "snapshot" not in err and "Nothing was copied" in err
    assert fingerprint(str(path)) == before
    import psycopg

    with psycopg.connect(url) as conn:  # not even migrated
        assert conn.execute("SELECT to_regclass('matches')").fetchone()[0] is None


@pg
def test_an_older_source_is_copied_with_its_states_upgraded_as_the_store_upgrades_them(
    tmp_path, postgres_server, capsys
):
    from test_state_format import old_database, replayed, untouched

    chosen = [s for s in untouched() if not replayed(s)[1].is_terminal()][::12]
    path = tmp_path / "old.sqlite3"
    old_database(path, [s["state_json"] for s in chosen], schema=1)
    before = fingerprint(str(path))
    url = postgres_server.new_database()
    summary = copied(str(path), url, capsys)
    assert summary["source_schema"] == 1 and summary["matches"] == len(chosen) > 0
    assert fingerprint(str(path)) == before
    states = [row[5] for row in postgres_rows(url)["matches"]]
    assert states == [replayed(s)[1].to_json() for s in chosen]


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("m.sqlite3", "mysql://u:secret@h/d", "--to must be a postgresql://"),
        ("postgresql://u@h/d", "postgresql://u@h/e", "--from must be a SQLite file"),
        ("missing.sqlite3", "postgresql://u@127.0.0.1:1/d", "no such file"),
    ],
)
def test_wrong_arguments_are_refused_before_connecting(
    tmp_path, monkeypatch, capsys, source, target, message
):
    pytest.importorskip("psycopg")
    (tmp_path / "m.sqlite3").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    assert main(["db", "copy", "--from", source, "--to", target]) == 2
    err = capsys.readouterr().err
    assert message in err and "secret" not in err
    assert sorted(os.listdir(tmp_path)) == ["m.sqlite3"]


def test_copied_columns_are_every_column_of_the_sqlite_schema(tmp_path):
    MatchStore(str(tmp_path / "m.sqlite3")).close()
    db = sqlite3.connect(tmp_path / "m.sqlite3")
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {table for table, _, _ in COPIED_TABLES}
    for table, columns, _ in COPIED_TABLES:
        assert [row[1] for row in db.execute(f"PRAGMA table_info({table})")] == list(columns)
    db.close()


@pg
def test_orrery_bench_db_copy_reports_the_copy_of_a_generated_store(tmp_path, postgres_server, capsys):
    url = postgres_server.new_database()
    kept = str(tmp_path / "generated.sqlite3")
    assert main(["bench", "db-copy", "--matches", "6", "--to", url, "--sqlite", kept, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["matches"] == 6 and report["rows"]["seats"] == 2 + 2 + 3 + 3 + 3 + 2
    assert report["rows"]["moves"] > 6 and report["copy_s"] > 0
    assert postgres_rows(url) == sqlite_rows(kept)


# ---- through the API: a server on SQLite, the copy, a server on PostgreSQL ----


def seen_by_clients(client, matches) -> dict:
    """What clients are told about these matches: each human seat's observation, the replay of an ended
    match, WatchMatch from the start (to END, or the SYNC and the moves so far), ListMatches."""
    from orrery.v1 import orrery_pb2 as pb

    seen: dict = {}
    for match in matches:
        views = [client.observation(match, seat) for seat, token in enumerate(match.tokens) if token]
        stream = client.watch(match, token=match.spectator_token, timeout=60)
        events = [next(stream)]
        while events[-1].kind != pb.MATCH_EVENT_END and len(events) <= events[0].move_number:
            events.append(next(stream))
        stream.cancel()
        replay = client.replay(match, svg_seat=0) if views[0].game_over else None
        seen[match.match_id] = (views, events, replay)
    tokens = [t for match in matches for t in match.tokens if t]
    seen["list"] = sorted(client.list_matches(tokens), key=lambda s: (s.match_id, s.seat))
    return seen


def play_until_the_ai_seat_moved(client, match, rng) -> int:
    """Seat 0 plays random legal moves until the AI seat has moved (and seat 0 is to move again); the
    move number then."""
    from orrery.service._spawn import wait_until

    for _ in range(300):
        view = client.observation(match, 0)
        assert not view.game_over
        if not view.your_turn:
            assert wait_until(lambda: client.observation(match, 0).your_turn, timeout=30)
            return int(client.observation(match, 0).move_number)
        client.apply(match, 0, action_id=rng.choice(view.legal_actions).id)
    raise AssertionError("the AI seat never got a turn")


@pg
def test_clients_see_the_same_matches_after_the_move_and_play_on(tmp_path, postgres_server, capsys):
    from test_service_replicas import SERVE  # in-process search, fast settings, no creation limit

    from orrery.service._spawn import running_server
    from orrery.service.client import HUMAN, OrreryClient, ai_seat

    path = str(tmp_path / "matches.sqlite3")
    url = postgres_server.new_database()
    rng = random.Random(2)
    with (
        running_server([*SERVE, "--db", path], same_imports=True) as server,
        OrreryClient(server.target) as c,
    ):
        finished = c.create_match("kuhn", players=2, seed=3)
        c.apply(finished, 0, action_id=1)
        c.apply(finished, 1, action_id=1)  # bet, call: the showdown
        ai = c.create_match(
            "tiny_epic_galaxies", players=2, seed=4, seats=[HUMAN, ai_seat(iterations=20, seed=1)]
        )
        copied_at = play_until_the_ai_seat_moved(c, ai, rng)
        trian = c.create_match("trian", players=2, seed=5)
        for _ in range(12):
            view = c.observation(trian, c.observation(trian, 0).current_player)
            c.apply(trian, view.seat, action_id=rng.choice(view.legal_actions).id)
        resigned = c.create_match("kuhn", players=3, seed=6)
        c.apply(resigned, 0, action_id=0)
        c.resign(resigned, 1)
        matches = [finished, ai, trian, resigned]
        before = seen_by_clients(c, matches)
    assert not os.path.exists(path + "-wal"), "the server closed the file"
    assert copied(path, url, capsys)["matches"] == 4
    with running_server([*SERVE, "--db", url], same_imports=True) as server, OrreryClient(server.target) as c:
        for match in matches:  # the tokens the SQLite server handed out
            for seat, token in enumerate(match.tokens):
                c._tokens[(match.match_id, seat)] = token
            c._tokens[(match.match_id, -1)] = match.spectator_token
        assert seen_by_clients(c, matches) == before
        now = play_until_the_ai_seat_moved(c, ai, rng)  # the copied match goes on, its AI seat too
        stream = c.watch(ai, after_move=copied_at, token=ai.spectator_token, timeout=60)
        events = [next(stream) for _ in range(1 + now - copied_at)]
        stream.cancel()
        assert [e.move_number for e in events[1:]] == list(range(copied_at + 1, now + 1))
        assert any(e.by_ai for e in events[1:]) and not events[1].by_ai
        assert c.create_match("kuhn", players=2).match_id not in {m.match_id for m in matches}


@pg
def test_a_file_that_is_not_a_sqlite_database_is_refused(tmp_path, postgres_server, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("not a database, but long enough to have a header of its own. " * 4)
    url = postgres_server.new_database()
    assert main(["db", "copy", "--from", str(path), "--to", url]) == 2
    assert "cannot be read as a SQLite database" in capsys.readouterr().err
    assert postgres_rows(url) == {table: [] for table in SELECTS}
