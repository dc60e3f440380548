"""The match store on both backends: SQLite (the default) and PostgreSQL (a real server the session
starts on loopback, tests/postgres_server.py). The same referee guarantees on each: one winner per turn
under concurrent changes (two store objects, as two replicas would hold), expected_move_number, nothing
changed by a refused request; then what only PostgreSQL has: versioned migrations applied whole or
not at all, AI turns claimed by one replica, notifications of other replicas' changes."""

from __future__ import annotations

import concurrent.futures as cf
import json
import sqlite3
import threading

import grpc
import pytest

from orrery.core_ext._action_kinds import id_kind
from orrery.service._errors import ServiceError
from orrery.service._matches import (
    ABANDONED,
    ACTIVE,
    EXPIRED,
    FINISHED,
    SCHEMA_VERSION,
    SPECTATOR,
    AiSpec,
    MatchStore,
    replay_pictures,
)
from orrery.service._store import MatchStoreBackend, open_store

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path):
    """A --db value for an empty store."""
    if request.param == "sqlite":
        return str(tmp_path / "matches.sqlite3")
    return request.getfixturevalue("postgres_server").new_database()


@pytest.fixture
def store(db):
    opened = open_store(db)
    yield opened
    opened.close()


def refused(call) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        call()
    return info.value


def legal(store, match_id: str, seat: int) -> list[int]:
    return [a.id for a in store.seat_view(match_id, seat).legal_actions]


def test_the_url_picks_the_backend(store, db):
    assert isinstance(store, MatchStoreBackend)
    assert store.shared == db.startswith("postgresql://")
    assert (type(store) is MatchStore) == (not store.shared)


def test_a_match_is_played_to_its_end_and_replayed(store):
    created = store.create("kuhn", 2, None, 7)
    assert created.current_player == 0 and len(created.tokens) == 2
    assert store.check_seat_token(created.match_id, 1, created.tokens[1])
    assert not store.check_seat_token(created.match_id, 1, created.tokens[0])
    moves = []
    seat = 0
    while True:
        applied = store.apply(created.match_id, seat, action_id=legal(store, created.match_id, seat)[0])
        moves.append(applied)
        if applied.game_over:
            break
        seat = applied.current_player
    assert [m.move_number for m in moves] == list(range(1, len(moves) + 1))
    assert moves[-1].status == FINISHED and sorted(moves[-1].ranks) in ([0, 1], [0, 0])
    history = store.history(created.match_id, 0)
    assert [m.move_number for m in history.moves] == [m.move_number for m in moves]
    assert history.status == FINISHED
    replay = store.replay(created.match_id)
    assert replay.seed == 7 and [a.id for _, _, a in replay.moves] == [m.action.id for m in moves]
    assert store.active_count() == 0


def test_a_refused_move_changes_nothing(store):
    created = store.create("kuhn", 2, None, 3)
    match_id = created.match_id
    first = legal(store, match_id, 0)[0]
    assert (
        refused(lambda: store.apply(match_id, 1, action_id=first)).code == grpc.StatusCode.FAILED_PRECONDITION
    )
    stale = refused(lambda: store.apply(match_id, 0, action_id=first, expected_move_number=4))
    assert stale.code == grpc.StatusCode.FAILED_PRECONDITION and stale.field == "expected_move_number"
    assert refused(lambda: store.apply(match_id, 0, action_id=99)).code == grpc.StatusCode.INVALID_ARGUMENT
    assert store.history(match_id, 0).move_number == 0
    assert store.apply(match_id, 0, action_id=first, expected_move_number=0).move_number == 1
    assert refused(lambda: store.apply("no-such-match", 0, action_id=first)).code == grpc.StatusCode.NOT_FOUND


def test_one_winner_per_turn_from_two_stores(db):
    """Eight callers on two store objects (two replicas' worth of connections) play the same turn with
    the same expected_move_number: exactly one is acknowledged, the others are refused, one move stored."""
    stores = [open_store(db), open_store(db)]
    try:
        created = stores[0].create("kuhn", 2, None, 11)
        action = legal(stores[0], created.match_id, 0)[0]
        start = threading.Barrier(8)

        def play(i: int) -> str:
            start.wait()
            try:
                stores[i % 2].apply(created.match_id, 0, action_id=action, expected_move_number=0)
                return "ok"
            except ServiceError as exc:
                return exc.code.name

        with cf.ThreadPoolExecutor(8) as pool:
            outcomes = list(pool.map(play, range(8)))
        assert outcomes.count("ok") == 1 and outcomes.count("FAILED_PRECONDITION") == 7
        assert [m.move_number for m in stores[1].history(created.match_id, 0).moves] == [1]
    finally:
        for s in stores:
            s.close()


def test_a_resignation_in_a_team_game_puts_the_resigners_team_last(store):
    created = store.create("take_the_galaxy", 4, "team", 5)
    resigned = store.resign(created.match_id, 0)
    assert resigned.ranks == (1, 0, 1, 0)  # seat 2, seat 0's team mate, loses with it
    assert resigned.scores == (1.0, 1.0, 1.0, 1.0)  # renown: each frontier colony's 1
    view = store.seat_view(created.match_id, 2)
    assert view.seat_teams == (0, 1, 0, 1) and view.resigned_seat == 0 and view.ranks == (1, 0, 1, 0)
    # The picture says how it ended, not whose turn it was.
    assert "game over — seat 0 resigned" in view.svg and "to play" not in view.svg
    # So does the replay's last picture (its other pictures show whose turn it was then).
    last = replay_pictures(store.replay(created.match_id), 2)[0]
    assert "game over — seat 0 resigned" in last and "to play" not in last


def test_resign_abandon_and_expiry(store):
    a = store.create("kuhn", 2, None, 1)
    b = store.create("kuhn", 2, None, 2)
    c = store.create("kuhn", 2, None, 3)
    assert store.active_count() == 3
    resigned = store.resign(a.match_id, 1)
    # Each seat's points when it resigned (Kuhn: both antes in), the resigner last.
    assert resigned.scores == (-1.0, -1.0) and resigned.ranks == (0, 1) and resigned.resigned_seat == 1
    assert store.abandon(b.match_id, 0).status == ABANDONED
    assert refused(lambda: store.resign(b.match_id, 0)).code == grpc.StatusCode.FAILED_PRECONDITION
    expired, deleted = store.expire(0.0, now=4e9)  # everything is older than this "now"
    assert [e.match_id for e in expired] == [c.match_id] and expired[0].status == EXPIRED
    assert deleted == 3  # the ended ones, the just expired one included (its age is the old one)
    assert store.active_count() == 0
    assert refused(lambda: store.history(a.match_id, 0)).code == grpc.StatusCode.NOT_FOUND


def test_an_ai_turn_is_offered_and_played_once(store):
    created = store.create("kuhn", 2, None, 5, ai=[None, AiSpec(level="easy", seed=1)])
    # Matches that may have an AI seat to move: on SQLite every active one with AI seats, on PostgreSQL
    # only those whose AI seat is to move and unclaimed; ai_turn decides.
    assert store.active_ai_matches() == ([] if store.shared else [created.match_id])
    assert store.ai_turn(created.match_id) is None
    store.apply(created.match_id, 0, action_id=legal(store, created.match_id, 0)[0], expected_move_number=0)
    assert store.active_ai_matches() == [created.match_id]
    turn = store.ai_turn(created.match_id)
    assert turn is not None and turn.seat == 1 and turn.move_number == 1
    action = turn.observation.legal_actions()[0]
    human = refused(lambda: store.apply(created.match_id, 1, action_id=action))
    assert human.code == grpc.StatusCode.FAILED_PRECONDITION  # an AI seat takes no person's move
    store.apply(created.match_id, 1, action_id=action, expected_move_number=1, by_ai=True)
    again = refused(
        lambda: store.apply(created.match_id, 1, action_id=action, expected_move_number=1, by_ai=True)
    )
    assert again.code == grpc.StatusCode.FAILED_PRECONDITION
    assert [m.by_ai for m in store.history(created.match_id, 0).moves] == [False, True]


# ---- PostgreSQL only ----

pg = pytest.mark.slow


@pg
def test_migrations_are_versioned_and_replicas_starting_together_apply_each_once(postgres_server):
    import psycopg

    from orrery.service._postgres import MIGRATIONS, upgrade

    url = postgres_server.new_database()
    with cf.ThreadPoolExecutor(3) as pool:
        results = list(pool.map(lambda _: upgrade(url), range(3)))
    latest = MIGRATIONS[-1][0]
    assert sorted(after for _, after in results) == [latest] * 3
    assert sorted(before for before, _ in results)[0] == 0
    with psycopg.connect(url) as conn:
        versions = [v for (v,) in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    assert versions == [v for v, _, _ in MIGRATIONS]
    assert upgrade(url) == (latest, latest)


@pg
def test_a_failing_migration_is_not_half_applied(postgres_server):
    import psycopg

    from orrery.service._postgres import MIGRATIONS, DatabaseSetupError, upgrade

    url = postgres_server.new_database()
    broken = (*MIGRATIONS, (99, "a table, then a mistake", "CREATE TABLE half (x INTEGER); SELECT nonsense"))
    with pytest.raises(DatabaseSetupError, match='schema upgrade failed: column "nonsense" does not exist'):
        upgrade(url, broken)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == MIGRATIONS[-1][0]
        assert conn.execute("SELECT to_regclass('half')").fetchone()[0] is None
    newer = (*MIGRATIONS, (99, "from a later server", "CREATE TABLE later (x INTEGER)"))
    upgrade(url, newer)
    with pytest.raises(RuntimeError, match="schema 99"):
        open_store(url)  # an older server refuses a newer schema


@pg
def test_an_ai_turn_is_claimed_by_one_replica_until_its_lease_lapses(postgres_server):
    import psycopg

    url = postgres_server.new_database()
    a, b = open_store(url), open_store(url)
    try:
        created = a.create("kuhn", 2, None, 5, ai=[AiSpec(level="easy", seed=1), None])
        assert a.ai_turn(created.match_id) is not None
        assert b.ai_turn(created.match_id) is None  # a holds it
        assert a.ai_turn(created.match_id) is not None  # its own claim (a retry) is renewed
        assert b.active_ai_matches() == []
        with psycopg.connect(url, autocommit=True) as conn:  # a is killed: its lease runs out
            conn.execute("UPDATE ai_claims SET until = now() - interval '1 second'")
        assert b.active_ai_matches() == [created.match_id]
        assert b.ai_turn(created.match_id) is not None
        assert a.ai_turn(created.match_id) is None
        b.close()  # a replica that stops gives its claims up: no wait for the lease
        assert a.ai_turn(created.match_id) is not None
    finally:
        a.close()
        b.close()


@pg
def test_other_replicas_changes_are_notified(postgres_server):
    url = postgres_server.new_database()
    a, b = open_store(url), open_store(url)
    seen: list[tuple[str | None, int]] = []
    arrived = threading.Event()

    def on_change(match_id, move_number):
        seen.append((match_id, move_number))
        if move_number == -1:
            arrived.set()

    try:
        b.listen(on_change)  # returns once it listens
        created = a.create("kuhn", 3, None, 9)
        b.apply(created.match_id, 0, action_id=legal(b, created.match_id, 0)[0])  # b's own: not notified
        a.apply(created.match_id, 1, action_id=legal(a, created.match_id, 1)[0])
        a.abandon(created.match_id, 0)
        assert arrived.wait(10)
        assert seen == [(created.match_id, 2), (created.match_id, -1)]
        assert b.history(created.match_id, 0).status == ABANDONED
    finally:
        a.close()
        b.close()


def test_orrery_db_upgrade_brings_the_schema_up_to_date(db, capsys):
    from orrery.service.cli import main

    assert main(["db", "upgrade", "--db", db]) == 0
    first = capsys.readouterr().out
    assert "schema 0 -> " in first and "password" not in first
    assert main(["db", "upgrade", "--db", db]) == 0
    assert "up to date" in capsys.readouterr().out
    open_store(db).close()  # and a server opens it as it is


def _forget_viewer_labels(db: str, match_id: str) -> None:
    """The match's moves as a server before per-viewer labels stored them: labels_json NULL."""
    sql = "UPDATE moves SET labels_json = NULL WHERE match_id = "
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(sql + "%s", (match_id,))
        return
    with sqlite3.connect(db) as conn:
        conn.execute(sql + "?", (match_id,))


def test_a_move_stored_without_viewer_labels_shows_others_only_its_kind(store, db):
    created = store.create("tiny_epic_galaxies", 2, None, 3)
    first = store.apply(created.match_id, 0, action_id=legal(store, created.match_id, 0)[0])
    assert "mission" in first.action.label and first.action.label_for(SPECTATOR) != first.action.label
    assert first.action.label_for(0) == first.action.label
    _forget_viewer_labels(db, created.match_id)
    (record,) = store.history(created.match_id, 0).moves
    (_, _, replayed) = store.replay(created.match_id).moves[0]  # the replay of a match still played
    assert store.replay(created.match_id).status == ACTIVE
    kind = id_kind("tiny_epic_galaxies", first.action.id)
    for action in (record.action, replayed):
        assert action.label == first.action.label  # the mover's own, as stored
        assert action.label_for(0) == first.action.label
        assert action.label_for(1) == action.label_for(SPECTATOR) == kind != first.action.label


def test_a_schema_4_file_gains_viewer_labels_and_keeps_its_moves(tmp_path):
    path = str(tmp_path / "m.sqlite3")
    store = MatchStore(path)
    created = store.create("tiny_epic_galaxies", 2, None, 3)
    old = store.apply(created.match_id, 0, action_id=legal(store, created.match_id, 0)[0])
    store.close()
    with sqlite3.connect(path) as conn:  # as a schema-4 server left it
        conn.execute("ALTER TABLE moves DROP COLUMN labels_json")
        conn.execute("PRAGMA user_version=4")
    store = MatchStore(path)
    try:
        new = store.apply(created.match_id, 1, action_id=legal(store, created.match_id, 1)[0])
        before, after = (m.action for m in store.history(created.match_id, 0).moves)
        assert before.label_for(1) == id_kind("tiny_epic_galaxies", old.action.id) != old.action.label
        assert before.label_for(0) == old.action.label
        assert after.labels == new.action.labels and after.label_for(0) != new.action.label
    finally:
        store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_each_watcher_gets_what_a_move_set_off_as_it_saw_it(store, db):
    """moves.events_json (schema 6): every viewer's events and changes, as WatchMatch sends them; equal to
    move_events on that viewer's own views, recomputed by replaying the seed; a row without them
    (stored before schema 6) sends none (issue 27)."""
    from orrery.core_ext import load_game
    from orrery.core_ext._move_events import move_events
    from orrery.service._servicer import _as_seen_by, _history_events

    created = store.create("take_the_galaxy", 2, None, 5)
    mid = created.match_id
    state = load_game("take_the_galaxy", players=2).new_initial_state(5)
    expected = []
    for _ in range(30):
        seat = state.current_player
        action = legal(store, mid, seat)[-1]
        store.apply(mid, seat, action_id=action)
        before = {
            v: (state.public_observation() if v == SPECTATOR else state.observation(v)) for v in (-1, 0, 1)
        }
        state.apply(action)
        after = {
            v: (state.public_observation() if v == SPECTATOR else state.observation(v)) for v in (-1, 0, 1)
        }
        expected.append({v: move_events(before[v], after[v], mover=seat) for v in before})
    sent = _history_events(store.history(mid, 0))
    assert any(seen[SPECTATOR].events for seen in expected)  # something happened to say
    for watcher in (SPECTATOR, 0, 1):
        for event, want in zip(sent, expected, strict=True):
            message = _as_seen_by(event, watcher)
            assert tuple(message.events) == want[watcher].events
            assert json.loads(message.changes_json) == want[watcher].changes
    if not db.startswith("postgresql"):
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE moves SET events_json = NULL WHERE match_id = ?", (mid,))
        message = _as_seen_by(_history_events(store.history(mid, 0))[0], 0)
        assert list(message.events) == [] and message.changes_json == ""


def test_the_picture_outlines_what_the_last_turn_changed(store):
    """A seat's picture outlines (class "last-move") the places the latest turn changed as that seat saw
    them: after the other seat places a tile in Trian, the new cell (issue 27)."""
    created = store.create("trian", 2, "beginner", 5)
    mid = created.match_id
    for _ in range(60):
        seat = store.seat_view(mid, 0).current_player
        choices = legal(store, mid, seat)
        placing = [a for a in choices if a >= 1024]
        applied = store.apply(mid, seat, action_id=(placing or choices)[0])
        if seat == 1 and placing:
            break
    else:
        pytest.fail("seat 1 never placed a tile")
    (cell,) = [key for key in applied.action.events_for(0).touched if key[0] == "cell"][:1]
    svg = store.seat_view(mid, 0).svg
    assert svg.count("class='last-move'") >= 1
    assert "tile " in " ".join(applied.action.events_for(0).events) and cell[0] == "cell"
