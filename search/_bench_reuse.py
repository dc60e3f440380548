"""`orrery bench tree-reuse`: how often a seat's decisions start from its previous decision's tree.

Every seat is a turn-clocked LevelBot (tolerance 0, like a tournament's `turn` bot) with the game's default
preset and reuse_tree on. Seeded games are played to the end; the JSON reports the share of searched
decisions that started from a re-rooted tree and the visits those roots started with, against the new
iterations each decision searched (docs/search.md, "Tree reuse"). `backend` and `workers` choose where the
searches run (every bot shares one backend): in-process threads or Ray actors, which keep the trees between
decisions themselves. The same seeds and worker count play the same games on either.
"""

from __future__ import annotations

import dataclasses
import random
import time

from orrery.core_ext import load_game
from orrery.search._bots import LevelBot, ReuseStats, config_version, default_config
from orrery.search._levels import Level


def bench_tree_reuse(
    game: str,
    players: int,
    *,
    iterations: int,
    games: int,
    seed: int = 0,
    variant: str | None = None,
    config: str | None = None,
    backend: str = "inprocess",
    workers: int = 1,
) -> dict:
    """Games from seeds seed, seed + 1, ... with `iterations` per whole turn; the reuse figures as JSON."""
    if iterations < 1 or games < 1:
        raise ValueError(f"iterations and games must be at least 1, got {iterations} and {games}")
    from orrery.search._bench import _backend

    searches = _backend(backend, workers)
    try:
        searches.warm()  # Ray actors start before the clock does
        figures = _play_games(
            game,
            players,
            iterations=iterations,
            games=games,
            seed=seed,
            variant=variant,
            config=config,
            backend=searches,
        )
    finally:
        searches.close()
    return figures | {"backend": backend, "workers": workers}


def _play_games(
    game: str,
    players: int,
    *,
    iterations: int,
    games: int,
    seed: int,
    variant: str | None,
    config: str | None,
    backend,
) -> dict:
    from orrery.search._config import get_config

    preset = get_config(config) if config else default_config("ismcts", game)
    search_config = dataclasses.replace(preset, reuse_tree=True)
    level = Level(name="turn", iterations=iterations, milliseconds=None, tolerance=0.0)
    started = time.perf_counter()
    totals = ReuseStats()
    played_variant = variant or ""
    for g in range(games):
        loaded = load_game(game, players=players, variant=variant)
        played_variant = loaded.variant
        bots = [LevelBot(level, search_config, backend) for _ in range(players)]
        state = loaded.new_initial_state(seed=seed + g)
        move_rng = random.Random(seed + g)
        while not state.is_terminal():
            seat = state.current_player
            action = bots[seat].select_action(state.observation(seat), seed=move_rng.getrandbits(63))
            state.apply(action)
        for bot in bots:
            totals = totals.plus(bot.reuse_stats)
    return {
        "bench": "tree-reuse",
        "game": game,
        "variant": played_variant,
        "players": players,
        "config": config_version(search_config),  # the preset, with {reuse_tree=True} where it was off
        "iterations_per_turn": iterations,
        "seed": seed,
        "games": games,
        "searched_decisions": totals.searched,
        "reused_decisions": totals.reused,
        "reuse_rate": round(totals.rate, 4),  # share of searched decisions that started from a kept tree
        "mean_reused_visits": round(totals.mean_reused_visits, 1),  # the re-rooted roots' starting visits
        "mean_new_iterations": round(totals.iterations / max(1, totals.searched), 1),  # per searched decision
        "wall_s": round(time.perf_counter() - started, 2),
    }
