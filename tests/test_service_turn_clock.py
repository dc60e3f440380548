"""Hosted AI seats play whole turns on a turn clock (service/_ai_clock.py): the servicer's own AI loop,
over a real match store, with a scheduler stand-in that runs each search in-process and records it.
Deterministic: iteration budgets and seeded seats, no timing assertions."""

from __future__ import annotations

import asyncio
import time

import pytest

from orrery.search import Budget, TimeSharedBackend, TurnBudget, search_observation
from orrery.search._clock import OVERRUN_SHARE
from orrery.service._ai_clock import AiTurnClocks, capped, seat_turn_budget
from orrery.service._matches import AiSpec, MatchStore
from orrery.service._metrics import ServiceMetrics
from orrery.service._search import _CallingThread, _kept_tree
from orrery.service._servicer import OrreryServicer


class RecordingScheduler:
    """SearchScheduler.run's stand-in: the job's search in this thread, or on `backend` (a TimeSharedBackend
    awaited as SearchScheduler._timeshared_search does) with the job's tree where it keeps trees (as the
    scheduler passes it); (move number, iterations) kept."""

    def __init__(self, backend=None) -> None:
        self.backend = backend
        self.searches: list[tuple[int, int]] = []
        self.carried: list[int | None] = []  # per search: visits its kept tree carried over, None if new
        self.move_number = -1  # the AI turn being played (set by the wrapped _ai_play)

    async def run(self, job):
        grant = job.grant
        budget = (
            Budget(iterations=grant.iterations)
            if grant.iterations
            else Budget(milliseconds=grant.milliseconds)
        )
        if self.backend is None:
            kept = _kept_tree(job, _CallingThread)
            result = search_observation(job.observation, job.config, budget, seed=job.seed, **kept)
        elif isinstance(self.backend, TimeSharedBackend):  # awaited on the loop, iteration budgets only
            kept = _kept_tree(job, self.backend)
            result = await self.backend.search(
                job.observation,
                job.config,
                stop_at=time.time() - 1.0,
                seed=job.seed,
                parts=self.backend.threads,
                min_iterations=grant.iterations,
                **kept,
            )
        else:
            kept = _kept_tree(job, self.backend)
            result = self.backend.search(job.observation, job.config, budget, seed=job.seed, **kept)
        self.searches.append((self.move_number, result.iterations))
        self.carried.append(job.tree.carried_visits if job.tree is not None else None)
        return result


def hosted_servicer(store: MatchStore, scheduler, **options) -> OrreryServicer:
    """A servicer on `store` whose searches go to `scheduler` (a RecordingScheduler), with the tests'
    budgets (100 ms default, 10 s at most) and any further OrreryServicer options (e.g. tree_bound)."""
    return OrreryServicer(
        store=store,
        scheduler=scheduler,  # type: ignore[arg-type]
        metrics=ServiceMetrics(max_budget_s=10.0),
        max_budget_ms=10_000.0,
        default_budget_ms=100.0,
        default_config="",
        backend_name="test",
        **options,
    )


def play_hosted(tmp_path, game: str, variant: str, ai: list[AiSpec | None], seed: int, backend=None):
    """Create the match and let the servicer's AI loop play until a human seat is to move (or the end).
    Returns (the stored moves as (seat, move number before it), the searches, legal counts per move)."""
    store = MatchStore(str(tmp_path / "m.sqlite3"))
    scheduler = RecordingScheduler(backend)
    servicer = hosted_servicer(store, scheduler)
    legal_counts: dict[int, int] = {}
    original = servicer._ai_play

    async def play(turn):
        scheduler.move_number = turn.move_number
        legal_counts[turn.move_number] = len(turn.observation.legal_actions())
        return await original(turn)

    servicer.ai._play = play

    async def main():
        created = store.create(game, len(ai), variant, seed, ai=ai)
        servicer.ai.poke(created.match_id)
        while servicer.ai.running:
            await asyncio.sleep(0.01)
        return created.match_id

    match_id = asyncio.run(main())
    history = store.history(match_id, 0)
    moves = [(m.seat, m.move_number - 1) for m in history.moves]
    store.close()
    servicer.recorded = scheduler  # type: ignore[attr-defined]
    return moves, scheduler.searches, legal_counts, servicer


def whole_turns(moves):
    """Consecutive moves of one seat: [(seat, [move numbers before each])]."""
    turns: list[tuple[int, list[int]]] = []
    for seat, number in moves:
        if not turns or turns[-1][0] != seat:
            turns.append((seat, []))
        turns[-1][1].append(number)
    return turns


@pytest.mark.parametrize("turn_iterations", [60, 400])
def test_an_ai_seats_turn_spends_at_most_its_turn_budget(tmp_path, turn_iterations):
    # Two AI seats play a whole game of Take The Galaxy (turns of many decisions) by themselves.
    ai = [AiSpec(seed=3, turn_iterations=turn_iterations), AiSpec(seed=5, turn_iterations=turn_iterations)]
    moves, searches, legal_counts, servicer = play_hosted(tmp_path, "take_the_galaxy", "standard", ai, seed=4)
    ai_turns = [numbers for _, numbers in whole_turns(moves)]
    assert max(len(numbers) for numbers in ai_turns) > 5
    by_move = dict(searches)
    for numbers in ai_turns:
        spent = sum(by_move.get(n, 0) for n in numbers)
        assert spent <= (1 + OVERRUN_SHARE) * turn_iterations
    long_turn = max(ai_turns, key=len)
    assert sum(1 for n in long_turn if n in by_move) > 1  # shared over the turn's decisions
    assert all(legal_counts[n] > 1 for n, _ in searches)  # a forced move is played without a search
    assert len(servicer.ai_clocks) == 0  # the game is over: no clock is kept


def test_a_per_move_budget_alone_gives_every_decision_the_whole_budget(tmp_path):
    ai = [AiSpec(seed=3, iterations=40), AiSpec(seed=5, iterations=40)]
    moves, searches, legal_counts, _ = play_hosted(tmp_path, "trian", "full", ai, seed=4)
    assert len(searches) > 1 and all(iterations == 40 for _, iterations in searches)
    assert all(legal_counts[n] > 1 for n, _ in searches)


def test_budgets_combine_as_documented():
    trian = ("trian", "full", 2)
    assert seat_turn_budget(AiSpec(level="medium"), *trian) is not None  # the level's per-turn budget
    assert seat_turn_budget(AiSpec(level="medium", iterations=10), *trian) is None  # per move only
    ttg = ("take_the_galaxy", "standard", 2)
    assert seat_turn_budget(AiSpec(iterations=10, turn_iterations=99), *ttg) == TurnBudget(iterations=99)
    assert seat_turn_budget(AiSpec(), *trian) is None  # the server default, per move
    spec = AiSpec(iterations=10, turn_milliseconds=500)
    assert capped(Budget(iterations=50), spec) == (10, None)  # the per-move budget caps each decision
    assert capped(Budget(milliseconds=120.5), spec) == (10, 120)  # either limit stops the search
    assert capped(Budget(milliseconds=120.5), AiSpec(milliseconds=80)) == (None, 80)


def _take_the_galaxy_turn(seat, number):
    """A stand-in for an AI turn of match "m" (what AiTurnClocks reads of it)."""
    from types import SimpleNamespace

    observation = SimpleNamespace(game=SimpleNamespace(name="take_the_galaxy", variant="standard"))
    return SimpleNamespace(match_id="m", seat=seat, move_number=number, observation=observation)


def test_turn_clocks_go_on_only_for_the_same_seat_at_the_next_move():
    budget = TurnBudget(iterations=100)
    clocks = AiTurnClocks()
    turn = _take_the_galaxy_turn
    first = clocks.clock(turn(0, 7), budget)
    clocks.moved("m", seat=0, move_number=8, seat_to_move=0, game_over=False)
    assert clocks.clock(turn(0, 8), budget) is first  # the same turn
    assert clocks.clock(turn(0, 10), budget) is not first  # someone else moved in between: a new turn
    clocks.moved("m", seat=0, move_number=11, seat_to_move=1, game_over=False)
    assert len(clocks) == 0  # the seat's turn ended


def test_an_ai_seat_reuses_its_tree_within_a_turn_where_its_config_says_so(tmp_path):
    # ismcts-ttg@2 (Take The Galaxy's default) keeps the turn's tree; @1 starts every decision afresh.
    for bot, reuses in (("ismcts-ttg@2", True), ("ismcts-ttg@1", False)):
        ai = [AiSpec(seed=3, bot=bot, turn_iterations=400), AiSpec(seed=5, bot=bot, turn_iterations=400)]
        (tmp_path / bot).mkdir()
        moves, searches, _, servicer = play_hosted(tmp_path / bot, "take_the_galaxy", "standard", ai, seed=4)
        carried = servicer.recorded.carried
        reused = [visits for visits in carried if visits is not None]
        assert (len(reused) > 0) == reuses and all(visits > 0 for visits in reused)
        assert (carried[0] is None) if reuses else all(c is None for c in carried)
        by_move = dict(searches)
        for numbers in (numbers for _, numbers in whole_turns(moves)):  # new iterations only are charged
            assert sum(by_move.get(n, 0) for n in numbers) <= (1 + OVERRUN_SHARE) * 400
        assert len(servicer.ai_clocks) == 0  # the game is over: no clock and no tree is kept


def test_a_turns_kept_tree_lives_and_dies_with_its_clock():
    from orrery.search import get_config

    budget = TurnBudget(iterations=100)
    clocks = AiTurnClocks()
    turn = _take_the_galaxy_turn
    clocks.clock(turn(0, 7), budget)
    assert clocks.tree("m", get_config("ismcts-ttg@1")) is None  # a config without reuse keeps none
    tree = clocks.tree("m", get_config("ismcts-ttg@2"))
    assert tree is not None and clocks.tree("m", get_config("ismcts-ttg@2")) is tree
    dropped: list[str] = []  # the keys a backend whose workers keep the trees (Ray) was told to free
    tree.on_workers(object(), get_config("ismcts-ttg@2"), dropped.append)  # as RayBackend.search does
    clocks.moved("m", seat=0, move_number=8, seat_to_move=0, game_over=False, action=5)
    clocks.clock(turn(0, 8), budget)
    assert clocks.tree("m", get_config("ismcts-ttg@2")) is tree  # the same turn: the same kept tree
    assert dropped == [] and tree.holds_tree
    clocks.moved("m", seat=0, move_number=9, seat_to_move=1, game_over=False, action=6)
    assert len(clocks) == 0 and clocks.tree("m", get_config("ismcts-ttg@2")) is None  # freed with the clock
    assert dropped == [f"{tree.tree_id}/1"] and not tree.holds_tree  # ... on the workers too
    clocks.clock(turn(1, 9), budget)  # a turn the match forgets (it ended, or another replica moved)
    other = clocks.tree("m", get_config("ismcts-ttg@2"))
    assert other is not None
    other.on_workers(object(), get_config("ismcts-ttg@2"), dropped.append)
    clocks.forget("m")
    assert dropped[-1] == f"{other.tree_id}/1" and not other.holds_tree


def test_the_scheduler_hands_an_ai_seats_tree_to_every_backend_it_uses():
    from types import SimpleNamespace

    from orrery.search import InProcessBackend, RayBackend, TurnTree

    taken: list[int] = []  # the server's bound is told when a search takes the tree (on_tree_taken)
    job = SimpleNamespace(tree=TurnTree(), tree_taken=False, on_tree_taken=lambda: taken.append(0))
    assert _kept_tree(job, object()) == {} and not job.tree_taken  # a backend that keeps no trees
    assert taken == []
    # the classes: no Ray and no pool is started
    for i, backend in enumerate((RayBackend, InProcessBackend, _CallingThread, TimeSharedBackend)):
        job = SimpleNamespace(tree=TurnTree(), tree_taken=False, on_tree_taken=lambda i=i: taken.append(i))
        assert _kept_tree(job, backend) == {"tree": job.tree} and job.tree_taken
    assert taken == [0, 1, 2, 3]
    none = SimpleNamespace(tree=None, tree_taken=False, on_tree_taken=None)
    assert _kept_tree(none, TimeSharedBackend) == {}


def _sampler(registry):
    """A metric's value in `registry` by name and labels (0 when it has no sample yet)."""

    def sample(name, **labels):
        return registry.get_sample_value(name, labels) or 0

    return sample


def test_hosted_ai_seats_reuse_their_trees_in_the_time_shared_lane_and_the_metrics_count_it(tmp_path):
    # The servicer's AI loop with the time-shared pool (one thread: one part, the same search as the
    # calling thread's for the same seed and iterations): the same game and the same reuse as in process,
    # and orrery_ai_searched_decisions / orrery_ai_carried_visits count every searched decision.
    ai = [
        AiSpec(seed=3, bot="ismcts-ttg@2", turn_iterations=400),
        AiSpec(seed=5, bot="ismcts-ttg@2", turn_iterations=400),
    ]
    played = {}
    for name in ("in_process", "time_shared"):
        (tmp_path / name).mkdir()
        shared = TimeSharedBackend(1, 2) if name == "time_shared" else None
        try:
            moves, searches, _, servicer = play_hosted(
                tmp_path / name, "take_the_galaxy", "standard", ai, seed=4, backend=shared
            )
        finally:
            if shared is not None:
                shared.close()
        played[name] = (moves, searches, servicer.recorded.carried)
        sample = _sampler(servicer.metrics.registry)

        carried = servicer.recorded.carried
        reused = [visits for visits in carried if visits is not None]
        assert len(reused) > 0 and all(visits > 0 for visits in reused)
        assert sample("orrery_ai_searched_decisions_total", tree="reused") == len(reused)
        assert sample("orrery_ai_searched_decisions_total", tree="new") == len(carried) - len(reused) > 0
        assert sample("orrery_ai_searched_decisions_total", tree="off") == 0
        assert sample("orrery_ai_carried_visits_total") == sum(reused)
    assert played["time_shared"] == played["in_process"]

    # A seat that keeps no trees (a config without reuse_tree) is counted as such.
    ai = [
        AiSpec(seed=3, bot="ismcts-ttg@1", iterations=50),
        AiSpec(seed=5, bot="ismcts-ttg@1", iterations=50),
    ]
    (tmp_path / "off").mkdir()
    _, searches, _, servicer = play_hosted(tmp_path / "off", "take_the_galaxy", "standard", ai, seed=4)
    registry = servicer.metrics.registry
    assert registry.get_sample_value("orrery_ai_searched_decisions_total", {"tree": "off"}) == len(searches)
    assert registry.get_sample_value("orrery_ai_carried_visits_total") == 0


def test_the_hosted_turn_bench_reads_the_reuse_the_server_counted(tmp_path):
    # orrery bench hosted-turn-time reports the server's reuse from its /metrics text (here a file).
    from prometheus_client import generate_latest

    from orrery.service._bench_turns import _tree_reuse

    metrics = ServiceMetrics(max_budget_s=10.0)
    for carried in (None, 30, 50, None):
        metrics.count_ai_decision(keeps_trees=True, carried_visits=carried)
    metrics.count_ai_decision(keeps_trees=False, carried_visits=None)
    metrics.ai_kept_tree_evictions.inc(3)  # the server's bound freed three turns' trees
    page = tmp_path / "metrics"
    page.write_bytes(generate_latest(metrics.registry))
    assert _tree_reuse(page.as_uri()) == {
        "ai_searched_decisions": {"reused": 2, "new": 2, "off": 1},
        "reuse_rate": 0.5,
        "mean_carried_visits": 40.0,
        "kept_tree_evictions": 3,
    }
    empty = tmp_path / "empty"
    empty.write_text("")  # a server that has searched no AI decision yet
    assert _tree_reuse(empty.as_uri()) == {
        "ai_searched_decisions": {"reused": 0, "new": 0, "off": 0},
        "reuse_rate": None,
        "mean_carried_visits": None,
        "kept_tree_evictions": 0,
    }
