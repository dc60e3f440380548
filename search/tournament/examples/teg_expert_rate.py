"""How many search iterations Tiny Epic Galaxies' expert level buys with its 2,000 ms a turn (issue 25, part
2; docs/strength.md, "2026-11-27 (session 7)"): plays seeded base 2-player games between two expert bots as
the service plays them (the learned preset, 2,000 ms a whole turn, tolerance 0) and counts each searched
decision's iterations and this process's CPU time over it. Iterations per CPU second are what a quiet core
runs; times 2 s they are the iterations per whole turn of an expert at a fixed budget that the turn clock
shares out as it shares the 2,000 ms (search/_clock.py: the same shares for either kind of budget).

    python search/tournament/examples/teg_expert_rate.py GAMES FIRST_SEED
"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from orrery.core_ext import load_game
from orrery.search import LevelBot, level_config, level_in


class _CountingBackend:
    """Wraps a bot's backend: books each search's iterations, CPU and wall seconds."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.keeps_trees = getattr(inner, "keeps_trees", False)
        self.searches: list[tuple[int, float, float]] = []  # (iterations, CPU s, wall s)

    def search(self, *args, **kwargs):
        tick, cpu_tick = time.perf_counter(), time.process_time()
        result = self.inner.search(*args, **kwargs)
        self.searches.append((result.iterations, time.process_time() - cpu_tick, time.perf_counter() - tick))
        return result


def main(games: int, first_seed: int) -> dict:
    game = load_game("tiny_epic_galaxies", players=2, variant="base")
    config = level_config("expert", "tiny_epic_galaxies", "base", 2)
    level = level_in("expert", "tiny_epic_galaxies", "base", 2)
    counters: list[_CountingBackend] = []
    started = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        bots = [LevelBot(level, config) for _ in range(2)]
        for bot in bots:
            bot._backend = _CountingBackend(bot._backend)  # noqa: SLF001 (a measurement's probe)
            counters.append(bot._backend)  # noqa: SLF001
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player
            state.apply(bots[seat].select_action(state.observation(seat), seed=rng.getrandbits(63)))
    searches = [s for counter in counters for s in counter.searches]
    iterations = sum(s[0] for s in searches)
    cpu = sum(s[1] for s in searches)
    wall = sum(s[2] for s in searches)
    rate = iterations / cpu
    return {
        "config": config.label,
        "turn_budget": level.turn_budget_for("tiny_epic_galaxies").label,
        "games": games,
        "first_seed": first_seed,
        "searches": len(searches),
        "iterations": iterations,
        "search_cpu_s": round(cpu, 2),
        "search_wall_s": round(wall, 2),
        "iterations_per_cpu_s": round(rate),
        "iterations_per_wall_s": round(iterations / wall),
        "quiet_core_iterations_per_2s_turn": round(rate * 2.0),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "wall_s": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2])), indent=1))
