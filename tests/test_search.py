"""Search: known-correct play, budgets, reproducibility, merge, hidden information, bots, configs."""

import dataclasses
import pickle
import threading
import time

import pytest

from orrery.core_ext import load_game
from orrery.search import (
    BOT_KINDS,
    ActionStats,
    Bot,
    Budget,
    CancelToken,
    InProcessBackend,
    SearchConfig,
    SearchResult,
    get_config,
    list_configs,
    make_bot,
    search_observation,
)
from orrery.search._result import WorkerReport, merge_reports, split_iterations

BET, PASS = 1, 0


def kuhn_facing_bet(card: int, players: int = 2):
    """Seat 1's observation after seat 0 bets, seat 1 holding `card`."""
    game = load_game("kuhn", players=players)
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        state.apply(BET)
        if state.to_dict()["state"]["cards"][1] == card:
            return state
    raise AssertionError("no deal found")


@pytest.mark.parametrize("config_name", ["test-fast", "test-pimc", "ismcts-score"])
def test_highest_card_calls_a_bet(config_name):
    for players in (2, 3):
        state = kuhn_facing_bet(players, players)  # the highest card is `players`
        result = search_observation(
            state.observation(1), get_config(config_name), Budget(iterations=3000), seed=1
        )
        assert result.best_action == BET
        assert result.best_label == "call"


@pytest.mark.parametrize("config_name", ["test-fast", "test-pimc", "ismcts-score"])
def test_lowest_card_folds_to_a_bet_heads_up(config_name):
    state = kuhn_facing_bet(0)
    result = search_observation(
        state.observation(1), get_config(config_name), Budget(iterations=3000), seed=2
    )
    assert result.best_action == PASS
    assert result.best_label == "fold"
    by_action = {a.action: a for a in result.actions}
    assert by_action[PASS].mean_reward > by_action[BET].mean_reward


def test_result_fields_are_consistent():
    state = kuhn_facing_bet(1)
    result = search_observation(
        state.observation(1), get_config("test-fast"), Budget(iterations=1000), seed=3
    )
    assert isinstance(result, SearchResult)
    assert all(isinstance(a, ActionStats) for a in result.actions)
    assert result.iterations == 1000
    assert sum(a.visits for a in result.actions) == 1000
    assert [a.visits for a in result.actions] == sorted((a.visits for a in result.actions), reverse=True)
    assert {a.action for a in result.actions} == {PASS, BET}
    assert all(0.0 <= a.mean_reward <= 1.0 for a in result.actions)
    assert all(a.availability >= a.visits for a in result.actions)
    assert result.principal_variation[0] == result.best_action
    assert result.principal_variation_labels[0] == result.best_label
    assert result.tree_size == 3 and result.max_depth == 1  # root + call + fold; both end the hand
    assert result.workers == 1 and result.workers_lost == 0 and not result.cut_short
    assert result.seed == 3 and result.elapsed_s > 0


def test_deeper_tree_in_three_players():
    state = load_game("kuhn", players=3).new_initial_state(seed=4)
    result = search_observation(state.observation(0), get_config("ismcts"), Budget(iterations=2000), seed=4)
    assert result.max_depth >= 3
    assert len(result.principal_variation) >= 2
    assert result.tree_size > 3


@pytest.mark.parametrize("config_name", ["ismcts", "pimc", "ismcts-truncated"])
def test_same_seed_and_iterations_reproduce(config_name):
    state = load_game("kuhn", players=3).new_initial_state(seed=5)
    obs = state.observation(0)
    budget = Budget(iterations=1500)
    a = search_observation(obs, get_config(config_name), budget, seed=9, workers=2)
    b = search_observation(obs, get_config(config_name), budget, seed=9, workers=2)
    assert a.actions == b.actions and a.tree_size == b.tree_size and a.max_depth == b.max_depth
    c = search_observation(obs, get_config(config_name), budget, seed=10, workers=2)
    assert c.actions != a.actions  # another seed samples other determinizations


def test_playout_horizon_from_the_root_counts_the_tree_moves():
    """horizon="root" caps an iteration's moves from the searched position. With a cap past the end of
    the game both horizons play every playout to the end (the same search); with a cap of one move the
    root horizon scores each new leaf at once with evaluate() while the leaf horizon plays one more
    move first, so the searches differ."""
    obs = load_game("kuhn", players=3).new_initial_state(seed=5).observation(0)
    budget = Budget(iterations=1500)

    def search(depth: int, horizon: str):
        config = SearchConfig(
            name="t", version=1, algorithm="ismcts", max_playout_depth=depth, horizon=horizon
        )
        return search_observation(obs, config, budget, seed=3)

    assert search(50, "root").actions == search(50, "leaf").actions
    assert search(1, "root").actions != search(1, "leaf").actions
    with pytest.raises(ValueError, match="horizon"):
        SearchConfig(name="t", version=1, algorithm="ismcts", horizon="middle")


def test_one_worker_on_the_calling_thread_matches_a_one_thread_pool():
    from orrery.search._backends import search_on_this_thread

    obs = load_game("kuhn", players=3).new_initial_state(seed=5).observation(0)
    budget = Budget(iterations=1500)
    with InProcessBackend(1) as backend:
        pooled = backend.search(obs, get_config("test-fast"), budget, seed=4)
    direct = search_on_this_thread(obs, get_config("test-fast"), budget, seed=4)
    assert direct.actions == pooled.actions and direct.tree_size == pooled.tree_size
    assert direct.iterations == pooled.iterations == 1500


def test_progress_slices_do_not_change_an_iteration_search():
    obs = load_game("kuhn", players=3).new_initial_state(seed=6).observation(0)
    budget = Budget(iterations=200_000)
    plain = search_observation(obs, get_config("ismcts"), budget, seed=1, workers=2)
    partial = []
    with InProcessBackend(2) as backend:
        sliced = backend.search(
            obs, get_config("ismcts"), budget, seed=1, progress=partial.append, progress_interval_s=0.001
        )
    assert sliced.actions == plain.actions
    assert partial and all(p.iterations <= sliced.iterations for p in partial)


def test_same_observation_from_different_true_states_gives_the_same_search():
    game = load_game("kuhn", players=3)
    # Two deals in which seat 0 holds the same card but the others differ.
    by_card = {}
    pairs = None
    for seed in range(200):
        state = game.new_initial_state(seed=seed)
        cards = state.to_dict()["state"]["cards"]
        other = by_card.setdefault(cards[0], (seed, cards))
        if other[1] != cards:
            pairs = (game.new_initial_state(seed=other[0]), state)
            break
    first, second = pairs
    assert first != second and first.observation(0) == second.observation(0)
    for name in ("ismcts", "pimc"):
        a = search_observation(first.observation(0), get_config(name), Budget(iterations=800), seed=3)
        b = search_observation(second.observation(0), get_config(name), Budget(iterations=800), seed=3)
        assert a.actions == b.actions and a.principal_variation == b.principal_variation


def test_merge_sums_visits_rewards_and_availability():
    obs = kuhn_facing_bet(1).observation(1)
    one = WorkerReport(
        root=((PASS, 10, 2.5, 30, (PASS,)), (BET, 20, 10.0, 30, (BET,))),
        iterations=30,
        tree_size=3,
        max_depth=1,
        stop_reason="budget",
    )
    two = WorkerReport(
        root=((PASS, 40, 10.0, 50, (PASS,)), (BET, 10, 9.0, 50, (BET,))),
        iterations=50,
        tree_size=3,
        max_depth=2,
        stop_reason="budget",
    )
    merged = merge_reports(obs, [one, two], seed=0, elapsed_s=1.0, workers=3, workers_lost=1, cut_short=False)
    fold, call = merged.actions
    assert (fold.action, fold.visits, fold.availability) == (PASS, 50, 80)
    assert fold.mean_reward == pytest.approx(12.5 / 50)
    assert (call.action, call.visits, call.availability) == (BET, 30, 80)
    assert call.mean_reward == pytest.approx(19.0 / 30)
    assert merged.best_action == PASS and merged.iterations == 80 and merged.tree_size == 6
    assert merged.max_depth == 2 and merged.workers_lost == 1


def test_two_workers_merge_what_each_worker_found():
    obs = load_game("kuhn", players=2).new_initial_state(seed=1).observation(0)
    config, budget = get_config("ismcts"), Budget(iterations=2001)
    merged = search_observation(obs, config, budget, seed=7, workers=2)
    assert split_iterations(2001, 2) == [1001, 1000]
    assert merged.iterations == 2001
    assert sum(a.visits for a in merged.actions) == 2001
    assert merged.workers == 2


def test_cancel_stops_a_long_search_promptly_and_returns_a_result():
    obs = load_game("kuhn", players=3).new_initial_state(seed=2).observation(0)
    token = CancelToken()
    threading.Timer(0.3, token.cancel).start()
    started = time.time()
    with InProcessBackend(2) as backend:
        result = backend.search(obs, get_config("ismcts"), Budget(milliseconds=60_000), seed=1, cancel=token)
    assert time.time() - started < 10
    assert token.cancelled and result.cut_short
    assert result.iterations > 0 and result.best_action in obs.legal_actions()


def test_cancel_before_start_still_answers():
    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    token = CancelToken()
    token.cancel()
    result = search_observation_with(obs, token)
    assert result.cut_short and result.iterations == 0 and result.best_action in obs.legal_actions()


def search_observation_with(obs, token):
    with InProcessBackend(1) as backend:
        return backend.search(obs, get_config("ismcts"), Budget(iterations=10**9), seed=1, cancel=token)


def test_deadline_stops_the_search_before_it():
    obs = load_game("kuhn", players=3).new_initial_state(seed=2).observation(0)
    deadline = time.time() + 0.3
    result = search_observation(
        obs, get_config("ismcts"), Budget(iterations=10**12, deadline=deadline), seed=1
    )
    assert time.time() < deadline + 5
    assert result.cut_short and result.iterations > 0


def test_deadline_only_budget_is_not_cut_short():
    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    result = search_observation(obs, get_config("ismcts"), Budget(deadline=time.time() + 1.0), seed=1)
    assert not result.cut_short and result.iterations > 0


def test_wall_time_budget_progress_reports_arrive():
    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    partial = []
    with InProcessBackend(1) as backend:
        result = backend.search(
            obs,
            get_config("pimc"),
            Budget(milliseconds=600),
            seed=1,
            progress=partial.append,
            progress_interval_s=0.05,
        )
    assert len(partial) >= 1 and not result.cut_short
    assert all(isinstance(p, SearchResult) for p in partial)


def test_bad_input_is_rejected():
    game = load_game("kuhn", players=2)
    state = game.new_initial_state(seed=0)
    with pytest.raises(ValueError, match="turn"):
        search_observation(state.observation(1), get_config("ismcts"), Budget(iterations=10), seed=0)
    state.apply(PASS)
    state.apply(PASS)
    with pytest.raises(ValueError, match="over"):
        search_observation(state.observation(0), get_config("ismcts"), Budget(iterations=10), seed=0)
    with pytest.raises(ValueError):
        Budget()
    with pytest.raises(ValueError):
        Budget(iterations=0)
    with pytest.raises(ValueError):
        Budget(milliseconds=float("nan"))
    with pytest.raises(ValueError):
        SearchConfig(name="x", version=1, algorithm="alphabeta")
    with pytest.raises(ValueError):
        SearchConfig(name="x", version=1, algorithm="ismcts", reward="chips")
    with pytest.raises(TypeError):
        SearchConfig("x", 1, "ismcts")  # keyword-only
    with pytest.raises(ValueError, match="seed"):
        search_observation(
            game.new_initial_state(seed=0).observation(0),
            get_config("ismcts"),
            Budget(iterations=10),
            seed=-1,
        )


def test_presets_are_named_versioned_and_picklable():
    labels = [c.label for c in list_configs()]
    assert "ismcts@1" in labels and "pimc@1" in labels and "test-fast@1" in labels
    assert get_config("ismcts") == get_config("ismcts@3")  # the latest version
    assert get_config("ismcts@1").playout == "random"
    assert get_config("pimc").algorithm == "pimc"
    with pytest.raises(ValueError, match="unknown search config"):
        get_config("nope")
    for config in list_configs():
        assert config.description
        assert pickle.loads(pickle.dumps(config)) == config
    budget = Budget(milliseconds=5.0)
    assert pickle.loads(pickle.dumps(budget)) == budget


def test_bots_pick_legal_actions_and_are_reproducible():
    assert set(BOT_KINDS) == {"random", "greedy", "ismcts", "pimc"}
    obs = load_game("kuhn", players=3).new_initial_state(seed=8).observation(0)
    for kind in BOT_KINDS:
        bot = make_bot(kind, budget=Budget(iterations=300))
        assert isinstance(bot, Bot) and bot.name == kind and bot.version
        first = bot.select_action(obs, seed=4)
        assert first in obs.legal_actions()
        assert bot.select_action(obs, seed=4) == first
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphazero")
    assert make_bot("ismcts", budget=Budget(iterations=300)).version == "ismcts@3+300it"
    changed = dataclasses.replace(get_config("ismcts@2"), horizon="root", max_playout_depth=48)
    assert make_bot("ismcts", config=changed, budget=Budget(milliseconds=100)).version == (
        "ismcts@2{max_playout_depth=48,horizon=root}+100ms"
    )
    with pytest.raises(ValueError, match="pimc config"):
        make_bot("pimc", config=get_config("ismcts"))


def test_search_bots_play_known_correct_kuhn():
    budget = Budget(iterations=3000)
    for kind, config in (("ismcts", "ismcts-score"), ("pimc", "test-pimc")):
        bot = make_bot(kind, config=get_config(config), budget=budget)
        assert bot.select_action(kuhn_facing_bet(2).observation(1), seed=1) == BET
        assert bot.select_action(kuhn_facing_bet(0).observation(1), seed=1) == PASS


def test_greedy_bot_uses_the_heuristic():
    # Kuhn's evaluation is the card's rank; one ply ahead, folding the lowest card is a sure loss
    # either way, so check the strong hand instead: with the top card it calls.
    assert make_bot("greedy").select_action(kuhn_facing_bet(2).observation(1), seed=0) == BET


def test_driver_gives_up_on_a_worker_that_never_answers():
    import concurrent.futures as cf

    from orrery.search._driver import WorkerSearch, drive

    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    healthy = WorkerSearch(obs, get_config("ismcts"), 1)
    lost = []

    def submit(i, more, until, deadline):
        if i == 1:
            return cf.Future()  # never completes: a hung worker
        future = cf.Future()
        future.set_result(healthy.run_slice(more, until, deadline))
        return future

    started = time.time()
    result = drive(
        obs,
        Budget(milliseconds=100),
        seed=1,
        workers=2,
        submit=submit,
        cancel=None,
        progress=None,
        progress_interval_s=0.5,
        started=started,
        on_lost=lost.append,
        slice_grace_s=0.2,
    )
    assert lost == [1] and result.workers_lost == 1 and result.iterations > 0
    assert time.time() - started < 5


def test_results_pickle_and_serialise():
    import json

    obs = load_game("kuhn", players=2).new_initial_state(seed=2).observation(0)
    result = search_observation(obs, get_config("ismcts"), Budget(iterations=200), seed=1)
    assert pickle.loads(pickle.dumps(result)) == result
    data = json.loads(json.dumps(result.to_dict()))
    assert data["best_action"] == result.best_action and len(data["actions"]) == len(result.actions)
    assert pickle.loads(pickle.dumps(obs)) == obs


def test_line_labels_try_several_determinizations():
    """A principal variation is found across many determinizations, so a deep step can be illegal in
    any single one: labelling keeps the sample that plays furthest, never less far than the first."""
    import random

    from orrery.search import sampled_line_labels

    game = load_game("trian", players=2)
    deeper = 0
    for deal in range(4):
        state = game.new_initial_state(deal)
        rng = random.Random(deal)
        for _ in range(30):
            state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(state.current_player)
        line = search_observation(
            obs, get_config("ismcts"), Budget(iterations=3000), seed=deal
        ).principal_variation
        for seed in range(3):
            first = obs.determinize(random.Random(seed).getrandbits(63))
            first_depth = 0
            for action in line:
                if first.is_terminal() or not first.is_legal(action):
                    break
                first.apply(action)
                first_depth += 1
            labels = sampled_line_labels(obs, line, seed)
            assert len(labels) >= first_depth and all(labels)
            deeper += len(labels) > first_depth
    assert deeper > 0
