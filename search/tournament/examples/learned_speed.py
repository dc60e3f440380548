"""The learned evaluation's search speed over the positions of real games (docs/learning.md, Tiny Epic
Galaxies): the ratio that sets an equal-time SPRT's iteration budgets.

    python search/tournament/examples/learned_speed.py GAME VARIANT [--players 2] [--games 6] [--every 15]
        [--iterations 1500] [--config ismcts-teg@3] [--selfplay-iterations 200]

Plays `--games` self-play games (every seat the preset at `--selfplay-iterations` a move, deals 900,
901, ...), keeps every `--every`-th searched position, and searches each `--iterations` iterations with
the hand-written and with the learned evaluation (order alternating by position, two rounds), in thread
CPU time. `orrery bench eval` searches one random-play position (or `--search-positions` of them), which in
Tiny Epic Galaxies measured the learned search far faster than it plays in a game. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from orrery.core_ext import load_game
from orrery.search._backends import search_observation
from orrery.search._config import Budget, get_config
from orrery.search._kernel import Searcher


def game_positions(
    game_name: str, variant: str, games: int, every: int, config: str, iterations: int, players: int = 2
) -> list:
    game = load_game(game_name, players=players, variant=variant)
    preset = get_config(config)
    positions = []
    for index in range(games):
        state = game.new_initial_state(seed=900 + index)
        rng = random.Random(index)
        moves = 0
        while not state.is_terminal():
            observation = state.observation(state.current_player)
            legal = observation.legal_actions()
            action = legal[0]
            if len(legal) > 1:
                if moves % every == 0:
                    positions.append(observation)
                budget = Budget(iterations=iterations)
                action = search_observation(observation, preset, budget, seed=rng.getrandbits(31)).best_action
            state.apply(action)
            moves += 1
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("variant")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=15)
    parser.add_argument("--iterations", type=int, default=1500)
    parser.add_argument("--config", default="ismcts-teg@3")
    parser.add_argument("--selfplay-iterations", type=int, default=200)
    args = parser.parse_args()
    preset = get_config(args.config)
    positions = game_positions(
        args.game, args.variant, args.games, args.every, args.config, args.selfplay_iterations, args.players
    )
    cpu = {"handwritten": 0.0, "learned": 0.0}
    for round_ in range(2):
        for i, observation in enumerate(positions):
            kinds = ("handwritten", "learned") if (i + round_) % 2 == 0 else ("learned", "handwritten")
            for kind in kinds:
                searcher = Searcher(observation, seed=i, **{**preset.kernel_options(), "evaluation": kind})
                start = time.thread_time()
                searcher.run(max_iterations=args.iterations)
                cpu[kind] += time.thread_time() - start
    count = 2 * len(positions) * args.iterations
    print(
        json.dumps(
            {
                "game": args.game,
                "variant": args.variant,
                "config": preset.label,
                "positions": len(positions),
                "iterations_each": args.iterations,
                "us_per_iteration_cpu": {k: round(1e6 * v / count, 3) for k, v in cpu.items()},
                "learned_over_handwritten_speed": round(cpu["handwritten"] / cpu["learned"], 3),
            }
        )
    )


if __name__ == "__main__":
    main()
