"""The server's bound on the search trees its AI seats keep between decisions (service/_kept_trees.py):
most-recently-searched eviction, trees in use left alone, trees freed with their match, the metrics.
Deterministic: iteration budgets and seeds (7300-7399), no timing."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest
from test_service_turn_clock import RecordingScheduler, hosted_servicer

from orrery.core_ext import load_game
from orrery.search import Budget, TurnTree, get_config, search_observation
from orrery.service._kept_trees import KeptTrees, TreeBound, tree_nodes
from orrery.service._matches import FINISHED, AiSpec, MatchStore
from orrery.service._metrics import ServiceMetrics

TTG = get_config("ismcts-ttg@2")  # Take The Galaxy's default, which reuses trees


def _observation(seed: int):
    game = load_game("take_the_galaxy", players=2, variant="standard")
    state = game.new_initial_state(seed=seed)
    return state.observation(state.current_player)


def _searched_tree(kept: KeptTrees, match_id: str, iterations: int, seed: int, tree: TurnTree | None = None):
    """A decision of `match_id`'s AI seat as the server runs it: the tree handed to the search, searched
    in process, then given back to the bound."""
    tree = tree if tree is not None else TurnTree()
    kept.searching(match_id, tree)
    search_observation(_observation(seed), TTG, Budget(iterations=iterations), seed=seed, tree=tree)
    kept.searched(match_id)
    return tree


def _sample(metrics: ServiceMetrics, name: str) -> float:
    return metrics.registry.get_sample_value(name) or 0.0


def test_a_bound_of_two_trees_frees_the_most_recently_searched():
    # The queue serves waiting turns in order, so the turn just searched waits longest: it goes first and
    # the two kept turns keep their trees until their next decisions.
    metrics = ServiceMetrics(max_budget_s=10.0)
    kept = KeptTrees(TreeBound(trees=2, nodes=10_000_000), metrics=metrics)
    trees = {f"m{i}": _searched_tree(kept, f"m{i}", 100, 7300 + i) for i in range(5)}
    assert kept.kept_matches() == ["m0", "m1"] and kept.evictions == 3
    assert [m for m, tree in trees.items() if tree.holds_tree] == ["m0", "m1"]  # the evicted hold nothing
    assert kept.nodes == tree_nodes(trees["m0"]) + tree_nodes(trees["m1"]) > 0
    assert _sample(metrics, "orrery_ai_kept_trees") == 2
    assert _sample(metrics, "orrery_ai_kept_tree_nodes") == kept.nodes
    assert _sample(metrics, "orrery_ai_kept_tree_evictions_total") == 3
    # m0's next decision reuses its kept tree and keeps it (now the most recent) within the bound; a
    # newcomer beyond the bound is then the one freed, not m0 or m1
    _searched_tree(kept, "m0", 50, 7310, tree=trees["m0"])
    assert kept.kept_matches() == ["m1", "m0"] and kept.evictions == 3
    m5 = _searched_tree(kept, "m5", 50, 7311)
    assert kept.kept_matches() == ["m1", "m0"] and not m5.holds_tree and kept.evictions == 4


def test_the_node_bound_holds_after_every_decision():
    # Each tree has about 1 node an iteration; a bound of 500 nodes keeps at most two of 200 and none
    # bigger than the bound.
    kept = KeptTrees(TreeBound(trees=100, nodes=500))
    for i in range(6):
        _searched_tree(kept, f"m{i}", 200, 7320 + i)
        assert kept.nodes <= 500 and 1 <= kept.trees <= 2
    big = _searched_tree(kept, "big", 800, 7330)  # alone over the bound: not kept
    assert not big.holds_tree and "big" not in kept.kept_matches() and kept.nodes <= 500


def test_an_evicted_seat_starts_a_new_tree_and_a_kept_one_reuses_it():
    # The same seat's next decision after one of its moves: re-rooted where its tree is kept, a new tree
    # (carried_visits None, no error) where the bound freed it.
    game = load_game("take_the_galaxy", players=2, variant="standard")
    for bound, reuses in ((TreeBound(trees=1), True), (TreeBound(trees=0), False)):
        kept = KeptTrees(bound)
        state = game.new_initial_state(seed=7340)
        rng = random.Random(7340)
        for _ in range(2):  # two random moves in: the seat's searched move leaves its turn going on
            state.apply(rng.choice(state.legal_actions()))
        seat = state.current_player
        tree = TurnTree()
        kept.searching("m", tree)
        result = search_observation(
            state.observation(seat), TTG, Budget(iterations=400), seed=7341, tree=tree
        )
        kept.searched("m")
        assert tree.holds_tree == reuses
        tree.played(result.best_action)
        state.apply(result.best_action)
        assert state.current_player == seat  # the turn goes on
        kept.searching("m", tree)
        after = search_observation(state.observation(seat), TTG, Budget(iterations=100), seed=7342, tree=tree)
        kept.searched("m")
        assert (tree.carried_visits is not None) == reuses
        assert after.best_action in state.legal_actions()


def test_a_tree_in_use_is_never_freed_under_its_search():
    kept = KeptTrees(TreeBound(trees=1))
    busy = TurnTree()
    kept.searching("busy", busy)  # handed to a search that has not ended
    search_observation(_observation(7350), TTG, Budget(iterations=100), seed=7350, tree=busy)
    for i in range(3):  # others come and go meanwhile
        _searched_tree(kept, f"m{i}", 100, 7351 + i)
    assert busy.holds_tree and kept.trees == 1
    kept.release("busy", busy)  # its match ended meanwhile: freed when the search ends
    assert busy.holds_tree
    kept.searched("busy")
    assert not busy.holds_tree and kept.kept_matches() == ["m0"]
    kept.release("m0")
    assert kept.trees == 0 and kept.nodes == 0


def test_the_bound_refuses_what_is_not_a_count():
    for trees, nodes in ((-1, 10), (2, -5), (True, 10), (2, 1.5)):
        with pytest.raises(ValueError, match="kept-tree bound"):
            TreeBound(trees=trees, nodes=nodes)  # type: ignore[arg-type]


def _play_hosted_matches(tmp_path, bound: TreeBound, seeds: list[int], bot: str = "ismcts-ttg@2"):
    """AI-only Take The Galaxy matches, all started at once on one servicer with `bound`, played to the
    end by its AI loop (the searches in process, recorded). Returns (moves per match, the servicer, the
    kept trees seen after each search, the recording scheduler)."""
    store = MatchStore(str(tmp_path / "m.sqlite3"))
    scheduler = RecordingScheduler()
    servicer = hosted_servicer(store, scheduler, tree_bound=bound)
    kept_seen: list[tuple[int, int]] = []
    searched = servicer.ai_clocks.searched

    def searched_and_seen(match_id):
        searched(match_id)
        kept_seen.append((servicer.ai_clocks.kept.trees, servicer.ai_clocks.kept.nodes))

    servicer.ai_clocks.searched = searched_and_seen  # type: ignore[method-assign]

    async def main():
        ids = []
        for seed in seeds:
            ai = [AiSpec(seed=seed + seat, bot=bot, turn_iterations=300) for seat in (0, 1)]
            ids.append(store.create("take_the_galaxy", 2, "standard", seed, ai=ai).match_id)
        for match_id in ids:
            servicer.ai.poke(match_id)
        while servicer.ai.running:
            await asyncio.sleep(0.01)
        return ids

    ids = asyncio.run(main())
    histories = {m: store.history(m, 0) for m in ids}
    store.close()
    servicer.statuses = {m: h.status for m, h in histories.items()}  # type: ignore[attr-defined]
    moves = {m: [(r.seat, r.action.id) for r in h.moves] for m, h in histories.items()}
    return moves, servicer, kept_seen, scheduler


def test_many_hosted_matches_under_a_bound_of_two_trees(tmp_path):
    # Four AI-only matches at once: their turns' trees compete for two places. Evictions happen, reuse
    # still happens, no match stops, the bound holds after every decision, and finished matches free
    # everything.
    moves, servicer, kept_seen, scheduler = _play_hosted_matches(
        tmp_path, TreeBound(trees=2, nodes=1_000_000), [7360, 7362, 7364, 7366]
    )
    assert set(servicer.statuses.values()) == {FINISHED}  # every match played to its end
    kept = servicer.ai_clocks.kept
    assert kept.evictions > 0
    assert max(trees for trees, _ in kept_seen) == 2 and all(trees <= 2 for trees, _ in kept_seen)
    assert any(visits is not None for visits in scheduler.carried)  # reuse still works under the bound
    assert kept.trees == 0 and kept.nodes == 0 and len(servicer.ai_clocks) == 0  # all ended: all freed
    sample = servicer.metrics.registry.get_sample_value
    assert sample("orrery_ai_kept_trees") == 0 and sample("orrery_ai_kept_tree_nodes") == 0
    assert sample("orrery_ai_kept_tree_evictions_total") == kept.evictions


def test_keeping_no_tree_plays_exactly_as_a_config_without_reuse(tmp_path):
    # A bound of 0 frees every tree after its decision, so each starts a new tree: the same search, and
    # the same moves, as ismcts-ttg@1 (the same preset without reuse_tree).
    (tmp_path / "none").mkdir()
    (tmp_path / "off").mkdir()
    none, _, _, recorded = _play_hosted_matches(tmp_path / "none", TreeBound(trees=0), [7370])
    off, _, _, _ = _play_hosted_matches(tmp_path / "off", TreeBound(), [7370], bot="ismcts-ttg@1")
    assert list(none.values()) == list(off.values())
    assert all(visits is None for visits in recorded.carried)


def test_an_ended_ai_task_frees_its_turns_tree(tmp_path):
    # The AI loop's task for a match ends however it ends (here: the match was resigned between two
    # decisions of the AI's turn, so its next move is refused): the turn's clock and tree go with it.
    store = MatchStore(str(tmp_path / "m.sqlite3"))
    servicer = hosted_servicer(store, RecordingScheduler(), tree_bound=TreeBound(trees=8))
    trees_after_first: list[int] = []
    original = servicer._ai_play
    plays = 0

    async def play(turn):
        nonlocal plays
        plays += 1
        if plays == 4:  # mid-game, between two decisions: the other seat resigns
            trees_after_first.append(servicer.ai_clocks.kept.trees)
            await servicer.db(store.resign, turn.match_id, 1 - turn.seat)
        return await original(turn)

    servicer.ai._play = play  # type: ignore[method-assign]

    async def main():
        ai = [AiSpec(seed=7380, turn_iterations=300), AiSpec(seed=7381, turn_iterations=300)]
        created = store.create("take_the_galaxy", 2, "standard", 7380, ai=ai)
        servicer.ai.poke(created.match_id)
        while servicer.ai.running:
            await asyncio.sleep(0.01)

    asyncio.run(main())
    store.close()
    assert plays == 4 and trees_after_first == [1]  # the turn kept its tree until the resignation
    assert len(servicer.ai_clocks) == 0 and servicer.ai_clocks.kept.trees == 0


def test_the_kept_trees_bench_reads_the_servers_figures(tmp_path):
    # orrery bench kept-trees follows the server through its /metrics text (here a file).
    from prometheus_client import generate_latest

    from orrery.service._bench_kept_trees import read_server

    metrics = ServiceMetrics(max_budget_s=10.0)
    kept = KeptTrees(TreeBound(trees=1), metrics=metrics)
    for i in range(3):
        _searched_tree(kept, f"m{i}", 50, 7390 + i)
    metrics.count_ai_decision(keeps_trees=True, carried_visits=12)
    metrics.matches_active.set(3)
    page = tmp_path / "metrics"
    page.write_bytes(generate_latest(metrics.registry))
    found = read_server(page.as_uri())
    assert found["kept_trees"] == 1 and found["kept_tree_nodes"] == kept.nodes > 0
    assert found["evictions"] == 2 and found["matches_active"] == 3
    assert found["decisions"] == {"reused": 1, "new": 0, "off": 0}
    assert found["rss_bytes"] > 0  # the process collector's (Linux /proc)


def test_trees_kept_on_the_workers_count_as_trees_and_are_freed_there():
    # A turn whose trees the Ray actors keep (TurnTree.on_workers, as RayBackend.search calls it): no
    # nodes in this process, one tree against the bound, and an eviction tells the workers to drop it.
    kept = KeptTrees(TreeBound(trees=1))
    dropped: list[str] = []
    on_ray = TurnTree()
    kept.searching("ray", on_ray)
    key, _played = on_ray.on_workers(object(), TTG, dropped.append)
    kept.searched("ray")
    assert kept.kept_matches() == ["ray"] and kept.nodes == 0 and dropped == []
    local = _searched_tree(kept, "local", 100, 7395)  # a newer turn, in process: it is the one freed
    assert kept.kept_matches() == ["ray"] and dropped == [] and on_ray.holds_tree and not local.holds_tree
    kept.searching("ray", on_ray)  # the worker-kept turn's next decision, the turn's last
    kept.searched("ray")
    kept.release("ray", on_ray)
    assert kept.trees == 0 and dropped == [key] and not on_ray.holds_tree


def test_the_server_refuses_a_bound_below_zero():
    from orrery.service._server import ServerConfig

    assert ServerConfig(max_kept_trees=0, max_kept_tree_nodes=0).max_kept_trees == 0  # keep none
    for field in ("max_kept_trees", "max_kept_tree_nodes", "worker_kept_trees", "worker_kept_tree_nodes"):
        with pytest.raises(ValueError, match="kept-tree bound"):
            ServerConfig(**{field: -1})


def test_the_ray_actors_get_the_configured_bound(monkeypatch):
    """--worker-kept-trees and --worker-kept-tree-nodes reach every Ray search actor (no Ray started here)."""
    import orrery.search
    from orrery.service import _server
    from orrery.service.cli import build_parser

    configs: list = []

    async def serve(config, *, on_ready=None):  # type: ignore[no-untyped-def]
        configs.append(config)

    monkeypatch.setattr("orrery.service._cli.serve", serve)
    flags = ["--worker-kept-trees", "3", "--worker-kept-tree-nodes", "5000"]
    args = build_parser().parse_args(["serve", *flags])
    assert args.func(args) == 0
    made: list[dict] = []
    monkeypatch.setattr(orrery.search, "RayBackend", lambda **kwargs: made.append(kwargs))
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # as a cluster's server has it: no local Ray to start
    _server.make_backend(dataclasses.replace(configs[-1], backend="ray"))
    assert made[-1]["kept_trees"] == 3 and made[-1]["kept_tree_nodes"] == 5000
    _server.make_backend(_server.ServerConfig(backend="ray"))
    assert (made[-1]["kept_trees"], made[-1]["kept_tree_nodes"]) == (8, 1_000_000)  # search/_ray.py's bound
    with pytest.raises(SystemExit):  # a usage error naming the flag, before anything starts
        build_parser().parse_args(["serve", "--worker-kept-trees", "-1"])
