"""`orrery bench eval`: the cost of one evaluation, hand-written against learned, and what it does to the
search's iterations per second (docs/learning.md, "Speed").

Both kinds are measured in alternating rounds, so a machine shared with other work slows both alike."""

from __future__ import annotations

import random
import time

from orrery.core_ext import load_game
from orrery.search._config import get_config
from orrery.search._kernel import Searcher
from orrery.search._learned import shipped_network

ROUNDS = 3


def sample_positions(game_name: str, players: int, variant: str | None, count: int, seed: int) -> list:
    """Live states from seeded uniform random play: deal j, then a random number of random moves."""
    game = load_game(game_name, players=players, variant=variant)
    rng = random.Random(seed)
    positions: list = []
    deal = 0
    while len(positions) < count:
        state = game.new_initial_state(seed=seed * 100_003 + deal)
        deal += 1
        stop = rng.randrange(0, 400)
        for _ in range(stop):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            positions.append(state)
    return positions


def bench_eval(
    game_name: str,
    *,
    variant: str | None,
    players: int,
    config: str = "ismcts@3",
    seconds: float = 3.0,
    positions: int = 200,
    seed: int = 0,
    search_positions: int = 1,
) -> dict:
    game = load_game(game_name, players=players, variant=variant)
    network = shipped_network(game)
    states = sample_positions(game_name, players, variant, positions, seed)
    repeats = max(1, int(20_000 / len(states)))
    micros: dict[str, list[tuple[float, float]]] = {
        "handwritten": [],
        "learned_sparse": [],
        "learned_dense": [],
    }
    stored = network.sparse_input
    try:
        for _ in range(ROUNDS):
            micros["handwritten"].append(network.micros_per_eval(states, repeats, learned=False))
            network.sparse_input = True
            micros["learned_sparse"].append(network.micros_per_eval(states, repeats))
            network.sparse_input = False
            micros["learned_dense"].append(network.micros_per_eval(states, repeats))
    finally:
        network.sparse_input = stored
    features = __import__(f"orrery.core_ext.{game_name}.features", fromlist=["encode"])
    active = sum(int((features.encode(s, s.current_player) != 0).sum()) for s in states) / len(states)
    preset = get_config(config)
    rates: dict[str, list[float]] = {"handwritten": [], "learned": []}  # per thread-CPU second
    searchers = {
        kind: [
            Searcher(observation, seed=seed, **{**preset.kernel_options(), "evaluation": kind})
            for observation in _searched(states, search_positions)
        ]
        for kind in rates
    }
    for _ in range(ROUNDS):
        for kind, group in searchers.items():
            iterations, cpu_seconds = 0, 0.0
            for searcher in group:  # the round's time shared out among the positions
                before, cpu_start = searcher.iterations, time.thread_time()
                searcher.run(until=_now() + seconds / ROUNDS / len(group))
                iterations += searcher.iterations - before
                cpu_seconds += time.thread_time() - cpu_start
            rates[kind].append(iterations / cpu_seconds)
    wall = {k: min(w for w, _ in v) for k, v in micros.items()}
    cpu = {k: min(c for _, c in v) for k, v in micros.items()}
    return {
        "game": game_name,
        "variant": game.variant,
        "players": players,
        "positions": len(states),
        "evaluations_per_kind": ROUNDS * repeats * len(states),
        "model_layers": list(network.model.sizes),
        "model_sparse_input": stored,
        "features": network.model.sizes[0],
        "mean_active_features": round(active, 1),
        "us_per_eval_cpu": {k: round(v, 3) for k, v in cpu.items()},
        "us_per_eval_wall": {k: round(v, 3) for k, v in wall.items()},
        "us_per_eval_cpu_rounds": {k: [round(c, 3) for _, c in v] for k, v in micros.items()},
        "config": preset.label,
        "search_seconds_per_kind": seconds,
        "search_positions": search_positions,
        "iterations_per_cpu_s": {k: round(max(v)) for k, v in rates.items()},
        "iterations_per_cpu_s_rounds": {k: [round(x) for x in v] for k, v in rates.items()},
        "learned_over_handwritten_speed": round(max(rates["learned"]) / max(rates["handwritten"]), 3),
    }


def _searched(states: list, count: int) -> list:
    """The observations searched for the iteration rate: the middle sampled state (count 1, the first
    benchmark's choice), or `count` states spread evenly over the sample. One position can be
    unrepresentative (a Tiny Epic Galaxies position measured the learned search at 0.97 of the hand-written
    one's speed, where positions of whole games gave 0.58: docs/learning.md)."""
    if not 1 <= count <= len(states):
        raise ValueError(f"search_positions must be 1..{len(states)} (the sampled positions), got {count}")
    chosen = (
        [states[len(states) // 2]] if count == 1 else [states[i * len(states) // count] for i in range(count)]
    )
    return [s.observation(s.current_player) for s in chosen]


def _now() -> float:
    from orrery.search._kernel import wall_time

    return float(wall_time())
