"""The gRPC service through a real server process (in-process search backend) and the real client:
hosted matches to the end, stateless suggestions, Analyze, deadlines, tokens and every error code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import grpc
import pytest

from orrery.core_ext import load_game
from orrery.search import LEVELS, shipped_models
from orrery.search._levels import trusted_moves
from orrery.service._servicer import _learned_model
from orrery.service._spawn import start_server
from orrery.service.client import OrreryClient, final_update
from orrery.v1 import orrery_pb2 as pb

pytestmark = pytest.mark.slow  # every test talks to a real `orrery serve` process

MAX_BUDGET_MS = 3000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("service")
    args = ["--backend", "in-process", "--workers", "2", "--db", str(folder / "matches.sqlite3")]
    args += ["--max-budget-ms", str(MAX_BUDGET_MS), "--config", "test-fast"]
    spawned = start_server(args, cwd=str(folder), same_imports=True)
    yield spawned
    spawned.terminate()


@pytest.fixture(scope="module")
def client(server):
    with OrreryClient(server.target, timeout=30) as c:
        yield c


def code_of(call) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details()


def kuhn_observation_json(players: int = 2, seed: int = 3, moves: tuple[int, ...] = ()) -> tuple[str, int]:
    state = load_game("kuhn", players=players).new_initial_state(seed)
    for action in moves:
        state.apply(action)
    return state.observation(state.current_player).to_json(), state.current_player


# ---- hosted matches ----


def test_list_games_and_version(client):
    games = {g.name: g for g in client.games()}
    assert "kuhn" in games and list(games["kuhn"].player_counts) == [2, 3, 4, 5]
    assert games["kuhn"].action_description
    # issue 19: the OpenSpiel bounds of every game, as the Python Game objects give them
    for name, g in games.items():  # the largest over the game's variants
        counts = {v.variant: v.player_counts[0] for v in g.variant_player_counts}
        variants = [load_game(name, players=counts.get(v, g.player_counts[0]), variant=v) for v in g.variants]
        assert g.num_distinct_actions == max(game.num_distinct_actions for game in variants)
        assert g.max_game_length == max(game.max_game_length for game in variants)
    assert games["trian"].num_distinct_actions == 210000
    assert (games["kuhn"].num_distinct_actions, games["kuhn"].max_game_length) == (2, 9)
    # issue 31: the shipped learned models, one message each, with what the model's manifest says
    model, three = games["trian"].learned_models  # sorted by variant and player count
    assert (three.variant, three.players, three.format_version, three.layout_version) == ("full", 3, 2, 1)
    assert three.search_config == "ismcts-trian-learned@2"
    shipped = {(m.game, m.players): m for m in shipped_models()}[("trian", 2)]
    assert (model.variant, model.players, model.format_version, model.layout_version) == ("full", 2, 2, 1)
    assert model.catalogue == load_game("trian", players=2, variant="full")._catalogue_revision()
    assert (model.file_bytes, model.sha256, model.trained, model.training_command) == (
        shipped.file_bytes,
        shipped.sha256,
        shipped.trained,
        shipped.training_command,
    )
    assert (model.training_games, model.training_positions) == (
        shipped.training_games,
        shipped.training_positions,
    )
    assert model.training_command.startswith("orrery train fit") and model.training_games > 0
    assert model.search_config == "ismcts-trian-learned@2"  # the preset a bot or config names to use it
    # how each played against the hand-written evaluation, from its manifest's tournament
    assert (model.strength, three.strength) == (pb.MODEL_STRENGTH_MIXED, pb.MODEL_STRENGTH_WEAKER)
    assert model.strength_summary == shipped.strength_summary != ""
    assert list(model.levels) == list(three.levels) == []  # no Trian level plays its model by default
    ttg_models = games["take_the_galaxy"].learned_models
    assert [(m.variant, m.players, m.search_config) for m in ttg_models] == [
        ("standard", 2, "ismcts-ttg-learned@1")
    ]
    # This server runs --config test-fast, which every request naming no config plays: no level plays the
    # model here. A server without --config lists the levels of orrery.search.LEARNED_LEVELS.
    assert list(ttg_models[0].levels) == []
    (ttg_shipped,) = [m for m in shipped_models() if m.game == "take_the_galaxy"]
    assert list(_learned_model(ttg_shipped).levels) == [pb.LEVEL_HARD, pb.LEVEL_EXPERT]
    assert list(_learned_model(ttg_shipped, "test-fast").levels) == []
    teg = {(m.variant, m.players, m.search_config) for m in games["tiny_epic_galaxies"].learned_models}
    shipped_teg = {(m.variant, m.players) for m in shipped_models() if m.game == "tiny_epic_galaxies"}
    assert (
        teg == {(v, n, "ismcts-teg-learned@2") for v, n in shipped_teg}
        and ("base", 2, "ismcts-teg-learned@2") in teg
    )
    with_model = {"trian", "take_the_galaxy", "tiny_epic_galaxies"}
    assert [g.learned_models for n, g in games.items() if n not in with_model] == [[]] * (len(games) - 3)
    version = client.version()
    assert version.api_version == "orrery.v1" and version.backend == "in-process"
    assert version.default_config == "test-fast@1" and version.live_workers == 2
    assert version.max_budget_ms == MAX_BUDGET_MS


@pytest.mark.parametrize("players,variant", [(3, ""), (5, ""), (4, "teams")])
def test_full_hosted_match_to_the_end_never_leaks_hidden_cards(client, players, variant):
    match = client.create_match("kuhn", players=players, seed=11, variant=variant)
    seen: list[tuple[int, int, str]] = []  # (move number, seat, observation JSON) as the server sent them
    while True:
        views = [client.observation(match, seat) for seat in range(players)]
        seen.extend((v.move_number, v.seat, v.observation_json) for v in views)
        if views[0].game_over:
            break
        mover = views[0].current_player
        assert [v.your_turn for v in views] == [s == mover for s in range(players)]
        assert all(not v.legal_actions for s, v in enumerate(views) if s != mover)
        hint = client.suggest(match=match, seat=mover, level="easy", seed=mover)
        assert hint.action.id in [a.id for a in views[mover].legal_actions]
        applied = client.apply(match, mover, action_id=hint.action.id)
        assert applied.move_number == views[0].move_number + 1
    final = views[0]
    replay = client.replay(match)
    assert replay.seed == 11 and len(replay.moves) == final.move_number
    # Replay locally: every view the server gave equals the game layer's own observation for that seat.
    state = load_game("kuhn", players=players, variant=variant or None).new_initial_state(11)
    expected = {}
    for move in replay.moves:
        for seat in range(players):
            expected[(move.move_number - 1, seat)] = state.observation(seat).to_json()
        assert state.current_player == move.seat
        state.apply(move.action.id)
    for seat in range(players):
        expected[(len(replay.moves), seat)] = state.observation(seat).to_json()
    assert all(text == expected[(n, seat)] for n, seat, text in seen)
    assert list(replay.scores) == state.scores() == list(final.scores)
    assert list(final.ranks) == state.ranks()
    assert replay.final_state_json == state.to_json()
    # A window of pictures: the last position only (a window past the end stops there), as seat 1 saw it.
    from orrery.render import to_svg

    last = client.replay(match, svg_seat=1, svg_from=len(replay.moves), svg_count=5)
    assert [m.svg for m in last.moves[:-1]] == [""] * (len(replay.moves) - 1) and last.initial_svg == ""
    assert last.moves[-1].svg == to_svg(state.observation(1).to_dict())


def test_apply_by_structured_action_and_expected_move_number(client):
    match = client.create_match("kuhn", players=2, seed=5)
    view = client.observation(match, 0)
    bet = next(a for a in view.legal_actions if json.loads(a.struct_json)["kind"] == "bet")
    code, details = code_of(lambda: client.apply(match, 0, action_id=bet.id, expected_move_number=3))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and details.startswith("expected_move_number")
    applied = client.apply(match, 0, action_json=bet.struct_json, expected_move_number=0)
    assert applied.applied.id == bet.id and applied.current_player == 1


def test_match_errors_name_the_field(client):
    code, details = code_of(lambda: client.create_match("chess", players=2))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("game:")
    code, details = code_of(lambda: client.create_match("kuhn", players=7))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("players:")
    code, details = code_of(lambda: client.create_match("kuhn", players=2, variant="nope"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("variant:")

    match = client.create_match("kuhn", players=2, seed=1)
    code, details = code_of(lambda: client.apply(match, 1, action_id=0))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and details.startswith("seat:")
    code, details = code_of(lambda: client.apply(match, 0, action_id=9))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("action_id:")
    code, details = code_of(lambda: client.apply(match, 0))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("action:")
    code, details = code_of(lambda: client.observation(match, 5, token=match.tokens[0]))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("seat:")
    # While the match is played its replay needs the viewer's token and withholds the seed (the deal).
    code, details = code_of(lambda: client.stub.GetReplay(pb.GetReplayRequest(match_id=match.match_id)))
    assert code == grpc.StatusCode.UNAUTHENTICATED and details.startswith("metadata x-orrery-seat-token")
    code, details = code_of(lambda: client.replay(match, seat=1, token=match.tokens[0]))
    assert code == grpc.StatusCode.PERMISSION_DENIED and details.startswith("metadata x-orrery-seat-token")
    code, details = code_of(lambda: client.replay(match, seat=0, svg_seat=1))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("svg_seat:")
    code, details = code_of(lambda: client.replay(match, svg_seat=1))  # the spectator: svg_public
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("svg_seat:")
    code, details = code_of(lambda: client.replay(match, seat=0, svg_public=True))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("svg_public:")
    public = client.replay(match, svg_public=True)
    assert "the public view" in public.initial_svg
    live = client.replay(match)  # the spectator's view, with the spectator token
    assert live.status == pb.MATCH_STATUS_ACTIVE and live.moves == [] and live.seed == 0
    assert live.final_state_json == "" and list(live.scores) == [] and list(live.ranks) == []
    code, details = code_of(lambda: client.observation("0" * 32, 0, token="x"))
    assert code == grpc.StatusCode.NOT_FOUND and details.startswith("match_id:")
    code, _ = code_of(lambda: client.replay("no-such-match"))
    assert code == grpc.StatusCode.NOT_FOUND

    client.apply(match, 0, action_id=0)  # check
    client.apply(match, 1, action_id=0)  # check: showdown, game over
    code, details = code_of(lambda: client.apply(match, 0, action_id=0))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "over" in details
    code, details = code_of(lambda: client.suggest(match=match, seat=0, iterations=10))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "over" in details
    ended = client.replay(match)
    assert len(ended.moves) == 2 and ended.seed == 1 and ended.status == pb.MATCH_STATUS_FINISHED


def test_seat_tokens(client):
    match = client.create_match("kuhn", players=2, seed=2)
    other = client.create_match("kuhn", players=2, seed=2)
    request = pb.GetObservationRequest(match_id=match.match_id, seat=0)
    code, _ = code_of(lambda: client.stub.GetObservation(request))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    for wrong in (match.tokens[1], other.tokens[0], "made-up-token"):
        code, _ = code_of(lambda wrong=wrong: client.observation(match, 0, token=wrong))
        assert code == grpc.StatusCode.PERMISSION_DENIED
    code, _ = code_of(lambda: client.apply(match, 0, action_id=0, token=match.tokens[1]))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    code, _ = code_of(lambda: client.suggest(match=match, seat=0, iterations=10, token=match.tokens[1]))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    hosted = pb.SuggestMoveRequest(match=pb.HostedSeat(match_id=match.match_id, seat=0))
    code, _ = code_of(lambda: client.stub.SuggestMove(hosted))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    analyze = pb.AnalyzeRequest(query=hosted)
    code, _ = code_of(lambda: list(client.stub.Analyze(analyze)))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    bearer = [("authorization", f"Bearer {match.tokens[0]}")]
    assert client.stub.GetObservation(request, metadata=bearer).your_turn
    assert client.observation(match, 0).move_number == 0  # nothing changed by the refused calls


# ---- search ----


def test_stateless_suggest_is_reproducible_for_an_iteration_budget(client):
    text, seat = kuhn_observation_json(players=3, seed=4, moves=(1,))
    a = client.suggest(game="kuhn", observation_json=text, iterations=3000, seed=9, top_k=2)
    b = client.suggest(game="kuhn", observation_json=text, iterations=3000, seed=9, top_k=2)
    assert a.action.id == b.action.id and a.stats.iterations == b.stats.iterations == 3000
    assert [c.visits for c in a.candidates] == [c.visits for c in b.candidates]
    assert len(a.candidates) == 2 and a.candidates[0].visits >= a.candidates[1].visits
    assert sum(c.visits for c in a.candidates) == 3000
    assert a.action.id == a.candidates[0].action.id  # no level: the most visited
    assert all(0.0 <= c.value <= 1.0 and c.principal_variation[0].id == c.action.id for c in a.candidates)
    s = a.stats
    assert s.workers == 2 and not s.cut_short and s.seed == 9 and s.config == "test-fast@1"
    assert s.budget.iterations == 3000 and s.tolerance == 0.0
    assert json.loads(a.action.struct_json)["label"] == a.action.label


def test_milliseconds_budget_and_server_cap(client):
    text, _ = kuhn_observation_json()
    t0 = time.monotonic()
    answer = client.suggest(game="kuhn", observation_json=text, milliseconds=200)
    assert time.monotonic() - t0 >= 0.19 and answer.stats.iterations > 0
    assert answer.stats.budget.milliseconds == 200 and not answer.stats.budget_clamped
    # the clamped search runs the server's whole cap (3 s) under the client's 30 s deadline: a short call
    # deadline would leave the answer a 200 ms margin, which a busy machine can miss
    capped = client.suggest(game="kuhn", observation_json=text, milliseconds=10**6)
    assert capped.stats.budget_clamped and capped.stats.budget.milliseconds == MAX_BUDGET_MS
    assert not capped.stats.cut_short


def test_deadline_shorter_than_budget_answers_in_time(client):
    text, _ = kuhn_observation_json()
    t0 = time.monotonic()
    answer = client.suggest(game="kuhn", observation_json=text, milliseconds=2900, timeout=2.0)
    elapsed = time.monotonic() - t0
    assert elapsed < 2.0 and answer.stats.cut_short and answer.stats.iterations > 0
    assert answer.stats.deadline_ms < 1900  # about 200 ms kept to send the answer
    t0 = time.monotonic()
    answer = client.suggest(game="kuhn", observation_json=text, iterations=10**9, timeout=1.5)
    assert time.monotonic() - t0 < 1.5 and answer.stats.cut_short


def test_levels_set_budget_and_tolerance(client):
    text, _ = kuhn_observation_json()
    easy = client.suggest(game="kuhn", observation_json=text, level="easy", seed=1)
    # A level's budget covers a turn; a hint gets the turn's first decision's share: all of it in Kuhn,
    # whose turns are one decision each (search.EXPECTED_DECISIONS).
    easy_budget = LEVELS["easy"].iterations
    assert easy.stats.tolerance == LEVELS["easy"].tolerance and easy.stats.budget.iterations == easy_budget
    assert easy.stats.iterations == easy_budget
    hard = client.suggest(game="kuhn", observation_json=text, level="hard", seed=1)
    assert 0 < hard.stats.tolerance < easy.stats.tolerance
    assert hard.stats.iterations == LEVELS["hard"].iterations
    for seed in range(12):  # Kuhn has 2 moves: every candidate is returned, so the rule can be checked
        answer = client.suggest(game="kuhn", observation_json=text, level="easy", seed=seed, top_k=5)
        values = {c.action.id: c.value for c in answer.candidates}
        most = max(c.visits for c in answer.candidates)
        visits = [c.visits for c in answer.candidates]
        trusted = [answer.candidates[i].value for i in trusted_moves(visits, answer.stats.tolerance)]
        if trusted:
            assert values[answer.action.id] > max(trusted) - answer.stats.tolerance
        else:  # no value precise enough to compare within the tolerance: the most-visited is played
            assert {c.action.id: c.visits for c in answer.candidates}[answer.action.id] == most


def test_analyze_streams_progress_then_one_final_on_stop(client):
    text, _ = kuhn_observation_json()
    stream = client.analyze(game="kuhn", observation_json=text, milliseconds=2500, progress_interval_ms=50)
    updates = []
    for update in stream:
        updates.append(update)
        if len(updates) == 4:
            assert client.stop_analysis(update.query_id)
    assert updates[0].query_id and not updates[0].HasField("result")
    assert [u.sequence for u in updates] == list(range(len(updates)))
    assert [u.final for u in updates] == [False] * (len(updates) - 1) + [True]
    final = updates[-1]
    assert final.stop_reason == pb.STOP_REASON_STOPPED and final.result.stats.cut_short
    assert final.result.hints.rollouts_per_move == 8  # a stopped query's hints: the minimum rollouts
    progress = [u.result.stats.iterations for u in updates[1:-1]]
    assert progress == sorted(progress) and final.result.stats.iterations >= progress[-1] > 0
    assert final.result.stats.elapsed_ms < 2000
    assert not client.stop_analysis(final.query_id)


def test_final_answers_carry_hints_in_the_games_terms(client):
    """SuggestMove and Analyze's final message carry hints (docs/api.md "Hints"); progress does not."""
    text, _ = kuhn_observation_json()
    answer = client.suggest(game="kuhn", observation_json=text, iterations=2000, seed=4, top_k=2)
    summary = answer.hints
    assert summary.score_unit == "chips" and summary.players == 2 and summary.sides == 2
    assert summary.best.id == answer.candidates[0].action.id and summary.rollouts_per_move == 32
    assert summary.chosen.rollouts == 32 and summary.principal_variation[0].seat_name == "you"
    best, other = answer.candidates
    assert best.hint.score_behind == 0.0 and 0.0 <= best.hint.win_chance <= 1.0
    assert 1.0 <= other.hint.expected_place <= 2.0 and other.hint.value_behind == best.value - other.value
    assert summary.chosen == best.hint  # full strength plays the best move
    again = client.suggest(game="kuhn", observation_json=text, iterations=2000, seed=4, top_k=2)
    again.hints.elapsed_ms = answer.hints.elapsed_ms = 0.0
    again.stats.elapsed_ms = answer.stats.elapsed_ms = again.stats.queue_ms = answer.stats.queue_ms = 0.0
    again.stats.deadline_ms = answer.stats.deadline_ms = 0.0
    assert again == answer  # an iterations budget's hints depend on the seed only
    updates = list(
        client.analyze(game="kuhn", observation_json=text, milliseconds=300, progress_interval_ms=50)
    )
    assert updates[-1].result.HasField("hints") and updates[-1].result.candidates[0].HasField("hint")
    assert not any(u.result.HasField("hints") for u in updates[:-1])
    # Tools ask for the move only: no hint pass, the same search answer.
    bare = client.suggest(
        game="kuhn", observation_json=text, iterations=2000, seed=4, top_k=2, skip_hints=True
    )
    assert not bare.HasField("hints") and not any(c.HasField("hint") for c in bare.candidates)
    assert [(c.action.id, c.visits) for c in bare.candidates] == [
        (c.action.id, c.visits) for c in answer.candidates
    ]


def test_a_hosted_seats_hints_are_those_of_its_observation(client):
    """A hosted seat's hints come from its observation only: the same search asked with that seat's
    observation JSON (stateless) gives the same hints, hidden cards of the other seat included."""
    match = client.create_match("trian", players=2, variant="full", seed=12)
    view = client.observation(match, 0)
    hosted = client.suggest(match=match, seat=0, iterations=300, seed=2, top_k=3)
    given = client.suggest(
        game="trian", observation_json=view.observation_json, iterations=300, seed=2, top_k=3
    )
    for answer in (hosted, given):
        answer.hints.elapsed_ms = 0.0
    assert hosted.hints == given.hints and list(hosted.candidates) == list(given.candidates)


def test_analyze_budget_and_deadline_end_with_one_final(client):
    text, _ = kuhn_observation_json()
    done = final_update(client.analyze(game="kuhn", observation_json=text, iterations=20000))
    assert done.stop_reason == pb.STOP_REASON_BUDGET and done.result.stats.iterations == 20000
    t0 = time.monotonic()
    stream = client.analyze(
        game="kuhn", observation_json=text, milliseconds=2900, progress_interval_ms=100, timeout=1.5
    )
    updates = list(stream)
    assert time.monotonic() - t0 < 1.5
    assert sum(u.final for u in updates) == 1 and updates[-1].final
    assert updates[-1].stop_reason == pb.STOP_REASON_DEADLINE and updates[-1].result.stats.cut_short


def test_analyze_client_cancel_frees_the_search(client, server):
    import urllib.request

    def active() -> float:
        text = urllib.request.urlopen(server.metrics_url).read().decode()
        line = next(x for x in text.splitlines() if x.startswith("orrery_active_searches "))
        return float(line.split()[1])

    text, _ = kuhn_observation_json()
    stream = client.analyze(game="kuhn", observation_json=text, milliseconds=3000, progress_interval_ms=50)
    for update in stream:
        if update.sequence == 2:
            break
    assert active() == 1.0
    stream.cancel()
    t0 = time.monotonic()
    while active() > 0 and time.monotonic() - t0 < 2.0:
        time.sleep(0.02)
    assert active() == 0.0 and time.monotonic() - t0 < 1.0  # freed long before its 3 s budget
    assert client.suggest(game="kuhn", observation_json=text, iterations=100).stats.iterations == 100


def test_search_errors_name_the_field(client):
    text, seat = kuhn_observation_json()
    cases = [
        (dict(game="kuhn", observation_json=text, iterations=0), "params.budget.iterations"),
        (dict(game="kuhn", observation_json=text, milliseconds=10**8), "params.budget.milliseconds"),
        (dict(game="kuhn", observation_json=text, config="no-such-config"), "params.config"),
        (dict(game="kuhn", observation_json=text, top_k=1000), "params.top_k"),
        (dict(game="chess", observation_json=text), "observation.game"),
        (dict(game="kuhn", observation_json="{not json"), "observation.observation_json"),
        (dict(game="kuhn", observation_json="[]"), "observation.observation_json"),
        (dict(game="kuhn", observation_json=text.replace('"players":2', '"players":3')), "observation."),
    ]
    for kwargs, field in cases:
        code, details = code_of(lambda kwargs=kwargs: client.suggest(**kwargs))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith(field), (kwargs, details)
    request = pb.SuggestMoveRequest(params=pb.SearchParams(level=9))
    request.observation.game, request.observation.observation_json = "kuhn", text
    code, details = code_of(lambda: client.stub.SuggestMove(request))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("params.level")
    code, details = code_of(lambda: client.stub.SuggestMove(pb.SuggestMoveRequest()))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("position")
    code, details = code_of(
        lambda: list(client.stub.Analyze(pb.AnalyzeRequest(query=request, progress_interval_ms=1)))
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("progress_interval_ms")
    # a position where the observer is not the seat to move, and a finished game
    state = load_game("kuhn", players=2).new_initial_state(3)
    code, details = code_of(
        lambda: client.suggest(game="kuhn", observation_json=state.observation(1 - seat).to_json())
    )
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "turn" in details
    state.apply(0)
    state.apply(0)
    over = state.observation(0).to_json()
    code, details = code_of(lambda: client.suggest(game="kuhn", observation_json=over))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "over" in details


def test_the_config_picks_the_learned_evaluation_or_names_the_field(client):
    """params.config "ismcts-trian-learned" searches with the shipped model where one exists (Trian full,
    2 and 3 players): a different answer from ismcts-trian@1's at the same seed. Elsewhere: INVALID_ARGUMENT
    naming params.config (SuggestMove, Analyze) or the seat's bot (CreateMatch)."""
    state = load_game("trian", players=2, variant="full").new_initial_state(5)
    text = state.observation(state.current_player).to_json()
    answers = {
        config: client.suggest(
            game="trian",
            observation_json=text,
            iterations=300,
            seed=2,
            top_k=4,
            config=config,
            skip_hints=True,
        )
        for config in ("ismcts-trian@1", "ismcts-trian-learned@2")
    }
    assert answers["ismcts-trian-learned@2"].stats.config == "ismcts-trian-learned@2"
    values = {k: [(c.action.id, c.visits, c.value) for c in a.candidates] for k, a in answers.items()}
    assert values["ismcts-trian@1"] != values["ismcts-trian-learned@2"]
    kuhn, _ = kuhn_observation_json()
    code, details = code_of(
        lambda: client.suggest(
            game="kuhn", observation_json=kuhn, iterations=10, config="ismcts-trian-learned"
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert details.startswith(
        "params.config: ismcts-trian-learned@2 has evaluation 'learned', but no learned"
    )
    assert "kuhn (standard, 2 players)" in details and "learned_models" in details
    code, details = code_of(
        lambda: list(
            client.analyze(game="kuhn", observation_json=kuhn, iterations=10, config="ismcts-trian-learned")
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("params.config: ")
    four = load_game("trian", players=4, variant="full").new_initial_state(5)
    code, details = code_of(
        lambda: client.suggest(
            game="trian",
            observation_json=four.observation(four.current_player).to_json(),
            iterations=10,
            config="ismcts-trian-learned",
        )
    )
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "trian (full, 4 players)" in details
    seats = [pb.SeatSpec(human=pb.HumanSeat()), pb.SeatSpec(ai=pb.AiSeat(bot="ismcts-trian-learned"))]
    code, details = code_of(lambda: client.create_match("trian", players=2, variant="ships", seats=seats))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and details.startswith("seats[1].ai.bot: ")
    assert "trian (ships, 2 players)" in details
    match = client.create_match("trian", players=2, variant="full", seats=seats)
    assert match.ai == (False, True)
    client.abandon_as_owner(match)


# ---- command line ----


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(os.path.abspath(p) for p in sys.path if p)}
    command = [sys.executable, "-m", "orrery.service.cli", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120, env=env)


def test_orrery_suggest_command(server):
    done = run_cli(
        "suggest", "--target", server.target, "--game", "kuhn", "--deal-seed", "3", "--iterations", "500",
        "--seed", "1", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["stats"]["iterations"] == "500" and answer["action"]["label"] in ("check", "bet")
    bad = run_cli("suggest", "--target", server.target, "--game", "kuhn", "--iterations", "0")
    assert bad.returncode == 2 and "INVALID_ARGUMENT: params.budget.iterations" in bad.stderr
    learned = run_cli(
        "suggest", "--target", server.target, "--game", "kuhn", "--config", "ismcts-trian-learned"
    )
    assert learned.returncode == 2
    assert (
        "INVALID_ARGUMENT: params.config: ismcts-trian-learned@2 has evaluation 'learned'" in learned.stderr
    )


def test_orrery_play_command_against_ai_seats(server):
    moves = "\n".join(["0"] * 10) + "\n"  # always the first listed action
    done = run_cli(
        "play", "--target", server.target, "--game", "kuhn", "--players", "3", "--seed", "4",
        "--level", "easy", stdin=moves,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "you are seat 0" in done.stdout and "seat 1 (AI)" in done.stdout
    assert "game over after" in done.stdout and "seat 0 (you): score" in done.stdout


def test_orrery_play_hint_shows_the_top_candidates(server):
    moves = "hint\n" + "\n".join(["0"] * 10) + "\n"
    done = run_cli(
        "play", "--target", server.target, "--game", "kuhn", "--players", "2", "--seed", "4",
        "--level", "easy", stdin=moves,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    hint = done.stdout.split("hint (", 1)[1].splitlines()[1:6]
    # "about 1 chip" or "about 2 chips": the server's search threads make the expected score vary a little
    assert hint[0].strip().startswith("best: ") and "win chance" in hint[1] and " chip" in hint[1], hint
    assert "value" in hint[1] and "% of visits" in hint[1], hint
    assert "this move:" in hint[2] and "by the end of your turn:" in hint[3] and "line: you: " in hint[4]
    assert "game over after" in done.stdout


def forced_observation_json(game: str, variant: str, seed: int) -> tuple[str, int]:
    """The first position of a seeded random game where the seat to move has exactly one legal action."""
    import random

    state = load_game(game, players=2, variant=variant).new_initial_state(seed)
    rng = random.Random(seed)
    while len(state.legal_actions()) != 1:
        state.apply(rng.choice(state.legal_actions()))
    return state.observation(state.current_player).to_json(), state.legal_actions()[0]


def test_a_forced_position_is_answered_at_once_without_a_search(client):
    text, only = forced_observation_json("take_the_galaxy", "standard", seed=1)
    for params in ({"iterations": 10**9}, {"level": "expert"}):  # a search this long would time out
        answer = client.suggest(game="take_the_galaxy", observation_json=text, seed=2, timeout=30, **params)
        assert answer.action.id == only and answer.action.label
        assert answer.stats.iterations == 0 and [c.action.id for c in answer.candidates] == [only]
        assert answer.stats.budget_share == 0.0 and not answer.stats.cut_short
    final = final_update(
        client.analyze(game="take_the_galaxy", observation_json=text, iterations=10**9, seed=2, timeout=30)
    )
    assert final.stop_reason == pb.STOP_REASON_BUDGET and final.result.action.id == only
    assert final.result.stats.iterations == 0
