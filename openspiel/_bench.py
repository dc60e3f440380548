"""`orrery bench openspiel`: search iterations per second of Orrery's ISMCTS and of OpenSpiel's Python
ISMCTS on the same position, one thread each, side by side (docs/openspiel.md)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from orrery.core_ext import game_info
from orrery.openspiel._bots import OpenSpielBot, OpenSpielBudget, TimedISMCTSBot, _bridge_game
from orrery.search._backends import InProcessBackend
from orrery.search._bench import random_position
from orrery.search._config import Budget, get_config


def orrery_rate(observation: Any, config_name: str, seconds: float, seed: int) -> dict[str, Any]:
    backend = InProcessBackend(1)
    try:
        result = backend.search(
            observation, get_config(config_name), Budget(milliseconds=seconds * 1000.0), seed=seed
        )
    finally:
        backend.close()
    return {
        "config": config_name,
        "iterations": result.iterations,
        "elapsed_s": round(result.elapsed_s, 3),
        "iterations_per_second": round(result.iterations / result.elapsed_s, 1),
    }


def openspiel_rate(observation: Any, evaluator: str, seconds: float, seed: int) -> dict[str, Any]:
    """OpenSpiel's ISMCTSBot (through OpenSpielBot's construction) for `seconds`; one simulation is one
    root resample, which the counting resampler sees."""
    game = _bridge_game(observation.game.name, observation.game.variant, observation.game.num_players)
    state = game.state_from_core(observation.determinize(seed))
    random_state = np.random.RandomState(seed % 2**32)
    bot = OpenSpielBot("ismcts", OpenSpielBudget(milliseconds=seconds * 1000.0), {"evaluator": evaluator})
    search: TimedISMCTSBot = bot._make(game, random_state)
    simulations = 0

    def counting_resampler(sampled: Any, player: int) -> Any:
        nonlocal simulations
        simulations += 1
        return sampled.resample_from_infostate(player, random_state.random_sample)

    search.set_resampler(counting_resampler)
    start = time.perf_counter()
    search.deadline = time.monotonic() + seconds
    search.run_search(state)
    elapsed = time.perf_counter() - start
    return {
        "algorithm": "open_spiel.python.algorithms.ismcts",
        "evaluator": evaluator,
        "iterations": simulations,
        "elapsed_s": round(elapsed, 3),
        "iterations_per_second": round(simulations / elapsed, 1),
    }


def bench_openspiel(
    game: str,
    players: int,
    *,
    variant: str | None = None,
    seconds: float = 5.0,
    seed: int = 0,
    random_moves: int = 0,
) -> dict[str, Any]:
    state = random_position(game, players, seed, random_moves, variant)
    observation = state.observation(state.current_player)
    if len(observation.legal_actions()) < 2:
        raise ValueError("the position has a forced move; choose another --seed or --random-moves")
    default = game_info(game).default_search
    runs = {
        "orrery_default": orrery_rate(observation, default, seconds, seed),
        "orrery_full_random_playouts": orrery_rate(observation, "ismcts@1", seconds, seed),
        "openspiel_random_rollout": openspiel_rate(observation, "random-rollout", seconds, seed),
        "openspiel_orrery_playout": openspiel_rate(observation, "orrery-playout", seconds, seed),
    }
    base = runs["openspiel_random_rollout"]["iterations_per_second"]
    return {
        "bench": "openspiel",
        "game": game,
        "players": players,
        "variant": state.game.variant,
        "seconds": seconds,
        "seed": seed,
        "random_moves": random_moves,
        "runs": runs,
        # how many times OpenSpiel's ISMCTS with its default random-rollout evaluator each run's rate is
        "ratio_to_openspiel_random_rollout": {
            name: round(run["iterations_per_second"] / base, 1) if base else None
            for name, run in runs.items()
        },
    }
