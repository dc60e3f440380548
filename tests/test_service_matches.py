"""AI seats, WatchMatch and the match lifecycle through real server processes (in-process search):
matches of AI seats only that play themselves, a person against an AI seat with the moves streamed and
a resumed watch, list/resign/abandon, expiry (--match-ttl), the creation limit, restarts."""

from __future__ import annotations

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.service._spawn import start_server
from orrery.service.client import HUMAN, OrreryClient, ai_seat
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow

IN_PROCESS = ["--backend", "in-process", "--workers", "2", "--config", "test-fast"]


def spawn(folder, *extra: str):
    return start_server(
        [*IN_PROCESS, "--db", str(folder / "m.sqlite3"), *extra], cwd=str(folder), same_imports=True
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    spawned = spawn(tmp_path_factory.mktemp("matches"))
    yield spawned
    spawned.terminate()


@pytest.fixture(scope="module")
def client(server):
    with OrreryClient(server.target, timeout=60) as c:
        yield c


def code_of(call) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details()


def events_until_end(stream) -> list[pb.MatchEvent]:
    events = []
    for event in stream:
        events.append(event)
        if event.kind == pb.MATCH_EVENT_END:
            break
    return events


def test_a_match_of_ai_seats_plays_itself(client):
    seats = [ai_seat("easy", seed=s) for s in range(3)]
    match = client.create_match("kuhn", players=3, seed=21, seats=seats)
    assert match.ai == (True, True, True) and match.tokens == ("", "", "") and match.spectator_token
    events = events_until_end(client.watch(match, timeout=60))  # as a spectator
    assert events[0].kind == pb.MATCH_EVENT_SYNC
    moves = [e for e in events if e.kind == pb.MATCH_EVENT_MOVE]
    end = events[-1]
    assert end.kind == pb.MATCH_EVENT_END and end.status == pb.MATCH_STATUS_FINISHED
    assert [m.move_number for m in moves] == list(range(1, end.move_number + 1))  # stored ones, then live
    assert all(m.by_ai and m.action.label and not m.action.struct_json for m in moves)
    replay = client.replay(match)  # the moves are stored like any other, and replay exactly
    assert [(m.seat, m.action.id) for m in replay.moves][-len(moves) :] == [
        (m.seat, m.action.id) for m in moves
    ]
    state = load_game("kuhn", players=3).new_initial_state(21)
    for move in replay.moves:
        assert state.current_player == move.seat
        state.apply(move.action.id)
    assert list(end.scores) == state.scores() == list(replay.scores)
    assert list(end.ranks) == state.ranks()
    # A spectator token is read-only: it is no seat's token.
    code, _ = code_of(lambda: client.observation(match, 0, token=match.spectator_token))
    assert code == grpc.StatusCode.PERMISSION_DENIED


def test_a_person_against_an_ai_seat_with_watch_and_resume(client):
    match = client.create_match("kuhn", players=2, seed=5, seats=[HUMAN, ai_seat("easy", seed=1)])
    assert match.ai == (False, True) and match.tokens[0] and not match.tokens[1]
    assert match.current_player == 0
    view = client.observation(match, 0)
    assert list(view.ai_seats) == [False, True] and view.status == pb.MATCH_STATUS_ACTIVE
    hint = client.suggest(match=match, seat=0, iterations=200, seed=3)
    assert hint.HasField("move_number") and hint.move_number == 0
    stream = client.watch(match, 0, timeout=60)
    sync = next(stream)
    assert sync.kind == pb.MATCH_EVENT_SYNC and sync.current_player == 0 and sync.move_number == 0
    client.apply(match, 0, action_id=0)  # check; then the AI seat moves by itself
    mine = next(stream)
    assert (mine.kind, mine.move_number, mine.seat, mine.by_ai) == (pb.MATCH_EVENT_MOVE, 1, 0, False)
    assert mine.action.struct_json  # the watcher's own move carries its structured form
    ai_move = next(stream)
    assert (ai_move.move_number, ai_move.seat, ai_move.by_ai) == (2, 1, True)
    stream.cancel()
    # Nobody can act for the AI seat: no one has its token, and a seat's token is that seat's only.
    code, _ = code_of(lambda: client.apply(match, 1, action_id=0, token=match.tokens[0]))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    # Reconnect after move 1: move 2 comes again, then whatever follows, then the end.
    resumed = client.watch(match, 0, after_move=1, timeout=60)
    first_two = [next(resumed), next(resumed)]
    assert first_two[0].kind == pb.MATCH_EVENT_SYNC
    assert (first_two[1].move_number, first_two[1].seat) == (2, 1)
    while True:
        view = client.observation(match, 0)
        if view.game_over:
            break
        if view.your_turn:
            client.apply(match, 0, action_id=view.legal_actions[0].id)
    rest = events_until_end(resumed)
    assert rest[-1].kind == pb.MATCH_EVENT_END and list(rest[-1].scores) == list(view.scores)
    numbers = [e.move_number for e in [first_two[1], *rest] if e.kind == pb.MATCH_EVENT_MOVE]
    assert numbers == list(range(2, view.move_number + 1))


def test_list_resign_and_abandon(client):
    a = client.create_match("kuhn", players=2, seed=1)
    b = client.create_match("kuhn", players=3, seed=2, seats=[HUMAN, HUMAN, ai_seat("easy", seed=4)])
    listed = client.list_matches([a.tokens[1], b.tokens[0], "made-up"])
    assert {(m.match_id, m.seat) for m in listed} == {(a.match_id, 1), (b.match_id, 0)}
    summary = next(m for m in listed if m.match_id == b.match_id)
    assert list(summary.ai_seats) == [False, False, True] and summary.status == pb.MATCH_STATUS_ACTIVE
    code, details = code_of(lambda: client.list_matches([]))
    assert code == grpc.StatusCode.UNAUTHENTICATED and details.startswith("metadata x-orrery-seat-token")

    watch = client.watch(a, timeout=60)
    assert next(watch).kind == pb.MATCH_EVENT_SYNC
    resigned = client.resign(a, 1)
    assert list(resigned.ranks) == [0, 1] and list(resigned.scores) == [-1.0, -1.0]  # points: the antes
    end = next(watch)
    assert (
        end.kind == pb.MATCH_EVENT_END and end.status == pb.MATCH_STATUS_RESIGNED and end.resigned_seat == 1
    )
    code, details = code_of(lambda: client.apply(a, 0, action_id=0))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and details.startswith("match_id:")
    assert list(client.replay(a).ranks) == [0, 1]  # the replay opens once it is over
    view = client.observation(a, 0)
    assert view.game_over and view.current_player == -1 and view.status == pb.MATCH_STATUS_RESIGNED
    assert view.resigned_seat == 1 and list(view.seat_teams) == [0, 1]

    client.abandon(b, 0)
    assert client.list_matches([b.tokens[1]])[0].status == pb.MATCH_STATUS_ABANDONED
    assert list(client.replay(b).scores) == []
    code, details = code_of(lambda: client.resign(b, 1))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and details.startswith("match_id:")
    code, _ = code_of(lambda: client.resign(b, 1, token=b.tokens[0]))
    assert code == grpc.StatusCode.PERMISSION_DENIED


def test_bad_seats_are_named_by_path(client):
    def create(seats, players=2):
        return client.create_match("kuhn", players=players, seats=seats)

    cases = [
        ([HUMAN], "seats:"),
        ([HUMAN, pb.SeatSpec()], "seats[1]:"),
        ([pb.SeatSpec(ai=pb.AiSeat(level=9)), HUMAN], "seats[0].ai.level:"),
        ([HUMAN, ai_seat(bot="nope")], "seats[1].ai.bot:"),
        (
            [HUMAN, pb.SeatSpec(ai=pb.AiSeat(budget=pb.Budget(milliseconds=0)))],
            "seats[1].ai.budget.milliseconds:",
        ),
        ([HUMAN, ai_seat(iterations=10**10)], "seats[1].ai.budget.iterations:"),
        ([HUMAN, ai_seat(turn_iterations=0)], "seats[1].ai.turn_budget.iterations:"),
        ([ai_seat(turn_iterations=10**9 + 1), HUMAN], "seats[0].ai.turn_budget.iterations:"),
        (
            [HUMAN, pb.SeatSpec(ai=pb.AiSeat(turn_budget=pb.Budget(milliseconds=0)))],
            "seats[1].ai.turn_budget.milliseconds:",
        ),
        ([HUMAN, ai_seat("easy", turn_milliseconds=86_400_001)], "seats[1].ai.turn_budget.milliseconds:"),
    ]
    for seats, field in cases:
        code, details = code_of(lambda seats=seats: create(seats))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith(field), details
    for request, field in [
        (pb.CreateMatchRequest(players=2), "game: required"),
        (pb.CreateMatchRequest(game="kuhn"), "players: required"),
    ]:
        code, details = code_of(lambda request=request: client.stub.CreateMatch(request, timeout=10))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and details == field
    for call, field in [
        (lambda: client.replay(""), "match_id: required"),
        (lambda: client.stub.StopAnalysis(pb.StopAnalysisRequest(), timeout=10), "query_id: required"),
        (lambda: client.observation("", 0, token="t"), "match_id: required"),
    ]:
        code, details = code_of(call)
        assert code == grpc.StatusCode.INVALID_ARGUMENT and details == field


def test_creation_limit_and_expiry(tmp_path):
    server = spawn(tmp_path, "--max-matches-per-minute", "3", "--match-ttl", "2")
    try:
        with OrreryClient(server.target, timeout=60) as client:
            idle = client.create_match("kuhn", players=2, seed=1)
            over = client.create_match("kuhn", players=2, seed=2)
            client.apply(over, 0, action_id=0)
            client.apply(over, 1, action_id=0)
            client.create_match("kuhn", players=2, seed=3)
            code, details = code_of(lambda: client.create_match("kuhn", players=2))
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "per minute" in details and "--max-matches-per-minute" in details and "retry in" in details
            # An idle match ends as expired after the TTL (its watchers see the end) ...
            end = events_until_end(client.watch(idle, 0, timeout=60))[-1]
            assert end.status == pb.MATCH_STATUS_EXPIRED and not end.scores
            # ... and an ended one is deleted a TTL after its end.
            for _ in range(200):
                try:
                    client.replay(over)
                except grpc.RpcError as exc:
                    assert exc.code() == grpc.StatusCode.NOT_FOUND
                    break
                import time

                time.sleep(0.1)
            else:
                pytest.fail("the finished match was never deleted")
    finally:
        assert server.terminate() == 0


def test_a_restart_resumes_ai_seats(tmp_path):
    server = spawn(tmp_path, "--drain-seconds", "0.2")
    seats = [ai_seat(milliseconds=2500, seed=1), HUMAN]
    try:
        with OrreryClient(server.target, timeout=60) as client:
            match = client.create_match("kuhn", players=2, seed=9, seats=seats)
    finally:
        assert server.terminate() == 0  # during the AI seat's first search: it is not applied
    server = spawn(tmp_path)
    try:
        with OrreryClient(server.target, timeout=60) as client:
            client._tokens[(match.match_id, 1)] = match.tokens[1]
            events = client.watch(match, 1, timeout=60)
            assert next(events).kind == pb.MATCH_EVENT_SYNC
            moved = next(events)
            assert (moved.move_number, moved.seat, moved.by_ai) == (1, 0, True)
            assert client.observation(match, 1).your_turn
    finally:
        assert server.terminate() == 0
