"""`orrery bench playouts` and `orrery render`: commands that need only the game cores."""

from __future__ import annotations

import argparse
import json
import time

from orrery.core_ext._registry import game_bounds, load_game, registered_games


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


def _run_bench_playouts(args: argparse.Namespace) -> int:
    result = bench_playouts(args.game, args.players, args.variant, args.seconds, args.seed)
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0


def _run_games(args: argparse.Namespace) -> int:
    for info in registered_games(include_testing=args.all):
        counts = ", ".join(map(str, info.player_counts))
        actions, length = game_bounds(info.name)
        print(f"{info.name:8} {info.title}\n         variants: {', '.join(info.variants)}; players: {counts}")
        print(f"         num_distinct_actions: {actions} (ids 0..{actions - 1}); max_game_length: {length}")
    return 0


def register(commands, bench) -> None:
    p = bench.add_parser("playouts", help="random full-game playouts per second on one core")
    add_game_arguments(p)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_run_bench_playouts)

    p = commands.add_parser("games", help="list the games, their variants and player counts")
    p.add_argument("--all", action="store_true", help="include test-only games")
    p.set_defaults(func=_run_games)
