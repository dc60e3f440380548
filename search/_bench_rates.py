"""`orrery bench preset-rates`: how many iterations two presets run in the same time, on the same positions.

Presets are compared "at equal time per turn" with iteration budgets, so that the comparison replays
exactly; this measures the exchange rate. Both presets search the same seeded mid-game positions (reached
by greedy self-play) for the same wall time each, alternately and in both orders, so that the machine's
load falls on both alike.
"""

from __future__ import annotations

import time

from orrery.core_ext import load_game
from orrery.search._backends import InProcessBackend
from orrery.search._bots import make_bot
from orrery.search._config import Budget, get_config

POSITION_STRIDE = 25  # a position every 25 moves of each self-play game, from move 10 on


def rate_positions(game_name: str, players: int, variant: str | None, count: int, seed: int) -> list:
    """`count` seeded observations with a choice to make, spread over whole greedy self-play games."""
    game = load_game(game_name, players=players, variant=variant)
    greedy = make_bot("greedy")
    found: list = []
    deal = seed
    while len(found) < count * 3 and deal < seed + 50:
        state = game.new_initial_state(seed=deal)
        move = 0
        while not state.is_terminal():
            observation = state.observation(state.current_player)
            if move % POSITION_STRIDE == 10 and len(observation.legal_actions()) > 1:
                found.append(observation)
            state.apply(greedy.select_action(observation, seed=move))
            move += 1
        deal += 1
    return found[:: max(1, len(found) // count)][:count]


def bench_preset_rates(
    game_name: str,
    *,
    players: int,
    variant: str | None,
    old: str,
    new: str,
    positions: int,
    milliseconds: float,
    rounds: int,
    seed: int,
) -> dict:
    """Iterations per second of `old` and `new` and their ratio (new / old), one core."""
    observations = rate_positions(game_name, players, variant, positions, seed)
    if not observations:
        raise ValueError(f"no position with a choice {POSITION_STRIDE} moves apart in {game_name}'s games")
    totals = {old: [0, 0.0], new: [0, 0.0]}
    with InProcessBackend(1) as backend:
        for round_index in range(rounds):
            for i, observation in enumerate(observations):
                order = (old, new) if (i + round_index) % 2 == 0 else (new, old)
                for name in order:
                    started = time.perf_counter()
                    result = backend.search(
                        observation, get_config(name), Budget(milliseconds=milliseconds), seed=seed + i
                    )
                    totals[name][0] += result.iterations
                    totals[name][1] += time.perf_counter() - started
    rates = {name: iterations / seconds for name, (iterations, seconds) in totals.items()}
    if rates[old] == 0 or rates[new] == 0:
        # A loaded machine can preempt a very short search before its first iteration.
        raise ValueError(f"a preset ran no iteration in {milliseconds} ms searches; raise --ms")
    return {
        "bench": "preset-rates",
        "game": game_name,
        "players": players,
        "variant": observations[0].game.variant if observations else variant,
        "positions": len(observations),
        "milliseconds_per_search": milliseconds,
        "rounds": rounds,
        "old": old,
        "new": new,
        "old_iterations_per_s": round(rates[old]),
        "new_iterations_per_s": round(rates[new]),
        "ratio": round(rates[new] / rates[old], 3),
    }
