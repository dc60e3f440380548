"""`orrery bench turn-time`: the AI's wall time per whole turn at a level (issue 25, part 3).

Every seat is a LevelBot of the level (in this process, one search thread, as the service's AI seats
search with one worker each). Seeded games are played until `turns` whole turns have been timed; a turn is
all the consecutive decisions of one seat, timed from its first decision to its last (the bots' own work:
searches, forced moves, the greedy fallback, the turn prediction), not the game engine's moves.
"""

from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass

from orrery.core_ext import load_game
from orrery.search._bots import LevelBot
from orrery.search._clock import expected_decisions
from orrery.search._config import get_config
from orrery.search._level_presets import level_config
from orrery.search._levels import LEVELS, level_in


@dataclass(frozen=True, kw_only=True)
class TurnTiming:
    seconds: float  # the seat's wall time over its whole turn (s)
    cpu_seconds: float  # this process's CPU time over it (s): what the turn costs on an idle core
    decisions: int  # all its decisions in the turn
    searched: int  # decisions that ran a search (more than one legal action, budget left)
    greedy: int  # decisions played by the greedy fallback (the turn's budget was spent)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (share in [0, 1]) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _play_turns(
    game_name: str,
    variant: str | None,
    players: int,
    level: str,
    seed: int,
    wanted: int,
    config_name: str | None,
):
    """TurnTimings of one seeded game (at most `wanted`), with preset `config_name` (None: the game's own)."""
    game = load_game(game_name, players=players, variant=variant)
    config = get_config(config_name) if config_name else level_config(level, game_name, game.variant, players)
    bots = [LevelBot(level_in(level, game_name, game.variant, players), config) for _ in range(players)]
    state = game.new_initial_state(seed=seed)
    move_rng = random.Random(seed)
    timings: list[TurnTiming] = []
    seat, seconds, cpu, counts = -1, 0.0, 0.0, [0, 0, 0]

    def timing() -> TurnTiming:
        return TurnTiming(
            seconds=seconds, cpu_seconds=cpu, decisions=counts[0], searched=counts[1], greedy=counts[2]
        )

    while not state.is_terminal() and len(timings) < wanted:
        if state.current_player != seat:
            if seat >= 0:
                timings.append(timing())
            seat, seconds, cpu, counts = state.current_player, 0.0, 0.0, [0, 0, 0]
        observation = state.observation(seat)
        tick, cpu_tick = time.perf_counter(), time.process_time()
        action = bots[seat].select_action(observation, seed=move_rng.getrandbits(63))
        seconds += time.perf_counter() - tick
        cpu += time.process_time() - cpu_tick
        allotment = bots[seat].last_allotment
        counts[0] += 1
        counts[1] += allotment is not None and allotment.budget is not None
        counts[2] += allotment is not None and allotment.reason == "turn budget spent"
        state.apply(action)
    if state.is_terminal() and seat >= 0 and len(timings) < wanted:
        timings.append(timing())
    return timings, game.variant


def bench_turn_time(
    game: str,
    players: int,
    *,
    level: str,
    turns: int,
    seed: int = 0,
    variant: str | None = None,
    config: str | None = None,
) -> dict:
    """Games from seeds seed, seed + 1, ... until `turns` turns are timed; their distribution as JSON."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    if turns < 1:
        raise ValueError(f"turns must be at least 1, got {turns}")
    started = time.perf_counter()
    timings: list[TurnTiming] = []
    games = 0
    played_variant = variant or ""
    while len(timings) < turns:
        more, played_variant = _play_turns(
            game, variant, players, level, seed + games, turns - len(timings), config
        )
        timings += more
        games += 1
    searching = [t for t in timings if t.searched > 0]
    seconds = [t.seconds for t in searching] or [0.0]
    cpu_seconds = [t.cpu_seconds for t in searching] or [0.0]
    searched = [float(t.searched) for t in timings]
    return {
        "bench": "turn-time",
        "game": game,
        "variant": played_variant,
        "players": players,
        "level": level,
        "config": config or level_config(level, game, played_variant, players).label,
        "turn_budget": level_in(level, game, played_variant, players).turn_budget_for(game).label,
        "expected_searched_decisions": expected_decisions(game, played_variant),
        "seed": seed,
        "games": games,
        "turns": len(timings),
        "turns_searched": len(searching),  # turns with at least one search; the times are over these
        "p50_s": round(percentile(seconds, 0.50), 4),
        "p95_s": round(percentile(seconds, 0.95), 4),
        "max_s": round(max(seconds), 4),
        "p50_cpu_s": round(percentile(cpu_seconds, 0.50), 4),  # CPU time: less sensitive to other load
        "p95_cpu_s": round(percentile(cpu_seconds, 0.95), 4),
        "load_average_1m": round(os.getloadavg()[0], 2),  # at the end: the machine is shared
        "mean_decisions_per_turn": round(sum(t.decisions for t in timings) / len(timings), 2),
        "max_decisions_per_turn": max(t.decisions for t in timings),
        "mean_searched_per_turn": round(sum(searched) / len(timings), 2),
        "p95_searched_per_turn": percentile(searched, 0.95),
        "greedy_decisions": sum(t.greedy for t in timings),
        "wall_s": round(time.perf_counter() - started, 2),
    }
