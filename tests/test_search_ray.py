"""The Ray backend on a real small local Ray (the session's shared ray_session fixture)."""

import threading
import time

import pytest

from orrery.core_ext import load_game
from orrery.search import Budget, CancelToken, RayBackend, get_config

pytestmark = [pytest.mark.ray, pytest.mark.slow]  # starts Ray: out of the fast lane


@pytest.fixture(scope="module")
def backend(ray_session):
    be = RayBackend(num_workers=2)
    be.warm()
    yield be
    be.close()


def test_ray_search_merges_two_workers(backend):
    obs = load_game("kuhn", players=3).new_initial_state(seed=1).observation(0)
    assert backend.live_workers == 2
    result = backend.search(obs, get_config("ismcts"), Budget(iterations=4001), seed=5)
    assert result.iterations == 4001 and result.workers == 2 and result.workers_lost == 0
    assert sum(a.visits for a in result.actions) == 4001
    # the same seed and budget reproduce across backends: the workers run the same kernel
    from orrery.search import InProcessBackend

    with InProcessBackend(2) as local:
        assert (
            local.search(obs, get_config("ismcts"), Budget(iterations=4001), seed=5).actions == result.actions
        )


def test_ray_progress_and_cancel(backend):
    obs = load_game("kuhn", players=2).new_initial_state(seed=1).observation(0)
    token = CancelToken()
    partial = []
    threading.Timer(0.6, token.cancel).start()
    started = time.time()
    result = backend.search(
        obs,
        get_config("ismcts"),
        Budget(milliseconds=60_000),
        seed=1,
        cancel=token,
        progress=partial.append,
        progress_interval_s=0.2,
    )
    assert time.time() - started < 15
    assert result.cut_short and result.iterations > 0 and partial


def test_a_worker_killed_mid_search_does_not_fail_it(ray_session, backend):
    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    victim = backend.actor(1)
    threading.Timer(0.5, lambda: ray_session.kill(victim)).start()
    result = backend.search(
        obs,
        get_config("ismcts"),
        Budget(milliseconds=2000),
        seed=3,
        progress=lambda r: None,
        progress_interval_s=0.2,
    )
    assert result.workers == 2 and result.workers_lost == 1
    assert result.iterations > 0 and result.best_action in obs.legal_actions()
    assert backend.live_workers == 1 and backend.workers_lost_total == 1
    # a replacement starts at once, and searches use it once it is warm
    deadline = time.monotonic() + 120
    while backend.live_workers < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert backend.live_workers == 2
    again = backend.search(obs, get_config("ismcts"), Budget(iterations=500), seed=3)
    assert again.workers == 2 and again.workers_lost == 0


# ---- tree reuse on Ray (search/_reuse.py; docs/search.md "Tree reuse") ----


def _no_tree_kept(backend, key: str | None = None, timeout_s: float = 30.0) -> bool:
    """Whether every actor dropped `key` (None: every tree), waiting a little: a drop may run after a later
    call on a threaded actor."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if all((key not in kept) if key is not None else not kept for kept in backend.kept_trees()):
            return True
        time.sleep(0.05)
    return False


def test_ray_actors_keep_a_turns_trees_as_in_process_and_free_them(backend):
    import dataclasses

    from test_tree_reuse import TTG, first

    from orrery.search import InProcessBackend, TurnTree

    observation, action, after = first("take_the_galaxy", "standard", "use ")
    answers = {}
    with InProcessBackend(2) as local:
        for name, on in (("ray", backend), ("local", local)):
            tree = TurnTree()
            before = on.search(observation, TTG, Budget(iterations=600), seed=5, tree=tree)
            assert tree.carried_visits is None and tree.reused_workers == 0
            tree.played(action)
            again = on.search(after, TTG, Budget(iterations=400), seed=6, tree=tree)
            answers[name] = (before.actions, again.actions, tree.carried_visits, tree.reused_workers)
            if on is backend:
                key = f"{tree.tree_id}/1"
                assert all(key in kept for kept in backend.kept_trees())  # one tree per actor
                tree.clear()
                assert _no_tree_kept(backend, key)
    # each worker re-rooted at the move, with the visits its tree gave it: the same on either backend
    assert answers["ray"] == answers["local"]
    assert answers["ray"][2] == next(a.visits for a in answers["ray"][0] if a.action == action)
    assert answers["ray"][3] == 2

    # A card drawn in between: every worker starts a new tree, the same search as without one.
    observation, action, after = first("take_the_galaxy", "standard", "draw a card")
    tree = TurnTree()
    backend.search(observation, TTG, Budget(iterations=600), seed=5, tree=tree)
    tree.played(action)
    anew = backend.search(after, TTG, Budget(iterations=400), seed=6, tree=tree)
    fresh = backend.search(after, TTG, Budget(iterations=400), seed=6)
    assert tree.carried_visits is None and tree.reused_workers == 0
    assert anew == dataclasses.replace(fresh, elapsed_s=anew.elapsed_s)
    key = f"{tree.tree_id}/1"
    del tree  # a TurnTree collected without clear() frees the actors' trees too
    assert _no_tree_kept(backend, key)


def test_a_level_bot_on_ray_reuses_in_a_turn_and_survives_a_dead_actor(ray_session, backend):
    import dataclasses

    from test_tree_reuse import TTG, play

    from orrery.search import InProcessBackend, LevelBot
    from orrery.search._levels import Level

    level = Level(name="turn", iterations=1500, milliseconds=None, tolerance=0.0)
    config = dataclasses.replace(TTG, reuse_tree=True)
    bots = [LevelBot(level, config, backend) for _ in range(2)]
    played = play(bots, moves=80)  # also checks that each turn's end frees its tree
    with InProcessBackend(2) as local:
        local_bots = [LevelBot(level, config, local) for _ in range(2)]
        assert play(local_bots, moves=80) == played  # the same seeds and workers: the same game
    stats = bots[0].reuse_stats.plus(bots[1].reuse_stats)
    assert 0 < stats.reused < stats.searched
    assert stats == local_bots[0].reuse_stats.plus(local_bots[1].reuse_stats)
    for bot in bots:
        bot.new_game()
    assert _no_tree_kept(backend)  # ... and new_game() frees what play() left

    # An actor dies between two decisions of a turn: the next decision merges the survivor, which goes on
    # re-rooting its tree; the replacement keeps none, so its first decision starts a new one.
    lost_before = backend.workers_lost_total
    reused_before = bots[0].reuse_stats.reused + bots[1].reuse_stats.reused
    killed = []

    class Killer:
        def select_action(self, observation, *, seed):
            if not killed and bots[0].turn_tree("take_the_galaxy", 0) is not None:
                ray_session.kill(backend.actor(1))
                killed.append(True)
            return bots[0].select_action(observation, seed=seed)

        turn_tree = bots[0].turn_tree

    play([Killer(), bots[1]], seed=4, moves=80)
    assert killed and backend.workers_lost_total == lost_before + 1
    assert bots[0].reuse_stats.reused + bots[1].reuse_stats.reused > reused_before
    deadline = time.monotonic() + 120
    while backend.live_workers < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert backend.live_workers == 2


def test_hosted_ai_seats_on_ray_reuse_their_turns_trees_and_free_them(backend, tmp_path):
    # The servicer's AI loop (a scheduler stand-in hands each job's tree to the backend, as
    # SearchScheduler._search does): Take The Galaxy's default keeps each turn's trees on the actors.
    from test_service_turn_clock import play_hosted

    from orrery.service._matches import AiSpec

    ai = [AiSpec(seed=seed, bot="ismcts-ttg@2", turn_iterations=400) for seed in (3, 5)]
    _moves, _searches, _legal, servicer = play_hosted(tmp_path, "take_the_galaxy", "standard", ai, 4, backend)
    reused = [visits for visits in servicer.recorded.carried if visits is not None]
    assert reused and all(visits > 0 for visits in reused)
    assert len(servicer.ai_clocks) == 0 and _no_tree_kept(backend)  # the game is over: nothing is kept
