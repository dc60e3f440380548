"""Tree reuse across a seat's consecutive decisions (search/_reuse.py, Searcher.reroot; issue 25, part 3)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from orrery.core_ext import load_game
from orrery.search import Budget, InProcessBackend, LevelBot, get_config
from orrery.search._backends import search_on_this_thread
from orrery.search._kernel import Searcher
from orrery.search._levels import Level
from orrery.search._reuse import TurnTree

TTG = get_config("ismcts-ttg@1")
TURN = Level(name="turn", iterations=3000, milliseconds=None, tolerance=0.0)


def positions(game_name: str, variant: str, seed: int):
    """(observation, action, next observation) for each move of a seeded random game after which the same
    seat moves again, where the seat had a choice."""
    game = load_game(game_name, players=2, variant=variant)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player
        observation = state.observation(seat)
        legal = observation.legal_actions()
        action = rng.choice(legal)
        state.apply(action)
        if len(legal) > 1 and not state.is_terminal() and state.current_player == seat:
            yield observation, action, state.observation(seat)


def searched(observation, action, iterations=400, seed=7, **options) -> Searcher:
    """A search of `observation` run until `action` has visits."""
    searcher = Searcher(observation, seed=seed, **(TTG.kernel_options() | options))
    searcher.run(iterations)
    while not any(a == action and visits > 0 for a, visits, *_ in searcher.root_stats()):
        searcher.run(iterations)
    return searcher


def first(game_name, variant, label_part):
    """The first move of the kind `label_part` names in seeded random games."""
    for seed in range(1, 6):
        for observation, action, after in positions(game_name, variant, seed):
            if label_part in observation.action_label(action):
                return observation, action, after
    raise AssertionError(f"no {label_part!r} move in seeds 1 to 5")


def test_the_rerooted_root_starts_with_the_visits_its_move_had():
    observation, action, after = first("take_the_galaxy", "standard", "use ")
    searcher = searched(observation, action)
    before = {a: (visits, pv) for a, visits, _r, _avail, pv in searcher.root_stats()}
    size = searcher.tree_size
    carried = searcher.reroot([action], after, seed=3)
    assert carried == before[action][0] == searcher.carried_visits > 0
    assert searcher.tree_size < size and searcher.iterations == 0
    stats = searcher.root_stats()
    assert 0 < sum(visits for _a, visits, *_ in stats) <= carried  # the child's own expansion ends there
    best = max(stats, key=lambda s: (s[1], -s[0]))
    assert best[0] == before[action][1][1]  # the old line through the move goes on from the new root
    assert searcher.run(250) == "budget" and searcher.iterations == 250  # only new iterations count


def test_a_card_drawn_or_a_die_rolled_is_not_reused():
    for game_name, variant, label in (
        ("take_the_galaxy", "standard", "draw a card"),
        ("trian", "full", "draw from stack"),
        ("trian", "full", "reroll the die"),
    ):
        observation, action, after = first(game_name, variant, label)
        searcher = searched(
            observation, action, **({} if game_name == "take_the_galaxy" else {"playout": "none"})
        )
        size, stats = searcher.tree_size, searcher.root_stats()
        assert searcher.reroot([action], after, seed=3) == -1, (game_name, label)
        assert searcher.tree_size == size and searcher.root_stats() == stats  # unchanged


def test_reroot_refuses_what_it_cannot_reuse():
    observation, action, after = first("take_the_galaxy", "standard", "use ")
    other = next(a for a in observation.legal_actions() if a != action)
    searcher = searched(observation, action)
    assert searcher.reroot([], after) == -1
    assert searcher.reroot([other], after) == -1  # the seat's observation is not what `other` gives
    assert searcher.reroot([action], observation) == -1  # not the observation after the move
    pimc = Searcher(observation, algorithm="pimc", determinizations=4, playout="none", seed=1)
    pimc.run(400)
    assert pimc.reroot([action], after) == -1  # PIMC's trees hang from fixed determinizations


def test_a_turn_tree_charges_only_new_iterations_and_frees_itself_when_it_cannot_reuse():
    moves = positions("take_the_galaxy", "standard", 1)
    observation, action, after = next(m for m in moves if "use " in m[0].action_label(m[1]))
    tree = TurnTree()
    first_result = search_on_this_thread(observation, TTG, Budget(iterations=300), seed=5, tree=tree)
    assert first_result.iterations == 300 and tree.carried_visits is None
    tree.played(action)
    again = search_on_this_thread(after, TTG, Budget(iterations=200), seed=6, tree=tree)
    assert again.iterations == 200  # the budget buys new iterations on top of the carried ones
    assert tree.carried_visits == next(a.visits for a in first_result.actions if a.action == action)
    assert sum(a.visits for a in again.actions) > 200
    # A position the kept tree does not lead to: a new tree, the same search as without one.
    tree.played(action)
    fresh = search_on_this_thread(observation, TTG, Budget(iterations=300), seed=5, tree=tree)
    assert tree.carried_visits is None and fresh == dataclasses.replace(
        first_result, elapsed_s=fresh.elapsed_s
    )
    tree.clear()
    assert not tree.holds_tree


def test_each_worker_decides_alone_whether_its_tree_goes_on():
    # One iteration a worker: find a seed where only worker 0's tree tried the move played. Worker 1's
    # tree cannot re-root there and starts anew; worker 0's goes on all the same (search/_reuse.py).
    observation, action, after = first("take_the_galaxy", "standard", "use ")
    with InProcessBackend(2) as backend:
        for seed in range(200):
            tree = TurnTree()
            backend.search(observation, TTG, Budget(iterations=2), seed=seed, tree=tree)
            tried = [
                any(a == action and visits > 0 for a, visits, *_ in search.searcher.root_stats())
                for search in tree._searches
            ]
            if tried == [True, False]:
                break
        else:
            raise AssertionError("no seed where only worker 0 tried the move")
        tree.played(action)
        result = backend.search(after, TTG, Budget(iterations=100), seed=seed, tree=tree)
    assert tree.reused_workers == 1 and tree.carried_visits == 1
    assert [search.searcher.carried_visits for search in tree._searches] == [1, 0]
    assert result.iterations == 100


def play(bots, game_name="take_the_galaxy", variant="standard", seed=3, moves=400):
    game = load_game(game_name, players=2, variant=variant)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    played = []
    while not state.is_terminal() and len(played) < moves:
        seat = state.current_player
        action = bots[seat].select_action(state.observation(seat), seed=rng.getrandbits(63))
        played.append(action)
        state.apply(action)
        if state.is_terminal() or state.current_player != seat:  # the turn ended: its tree is freed
            assert bots[seat].turn_tree(game.name, seat) is None
    return played


def test_a_level_bot_reuses_within_a_turn_frees_at_its_end_and_replays_exactly():
    config = dataclasses.replace(TTG, reuse_tree=True)
    bots = [LevelBot(TURN, config) for _ in range(2)]
    played = play(bots)
    stats = bots[0].reuse_stats
    assert 0 < stats.reused < stats.searched and stats.mean_reused_visits > 0
    assert play([LevelBot(TURN, config) for _ in range(2)]) == played  # same seeds, same game
    assert play([LevelBot(TURN, TTG) for _ in range(2)]) != played  # reuse changes the play
    assert bots[0].version.startswith("ismcts-ttg@1{reuse_tree=True}+")
    bots[0].new_game()
    assert not bots[0]._trees and not bots[0]._turns


def test_a_bot_without_reuse_keeps_no_tree():
    bots = [LevelBot(TURN, TTG) for _ in range(2)]
    play(bots, moves=60)
    assert bots[0].reuse_stats.searched == 0 and not bots[0]._trees


def test_reuse_tree_is_checked():
    with pytest.raises(ValueError, match="reuse_tree"):
        dataclasses.replace(TTG, reuse_tree=1)


def test_the_tree_reuse_bench_reports_its_backend_and_workers():
    from orrery.search._bench_reuse import bench_tree_reuse

    report = bench_tree_reuse(
        "take_the_galaxy", 2, iterations=300, games=1, seed=2, variant="standard", workers=2
    )
    assert report["backend"] == "inprocess" and report["workers"] == 2
    assert 0 < report["reused_decisions"] < report["searched_decisions"]


def test_a_ray_actor_keeps_few_trees_re_roots_them_and_drops_them():
    # The actor's body without Ray (search/_ray.py wraps it with ray.remote at run time).
    from orrery.search._ray import SearchActor

    observation, action, after = first("take_the_galaxy", "standard", "use ")

    def search(actor, search_id, key, reroot=None, at=observation, iterations=200):
        report = actor.run_slice(search_id, at, TTG, 5, iterations, 0.0, 0.0, key, reroot)
        actor.finish(search_id)
        return report

    actor = SearchActor(kept_trees=2, kept_tree_nodes=1_000_000)
    for i, key in enumerate(("a/1", "b/1", "c/1")):
        assert search(actor, i, key).carried_visits == 0
    assert list(actor.kept_trees()) == ["a/1", "b/1"]  # the most recently used went first
    report = search(actor, 3, "b/1", reroot=[action], at=after)
    assert report.carried_visits > 0 and report.iterations == 200  # re-rooted, then searched on
    assert list(actor.kept_trees()) == ["a/1", "b/1"]  # b kept again, now the most recently used
    assert search(actor, 4, "b/1", reroot=[action], at=after).carried_visits == 0  # the check fails: anew
    assert search(actor, 5, "c/1").carried_visits == 0 and list(actor.kept_trees()) == ["a/1", "b/1"]
    actor.drop("a/1")
    assert list(actor.kept_trees()) == ["b/1"]
    assert search(actor, 6, None).carried_visits == 0 and list(actor.kept_trees()) == ["b/1"]  # no key
    small = SearchActor(kept_trees=8, kept_tree_nodes=300)  # room for one tree of 200 nodes
    search(small, 0, "a/1")
    search(small, 1, "b/1")
    assert list(small.kept_trees()) == ["a/1"]  # the newer one went
