"""`orrery bench playouts` and `orrery bench tensor`: commands that need only the game cores. (`orrery
games` lists the shipped learned models too, so it lives in the search layer: search/_cli.py.)"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from typing import Any

from orrery.core_ext._registry import load_game, registered_games


def add_game_arguments(parser: argparse.ArgumentParser, *, default_game: str = "trian") -> None:
    names = [g.name for g in registered_games()]
    parser.add_argument("--game", default=default_game, choices=names, help="game to play")
    parser.add_argument("--players", type=int, default=2, help="number of players")
    parser.add_argument("--variant", default=None, help="game variant (default: the game's default)")


def bench_playouts(game_name: str, players: int, variant: str | None, seconds: float, seed: int) -> dict:
    """Random full-game playouts from fresh deals on one core, for `seconds` of wall time."""
    game = load_game(game_name, players=players, variant=variant)
    playouts = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state(seed=seed + playouts)
        moves += state.playout(seed=seed + playouts)
        playouts += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "bench": "playouts",
        "game": game_name,
        "variant": game.variant,
        "players": players,
        "seconds": round(elapsed, 3),
        "playouts": playouts,
        "playouts_per_second": round(playouts / elapsed, 1),
        "moves_per_playout": round(moves / playouts, 1),
        "moves_per_second": round(moves / elapsed, 1),
    }


def bench_tensor(game_name: str, players: int, variant: str | None, seconds: float, seed: int) -> dict:
    """observation_tensor build time on one core: every seat's observation along seeded random games (the
    observations are made first; only the tensor calls are timed), repeated for `seconds` of wall time."""
    from orrery.core_ext._tensor import observation_tensor

    game = load_game(game_name, players=players, variant=variant)
    rng = random.Random(seed)
    observations: list[Any] = []
    for k in range(4):
        state = game.new_initial_state(seed=seed + k)
        while not state.is_terminal():
            observations.extend(state.observation(p) for p in range(players))
            state.apply(rng.choice(state.legal_actions()))
    pool = itertools.cycle(observations)
    built = size = 0
    start = time.perf_counter()
    while not built or time.perf_counter() - start < seconds:
        for _ in range(100):  # check the clock every 100 tensors
            size = observation_tensor(next(pool)).size
        built += 100
    elapsed = time.perf_counter() - start
    return {
        "bench": "tensor",
        "game": game_name,
        "variant": game.variant,
        "players": players,
        "seconds": round(elapsed, 3),
        "floats": size,
        "tensors": built,
        "microseconds_per_tensor": round(elapsed / built * 1e6, 1),
    }


def _print_result(args: argparse.Namespace, result: dict) -> int:
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _run_bench_playouts(args: argparse.Namespace) -> int:
    return _print_result(args, bench_playouts(args.game, args.players, args.variant, args.seconds, args.seed))


def _run_bench_tensor(args: argparse.Namespace) -> int:
    return _print_result(args, bench_tensor(args.game, args.players, args.variant, args.seconds, args.seed))


def _add_game_bench(bench, name: str, summary: str, seconds: float, func) -> None:
    p = bench.add_parser(name, help=summary)
    add_game_arguments(p)
    p.add_argument("--seconds", type=float, default=seconds)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=func)


def register(commands, bench) -> None:
    _add_game_bench(
        bench, "playouts", "random full-game playouts per second on one core", 5.0, _run_bench_playouts
    )
    _add_game_bench(
        bench, "tensor", "observation_tensor build time per observation on one core", 2.0, _run_bench_tensor
    )
