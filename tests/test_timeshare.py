"""The time-sharing pool (search._timeshare) and its asyncio backend: stop times, minimum iterations,
cancel, capacity, close, and equality with a one-thread search of the same iterations."""

from __future__ import annotations

import asyncio
import select
import time

import pytest

from orrery.core_ext import load_game
from orrery.search import Budget, CancelToken, TimeSharedBackend, get_config, search_observation
from orrery.search._kernel import CancelFlag, Searcher
from orrery.search._timeshare import TimeSharedPool

CONFIG = get_config("test-fast")


def observation(game: str = "kuhn", seed: int = 3):
    state = load_game(game, players=2).new_initial_state(seed=seed)
    return state.observation(state.current_player)


def searcher(seed: int = 1) -> Searcher:
    return Searcher(observation(), seed=seed, **CONFIG.kernel_options())


def collect(pool: TimeSharedPool, count: int, timeout_s: float = 30.0) -> dict[int, str]:
    """Wait on the pool's pipe until `count` searches have finished."""
    done: dict[int, str] = {}
    end = time.monotonic() + timeout_s
    while len(done) < count and time.monotonic() < end:
        select.select([pool.fileno], [], [], 0.5)
        done.update(pool.finished())
    return done


def test_a_search_out_of_time_still_runs_exactly_its_minimum_iterations():
    pool = TimeSharedPool(2, 4)
    try:
        searches = [searcher(seed) for seed in (1, 2, 3)]
        past = time.time() - 1.0
        ids = [pool.submit(s, past, None, minimum) for s, minimum in zip(searches, (0, 1, 57), strict=True)]
        done = collect(pool, 3)
    finally:
        pool.close()
    assert done == {task: "time" for task in ids}
    assert [s.iterations for s in searches] == [0, 1, 57]


def test_searches_share_the_threads_until_their_stop_times():
    pool = TimeSharedPool(1, 8, quantum_ms=1.0)
    try:
        searches = [searcher(seed) for seed in range(5)]
        stop_at = time.time() + 0.2
        ids = [pool.submit(s, stop_at) for s in searches]
        done = collect(pool, 5)
        ended = time.time()
    finally:
        pool.close()
    assert done == {task: "time" for task in ids}
    assert ended >= stop_at
    assert all(s.iterations > 0 for s in searches)  # one thread, five searches: every one had turns


def test_cancel_ends_a_search_long_before_its_stop_time():
    pool = TimeSharedPool(1, 2)
    flag = CancelFlag()
    try:
        task = pool.submit(searcher(), time.time() + 600.0, flag)
        flag.set()
        done = collect(pool, 1)
    finally:
        pool.close()
    assert done == {task: "cancel"}


def test_a_full_pool_refuses_and_close_ends_what_is_left():
    pool = TimeSharedPool(1, 2)
    far = time.time() + 600.0
    first, second = pool.submit(searcher(1), far), pool.submit(searcher(2), far)
    with pytest.raises(RuntimeError, match="full"):
        pool.submit(searcher(3), far)
    pool.close()
    assert dict(pool.finished()) == {first: "closed", second: "closed"}
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(searcher(4), far)
    pool.close()  # idempotent


@pytest.mark.parametrize("bad", [{"threads": 0, "capacity": 1}, {"threads": 1, "capacity": 0}])
def test_pool_sizes_are_checked(bad):
    with pytest.raises(ValueError):
        TimeSharedPool(bad["threads"], bad["capacity"])


def test_backend_search_equals_a_one_thread_search_of_the_same_iterations():
    obs = observation("trian", seed=5)

    async def go():
        with TimeSharedBackend(2, 4) as backend:
            return await backend.search(obs, CONFIG, stop_at=time.time() - 1.0, seed=11, min_iterations=300)

    shared = asyncio.run(go())
    alone = search_observation(obs, CONFIG, Budget(iterations=300), seed=11)
    assert shared.iterations == alone.iterations == 300
    assert [(a.action, a.visits, a.mean_reward) for a in shared.actions] == [
        (a.action, a.visits, a.mean_reward) for a in alone.actions
    ]
    assert not shared.cut_short


def test_backend_parts_are_merged_and_cancel_cuts_the_search_short():
    obs = observation("trian", seed=5)
    cancel = CancelToken()

    async def go():
        with TimeSharedBackend(2, 4) as backend:
            merged = await backend.search(obs, CONFIG, stop_at=time.time() + 0.05, seed=3, parts=2)
            search = asyncio.ensure_future(
                backend.search(obs, CONFIG, stop_at=time.time() + 600.0, seed=3, cancel=cancel)
            )
            await asyncio.sleep(0.01)
            cancel.cancel()
            return merged, await asyncio.wait_for(search, 30.0)

    merged, cancelled = asyncio.run(go())
    assert merged.workers == 2 and merged.iterations == sum(a.visits for a in merged.actions) > 0
    assert cancelled.cut_short and cancelled.iterations >= 0


def test_backend_checks_its_arguments():
    async def go():
        with TimeSharedBackend(1, 2) as backend:
            await backend.search(observation(), CONFIG, stop_at=time.time() + 1.0, seed=1, parts=2)

    with pytest.raises(ValueError, match="parts"):
        asyncio.run(go())


def test_a_time_shared_search_keeps_a_turns_trees_as_in_process_and_starts_anew_after_a_draw():
    # The same seeds and iterations per part as InProcessBackend(2)'s workers: the same searches, so
    # the kept trees re-root exactly as in process (each part deciding alone), and a card drawn in
    # between gives a new tree, the same search as without one.
    import dataclasses

    from test_tree_reuse import TTG, first

    from orrery.search import InProcessBackend, TurnTree

    use, draw = (
        first("take_the_galaxy", "standard", "use "),
        first("take_the_galaxy", "standard", "draw a card"),
    )
    with InProcessBackend(2) as local:
        observation, action, after = use
        tree = TurnTree()
        before = local.search(observation, TTG, Budget(iterations=600), seed=5, tree=tree)
        tree.played(action)
        again = local.search(after, TTG, Budget(iterations=400), seed=6, tree=tree)
        in_process = (before.actions, again.actions, tree.carried_visits, tree.reused_workers)

    async def go():
        with TimeSharedBackend(2, 4) as shared:

            async def run(obs, iterations, seed, **tree):
                return await shared.search(
                    obs, TTG, stop_at=time.time() - 1.0, seed=seed, parts=2, min_iterations=iterations, **tree
                )

            observation, action, after = use
            tree = TurnTree()
            before = await run(observation, 600, 5, tree=tree)
            assert tree.carried_visits is None and tree.holds_tree  # a new tree, kept for the next decision
            alone = await run(observation, 600, 5)
            assert before == dataclasses.replace(alone, elapsed_s=before.elapsed_s)
            kept = [search.searcher for search in tree._searches]
            tree.played(action)
            again = await run(after, 400, 6, tree=tree)
            assert [search.searcher for search in tree._searches] == kept  # the same searchers, re-rooted
            assert again.iterations == 400 and sum(a.visits for a in again.actions) > 400
            reused = (before.actions, again.actions, tree.carried_visits, tree.reused_workers)

            observation, action, after = draw
            tree = TurnTree()
            await run(observation, 600, 5, tree=tree)
            tree.played(action)
            anew = await run(after, 400, 6, tree=tree)
            assert tree.carried_visits is None and tree.reused_workers == 0
            fresh = await run(after, 400, 6)
            assert anew == dataclasses.replace(fresh, elapsed_s=anew.elapsed_s)
            return reused

    reused = asyncio.run(go())
    assert reused == in_process
    assert reused[2] == next(a.visits for a in reused[0] if a.action == use[1]) > 0
    assert reused[3] == 2


def test_a_time_shared_search_that_cannot_start_frees_its_tree():
    # A full pool refuses the search: its kept searchers (none may still run in the pool) are dropped.
    from test_tree_reuse import TTG, first

    from orrery.search import TurnTree

    observation, action, after = first("take_the_galaxy", "standard", "use ")
    cancel = CancelToken()

    async def go(tree):
        with TimeSharedBackend(1, 1) as backend:
            await backend.search(
                observation, TTG, stop_at=time.time() - 1.0, seed=5, min_iterations=300, tree=tree
            )
            tree.played(action)
            busy = asyncio.ensure_future(
                backend.search(observation, TTG, stop_at=time.time() + 600.0, seed=1, cancel=cancel)
            )
            await asyncio.sleep(0)  # it takes the pool's one slot
            try:
                with pytest.raises(RuntimeError, match="full"):
                    await backend.search(after, TTG, stop_at=time.time() + 600.0, seed=6, tree=tree)
            finally:
                cancel.cancel()
                await busy

    tree = TurnTree()
    asyncio.run(go(tree))
    assert not tree.holds_tree
